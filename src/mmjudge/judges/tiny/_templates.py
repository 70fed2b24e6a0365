"""Chat templates of the tiny non-Qwen-VL checkpoints: shortened but faithful copies of each family's own.

Each renders ``{"type": "image" | "video" | "text"}`` content parts with the family's own placeholder tokens
and ``add_generation_prompt`` as the released template does.
"""

from __future__ import annotations

GEMMA3_CHAT_TEMPLATE = (
    "<bos>{% if messages[0]['role'] == 'system' %}"
    "{% set first = messages[0]['content'] if messages[0]['content'] is string "
    "else messages[0]['content'][0]['text'] %}"
    "{% set prefix = first + '\n\n' %}{% set loop_messages = messages[1:] %}"
    "{% else %}{% set prefix = '' %}{% set loop_messages = messages %}{% endif %}"
    "{% for message in loop_messages %}"
    "{% set role = 'model' if message['role'] == 'assistant' else message['role'] %}"
    "{{ '<start_of_turn>' + role + '\n' + (prefix if loop.first else '') }}"
    "{% if message['content'] is string %}{{ message['content'] | trim }}"
    "{% else %}{% for item in message['content'] %}"
    "{% if item['type'] == 'image' %}<start_of_image>"
    "{% elif item['type'] == 'text' %}{{ item['text'] | trim }}{% endif %}"
    "{% endfor %}{% endif %}<end_of_turn>\n{% endfor %}"
    "{% if add_generation_prompt %}<start_of_turn>model\n{% endif %}"
)
"""Gemma-3 (``<start_of_image>`` per image; a system turn is prefixed to the first user turn)."""
MISTRAL3_CHAT_TEMPLATE = (
    "<s>{% if messages[0]['role'] == 'system' %}"
    "{% set system = messages[0]['content'] if messages[0]['content'] is string "
    "else messages[0]['content'][0]['text'] %}{% set loop_messages = messages[1:] %}"
    "{% else %}{% set system = 'You are Mistral Small 3.1, a Large Language Model (LLM) created by Mistral AI.' %}"
    "{% set loop_messages = messages %}{% endif %}[SYSTEM_PROMPT]{{ system }}[/SYSTEM_PROMPT]"
    "{% for message in loop_messages %}{% if message['role'] == 'user' %}[INST]"
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for block in message['content'] %}"
    "{% if block['type'] == 'text' %}{{ block['text'] }}"
    "{% elif block['type'] in ['image', 'image_url'] %}[IMG]{% endif %}"
    "{% endfor %}{% endif %}[/INST]"
    "{% elif message['role'] == 'assistant' %}{{ message['content'] if message['content'] is string "
    "else message['content'][0]['text'] }}</s>{% endif %}{% endfor %}"
)
"""Mistral-Small-3.1 (``[IMG]`` per image). As the official template, it ignores ``add_generation_prompt``:
generation starts right after ``[/INST]``."""
_IDEFICS_TURNS = (
    "{% for message in messages %}{{ message['role'] | capitalize }}"
    "{% if message['content'] is string %}{{ ': ' + message['content'] }}"
    "{% else %}{% if message['content'][0]['type'] == 'image' %}{{ ':' }}{% else %}{{ ': ' }}{% endif %}"
    "{% for line in message['content'] %}{% if line['type'] == 'text' %}{{ line['text'] }}"
    "{% elif line['type'] == 'image' %}<image>{% endif %}{% endfor %}{% endif %}<end_of_utterance>\n"
    "{% endfor %}{% if add_generation_prompt %}Assistant:{% endif %}"
)
IDEFICS2_CHAT_TEMPLATE = _IDEFICS_TURNS
"""Idefics2 (``User:<image>...<end_of_utterance>``, generation prompt ``Assistant:``)."""
IDEFICS3_CHAT_TEMPLATE = "<|begin_of_text|>" + _IDEFICS_TURNS
"""Idefics3-8B-Llama3 (Idefics2's turns after ``<|begin_of_text|>``)."""
INTERNVL_CHAT_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for content in message['content'] %}"
    "{% if content['type'] == 'image' %}<IMG_CONTEXT>\n"
    "{% elif content['type'] == 'video' %}<video>\n"
    "{% elif content['type'] == 'text' %}{{ content['text'] }}{% endif %}"
    "{% endfor %}{% endif %}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
"""InternVL3 -hf (``<IMG_CONTEXT>\\n`` per image, ``<video>\\n`` per video)."""
LLAVA_ONEVISION_CHAT_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }} "
    "{% for content in message['content'] | selectattr('type', 'equalto', 'image') %}<image>{% endfor %}"
    "{% for content in message['content'] | selectattr('type', 'equalto', 'video') %}<video>{% endfor %}"
    "{% for content in message['content'] | selectattr('type', 'equalto', 'text') %}"
    "{{ '\n' + content['text'] }}{% endfor %}<|im_end|>{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
"""LLaVA-OneVision (images, then videos, then texts of each turn)."""
LLAVA_VICUNA_CHAT_TEMPLATE = (
    "{% for message in messages %}{% if message['role'] != 'system' %}{{ message['role'].upper() + ': ' }}"
    "{% endif %}{% for content in message['content'] | selectattr('type', 'equalto', 'image') %}<image>\n"
    "{% endfor %}{% for content in message['content'] | selectattr('type', 'equalto', 'video') %}<video>\n"
    "{% endfor %}{% for content in message['content'] | selectattr('type', 'equalto', 'text') %}"
    "{{ content['text'] + ' ' }}{% endfor %}{% endfor %}"
    "{% if add_generation_prompt %}ASSISTANT:{% endif %}"
)
"""LLaVA-NeXT-Video and Video-LLaVA (Vicuna turns: ``USER: <video>\\n... ASSISTANT:``)."""
QWEN3_5_CHAT_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for part in message['content'] %}"
    "{% if part['type'] == 'image' %}<|vision_start|><|image_pad|><|vision_end|>"
    "{% elif part['type'] == 'video' %}<|vision_start|><|video_pad|><|vision_end|>"
    "{% elif part['type'] == 'text' %}{{ part['text'] }}{% endif %}"
    "{% endfor %}{% endif %}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n"
    "{% if enable_thinking is defined and enable_thinking is false %}<think>\n\n</think>\n\n"
    "{% else %}<think>\n{% endif %}{% endif %}"
)
"""Qwen3.5 (Qwen3-VL's vision parts, no default system turn, thinking on unless ``enable_thinking=False``)."""

"""VideoAlign's side of ``parity_videoalign.py``: runs inside a Python with VideoAlign's pinned requirements.

Not part of mmjudge and never imported by it: ``parity_videoalign.py`` starts it with ``--python`` and
``PYTHONPATH`` set to a VideoAlign checkout. Everything model-related here is VideoAlign's own code
(``train_reward.create_model_and_processor``, ``trainer.Qwen2VLRewardModelBT``, ``utils`` configs and
``get_peft_state_non_lora_maybe_zero_3``, ``inference.VideoVLMRewardInference``, ``prompt_template``),
called as its training and inference scripts call it. Two things are set for a CPU without
flash-attention: ``disable_flash_attn2=True`` (sdpa) and float32.

Steps (``--work`` folder):

1. a tiny random Qwen2-VL base (text hidden 32, one layer; vision depth 1, patch 14) with a byte-level BPE
   tokenizer trained here by ``tokenizers``, saved by this transformers (4.45: legacy parameter names);
2. per layout (``full``, ``lora``): VideoAlign's model built from that base, random reward head, LoRA B
   and special-token embeddings, saved the way VideoAlign's trainer saves a checkpoint
   (``model_config.json`` by ``save_configs_to_json`` plus ``inference_config``; ``checkpoint-1/`` with
   ``model.pth``, or PEFT's adapter plus ``non_lora_state_dict.pth``);
3. ``VideoVLMRewardInference(...).reward(videos, prompts, fps=..., num_frames=..., use_norm=True)`` per mode.

Writes ``<work>/videoalign.json``: the rewards per layout and mode, the ``detailed_special`` template, and
whether decord's frames equal PyAV's on the clips (VideoAlign reads clips with decord).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

_TOKENS = Path(__file__).resolve().parents[1] / "src" / "mmjudge" / "judges" / "tiny" / "_tokens.py"


def _tiny_tokens() -> Any:
    """mmjudge's tiny-checkpoint tokens and Qwen chat template, loaded by path: the module imports only the
    standard library, and mmjudge is not installed in VideoAlign's Python."""
    spec = importlib.util.spec_from_file_location("mmjudge_tiny_tokens", _TOKENS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_TINY = _tiny_tokens()
CHAT_TEMPLATE = _TINY.QWEN_CHAT_TEMPLATE
SPECIAL = _TINY.QWEN_TOKENS

STATS = {"VQ_mean": 0.1, "VQ_std": 2.0, "MQ_mean": -0.2, "MQ_std": 0.5, "TA_mean": 0.3, "TA_std": 1.5}


def build_base(out: Path) -> Path:
    """A tiny random Qwen2-VL saved by this transformers (VideoAlign's base model stand-in)."""
    import torch
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import (
        Qwen2TokenizerFast,
        Qwen2VLConfig,
        Qwen2VLForConditionalGeneration,
        Qwen2VLImageProcessor,
        Qwen2VLProcessor,
    )

    backend = Tokenizer(models.BPE())
    split = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
    backend.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(split), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    backend.decoder = decoders.ByteLevel()
    corpus = [
        "Evaluate the video quality motion text alignment rating",
        "a red cat walks on the beach at sunset",
    ] * 20
    trainer = trainers.BpeTrainer(
        vocab_size=512, special_tokens=list(SPECIAL), initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    backend.train_from_iterator(corpus, trainer)
    tokenizer = Qwen2TokenizerFast(
        tokenizer_object=backend, eos_token="<|im_end|>", pad_token="<|endoftext|>", unk_token=None
    )
    ids = {t: tokenizer.convert_tokens_to_ids(t) for t in SPECIAL}
    config = Qwen2VLConfig(
        vocab_size=512, hidden_size=32, intermediate_size=64, num_hidden_layers=1, num_attention_heads=2,
        num_key_value_heads=2, max_position_embeddings=8192, rope_scaling={"type": "mrope", "mrope_section": [2, 3, 3]},
        vision_config={"depth": 1, "embed_dim": 32, "hidden_size": 32, "num_heads": 2, "mlp_ratio": 2, "patch_size": 14},
        image_token_id=ids["<|image_pad|>"], video_token_id=ids["<|video_pad|>"],
        vision_start_token_id=ids["<|vision_start|>"], vision_end_token_id=ids["<|vision_end|>"],
        bos_token_id=ids["<|endoftext|>"], eos_token_id=ids["<|im_end|>"], pad_token_id=ids["<|endoftext|>"],
    )  # fmt: skip
    torch.manual_seed(0)
    model = Qwen2VLForConditionalGeneration(config)
    image_processor = Qwen2VLImageProcessor(
        min_pixels=3136, max_pixels=12_845_056, patch_size=14, merge_size=2
    )
    processor = Qwen2VLProcessor(
        image_processor=image_processor, tokenizer=tokenizer, chat_template=CHAT_TEMPLATE
    )
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    processor.save_pretrained(out)
    return out


def write_checkpoint(base: Path, out: Path, lora: bool) -> None:
    """VideoAlign's reward model from ``base``, perturbed, saved as VideoAlign's trainer saves it."""
    import torch
    from data import DataConfig
    from train_reward import create_model_and_processor, save_configs_to_json
    from utils import ModelConfig, PEFTLoraConfig, TrainingConfig, get_peft_state_non_lora_maybe_zero_3

    data_config = DataConfig(max_frame_pixels=200_704, fps=2.0, eval_dim=["VQ", "MQ", "TA"],
                             prompt_template_type="detailed_special")  # fmt: skip
    model_config = ModelConfig(model_name_or_path=str(base), output_dim=3, use_special_tokens=True,
                               reward_token="special", torch_dtype="float32")  # fmt: skip
    lora_config = PEFTLoraConfig(lora_enable=lora, lora_r=4, lora_alpha=8,
                                 lora_namespan_exclude=["lm_head", "rm_head", "embed_tokens", "visual"] if lora else None)  # fmt: skip
    training_args = TrainingConfig(
        output_dir=str(out), disable_flash_attn2=True, bf16=False, report_to="none"
    )
    model, _, _ = create_model_and_processor(model_config, lora_config, training_args)
    torch.manual_seed(1)
    for name, param in model.named_parameters():
        param.requires_grad_(False)
        if "rm_head" in name:
            torch.nn.init.normal_(param)
            param.requires_grad_(True)
        elif "lora_B" in name:
            torch.nn.init.normal_(param, std=0.1)
            param.requires_grad_(True)
        elif "lora_A" in name:
            param.requires_grad_(True)
        elif "embed_tokens" in name:
            with torch.no_grad():
                param[-3:] = torch.randn_like(param[-3:])  # the three marker rows VideoAlign trains
            param.requires_grad_(True)
    save_configs_to_json(data_config, training_args, model_config, lora_config)
    config_path = out / "model_config.json"
    saved = json.loads(config_path.read_text())
    saved["inference_config"] = STATS
    config_path.write_text(json.dumps(saved, indent=4, default=str))
    step = out / "checkpoint-1"
    step.mkdir(parents=True, exist_ok=True)
    if lora:
        model.save_pretrained(step)  # PEFT: adapter_model.safetensors + adapter_config.json
        non_lora = get_peft_state_non_lora_maybe_zero_3(model.named_parameters(), require_grad_only=True)
        torch.save(non_lora, step / "non_lora_state_dict.pth")
    else:
        torch.save(model.state_dict(), step / "model.pth")


def rewards(checkpoint: Path, videos: list[str], prompts: list[str], mode: dict) -> list[dict]:
    """VideoAlign's inference, as ``inference.py`` runs it (flash-attention off, float32, CPU)."""
    import inference
    import torch
    import train_reward

    def without_flash(model_config, peft_lora_config, training_args, cache_dir=None):
        training_args.disable_flash_attn2 = True
        return train_reward.create_model_and_processor(
            model_config, peft_lora_config, training_args, cache_dir
        )

    inference.create_model_and_processor = without_flash
    scorer = inference.VideoVLMRewardInference(str(checkpoint), device="cpu", dtype=torch.float32)
    with torch.no_grad():
        return scorer.reward(
            videos, prompts, fps=mode.get("fps"), num_frames=mode.get("num_frames"), use_norm=True
        )


def decord_matches_pyav(videos: list[str]) -> bool:
    import av
    import decord
    import numpy as np

    for path in videos:
        with av.open(path) as container:
            frames = np.stack([f.to_ndarray(format="rgb24") for f in container.decode(video=0)])
        reader = decord.VideoReader(path)
        if len(reader) != len(frames) or not np.array_equal(
            reader.get_batch(list(range(len(reader)))).asnumpy(), frames
        ):
            return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--videoalign", required=True, type=Path, help="VideoAlign checkout (its code is imported)"
    )
    parser.add_argument("--work", required=True, type=Path, help="folder with clips.json; outputs go here")
    args = parser.parse_args()
    sys.path.insert(0, str(args.videoalign.resolve()))
    import prompt_template

    spec = json.loads((args.work / "clips.json").read_text())
    base = build_base(args.work / "base")
    import importlib.metadata as metadata

    versions = ", ".join(
        f"{name} {metadata.version(name)}" for name in ("torch", "transformers", "peft", "trl", "decord")
    )
    out: dict = {
        "versions": versions,
        "template": prompt_template.DETAILED_PROMPT_WITH_SPECIAL_TOKEN,
        "decord_equals_pyav": decord_matches_pyav(spec["videos"]),
        "rewards": {},
    }
    for layout in ("full", "lora"):
        folder = args.work / f"ckpt-{layout}"
        write_checkpoint(base, folder, lora=layout == "lora")
        out["rewards"][layout] = {
            name: rewards(folder, spec["videos"], spec["prompts"], mode)
            for name, mode in spec["modes"].items()
        }
    (args.work / "videoalign.json").write_text(json.dumps(out, indent=1))
    print(json.dumps({k: v for k, v in out.items() if k != "template"})[:2000])


if __name__ == "__main__":
    main()

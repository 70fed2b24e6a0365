"""The edited prompt of ``attribute_edit``: from the prompt file, else from a configured text model.

A :class:`TextModelEditor` loads a ``transformers`` causal language model, asks it (greedy decoding,
through the tokenizer's chat template when it has one) to rewrite the prompt with one attribute changed
or removed, and keeps the first non-empty line of the answer. An answer that is empty or repeats the
prompt is refused: put an ``edited_prompt`` for that line in the prompt file instead.
"""

from __future__ import annotations

import logging
from dataclasses import asdict
from typing import Any

from mmjudge._deps import require
from mmjudge.benchmarks.isovrbench.generate._config import EditorSpec
from mmjudge.errors import ConfigError

__all__ = ["TextModelEditor", "clean_edit"]

logger = logging.getLogger(__name__)


def clean_edit(text: str, prompt: str) -> str | None:
    """The first non-empty line of a model's answer, without quotes or a label; ``None`` when unusable.

    >>> clean_edit('\\n"A blue car drives at night."\\nExplanation: ...', "A red car drives at night.")
    'A blue car drives at night.'
    >>> clean_edit("A red car drives at night.", "A red car drives at night.") is None
    True
    """
    for line in text.splitlines():
        line = line.strip().removeprefix("Rewritten prompt:").strip().strip("\"'`").strip()
        if line:
            return None if line.casefold() == prompt.strip().casefold() else line
    return None


class TextModelEditor:
    """Edits prompts with a causal language model (loaded on first use, released by :meth:`close`)."""

    def __init__(self, spec: EditorSpec, device: str = "cpu") -> None:
        self.spec, self.device = spec, device
        self._model: Any = None
        self._tokenizer: Any = None

    def describe(self) -> dict[str, Any]:
        """What produced the edits (recorded with each ``attribute_edit`` clip)."""
        return {"source": "text_model", **asdict(self.spec)}

    def __call__(self, prompt: str) -> str:
        """The edited prompt; :class:`~mmjudge.errors.ConfigError` when the answer is unusable."""
        import torch

        model, tokenizer = self._load()
        text = self.spec.instruction.format(prompt=prompt)
        if getattr(tokenizer, "chat_template", None):
            ids = tokenizer.apply_chat_template(
                [{"role": "user", "content": text}],
                add_generation_prompt=True,
                return_tensors="pt",
                return_dict=True,
            )["input_ids"]
        else:
            ids = tokenizer(text, return_tensors="pt")["input_ids"]
        ids = ids.to(model.device)
        with torch.inference_mode():
            out = model.generate(
                input_ids=ids,
                attention_mask=torch.ones_like(ids),
                max_new_tokens=self.spec.max_new_tokens,
                do_sample=False,
                pad_token_id=tokenizer.pad_token_id
                if tokenizer.pad_token_id is not None
                else tokenizer.eos_token_id,
            )
        answer = tokenizer.decode(out[0, ids.shape[1] :], skip_special_tokens=True)
        edited = clean_edit(answer, prompt)
        if edited is None:
            raise ConfigError(
                f"the text model {self.spec.model!r} gave no usable edit of {prompt!r} (answer: {answer[:120]!r}); "
                "give this prompt an `edited_prompt` in the prompt file"
            )
        return edited

    def _load(self) -> tuple[Any, Any]:
        if self._model is None:
            transformers = require("transformers", "generate", purpose="editing prompts with a text model")
            import torch

            options = {"revision": self.spec.revision, "local_files_only": self.spec.local_files_only}
            self._tokenizer = transformers.AutoTokenizer.from_pretrained(self.spec.model, **options)
            self._model = transformers.AutoModelForCausalLM.from_pretrained(
                self.spec.model, dtype=getattr(torch, self.spec.dtype), **options
            ).to(self.device)
            self._model.eval()
            logger.info("loaded prompt editor %s", self.spec.model)
        return self._model, self._tokenizer

    def close(self) -> None:
        """Free the model."""
        self._model = self._tokenizer = None

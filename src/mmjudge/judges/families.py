"""Model families: how each vision-language model family sees images and clips, as its reference does.

A judge's protocol (what it asks, how it reads the answer) is written once; a **family** says how one
model family takes media. Every family builds its inputs through its own processor and chat template
(``processor.apply_chat_template`` with ``{"type": "image"}`` / ``{"type": "video"}`` content parts, then
``processor(text=..., images=..., videos=...)``); what differs is who sizes the pixels and which frames
of a clip the model sees:

- **Qwen families** (:attr:`ModelFamily.profile` set): mmjudge sizes images and frames once with the
  family's reference, qwen-vl-utils (:mod:`mmjudge.judges.profiles`), and calls the processor with
  ``do_resize=False``, as the Qwen3-VL model card does after qwen-vl-utils.
- **Every other family**: the processor sizes, crops, tiles and normalises the decoded pixels with its
  released defaults; nothing is resized before it.
- **Frames** of a clip: for a family whose processor takes videos, the indices its video processor's
  ``sample_frames`` picks for ``num_frames`` (transformers' ``default_sample_indices_fn``,
  ``np.arange(0, total, total / n, dtype=int)``, as the LLaVA model cards sample 8 frames; InternVL's
  centred variant; SmolVLM's own rule at 1 fps); for an image-only family, the frames go in as images at
  ``torch.linspace(0, total - 1, n).round()`` (IsoVRBench's "uniformly sampled frames").

An **audio-language family** (:attr:`ModelFamily.audio_only`, Qwen2-Audio) sees no pixels: a clip goes in as its
sound track, decoded at the feature extractor's own ``sampling_rate`` and given to the processor with the chat
template's audio part; only the ``audio_language`` judge takes it.

A checkpoint whose ``model_type`` no family lists is refused when the judge resolves its model (before
the run), with the list of supported families (:func:`family_of`). A package adds a family with one
:class:`ModelFamily` under the ``mmjudge.families`` entry-point group (``docs/adding-a-family.md``).

>>> family_of("gemma3").name, family_of("gemma3").video, family_of("qwen2_5_vl").profile.name
('gemma3', False, 'qwen_vl_utils')
>>> family_of("llava_next_video").frame_policy
'arange'
>>> family_of("qwen2_audio").audio_only, family_of("qwen2_audio").resizes
(True, 'no pixels (audio only)')
"""

from __future__ import annotations

from dataclasses import dataclass

from mmjudge.errors import ConfigError
from mmjudge.judges.profiles import QWEN_OMNI_UTILS, QWEN_VL_UTILS, VisionProfile
from mmjudge.registry import FAMILY_ENTRY_POINT_GROUP

__all__ = ["FAMILIES", "ModelFamily", "families_markdown", "family_of", "supported_model_types"]


@dataclass(frozen=True)
class ModelFamily:
    """How one model family takes images and clips (see the module docstring)."""

    name: str
    """Short name (shown in results.json's judge block and the coverage table)."""
    title: str
    """Human name of the family."""
    model_types: tuple[str, ...]
    """``config.model_type`` values of the family's checkpoints (the whole model and, where loaded alone,
    its language-model part)."""
    reference: str
    """The code or card the family's frame rule and sizes follow."""
    profile: VisionProfile | None = None
    """Qwen families: mmjudge's resize to this profile before a ``do_resize=False`` processor call;
    ``None``: the processor sizes the pixels itself."""
    video: bool = False
    """The processor takes ``videos=`` (a clip goes in as one video); false: frames go in as images."""
    frame_policy: str = "linspace"
    """Which frames of a clip (:data:`mmjudge.media.video.POLICIES`): ``linspace`` (images, and the Qwen
    profiles' own rule for video), ``arange`` (transformers' default ``sample_frames``), ``arange_centred``
    (InternVL's, ``initial_shift=True``) or ``smolvlm`` (SmolVLM's ``sample_frames`` at 1 fps)."""
    examples: tuple[str, ...] = ()
    """Released checkpoints of the family (the papers' rows and common choices)."""
    audio_only: bool = False
    """The model hears and does not see: a clip goes in as its audio track at the feature extractor's
    ``sampling_rate`` (no frames, no images); judged by ``audio_language`` only."""

    @property
    def resizes(self) -> str:
        """Who sizes the pixels, in words (cards and the coverage table)."""
        if self.audio_only:
            return "no pixels (audio only)"
        if self.profile is not None:
            return f"mmjudge, by {self.profile.name} (processor called with do_resize=False)"
        return "the model's own processor (released defaults)"


_QWEN_VL = "qwen-vl-utils 0.0.14 process_vision_info + the processor (Qwen model cards)"
_DEFAULT_SAMPLE = "transformers' video processor sample_frames (default_sample_indices_fn); model card: {}"

FAMILIES: tuple[ModelFamily, ...] = (
    ModelFamily("qwen2_vl", "Qwen2-VL", ("qwen2_vl",), _QWEN_VL, QWEN_VL_UTILS, True,
                examples=("Qwen/Qwen2-VL-7B-Instruct",)),
    ModelFamily("qwen2_5_vl", "Qwen2.5-VL", ("qwen2_5_vl",), _QWEN_VL, QWEN_VL_UTILS, True,
                examples=("Qwen/Qwen2.5-VL-7B-Instruct", "Qwen/Qwen2.5-VL-72B-Instruct")),
    ModelFamily("qwen3_vl", "Qwen3-VL", ("qwen3_vl", "qwen3_vl_moe"), _QWEN_VL, QWEN_VL_UTILS, True,
                examples=("Qwen/Qwen3-VL-8B-Instruct",)),
    ModelFamily("qwen3_5", "Qwen3.5", ("qwen3_5", "qwen3_5_moe"), _QWEN_VL, QWEN_VL_UTILS, True,
                examples=("Qwen/Qwen3.5-9B",)),
    ModelFamily("qwen2_5_omni", "Qwen2.5-Omni", ("qwen2_5_omni", "qwen2_5_omni_thinker"),
                "qwen-omni-utils 0.0.9 process_mm_info + the processor (Qwen2.5-Omni model card)",
                QWEN_OMNI_UTILS, True, examples=("Qwen/Qwen2.5-Omni-7B",)),
    ModelFamily("gemma3", "Gemma 3", ("gemma3",),
                "Gemma3Processor (896x896, pan-and-scan off, as google/gemma-3-27b-it's card); frames as images",
                examples=("google/gemma-3-27b-it",)),
    ModelFamily("mistral3", "Mistral 3 (Pixtral vision)", ("mistral3",),
                "PixtralProcessor (longest edge 1540, as mistralai/Mistral-Small-3.1-24B-Instruct-2503's "
                "card); frames as images", examples=("mistralai/Mistral-Small-3.1-24B-Instruct-2503",)),
    ModelFamily("idefics2", "Idefics2", ("idefics2",),
                "Idefics2Processor (as HuggingFaceM4/idefics2-8b's card); frames as images",
                examples=("HuggingFaceM4/idefics2-8b",)),
    ModelFamily("idefics3", "Idefics3", ("idefics3",),
                "Idefics3Processor (image splitting, as HuggingFaceM4/Idefics3-8B-Llama3's card); frames as "
                "images", examples=("HuggingFaceM4/Idefics3-8B-Llama3",)),
    ModelFamily("smolvlm", "SmolVLM / SmolVLM2", ("smolvlm",),
                "SmolVLMProcessor and SmolVLMVideoProcessor.sample_frames (1 fps, at most N frames, 1 s "
                "skipped at both ends of long clips; HuggingFaceTB/SmolVLM2-2.2B-Instruct's card)",
                video=True, frame_policy="smolvlm", examples=("HuggingFaceTB/SmolVLM2-2.2B-Instruct",)),
    ModelFamily("internvl", "InternVL (-hf)", ("internvl",),
                "InternVLProcessor and InternVLVideoProcessor.sample_frames (segment centres, "
                "initial_shift=True; OpenGVLab/InternVL3-8B-hf's card)",
                video=True, frame_policy="arange_centred", examples=("OpenGVLab/InternVL3-8B-hf",)),
    ModelFamily("llava_onevision", "LLaVA-OneVision", ("llava_onevision",),
                _DEFAULT_SAMPLE.format("llava-hf/llava-onevision-qwen2-7b-ov-hf (8 frames)"),
                video=True, frame_policy="arange", examples=("llava-hf/llava-onevision-qwen2-7b-ov-hf",)),
    ModelFamily("llava_next_video", "LLaVA-NeXT-Video", ("llava_next_video",),
                _DEFAULT_SAMPLE.format("llava-hf/LLaVA-NeXT-Video-7B-hf (8 frames)"),
                video=True, frame_policy="arange", examples=("llava-hf/LLaVA-NeXT-Video-7B-hf",)),
    ModelFamily("video_llava", "Video-LLaVA", ("video_llava",),
                _DEFAULT_SAMPLE.format("LanguageBind/Video-LLaVA-7B-hf (8 frames)"),
                video=True, frame_policy="arange", examples=("LanguageBind/Video-LLaVA-7B-hf",)),
    ModelFamily("qwen2_audio", "Qwen2-Audio", ("qwen2_audio",),
                "Qwen2AudioProcessor: WhisperFeatureExtractor at its own sampling_rate (16 kHz) on librosa.load(sr=...) "
                "audio, the checkpoint's chat template (Qwen/Qwen2-Audio-7B-Instruct's card)",
                examples=("Qwen/Qwen2-Audio-7B-Instruct",), audio_only=True),
)  # fmt: skip
"""Every supported family, in the order the coverage table lists them."""

_BY_TYPE = {model_type: family for family in FAMILIES for model_type in family.model_types}


def _by_type() -> dict[str, ModelFamily]:
    """``model_type`` -> family: the built-in table, then the families other packages register under the
    ``mmjudge.families`` entry-point group (one :class:`ModelFamily` each; a built-in ``model_type`` cannot be
    taken over)."""
    from importlib import metadata

    found = dict(_BY_TYPE)
    for entry in metadata.entry_points(group=FAMILY_ENTRY_POINT_GROUP):
        family = entry.load()
        if not isinstance(family, ModelFamily):
            raise ConfigError(
                f"entry point {entry.name!r} of {FAMILY_ENTRY_POINT_GROUP!r} ({entry.value}) must name a "
                f"mmjudge.judges.families.ModelFamily, got {type(family).__name__}"
            )
        for model_type in family.model_types:
            if model_type in _BY_TYPE:
                raise ConfigError(
                    f"family {family.name!r} of entry point {entry.value} claims model_type {model_type!r}, which "
                    f"the built-in family {_BY_TYPE[model_type].name!r} takes; remove it from its model_types"
                )
            found[model_type] = family
    return found


def supported_model_types() -> list[str]:
    """Every ``model_type`` a family lists (built-in or registered by a package), sorted.

    >>> "gemma3" in supported_model_types()
    True
    """
    return sorted(_by_type())


def family_of(model_type: str | None, *, source: str = "the model") -> ModelFamily:
    """The family of a checkpoint's ``config.model_type``; an unsupported one is refused by name.

    >>> family_of("bert", source="bert-base-uncased")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mmjudge.errors.ConfigError: bert-base-uncased has model_type 'bert', which no mmjudge model family ...
    """
    by_type = _by_type()
    family = by_type.get(str(model_type))
    if family is None:
        names = ", ".join(f"{f.title} ({'/'.join(f.model_types)})" for f in dict.fromkeys(by_type.values()))
        raise ConfigError(
            f"{source} has model_type {model_type!r}, which no mmjudge model family takes; a family says how "
            f"the model's processor sees images and clips and which reference it follows. Supported: {names}. "
            "Pick a checkpoint of one of these families (docs: README, 'Judges the papers evaluate')"
        )
    return family


_FRAMES = {
    "linspace": "images at torch.linspace(0, total - 1, N).round()",
    "arange": "video: k * total // N (default_sample_indices_fn)",
    "arange_centred": "video: float32 arange(total/N/2, total, total/N), truncated",
    "smolvlm": "video: min(round(duration), N) frames at 1 fps, 1 s skipped at both ends of long clips",
}


def families_markdown() -> str:
    """The supported families as a Markdown table (``docs/model-families.md`` holds this text).

    >>> families_markdown().splitlines()[0]
    '| family | model_type | pixels sized by | a clip goes in as | frames | reference | example |'
    """
    lines = [
        "| family | model_type | pixels sized by | a clip goes in as | frames | reference | example |",
        "|---|---|---|---|---|---|---|",
    ]
    for f in FAMILIES:
        frames = (
            "none: the audio track at the feature extractor's sampling_rate" if f.audio_only
            else f"{f.profile.name}: smart_nframes, torch.linspace(...).round()" if f.profile is not None and f.video
            else _FRAMES[f.frame_policy]
        )  # fmt: skip
        clip = "its audio track" if f.audio_only else "one video (or images)" if f.video else "images"
        lines.append(
            f"| {f.title} | {', '.join(f'`{t}`' for t in f.model_types)} | {f.resizes} | {clip} | {frames} | "
            f"{f.reference} | {', '.join(f'`{e}`' for e in f.examples)} |"
        )
    return "\n".join(lines) + "\n"

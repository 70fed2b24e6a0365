"""Which tiny checkpoint each model judge takes, and the judge config that runs it on the sample data.

A recipe names a judge, the tiny checkpoints it takes and the config settings that suit a one-layer random
model (float32, 4 frames, short generations). The benchmark whose sample data it is tried on, and that sample
folder's gated-media root, are asked of the registries: the first registered benchmark the judge answers
(asking the query kind the recipe names, when it names one), and that benchmark's ``sample_media_root``.
:func:`write_tiny_judge` builds the checkpoint, writes the config and validates the pair the way a run does
(the judge's ``check_benchmark`` and ``check_model``).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mmjudge._deps import require
from mmjudge.benchmarks import benchmark_ids, get_benchmark
from mmjudge.errors import ConfigError
from mmjudge.judges._base import make_judge
from mmjudge.judges._config import load_config
from mmjudge.judges._hf import require_transformers
from mmjudge.judges._registry import get_judge
from mmjudge.judges.families import FAMILIES
from mmjudge.judges.tiny._audio import build_qwen2_audio
from mmjudge.judges.tiny._clip import build_clip
from mmjudge.judges.tiny._families import (
    build_gemma3,
    build_idefics2,
    build_idefics3,
    build_internvl,
    build_llava_next_video,
    build_llava_onevision,
    build_mistral3,
    build_smolvlm,
    build_video_llava,
)
from mmjudge.judges.tiny._qwen import (
    build_qwen2_5_omni_thinker,
    build_qwen2_5_vl,
    build_qwen2_vl,
    build_qwen3_5,
    build_qwen3_vl,
)
from mmjudge.judges.tiny._videoalign import build_videoalign
from mmjudge.judges.tiny._videoscore import build_videoscore
from mmjudge.queries import ChoiceQuery

CHECKPOINTS: dict[str, Callable[..., Path]] = {
    "qwen2_vl": build_qwen2_vl,
    "qwen2_5_vl": build_qwen2_5_vl,
    "qwen3_vl": build_qwen3_vl,
    "qwen3_5": build_qwen3_5,
    "qwen2_5_omni": build_qwen2_5_omni_thinker,
    "gemma3": build_gemma3,
    "mistral3": build_mistral3,
    "idefics2": build_idefics2,
    "idefics3": build_idefics3,
    "smolvlm": build_smolvlm,
    "internvl": build_internvl,
    "llava_onevision": build_llava_onevision,
    "llava_next_video": build_llava_next_video,
    "video_llava": build_video_llava,
    "qwen2_audio": build_qwen2_audio,
    "clip": build_clip,
}
"""Tiny checkpoint name -> builder ``(out_dir, *, seed) -> out_dir``: every model family of
:data:`mmjudge.judges.families.FAMILIES` (``qwen2_5_omni``: its thinker alone) and ``clip``."""

RANDOM_WEIGHTS_NOTICE = (
    "RANDOM WEIGHTS: this tiny checkpoint was never trained. Its scores mean nothing; a run checks the "
    "plumbing (loading offline, the family's processor, batching, scoring, reports), not a model."
)
"""Said by the command and written at the top of every tiny judge config."""

_IMAGE_TEXT = tuple(f.name for f in FAMILIES if f.name != "qwen2_5_omni" and not f.audio_only)
"""Checkpoints that load as ``AutoModelForImageTextToText`` (a Qwen2.5-Omni thinker and Qwen2-Audio do not)."""
_SHORT = {"dtype": "float32", "local_files_only": True, "batch_size": 2, "frames": 4}
_AUDIO = {k: v for k, v in _SHORT.items() if k != "frames"}
"""An audio-language judge decodes no frames."""


@dataclass(frozen=True)
class TinyRecipe:
    """How one judge is tried on a tiny checkpoint."""

    judge: str
    """Registered judge name."""
    checkpoints: tuple[str, ...]
    """Keys of :data:`CHECKPOINTS` the judge takes (the first is the default)."""
    settings: Mapping[str, Any] = field(default_factory=dict)
    """Judge config keys besides ``judge``, ``name`` and ``model``."""
    asks: type | None = None
    """The query kind the judge is tried on, where it answers several and the recipe's settings suit one
    (``None``: whatever the first benchmark it answers asks)."""

    @property
    def benchmark(self) -> str:
        """Benchmark of the sample data the printed ``mmjudge eval`` line runs on: the first registered one
        the judge answers (:meth:`mmjudge.judges.Judge.query_kind`) that asks :attr:`asks`.

        >>> recipe = RECIPES["audio_visual"]
        >>> recipe.asks in get_benchmark(recipe.benchmark).records.query_kinds
        True
        """
        judge = get_judge(self.judge)
        for benchmark in benchmark_ids():
            asked = get_benchmark(benchmark).records.query_kinds
            if judge.query_kind(benchmark) is not None and (self.asks is None or self.asks in asked):
                return benchmark
        wanted = f" asking {self.asks.__name__}" if self.asks is not None else ""
        raise ConfigError(
            f"no registered benchmark{wanted} is answered by judge {self.judge!r} (registered: "
            f"{list(benchmark_ids())}); register one it answers, or drop its tiny recipe"
        )

    @property
    def media_root(self) -> str | None:
        """Gated-media root inside the sample-data folder (``--media-root``): the benchmark's
        ``sample_media_root``, or ``None``."""
        return get_benchmark(self.benchmark).data.sample_media_root


RECIPES: dict[str, TinyRecipe] = {
    r.judge: r
    for r in (
        TinyRecipe("vlm_digit", _IMAGE_TEXT, _SHORT),
        TinyRecipe("label_choice", _IMAGE_TEXT, {**_SHORT, "options": {"max_reasoning_tokens": 8}}),
        TinyRecipe(
            "pairwise_describe",
            _IMAGE_TEXT,
            {
                **_SHORT,
                "options": {"max_answer_tokens": 4, "max_description_tokens": 16, "max_reasoning_tokens": 16},
            },
        ),
        TinyRecipe(
            "video_reward",
            ("qwen2_vl",),
            {**_SHORT, "frames": None, "fps": 2.0, "max_pixels": 12_544, "options": {"min_pixels": 3136}},
        ),
        TinyRecipe(
            "audio_visual",
            ("qwen2_5_omni",),
            {**_SHORT, "options": {"max_new_tokens": 8}},
            asks=ChoiceQuery,  # its plain-choice path (S1), not the pairs of texts its S2 reads
        ),
        TinyRecipe("clip_score", ("clip",), _SHORT),
        TinyRecipe(  # VideoScore: an Idefics2 backbone + its regression head (Mantis' key layout)
            "video_score", ("idefics2",), {**_SHORT, "frames": None, "options": {"max_frames": 4}}
        ),
        TinyRecipe(  # UnifiedReward-2.0 pointwise: Qwen3-VL (the paper's 8B) first, then its other families
            "unified_reward",
            ("qwen3_vl", "qwen2_5_vl", "qwen3_5"),
            {**_SHORT, "options": {"max_new_tokens": 8}},
        ),
        TinyRecipe(  # UnifiedReward-2.0 pairwise: the same families as pointwise, two clips per query
            "unified_reward_pair",
            ("qwen3_vl", "qwen2_5_vl", "qwen3_5"),
            {**_SHORT, "options": {"max_new_tokens": 8}},
        ),
        TinyRecipe(  # UnifiedReward-Flex: pairwise, Qwen3.5 (the paper's Flex-9B) first, then Qwen3-VL
            "unified_reward_flex",
            ("qwen3_5", "qwen3_vl"),
            {**_SHORT, "options": {"max_new_tokens": 8}},
        ),
        TinyRecipe(  # VideoScore2: Qwen2.5-VL at 2 fps, small frames, a short greedy reply
            "videoscore2",
            ("qwen2_5_vl",),
            {
                **_SHORT,
                "frames": None,
                "fps": 2.0,
                "max_pixels": 12_544,
                "options": {"min_pixels": 3136, "max_new_tokens": 16},
            },
        ),
        TinyRecipe(
            "audio_language",
            ("qwen2_audio",),
            {**_AUDIO, "options": {"max_answer_tokens": 4, "max_description_tokens": 16}},
        ),
    )
}
"""Judge name -> recipe: the transformers judges that take a family (``vlm_digit``, ``label_choice``,
``pairwise_describe``: every image-text-to-text family), ``video_reward`` (a VideoAlign checkpoint over a
Qwen2-VL with the reward markers), ``audio_visual`` (the Qwen2.5-Omni thinker), ``clip_score`` (CLIP) and
``audio_language`` (Qwen2-Audio; strategy S1 here, the S3/S4 text LLM is not built)."""


@dataclass(frozen=True)
class TinyJudge:
    """What :func:`write_tiny_judge` wrote."""

    judge: str
    """Registered judge name."""
    checkpoint: str
    """Key of :data:`CHECKPOINTS`."""
    model: Path
    """The checkpoint folder (``save_pretrained``; loads with ``local_files_only``), under ``out_dir`` as given."""
    config: Path
    """The judge config YAML, under ``out_dir`` as given (its ``model`` is absolute)."""
    benchmark: str
    """Benchmark the config is tried on."""
    media_root: str | None
    """Gated-media root inside the sample-data folder, or ``None``."""

    def eval_argv(self, sample_dir: str | Path, run_dir: str | Path, *, limit: int = 1) -> list[str]:
        """``mmjudge eval`` arguments (without ``mmjudge``) that try the config on the sample data.

        >>> TinyJudge("clip_score", "clip", Path("t/model"), Path("t/c.yaml"), "bench", None).eval_argv("s", "r")
        ['eval', '--benchmark', 'bench', '--judge', 't/c.yaml', '--data', 's/bench', '--out', 'r', '--limit', '1']
        """
        sample = Path(sample_dir)
        argv = ["eval", "--benchmark", self.benchmark, "--judge", str(self.config)]
        argv += ["--data", str(sample / self.benchmark), "--out", str(run_dir), "--limit", str(limit)]
        return argv + (["--media-root", str(sample / self.media_root)] if self.media_root else [])


def recipe_for(judge: str, checkpoint: str | None = None) -> TinyRecipe:
    """The recipe of ``judge``, refusing a judge without one or a checkpoint it does not take.

    >>> recipe_for("label_choice", "clip")
    Traceback (most recent call last):
    ...
    mmjudge.errors.ConfigError: judge 'label_choice' cannot run a tiny 'clip' checkpoint: it takes one of ['qwen2_vl', 'qwen2_5_vl', 'qwen3_vl', 'qwen3_5', 'gemma3', 'mistral3', 'idefics2', 'idefics3', 'smolvlm', 'internvl', 'llava_onevision', 'llava_next_video', 'video_llava']; a tiny 'clip' checkpoint runs with: clip_score
    """
    recipe = RECIPES.get(judge)
    if recipe is None:
        raise ConfigError(f"no tiny checkpoint for judge {judge!r}; expected one of {sorted(RECIPES)}")
    if checkpoint is not None and checkpoint not in recipe.checkpoints:
        takers = [r.judge for r in RECIPES.values() if checkpoint in r.checkpoints]
        hint = f"a tiny {checkpoint!r} checkpoint runs with: {', '.join(takers)}" if takers else (
            f"known checkpoints: {sorted(CHECKPOINTS)}"
        )  # fmt: skip
        raise ConfigError(
            f"judge {judge!r} cannot run a tiny {checkpoint!r} checkpoint: it takes one of "
            f"{list(recipe.checkpoints)}; {hint}"
        )
    return recipe


def write_tiny_judge(
    judge: str, out_dir: str | Path, checkpoint: str | None = None, *, seed: int = 0, overwrite: bool = False
) -> TinyJudge:
    """Build a tiny random checkpoint for ``judge`` in ``out_dir/model`` and its config in
    ``out_dir/<judge>.yaml``, then check the pair as a run does (``check_benchmark``, ``check_model``).

    ``checkpoint`` defaults to the recipe's first. An existing ``out_dir/model`` is refused unless
    ``overwrite``. The config's ``model`` (and ``video_reward``'s ``options.checkpoint``) are absolute paths.
    """

    recipe = recipe_for(judge, checkpoint)
    require_transformers("mmjudge tiny-model")
    require("tokenizers", "judges", purpose="mmjudge tiny-model")
    name = checkpoint or recipe.checkpoints[0]
    out = Path(out_dir)
    model = out / "model"
    reward_dir = out / "videoalign"  # video_reward: the VideoAlign checkpoint over the base in model/
    _clear(model, *([reward_dir] if judge == "video_reward" else []), overwrite=overwrite)
    settings = {k: v for k, v in recipe.settings.items() if k != "options"}
    options = dict(recipe.settings.get("options", {}))
    if judge == "video_reward":

        _, reward = build_videoalign(model, reward_dir, seed=seed)
        options["checkpoint"] = str(reward.resolve())
    elif judge == "video_score":  # its own key layout over the family's backbone

        build_videoscore(model, seed=seed)
    else:
        CHECKPOINTS[name](model, seed=seed)
    name_key = f"tiny-random-{name}-{judge}"
    config = {"judge": judge, "name": name_key, "model": str(model.resolve()), **settings, "options": options}
    path = out / f"{judge}.yaml"
    _write_yaml(path, config, f"tiny random {name} checkpoint ({model.name}/), seed {seed}")
    _check(path, recipe.benchmark)
    return TinyJudge(judge, name, model, path, recipe.benchmark, recipe.media_root)


def _clear(*folders: Path, overwrite: bool) -> None:
    for folder in folders:
        if folder.exists() and not overwrite:
            raise ConfigError(
                f"{folder} already exists: pass --overwrite to replace it, or pick another --out"
            )
        if folder.exists():
            shutil.rmtree(folder)


def _write_yaml(path: Path, config: Mapping[str, Any], what: str) -> None:
    import yaml

    header = f"# {RANDOM_WEIGHTS_NOTICE}\n# Written by `mmjudge tiny-model`: {what}.\n"
    path.write_text(header + yaml.safe_dump(dict(config), sort_keys=False), encoding="utf-8")


def _check(path: Path, benchmark: str) -> None:
    """Validate the written config as ``mmjudge eval`` does before a run."""

    judge = make_judge(load_config(path))
    judge.check_benchmark(benchmark)
    judge.check_model()

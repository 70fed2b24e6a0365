"""``mmjudge tiny-model``'s recipes name no benchmark: the benchmark a tiny judge is tried on, and its sample
folder's gated-media root, are asked of the registries."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import mmjudge.judges.tiny._recipes as recipes_module
from mmjudge.benchmarks import benchmark_ids, get_benchmark
from mmjudge.errors import ConfigError
from mmjudge.judges import get_judge
from mmjudge.judges.tiny import RECIPES, TinyRecipe
from mmjudge.queries import ClipPairQuery


def _benchmark_literals(source: str, ids: tuple[str, ...]) -> list[str]:
    """Every string constant (docstrings too) naming a benchmark id as a word or path segment."""
    word = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(map(re.escape, ids)) + r")(?![A-Za-z0-9_])")
    return [
        f"{node.lineno}: {node.value!r}"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and word.search(node.value)
    ]


def test_the_recipes_spell_no_benchmark_id() -> None:
    ids = benchmark_ids()
    assert len(ids) >= 4
    hits = _benchmark_literals(Path(recipes_module.__file__).read_text(encoding="utf-8"), ids)
    assert not hits, f"ask the benchmark registry instead of naming benchmarks: {hits}"


def test_the_check_finds_ids_as_words_only() -> None:
    code = 'a = "raw/bench/MER"\nb = "benchmark"\nc = "bench"\n"""Tried on bench."""\n'
    assert [h.split(":")[0] for h in _benchmark_literals(code, ("bench",))] == ["1", "3", "4"]


@pytest.mark.parametrize("name", list(RECIPES))
def test_each_recipe_is_tried_on_the_first_benchmark_it_answers(name: str) -> None:
    recipe, judge = RECIPES[name], get_judge(name)
    answered = [
        b
        for b in benchmark_ids()
        if judge.query_kind(b) is not None
        and (recipe.asks is None or recipe.asks in get_benchmark(b).records.query_kinds)
    ]
    assert answered and recipe.benchmark == answered[0]
    assert recipe.media_root == get_benchmark(recipe.benchmark).data.sample_media_root


# what the recipes spelled before they asked the registries: the printed eval lines stay the same
SPELLED_BEFORE = {
    "vlm_digit": ("isovrbench", None),
    "label_choice": ("mist", None),
    "pairwise_describe": ("emoprefer", "raw/emoprefer/MER2025"),
    "video_reward": ("isovrbench", None),
    "audio_visual": ("emorealm", "raw/emorealm/DFEW"),
    "clip_score": ("isovrbench", None),
    "video_score": ("isovrbench", None),
    "unified_reward": ("isovrbench", None),
    "unified_reward_pair": ("isovrbench", None),
    "unified_reward_flex": ("isovrbench", None),
    "videoscore2": ("isovrbench", None),
    "audio_language": ("emoprefer", "raw/emoprefer/MER2025"),
}


def test_the_registries_give_what_the_recipes_spelled() -> None:
    assert {name: (r.benchmark, r.media_root) for name, r in RECIPES.items()} == SPELLED_BEFORE


def test_a_recipe_no_benchmark_answers_is_refused_with_what_to_do() -> None:
    recipe = TinyRecipe("label_choice", ("qwen2_vl",), asks=ClipPairQuery)
    with pytest.raises(ConfigError, match="no registered benchmark asking ClipPairQuery is answered by judge"):
        _ = recipe.benchmark

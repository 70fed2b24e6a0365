"""The MIST prompt grid: 4 strategies x 5 (condition, arm) cells per item, the image clause exactly where
the explicit arm has an image, the silent arm as the explicit prompt minus that paragraph, output
blocks per strategy, deterministic few-shot demonstrations, and the free-text label parser."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mmjudge.benchmarks.mist import MistCell
from mmjudge.benchmarks.mist.prompts import (
    DEMONSTRATIONS,
    IMAGE_CLAUSE,
    LABEL_DEFINITIONS,
    MIST_LABELS,
    draw_demonstrations,
    mist_prompt,
    parse_final_label,
)
from mmjudge.errors import SchemaError
from mmjudge.runner import RunOptions, load_queries

STRATEGIES = ("zero_shot", "few_shot", "cot", "few_shot_cot")


@pytest.fixture(scope="module")
def cells(sample_data: Path) -> list[MistCell]:
    items, _ = load_queries("mist", sample_data / "mist", RunOptions())
    assert all(isinstance(i, MistCell) for i in items)
    return [i for i in items if isinstance(i, MistCell)]


def test_grid_has_four_strategies_times_five_cells_per_item(cells: list[MistCell]) -> None:
    per_item: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    for c in cells:
        per_item[c.mist_item].append((c.prompt_strategy, c.image_condition, c.arm))
    expected = {
        (s, cond, arm)
        for s in STRATEGIES
        for cond, arm in [
            ("none", "none"),
            *[(c, a) for c in ("aligned", "misleading") for a in ("explicit", "silent")],
        ]
    }
    assert len(expected) == 20
    for grid in per_item.values():
        assert len(grid) == 20 and set(grid) == expected


def test_image_clause_exactly_where_an_image_is_attached_and_the_arm_is_explicit(
    cells: list[MistCell],
) -> None:
    seen = Counter()
    for c in cells:
        prompt = mist_prompt(c)
        has_image = c.image is not None
        assert has_image == (c.image_condition != "none")
        should = has_image and c.arm == "explicit"
        assert prompt.image_clause == should
        assert (IMAGE_CLAUSE in prompt.text) == should
        rest = prompt.text.replace(IMAGE_CLAUSE, "").replace(c.sentence, "")
        assert "image" not in rest.lower()  # without the clause the image is never mentioned
        seen[should] += 1
    assert seen[True] == seen[False] * 2 // 3  # 2 explicit cells of 5 per strategy


def test_silent_prompt_is_the_explicit_prompt_without_the_paragraph(cells: list[MistCell]) -> None:
    explicit = [c for c in cells if c.arm == "explicit"][:40]
    for c in explicit:
        silent = replace(c, arm="silent", item_id=c.item_id.replace("::explicit::", "::silent::"))
        assert mist_prompt(silent).text == mist_prompt(c).text.replace(IMAGE_CLAUSE + "\n\n", "")
        none = replace(c, arm="none", image_condition="none", image=None)
        assert mist_prompt(none).text == mist_prompt(silent).text  # text identical across conditions


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_output_block_and_demonstrations_per_strategy(cells: list[MistCell], strategy: str) -> None:
    cell = next(c for c in cells if c.prompt_strategy == strategy)
    prompt = mist_prompt(cell)
    cot, few = "cot" in strategy, "few_shot" in strategy
    assert prompt.reasoning == cot
    assert ("think step by step" in prompt.text) == cot
    assert ("Answer with a JSON object only" in prompt.text) == (not cot)
    assert ("Examples:" in prompt.text) == few and len(prompt.demonstrations) == (4 if few else 0)
    assert ("Reasoning:" in prompt.text) == (few and cot)
    assert f"Sentence: {cell.sentence}" in prompt.text
    for label in MIST_LABELS:
        assert f"- {label} ({LABEL_DEFINITIONS[label]})" in prompt.text
    # order: base block, [clause], [examples], sentence, output block
    assert prompt.text.index("Sentence: " + cell.sentence) > prompt.text.rfind("Answer: {") >= -1


def test_demonstrations_are_deterministic_per_item_and_shared_by_its_cells(cells: list[MistCell]) -> None:
    per_item = defaultdict(set)
    for c in cells:
        if "few_shot" in c.prompt_strategy:
            per_item[c.mist_item].add(tuple(d.sentence for d in mist_prompt(c, seed=7).demonstrations))
    assert all(len(v) == 1 for v in per_item.values())
    first = cells[0]
    assert draw_demonstrations(first.mist_item, first.compound, seed=3) == draw_demonstrations(
        first.mist_item, first.compound, seed=3
    )
    draws = {draw_demonstrations(f"item{k}", "x", seed=0) for k in range(40)}
    assert len(draws) > 1  # the draw depends on the item
    for demos in draws:
        assert sorted(d.label for d in demos) == sorted(MIST_LABELS)  # one per label


def test_demonstrations_do_not_overlap_the_items(cells: list[MistCell]) -> None:
    compounds = {c.compound.lower() for c in cells}
    sentences = {c.sentence for c in cells}
    assert not compounds & {d.compound.lower() for d in DEMONSTRATIONS}
    assert not sentences & {d.sentence for d in DEMONSTRATIONS}
    demos = draw_demonstrations("i9", "spill the beans")
    assert all(d.compound != "spill the beans" for d in demos)


def test_unknown_strategy_is_refused(cells: list[MistCell]) -> None:
    with pytest.raises(SchemaError, match="prompt_strategy must be one of"):
        mist_prompt(replace(cells[0], prompt_strategy="one_shot"))


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ('{"final_label": "WF"}', "WF"),
        ('The phrase is literal.\n{ "final_label" : "ll" }', "LL"),
        ("{'final_label': 'FL'}", "FL"),
        ('first {"final_label": "FF"} then {"final_label": "LL"}', "LL"),
        ("final label: FF", "FF"),
        ("LL", "LL"),
        (' "fl". ', "FL"),
        ("FF or LL, hard to say", None),
        ('{"final_label": "XX"}', None),
        ("", None),
    ],
)
def test_parse_final_label(text: str, label: str | None) -> None:
    assert parse_final_label(text) == label


@given(
    label=st.sampled_from(MIST_LABELS),
    before=st.text(alphabet=st.characters(whitelist_categories=("Ll", "Zs", "Nd")), max_size=60),
    quote=st.sampled_from(['"', "'"]),
)
def test_parse_final_label_finds_the_json_anywhere(label: str, before: str, quote: str) -> None:
    text = f"{before} {{{quote}final_label{quote}: {quote}{label}{quote}}}"
    assert parse_final_label(text) == label

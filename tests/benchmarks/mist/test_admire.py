"""MIST rebuild from AdMIRe: the compound matcher, eligibility, the Appendix D draw, and the parquet reader.

The draw is checked against the rule written out step by step here with the module-level ``random``
(``random.seed(123)``; ``random.sample(sorted(eligible), n)``; one ``random.choice`` per item).
"""

from __future__ import annotations

import random
import warnings
from collections import Counter
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from mmjudge.benchmarks import build_dataset
from mmjudge.benchmarks.mist._draw import (
    CELL_ALIGNMENT,
    CELL_IMAGE_SENSE,
    CELL_SENTENCE_SENSE,
    AdmireRow,
    _images,
    choose_sentence,
    draw_items,
    eligible_compounds,
)
from mmjudge.benchmarks.mist._match import find_compound, mark_compound
from mmjudge.benchmarks.mist.build import build_tables as _build_tables
from mmjudge.errors import MediaError, SchemaError

# ---------------------------------------------------------------- matcher


@pytest.mark.parametrize(
    ("compound", "sentence", "span"),
    [
        ("hot potato", "It was a Hot Potato.", "Hot Potato"),
        ("hot potato", "Two hot potatoes burned.", "hot potatoes"),
        ("spill the beans", "He spilled the beans.", "spilled the beans"),
        ("spill the beans", "Stop spilling the beans!", "spilling the beans"),
        ("bake the cake", "She baked the cake.", "baked the cake"),
        ("make waves", "They are making waves.", "making waves"),
        ("cut corners", "He kept cutting corners.", "cutting corners"),
        ("carry the day", "She carries the day.", "carries the day"),
        ("box clever", "He boxes clever.", "boxes clever"),
        ("black sheep", "The black sheep's coat.", "black sheep's"),
        ("top dog", "The top dogs' kennel.", "top dogs'"),
        ("top dog", "The top dog’s bowl.", "top dog’s"),
        ("bread and butter", "A bread-and-butter issue.", "bread-and-butter"),
        ("hot potato", "A hot, steaming potato.", "hot, steaming potato"),
        ("hot potato", "A hot and very steaming potato.", "hot and very steaming potato"),
        ("spill the beans", "He spilled all of the beans.", "spilled all of the beans"),
    ],
)
def test_matcher_accepts_exact_variants_and_up_to_three_fillers(compound, sentence, span):
    match = find_compound(compound, sentence)
    assert match is not None
    assert sentence[match.start : match.end] == span
    assert mark_compound(sentence, match) == sentence.replace(span, f"**{span}**", 1)


@pytest.mark.parametrize(
    ("compound", "sentence"),
    [
        ("hot potato", "A hot and very very steaming potato."),  # four fillers
        ("spill the beans", "He spilled all of the old red beans."),  # 2 + 2 fillers in total
        ("break the ice", "She broke the ice."),  # irregular form
        ("hot dog", "A shot dog."),  # substring not on word boundaries
        ("hot potato", "The potato was hot."),  # wrong order
        ("cold feet", "Her foot was cold."),
        ("red herring", "A red fish."),
        ("", "Anything."),
    ],
)
def test_matcher_rejects(compound, sentence):
    assert find_compound(compound, sentence) is None


def test_matcher_exact_flag_fillers_and_leftmost_match():
    exact = find_compound("hot potato", "a HOT potato")
    assert exact is not None and exact.exact and exact.fillers == 0
    variant = find_compound("hot potato", "hot potatoes")
    assert variant is not None and not variant.exact and variant.fillers == 0
    two = find_compound("hot potato", "one hot old potato, then a hot potato")
    assert two is not None and (two.start, two.fillers, two.exact) == (4, 1, False)


# ---------------------------------------------------------------- rows and draw


PROMPTS = {"figurative": ("fig {c}", "rel-fig {c}", "rel-lit {c}", "lit {c}", "x {c}")}
PROMPTS["literal"] = ("lit {c}", "rel-lit {c}", "rel-fig {c}", "fig {c}", "x {c}")


def _row(row_id, compound, sense, sentence, *, language="en", style="<NONE>", rotate=0):
    prompts = [p.format(c=compound) for p in PROMPTS[sense]]
    prompts = prompts[rotate:] + prompts[:rotate]
    correct = prompts.index(f"{'fig' if sense == 'figurative' else 'lit'} {compound}") + 1
    return AdmireRow(row_id, language, compound, sense, sentence, style, correct, tuple(prompts))


def _corpus(n_compounds: int, extra: bool = True) -> list[AdmireRow]:
    rows: list[AdmireRow] = []
    for k in range(n_compounds):
        c = f"red herring{k}"
        words = "and then some more words " * (k % 7)
        rows.append(_row(len(rows), c, "figurative", f"It is a {c} {words}indeed.", rotate=k % 5))
        rows.append(_row(len(rows), c, "literal", f"A real {c}s {words}on ice.", rotate=(k + 2) % 5))
        if extra and k % 2:
            rows.append(_row(len(rows), c, "figurative", f"Yet another {c} here.", style="oil", rotate=k % 3))
    rows.append(_row(len(rows), "pt only", "figurative", "um pt only", language="pt"))
    rows.append(_row(len(rows), "pt only", "literal", "dois pt only", language="pt"))
    rows.append(_row(len(rows), "fig only", "figurative", "A fig only thing."))
    rows.append(_row(len(rows), "no match", "figurative", "The no match case."))
    rows.append(_row(len(rows), "no match", "literal", "Nothing to see."))
    return rows


def test_eligibility_excludes_non_english_one_sense_and_unmatched_compounds():
    rows = _corpus(6)
    eligible = eligible_compounds(rows)
    assert sorted(eligible) == sorted(f"red herring{k}" for k in range(6))
    rescued = [*rows, _row(999, "no match", "literal", "One no matches here.")]
    assert "no match" in eligible_compounds(rescued)
    assert [r.row_id for r in eligible_compounds(rescued)["no match"]["literal"]] == [999]


def _reference_draw(rows, n_items, seed=123):
    """The Appendix D rule written out with the module-level random functions."""
    eligible = {}
    for r in rows:
        if r.language == "en" and find_compound(r.compound, r.sentence):
            eligible.setdefault(r.compound, {"figurative": [], "literal": []})[r.sense].append(r)
    eligible = {c: s for c, s in eligible.items() if s["figurative"] and s["literal"]}
    random.seed(seed)
    compounds = random.sample(sorted(eligible), n_items)
    chosen = []
    for i, c in enumerate(compounds):
        sense = "figurative" if i < n_items // 2 else "literal"
        distinct = {}
        for r in sorted(eligible[c][sense], key=lambda r: (r.style != "<NONE>", r.row_id)):
            distinct.setdefault(r.sentence, r)
        cands = list(distinct.values())
        for limit in (20, 25, 30, 10**9):
            tier = [r for r in cands if len(r.sentence.split()) <= limit]
            if tier:
                break
        tier.sort(key=lambda r: (len(r.sentence.split()), r.row_id))
        chosen.append((c, random.choice(tier[:3]).row_id))
    return chosen


def test_draw_matches_the_rule_written_out_and_fills_four_cells():
    rows = _corpus(40)
    result = draw_items(rows, n_items=24)
    assert [(i.compound, i.source_id) for i in result.items] == _reference_draw(rows, 24)
    assert result.eligible_compounds == 40 and result.english_compounds == 42
    assert Counter(i.cell for i in result.items) == {"T1": 6, "T2": 6, "T3": 6, "T4": 6}
    assert [i.cell for i in result.items] == sorted(i.cell for i in result.items)
    assert len({i.compound for i in result.items}) == 24
    assert [i.item_id for i in result.items] == [f"mist-{k:03d}" for k in range(1, 25)]
    by_id = {r.row_id: r for r in rows}
    for item in result.items:
        assert item.sentence_sense == CELL_SENTENCE_SENSE[item.cell] == by_id[item.source_id].sense
        assert item.alignment == CELL_ALIGNMENT[item.cell] and item.image_sense == CELL_IMAGE_SENSE[item.cell]
        own = "fig" if item.sentence_sense == "figurative" else "lit"
        other = "lit" if own == "fig" else "fig"
        assert item.aligned.prompt == f"{own} {item.compound}"
        assert item.misleading.prompt == f"{other} {item.compound}"
        for ref in (item.aligned, item.misleading):
            assert by_id[ref.row_id].prompts[ref.position - 1] == ref.prompt
        plain = item.sentence.replace("**", "")
        assert plain == by_id[item.source_id].sentence and item.sentence.count("**") == 2
        inner = item.sentence.split("**")[1]
        assert find_compound(item.compound, inner) is not None


def test_draw_is_deterministic_and_seed_dependent():
    rows = _corpus(40)
    assert draw_items(rows, n_items=24) == draw_items(list(rows), n_items=24)
    other = draw_items(rows, n_items=24, seed=7)
    assert [i.compound for i in other.items] != [i.compound for i in draw_items(rows, n_items=24).items]
    assert [(i.compound, i.source_id) for i in other.items] == _reference_draw(rows, 24, seed=7)


def test_draw_refuses_bad_counts():
    rows = _corpus(10)
    with pytest.raises(SchemaError, match="multiple of 4"):
        draw_items(rows, n_items=10)
    with pytest.raises(SchemaError, match=r"only 10 of 12 English compounds are eligible.*at least 12"):
        draw_items(rows, n_items=12)


class _Recorder:
    def __init__(self):
        self.offered: list[int] = []

    def choice(self, seq):
        self.offered = [r.row_id for r in seq]
        return seq[0]


def _lit(row_id, words, style="<NONE>", text=None):
    return _row(
        row_id, "c", "literal", text or " ".join(["c", f"id{row_id}", *["w"] * (words - 2)]), style=style
    )


@pytest.mark.parametrize(
    ("lengths", "offered"),
    [
        ([40, 18, 12, 19, 20, 5], [5, 2, 1]),  # <= 20 tier, three shortest of five
        ([40, 22, 26, 24, 21], [4, 1, 3]),  # nothing <= 20: the <= 25 tier
        ([40, 28, 26, 33], [2, 1]),  # the <= 30 tier, fewer than three
        ([40, 33, 35, 31, 50], [3, 1, 2]),  # nothing <= 30: all, three shortest
        ([12, 12, 12, 12], [0, 1, 2]),  # ties broken by id
    ],
)
def test_cascade_offers_the_three_shortest_of_the_first_nonempty_tier(lengths, offered):
    rng = _Recorder()
    choose_sentence([_lit(i, n) for i, n in enumerate(lengths)], rng)  # type: ignore[arg-type]
    assert rng.offered == offered


def test_cascade_collapses_repeated_sentences_preferring_the_unstyled_row():
    rows = [_lit(0, 5, "oil", "c same"), _lit(1, 5, "<NONE>", "c same"), _lit(2, 7)]
    rng = _Recorder()
    choose_sentence(rows, rng)  # type: ignore[arg-type]
    assert rng.offered == [1, 2]


def test_misleading_image_comes_from_the_chosen_row_or_falls_back_to_the_partner():
    fig = _row(0, "c", "figurative", "A c here.", rotate=2)
    lit = _row(1, "c", "literal", "Two cs there.", rotate=4)
    aligned, misleading = _images(fig, lit)
    assert (aligned.row_id, fig.prompts[aligned.position - 1]) == (0, "fig c")
    assert (misleading.row_id, fig.prompts[misleading.position - 1]) == (0, "lit c")
    lonely = AdmireRow(2, "en", "c", "literal", "Two cs.", "<NONE>", 2, ("q", "lit only c", "r", "s", "t"))
    _, fallback = _images(fig, lonely)
    assert (fallback.row_id, fallback.position, fallback.prompt) == (2, 2, "lit only c")


def test_identical_images_for_both_senses_are_refused():
    fig = _row(0, "c", "figurative", "A c here.")
    same = fig._replace(row_id=1, sense="literal", sentence="Two cs.")
    with pytest.raises(SchemaError, match="same image prompt"):
        draw_items([fig, same, *_extra_compounds(3)], n_items=4)


def _extra_compounds(n):
    rows = []
    for k in range(n):
        rows.append(_row(100 + 2 * k, f"odd{k} one", "figurative", f"An odd{k} one."))
        rows.append(_row(101 + 2 * k, f"odd{k} one", "literal", f"Odd{k} ones."))
    return rows


# ---------------------------------------------------------------- the parquet release


def build_tables(source, **options):
    """``mist.build_tables`` with its staged temporary images cleaned up, as build_dataset does."""
    built = _build_tables(source, **options)
    for resource in built.resources:
        resource.cleanup()
    return built


def _png(seed: int) -> bytes:
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (4, 4), (seed % 256, 7, 9)).save(buffer, format="PNG")
    return buffer.getvalue()


def _write_admire(path: Path, rows, *, image=None, drop=(), sentence_type=None, correct=None) -> Path:
    records = []
    for r in rows:
        rec = {
            "id": r.row_id,
            "language": r.language,
            "compound": r.compound,
            "sentence_type": (sentence_type or {}).get(
                r.row_id, "idiomatic" if r.sense == "figurative" else "literal"
            ),
            "sentence": r.sentence,
            "style": r.style,
            "correct_image": (correct or {}).get(r.row_id, r.correct_image),
        }
        for k in range(1, 6):
            rec[f"image_{k}_prompt"] = r.prompts[k - 1]
            rec[f"image_{k}"] = image(r, k) if image else {"bytes": _png(r.row_id * 5 + k), "path": None}
        records.append({key: value for key, value in rec.items() if key not in drop})
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(records), path)
    return path


def test_build_from_the_sample_parquet_copies_the_drawn_images(tmp_path):
    from mmjudge.benchmarks.mist import sample

    raw = sample.write_raw(tmp_path / "raw", size="small")
    n = sample.SIZES["small"]
    out = build_dataset("mist", tmp_path / "raw" / "admire", tmp_path / "out", n_items=n)
    table = pq.read_table(out / "data" / "items" / "test-00000-of-00001.parquet").to_pylist()
    assert Counter(r["cell"] for r in table) == {cell: n // 4 for cell in ("T1", "T2", "T3", "T4")}
    for row in table:
        own = "idiomatic" if row["sentence_sense"] == "figurative" else "literal"
        other = "literal" if own == "idiomatic" else "idiomatic"
        assert f"synonym {own} reading" in row["aligned_image_prompt"]
        assert f"synonym {other} reading" in row["misleading_image_prompt"]
        assert row["cell_image"] == row[f"{row['alignment']}_image"]["path"]
        assert row["human_labels"] == [] and row["trio"] is None and row["majority_label"] is None
        for column in ("aligned_image", "misleading_image"):
            assert row[column]["path"].startswith("media/images/sha256-")
            assert (out / row[column]["path"]).read_bytes()[:4] == b"\x89PNG"
            assert row[column]["bytes"] == (out / row[column]["path"]).read_bytes()
    released = (raw.source / "items.csv").read_text(encoding="utf-8")
    assert all(row["sentence"] in released for row in table)


def test_parquet_folder_with_file_name_images_and_missing_media_policy(tmp_path):
    rows = _corpus(8, extra=False)
    source = tmp_path / "admire"
    _write_admire(source / "part-0.parquet", rows[:9], image=lambda r, k: f"img/{r.row_id}_{k}.png")
    _write_admire(source / "sub" / "part-1.parquet", rows[9:], image=lambda r, k: f"img/{r.row_id}_{k}.png")
    (source / "img").mkdir()
    for r in rows:
        for k in range(1, 6):
            (source / "img" / f"{r.row_id}_{k}.png").write_bytes(_png(r.row_id))
    built = build_tables(source, n_items=8)
    table = built.configs[0].splits["test"]
    assert table.num_rows == 8
    for rel in table.column("aligned_image").to_pylist():
        assert rel.startswith("media/images/img/") and built.media_files[rel].is_file()
    first = table.column("source_id").to_pylist()[0]
    gone = source / "img" / f"{first}_{rows[int(first)].correct_image}.png"
    gone.unlink()
    with pytest.raises(MediaError, match=r"1 of 8 media files in column 'aligned_image'"):
        build_tables(source, n_items=8)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        kept = build_tables(source, n_items=8, allow_missing_media=True).configs[0].splits["test"]
    assert kept.column("media_missing").to_pylist() == [True] + [False] * 7
    assert any("missing" in str(w.message) for w in caught)


def test_file_name_escaping_the_root_is_refused(tmp_path):
    rows = _corpus(4, extra=False)
    _write_admire(tmp_path / "a.parquet", rows, image=lambda r, k: "../outside.png")
    with pytest.raises(
        SchemaError, match=r"a\.parquet: row id 0, column .image_1.: media path .\.\./outside\.png. escapes"
    ):
        build_tables(tmp_path / "a.parquet", n_items=4)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"drop": ("correct_image",)}, r"a\.parquet: missing columns \['correct_image'\]"),
        ({"sentence_type": {3: "metaphor"}}, r"row id 3, column 'sentence_type'.*got 'metaphor'"),
        ({"correct": {2: 7}}, r"row id 2, column 'correct_image': expected 1\.\.5, got 7"),
        ({"image": lambda r, k: None}, r"row id \d+, column 'image_\d': expected image bytes or a file name"),
    ],
)
def test_bad_parquet_columns_and_values(tmp_path, kwargs, message):
    _write_admire(tmp_path / "a.parquet", _corpus(4, extra=False), **kwargs)
    with pytest.raises(SchemaError, match=message):
        build_tables(tmp_path / "a.parquet", n_items=4)


def test_bad_parquet_files(tmp_path):
    rows = _corpus(4, extra=False)
    _write_admire(tmp_path / "dup" / "a.parquet", rows)
    _write_admire(tmp_path / "dup" / "b.parquet", rows[:2])
    with pytest.raises(SchemaError, match=r"2 duplicated ids \[0, 1\]"):
        build_tables(tmp_path / "dup", n_items=4)
    empty = _write_admire(tmp_path / "empty.parquet", rows)
    pq.write_table(pq.read_table(empty).slice(0, 0), empty)
    with pytest.raises(SchemaError, match=r"empty\.parquet: the file has no rows"):
        build_tables(empty, n_items=4)
    junk = tmp_path / "junk" / "x.parquet"
    junk.parent.mkdir()
    junk.write_bytes(b"not parquet at all")
    with pytest.raises(SchemaError, match=r"x\.parquet: not a readable parquet file"):
        build_tables(junk.parent, n_items=4)
    (tmp_path / "none").mkdir()
    with pytest.raises(SchemaError, match="no parquet files found"):
        build_tables(tmp_path / "none", n_items=4)
    assert not (tmp_path / "out").exists()
    with pytest.raises(SchemaError):
        build_dataset("mist", junk.parent, tmp_path / "out", n_items=4)
    assert not (tmp_path / "out").exists() and list(tmp_path.glob(".out*")) == []


def test_default_draw_is_the_papers_200_items_in_four_cells_of_50():
    rows = _corpus(230, extra=False)
    result = draw_items(rows)
    assert len(result.items) == 200
    assert Counter(i.cell for i in result.items) == {"T1": 50, "T2": 50, "T3": 50, "T4": 50}
    for block, cell in enumerate(("T1", "T2", "T3", "T4")):
        assert {i.cell for i in result.items[50 * block : 50 * (block + 1)]} == {cell}
    assert [(i.compound, i.source_id) for i in result.items] == _reference_draw(rows, 200)
    assert result.items[-1].item_id == "mist-200"

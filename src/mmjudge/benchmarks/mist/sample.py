"""Sample MIST raw data: an AdMIRe-format source release and a released MIST table built from it.

Written under ``raw_dir``:

* ``admire/data/{train,test}-00000-of-00001.parquet``: the AdMIRe SFT release format (``id,
  language, compound, sentence_type, sentence, style, correct_image, image_1..5_prompt, image_1..5``
  as Hugging Face image structs ``{"bytes", "path"}``, ``reasoning``, ``output``). Each generation of
  a compound has five images (synonym-idiomatic, synonym-literal, related-idiomatic,
  related-literal, distractor) shared by its ``idiomatic`` and its ``literal`` row, shuffled per row,
  with ``correct_image`` the 1-based position of the row's own-sense synonym image, as in the real
  release. Some compounds have a second, styled generation with longer sentences; some sentences use
  a plural or a filler token; four compounds are ineligible on purpose (Portuguese, no literal row,
  irregular form, four filler tokens).
* ``release/``: a released MIST table (``items.csv``, ``human_labels.csv``, ``judge_labels.csv``,
  ``images/``) whose items are the :func:`~mmjudge.benchmarks.mist._draw.draw_items` draw of that parquet
  (``n_items`` = :data:`SIZES`), with made-up labels from two trios of three annotators and two
  fake judges (20 labels per item per judge).

The :class:`~mmjudge.data.raw.RawSource` points at ``release/`` (it carries the labels the
metrics need); ``build_dataset("mist", raw_dir / "admire", out, n_items=...)`` rebuilds the items from
the parquet. Everything is synthetic: images are flat shapes with a caption, sentences are templates,
labels are random draws biased toward the sentence's sense.
"""

from __future__ import annotations

import csv
import io
import random
import zlib
from pathlib import Path
from typing import Any

from mmjudge.benchmarks.mist._draw import AdmireRow, DrawnItem, draw_items
from mmjudge.data.raw import RawSource
from mmjudge.errors import ConfigError

__all__ = ["SIZES", "card_note", "write_raw"]

SIZES = {"small": 64, "medium": 200}
"""Items drawn per size (a multiple of 4). Small has 64 so that each trio's annotators label 32 items:
the alt-test counts only annotators with at least 30 items."""
JUDGES = ("sample-judge-a", "sample-judge-b")
"""The fake judges of ``judge_labels.csv``: ``a`` ignores the image, ``b`` drifts toward a misleading one."""
PROMPT_STRATEGIES = ("zero_shot", "few_shot", "cot", "few_shot_cot")
"""Prompt strategies of the judge grid."""

_ADJECTIVES = (
    "hot",
    "red",
    "cold",
    "black",
    "white",
    "golden",
    "silver",
    "dark",
    "wet",
    "top",
    "fat",
    "lame",
    "paper",
    "glass",
    "brass",
    "green",
)
_NOUNS = (
    "potato",
    "herring",
    "shoulder",
    "sheep",
    "elephant",
    "goose",
    "bullet",
    "horse",
    "blanket",
    "dog",
    "cat",
    "duck",
    "tiger",
    "ceiling",
    "tacks",
    "light",
)
_CATEGORIES = ("synonym_idiomatic", "synonym_literal", "related_idiomatic", "related_literal", "distractor")
_ORDER = {"idiomatic": (0, 2, 3, 1, 4), "literal": (1, 3, 2, 0, 4)}
_SHAPES = ("ellipse", "rectangle", "triangle", "diamond", "cross")
_FIG = (
    "The new tax plan became a {a} {b} for the council.",
    "Both reports turned into {a} {b}s that nobody in the office wanted.",
    "The merger was a {a} old {b} the board kept passing around.",
    "For months the budget dispute stayed a {a} {b} in every meeting, and each department tried to hand "
    "it to the next one before the annual review could begin.",
)
_LIT = (
    "We found a real {a} {b} near the garden fence.",
    "The museum shows two {a} {b}s in a glass case by the door.",
    "A {a} little {b} sat on the kitchen table this morning.",
    "On the last day of the fair the children gathered around a {a} {b} that the farmer had brought "
    "from the valley, and everyone wanted to take a photograph of it.",
)


def _compounds(count: int) -> list[tuple[str, str]]:
    """Real idioms first (the matching positions of the two word lists), then made-up pairs."""
    real = list(zip(_ADJECTIVES, _NOUNS, strict=True))
    made_up = [(a, b) for b in _NOUNS for a in _ADJECTIVES if (a, b) not in real]
    if count > len(real) + len(made_up):
        raise ConfigError(f"at most {len(real) + len(made_up)} sample compounds, asked for {count}")
    return (real + random.Random(7).sample(made_up, len(made_up)))[:count]


def _png(caption: str, shape: str, color: tuple[int, int, int]) -> bytes:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (64, 48), color)
    draw = ImageDraw.Draw(image)
    box = (18, 6, 46, 30)
    fill = tuple(255 - c for c in color)
    if shape == "ellipse":
        draw.ellipse(box, fill=fill)
    elif shape == "rectangle":
        draw.rectangle(box, fill=fill)
    elif shape == "triangle":
        draw.polygon([(32, 6), (46, 30), (18, 30)], fill=fill)
    elif shape == "diamond":
        draw.polygon([(32, 6), (46, 18), (32, 30), (18, 18)], fill=fill)
    else:
        draw.line((18, 6, 46, 30), fill=fill, width=4)
        draw.line((18, 30, 46, 6), fill=fill, width=4)
    draw.text((2, 34), caption[:12], fill=(255, 255, 255))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()


def _generation(compound: str, style: str) -> list[tuple[str, bytes]]:
    """(prompt, PNG bytes) per category, in :data:`_CATEGORIES` order."""
    hue = zlib.crc32(f"{compound}|{style}".encode())
    color = (hue % 200, (hue >> 8) % 200, (hue >> 16) % 200)
    styled = "" if style == "<NONE>" else f" Generate the image in the following style: {style}."
    out = []
    for category, shape in zip(_CATEGORIES, _SHAPES, strict=True):
        sense = category.split("_")[-1]
        prompt = f"Picture ({shape}) of the {category.replace('_', ' ')} reading of '{compound}' ({sense}).{styled}"
        out.append((prompt, _png(f"{category[:3]}-{sense[:3]}", shape, color)))
    return out


def _record(
    rid: int,
    compound: str,
    kind: str,
    sentence: str,
    style: str,
    images: list,
    rng: random.Random,
    language: str = "en",
) -> dict[str, Any]:
    order = list(_ORDER[kind])
    rng.shuffle(order)
    record: dict[str, Any] = {
        "id": rid,
        "language": language,
        "compound": compound,
        "sentence_type": kind,
        "sentence": sentence,
        "style": style,
        "correct_image": order.index(_ORDER[kind][0]) + 1,
    }
    for k, index in enumerate(order, start=1):
        record[f"image_{k}_prompt"] = images[index][0]
        record[f"image_{k}"] = {"bytes": images[index][1], "path": None}
    record["reasoning"] = "<reasoning>synthetic sample</reasoning>"
    record["output"] = f'<output>{{"Image": "{record["correct_image"]}"}}</output>'
    return record


def _records(n_items: int, rng: random.Random) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    for i, (a, b) in enumerate(_compounds(n_items + n_items // 4)):
        compound = f"{a} {b}"
        generations = [("<NONE>", i % 3, (i + 1) % 3)]
        if i % 3 == 0:
            generations.append(("watercolor", 3, 3))
        for style, fig, lit in generations:
            images = _generation(compound, style)
            records.append(
                _record(len(records), compound, "idiomatic", _FIG[fig].format(a=a, b=b), style, images, rng)
            )
            records.append(
                _record(len(records), compound, "literal", _LIT[lit].format(a=a, b=b), style, images, rng)
            )
    return records + _ineligible(len(records), rng)


def _ineligible(start: int, rng: random.Random) -> list[dict[str, Any]]:
    cases = [
        ("pão duro", "pt", "O chefe é um pão duro com o dinheiro.", "Comprei um pão duro na padaria."),
        ("night owl", "en", "My brother is a night owl who works until dawn.", None),
        ("cold feet", "en", "He got cold feet before the wedding.", "Her foot was cold after the walk."),
        (
            "big fish",
            "en",
            "She is a big fish in the local market.",
            "We saw a big, slow, old, grey, hungry fish.",
        ),
    ]
    out: list[dict[str, Any]] = []
    for compound, language, fig, lit in cases:
        images = _generation(compound, "<NONE>")
        for kind, sentence in (("idiomatic", fig), ("literal", lit)):
            if sentence is not None:
                out.append(
                    _record(start + len(out), compound, kind, sentence, "<NONE>", images, rng, language)
                )
    return out


def _write_parquet(records: list[dict[str, Any]], folder: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    image = pa.struct([("bytes", pa.binary()), ("path", pa.string())])
    fields = [
        ("id", pa.int32()),
        ("language", pa.string()),
        ("compound", pa.string()),
        ("sentence_type", pa.string()),
        ("sentence", pa.string()),
        ("style", pa.string()),
        ("correct_image", pa.int32()),
    ]
    fields += [(f"image_{k}_prompt", pa.string()) for k in range(1, 6)]
    fields += [(f"image_{k}", image) for k in range(1, 6)]
    fields += [("reasoning", pa.string()), ("output", pa.string())]
    schema = pa.schema(fields)
    folder.mkdir(parents=True, exist_ok=True)
    for split, keep in (("train", lambda i: i % 5 != 4), ("test", lambda i: i % 5 == 4)):
        rows = [r for i, r in enumerate(records) if keep(i)]
        pq.write_table(pa.Table.from_pylist(rows, schema=schema), folder / f"{split}-00000-of-00001.parquet")


def _as_rows(records: list[dict[str, Any]]) -> list[AdmireRow]:
    sense = {"idiomatic": "figurative", "literal": "literal"}
    return [
        AdmireRow(
            r["id"],
            r["language"],
            r["compound"],
            sense[r["sentence_type"]],
            r["sentence"],
            r["style"],
            r["correct_image"],
            tuple(r[f"image_{k}_prompt"] for k in range(1, 6)),
        )
        for r in records
    ]


def _human_label(sense: str, rng: random.Random) -> str:
    labels = ("FF", "WF", "FL", "LL") if sense == "figurative" else ("LL", "FL", "WF", "FF")
    return rng.choices(labels, weights=(0.6, 0.2, 0.12, 0.08))[0]


_LABELS = ("FF", "WF", "FL", "LL")
_SWAY = {"explicit": 0.25, "silent": 0.45}
"""Chance that ``sample-judge-b`` follows a misleading image, per arm."""


def _judge_label(judge: str, base: str, item: DrawnItem, condition: str, arm: str, rng: random.Random) -> str:
    """A judge keeps its text-only label ``base`` unless it re-draws (10%) or, for judge ``b`` under a
    misleading image, is swayed two ordinal steps toward the image's sense (:data:`_SWAY`)."""
    if judge.endswith("b") and condition == "misleading" and rng.random() < _SWAY[arm]:
        step = 2 if item.sentence_sense == "figurative" else -2
        return _LABELS[min(max(_LABELS.index(base) + step, 0), 3)]
    if condition != "none" and rng.random() < 0.1:
        return _human_label(item.sentence_sense, rng)
    return base


def _write_csv(path: Path, header: list[str], rows: list[list[Any]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)


def _write_release(
    records: list[dict[str, Any]], items: list[DrawnItem], folder: Path, rng: random.Random
) -> None:
    by_id = {r["id"]: r for r in records}
    (folder / "images").mkdir(parents=True, exist_ok=True)
    item_rows, human_rows, judge_rows = [], [], []
    for index, item in enumerate(items):
        paths = {}
        for which, ref in (("aligned", item.aligned), ("misleading", item.misleading)):
            paths[which] = f"images/{item.item_id}_{which}.png"
            (folder / paths[which]).write_bytes(by_id[ref.row_id][f"image_{ref.position}"]["bytes"])
        trio = ("informed", "blind")[index % 2]
        item_rows.append(
            [
                item.item_id,
                item.compound,
                item.sentence,
                item.sentence_sense,
                item.cell,
                item.alignment,
                paths["aligned"],
                paths["misleading"],
                trio,
                item.aligned.prompt,
                item.misleading.prompt,
                item.source_id,
            ]
        )
        for annotator in range(1, 4):
            label = _human_label(item.sentence_sense, rng)
            human_rows.append([item.item_id, trio, f"{trio[:3]}-{annotator}", label])
        for judge in JUDGES:
            for strategy in PROMPT_STRATEGIES:
                grid = [("none", "none")] + [
                    (c, a) for c in ("aligned", "misleading") for a in ("explicit", "silent")
                ]
                base = _human_label(item.sentence_sense, rng)
                for condition, arm in grid:
                    label = _judge_label(judge, base, item, condition, arm, rng)
                    judge_rows.append([judge, strategy, arm, condition, item.item_id, label])
    _write_csv(
        folder / "items.csv",
        [
            "item_id",
            "compound",
            "sentence",
            "sentence_sense",
            "cell",
            "alignment",
            "aligned_image",
            "misleading_image",
            "trio",
            "aligned_image_prompt",
            "misleading_image_prompt",
            "source_id",
        ],
        item_rows,
    )
    _write_csv(folder / "human_labels.csv", ["item_id", "trio", "annotator_id", "label"], human_rows)
    _write_csv(
        folder / "judge_labels.csv",
        ["judge", "prompt_strategy", "arm", "image_condition", "item_id", "label"],
        judge_rows,
    )


def card_note(size: str) -> str:
    """The card note of a sample build (``RawSource.options["card_notes"]``).

    >>> "not MIST" in card_note("small")
    True
    """
    n_items = SIZES[size]
    return (
        "**This folder is sample data written by `mmjudge sample-data`, not MIST.** Every field is synthetic: "
        "the compounds are two-word pairs (16 real idioms, the rest made up), the sentences are templates, "
        "the images are flat shapes with a caption (drawn with Pillow), the items are the Appendix D draw of "
        f"a synthetic AdMIRe-format parquet (`raw/mist/admire/`, rebuild it with `mmjudge build-dataset mist "
        f"--source raw/mist/admire --option n_items={n_items}`), the human labels are random draws biased "
        "toward the sentence's sense (two trios of three annotators), and the two judges are fake: "
        "`sample-judge-a` keeps its text-only label up to 10% re-draws, `sample-judge-b` also moves two "
        "ordinal steps toward a misleading image's sense 25% (explicit arm) or 45% (silent arm) of the time."
    )


def write_raw(raw_dir: str | Path, *, size: str = "small", seed: int = 0) -> RawSource:
    """Write the sample AdMIRe parquet (``admire/``) and released MIST table (``release/``).

    >>> import tempfile
    >>> raw = write_raw(Path(tempfile.mkdtemp()) / "mist")
    >>> raw.source.name, sorted(p.name for p in raw.source.glob("*.csv"))
    ('release', ['human_labels.csv', 'items.csv', 'judge_labels.csv'])
    """
    if size not in SIZES:
        raise ConfigError(f"unknown sample size {size!r}: expected one of {sorted(SIZES)}")
    raw_dir = Path(raw_dir)
    n_items = SIZES[size]
    rng = random.Random(seed)
    records = _records(n_items, rng)
    _write_parquet(records, raw_dir / "admire" / "data")
    items = draw_items(_as_rows(records), n_items=n_items).items
    _write_release(records, items, raw_dir / "release", rng)
    return RawSource(raw_dir / "release", None, {"card_notes": card_note(size)})

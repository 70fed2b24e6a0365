"""Hostile inputs (issue 11): crafted submissions, model requests, row numbers and media paths.

Each case goes through the path a user reaches (the app's handlers, or a dataset build for media paths)
and must end in one clear message, never an uncaught exception, with the store (or the output folder)
unchanged. A few inputs are valid but crafted (U+2028 / U+0085 inside a JSON string): they must be
stored whole, as one record each.
"""

from __future__ import annotations

import csv
import json
import os
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gradio as gr
import pytest

from mmjudge.benchmarks import build_dataset
from mmjudge.data import resolve_media
from mmjudge.errors import SchemaError
from mmjudge.leaderboard import Leaderboard, Settings, Store
from mmjudge.leaderboard.app.ui import Handlers

from ..conftest import prediction_lines, shown

ADMIN = "root"


def _profile(username: str) -> gr.OAuthProfile:
    return gr.OAuthProfile({"name": username, "preferred_username": username, "profile": "", "picture": ""})


@pytest.fixture(scope="module")
def rows(tmp_path_factory: pytest.TempPathFactory, reference) -> dict[str, list[dict[str, Any]]]:
    """Reference rows of all four benchmarks (MIST: the 64-item sample, 1280 grid cells)."""
    from mmjudge.benchmarks import write_sample_data
    from mmjudge.scoring import load_reference_rows

    root = tmp_path_factory.mktemp("mist_labels")
    write_sample_data(root, benchmarks=["mist"])
    return {**reference, "mist": load_reference_rows("mist", root / "mist")}


@pytest.fixture
def board(tmp_path: Path, rows) -> Leaderboard:
    """A store over the sample labels of the four benchmarks, one admin, the local no-auth mode."""
    root = tmp_path / "labels"
    for benchmark in ("isovrbench", "mist", "emoprefer", "emorealm"):
        (root / benchmark).mkdir(parents=True)
    settings = Settings(data_root=root, require_login=False, admins=frozenset({ADMIN}), daily_limit=1000)
    return Leaderboard(Store(tmp_path / "lb.sqlite"), settings, rows_fn=lambda b, folder: rows[b])


def snapshot(store: Store) -> tuple[Any, ...]:
    """Everything in the store, for before/after comparison."""
    with sqlite3.connect(store.path) as conn:
        tables = [
            r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        ]
        return tuple((t, conn.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall()) for t in tables)


# --- submissions ---------------------------------------------------------------------------------------

Lines = list[str]


MIST_CELLS = (("none", "none"), ("aligned", "explicit"), ("aligned", "silent"), ("misleading", "explicit"),
              ("misleading", "silent"))  # fmt: skip


def _lines(benchmark: str, rows) -> Lines:
    if benchmark != "mist":
        return prediction_lines(benchmark, rows[benchmark], seed=7)
    header = {"record": "header", "schema_version": 1, "benchmark": "mist", "judge": "j"}
    records = []
    for number, item in enumerate(rows["mist"]):
        for strategy in ("zero_shot", "few_shot", "cot", "few_shot_cot"):
            for cond, arm in MIST_CELLS:  # the misleading image changes the label of every other item
                label = "LL" if cond == "misleading" and number % 2 == 0 else "FF"
                records.append({"id": f"{item['item_id']}::{strategy}::{arm}::{cond}", "item_id": item["item_id"],
                                "prompt_strategy": strategy, "arm": arm, "image_condition": cond, "label": label})  # fmt: skip
    return [json.dumps(header)] + [json.dumps(r) for r in records]


def _changed(line: str) -> bool:
    record = json.loads(line)
    return record.get("image_condition") == "misleading" and record.get("label") == "LL"


def _header(change: dict[str, Any]) -> Callable[[Lines], Lines]:
    def mutate(lines: Lines) -> Lines:
        header = json.loads(lines[0]) | change
        return [json.dumps(header), *lines[1:]]

    return mutate


def _record(
    index: int, change: dict[str, Any] | None = None, raw: str | None = None
) -> Callable[[Lines], Lines]:
    def mutate(lines: Lines) -> Lines:
        out = list(lines)
        out[index] = raw if raw is not None else json.dumps(json.loads(lines[index]) | (change or {}))
        return out

    return mutate


def _raw_score(text: str) -> Callable[[Lines], Lines]:
    """Replace the first scored IsoVRBench record's score_chosen by raw JSON text."""

    def mutate(lines: Lines) -> Lines:
        out = list(lines)
        for i, line in enumerate(out[1:], start=1):
            record = json.loads(line)
            if not record.get("no_judgment"):
                record["score_chosen"] = "__RAW__"
                out[i] = json.dumps(record).replace('"__RAW__"', text)
                return out
        raise AssertionError("no scored record")

    return mutate


def _emoprefer_twice(lines: Lines) -> Lines:
    first = json.loads(lines[1])
    return [*lines, json.dumps(first | {"id": f"{first['id']}-again"})]


def _emoprefer_swap_ids(lines: Lines) -> Lines:
    a, b = json.loads(lines[1]), json.loads(lines[2])
    a["id"], b["id"] = b["id"], a["id"]
    return [lines[0], json.dumps(a), json.dumps(b), *lines[3:]]


def _first_forward_as_reversed(lines: Lines) -> Lines:
    out = list(lines)
    index = next(i for i, line in enumerate(out[1:], start=1) if json.loads(line)["order"] == "forward")
    out[index] = json.dumps(json.loads(out[index]) | {"order": "reversed"})
    return out


def _deep(depth: int) -> str:
    return "[" * depth + "]" * depth


# (case id, benchmark, mutate lines, meta changes, expected message pattern)
SUBMISSIONS: list[tuple[str, str, Callable[[Lines], Lines] | None, dict[str, str], str]] = [
    ("deep-json-nesting", "isovrbench", _record(2, raw='{"id": "x", "diagnostics": ' + _deep(100_000) + "}"), {},
     r"line 3: expected one JSON object per line of plain values, got nesting too deep"),
    ("nesting-past-16", "isovrbench", _header({"provenance": {"a": json.loads(_deep(30))}}), {},
     r"line 1: expected objects and lists nested at most 16 deep"),
    ("400-digit-int-score", "isovrbench", _raw_score("9" * 400), {}, r"`score_chosen` must be finite"),
    ("5000-digit-int-score", "isovrbench", _raw_score("9" * 5000), {}, r"an integer with too many digits"),
    ("provenance-list", "isovrbench", _header({"provenance": [1, 2]}), {},
     r"line 1: header: key 'provenance' expects dict, got list \[1, 2\]"),
    ("provenance-string", "isovrbench", _header({"provenance": "x"}), {}, r"key 'provenance' expects dict, got str 'x'"),
    ("provenance-number", "isovrbench", _header({"provenance": 5}), {}, r"key 'provenance' expects dict, got int 5"),
    ("lone-surrogate-in-file", "emorealm", _record(3, {"prediction": "A \ud800"}), {},
     r"line 4: expected valid Unicode text, got a string holding U\+D800"),
    ("lone-surrogate-in-key", "emorealm", _record(3, {"\udfff": 1}), {}, r"line 4: expected valid Unicode text"),
    ("lone-surrogate-model", "emoprefer", None, {"model": "org/m\ud800"}, r"model must be one line of visible text, got U\+D800"),
    ("schema-version-true", "isovrbench", _header({"schema_version": True}), {}, r"schema_version True is not supported"),
    ("schema-version-1.0", "isovrbench", _header({"schema_version": 1.0}), {}, r"schema_version 1\.0 is not supported"),
    ("schema-version-string", "isovrbench", _header({"schema_version": "1"}), {}, r"schema_version '1' is not supported"),
    ("benchmark-list", "isovrbench", _header({"benchmark": ["isovrbench"]}), {}, r"unknown benchmark \['isovrbench'\]"),
    ("benchmark-unknown", "isovrbench", _header({"benchmark": "imagenet"}), {}, r"unknown benchmark 'imagenet'"),
    ("fingerprint-object", "isovrbench", _header({"fingerprint": {"a": 1}}), {}, r"header: key 'fingerprint' expects str, got dict"),
    ("judge-not-string", "isovrbench", _header({"judge": 7}), {}, r"header: key 'judge' expects str, got int 7"),
    ("judge-empty", "isovrbench", _header({"judge": ""}), {}, r"header: key 'judge': string should have at least 1 character"),
    ("header-extra-key", "isovrbench", _header({"notes": "hi"}), {}, r"header: unknown key 'notes'; known keys: \['benchmark'"),
    ("rtl-override-model", "emoprefer", None, {"model": "org/\u202eledom"}, r"U\+202E \(RIGHT-TO-LEFT OVERRIDE\)"),
    ("rtl-isolate-judge", "emoprefer", None, {"judge": "j\u2067x"}, r"judge must be one line of visible text, got U\+2067"),
    ("zero-width-space-model", "emoprefer", None, {"model": "org/mo\u200bdel"}, r"U\+200B \(ZERO WIDTH SPACE\)"),
    ("zero-width-joiner-revision", "emoprefer", None, {"revision": "r\u200d1"}, r"revision must be one line of visible text, got U\+200D"),
    ("bom-judge", "emoprefer", None, {"judge": "\ufeffjudge"}, r"U\+FEFF"),
    ("bell-control-judge", "emoprefer", None, {"judge": "ju\x07dge"}, r"U\+0007"),
    ("newline-revision", "emoprefer", None, {"revision": "r1\nr2"}, r"U\+000A"),
    ("c1-control-license", "emoprefer", None, {"license_": "m\x85it"}, r"license must be one line of visible text, got U\+0085"),
    ("line-separator-license", "emoprefer", None, {"license_": "a\u2028b"}, r"U\+2028 \(LINE SEPARATOR\)"),
    ("private-use-model", "emoprefer", None, {"model": "org/\ue000"}, r"U\+E000"),
    ("model-too-long", "emoprefer", None, {"model": "m" * 500}, r"model must be one line of at most 200 characters, got 500"),
    ("link-javascript", "emoprefer", None, {"link": "javascript:alert(1)"}, r"link must be an http\(s\) URL"),
    ("link-data-uri", "emoprefer", None, {"link": "data:text/html,<script>"}, r"link must be an http\(s\) URL"),
    ("weights-unknown", "emoprefer", None, {"weights": "maybe"}, r"weights must be one of"),
    ("judge-empty", "emoprefer", None, {"judge": "   "}, r"judge is required"),
    ("emoprefer-pair-twice-under-another-id", "emoprefer", _emoprefer_twice, {},
     r"id '.*-again' does not match the pair: expected"),
    ("emoprefer-id-not-name", "emoprefer", _record(1, {"id": "someone-else"}), {}, r"line 2: id 'someone-else' does not match the pair"),
    ("emoprefer-ids-swapped", "emoprefer", _emoprefer_swap_ids, {}, r"does not match the pair"),
    ("emoprefer-order-sideways", "emoprefer", _record(1, {"order": "sideways"}), {}, r"`order` must be one of \['forward', 'reversed'\]"),
    ("emoprefer-forward-id-reversed-order", "emoprefer", _first_forward_as_reversed, {}, r"does not match the pair"),
    ("mist-dropped-changed-cells", "mist", lambda lines: [x for x in lines if not _changed(x)], {},
     r"256 grid cells without a prediction"),
    ("mist-one-cell-dropped", "mist", lambda lines: [x for x in lines if '"mist-001::cot::silent::aligned"' not in x],
     {}, r"1 grid cells without a prediction: \['mist-001::cot::silent::aligned'\]"),
    ("mist-id-not-cell", "mist", _record(5, {"item_id": "mist-002"}), {}, r"line 6: id 'mist-001::.*' does not match the cell"),
    ("mist-unknown-strategy", "mist", lambda lines: [*lines, json.dumps(
        {"id": "mist-001::cheat::silent::misleading", "item_id": "mist-001", "prompt_strategy": "cheat", "arm": "silent",
         "image_condition": "misleading", "label": "FF"})], {}, r"line 1282: `prompt_strategy` must be one of \['zero_shot', 'few_shot', 'cot', 'few_shot_cot'\], got 'cheat'"),
    ("emorealm-unknown-id", "emorealm", lambda lines: [*lines, '{"id": "q-extra", "prediction": "A"}'], {},
     r"1 unknown ids: \['q-extra'\] \(line \d+\)"),
    ("isovrbench-pair-dropped", "isovrbench", lambda lines: lines[:-1], {}, r"1 pairs without a prediction"),
    ("duplicate-id", "emorealm", lambda lines: [*lines, lines[1]], {}, r"already given on line 2"),
    ("nan-score", "isovrbench", _raw_score("NaN"), {}, r"`score_chosen` must be finite"),
    ("infinity-score", "isovrbench", _raw_score("Infinity"), {}, r"must be finite"),
    ("minus-infinity-score", "isovrbench", _raw_score("-Infinity"), {}, r"must be finite"),
    ("huge-float-score", "isovrbench", _raw_score("1e999"), {}, r"must be finite"),
    ("string-score", "isovrbench", _raw_score('"1"'), {}, r"`score_chosen` must be a number"),
    ("bool-score", "isovrbench", _raw_score("true"), {}, r"must be a number"),
    ("int-id", "emorealm", _record(1, {"id": 5}), {}, r"non-empty string `id`"),
    ("no-judgment-string", "emorealm", _record(1, {"no_judgment": "yes"}), {}, r"`no_judgment` must be true or false"),
    ("second-header", "emorealm", lambda lines: [lines[0], *lines], {}, r"expected record type 'prediction', got 'header'"),
    ("array-line", "emorealm", _record(2, raw="[1, 2]"), {}, r"line 3: expected a JSON object, got list"),
    ("not-json", "emorealm", _record(2, raw="{nope"), {}, r"line 3: expected one JSON object per line"),
    ("no-header", "emorealm", lambda lines: lines[1:], {}, r"expected a header record"),
]  # fmt: skip

SUBMISSION_BYTES: list[tuple[str, bytes, str]] = [
    ("empty-file", b"\n\n", r"the file is empty"),
    ("not-utf8", b'{"record": "header"}\n\xff\xfe\n', r"line 2: expected UTF-8 text"),
    ("nul-bytes", b"\x00" * 64, r"expected one JSON object per line|expected UTF-8"),
    ("over-size-limit", b"x" * (2 * 1024 * 1024 + 1), r"over the 2097152-byte limit"),
]


def _submit(board: Leaderboard, tmp_path: Path, data: bytes, meta: dict[str, str] | None = None) -> str:
    path = tmp_path / "upload.jsonl"
    path.write_bytes(data)
    fields = {
        "judge": "judge",
        "model": "org/model",
        "revision": "r1",
        "link": "",
        "license_": "",
        "weights": "open",
    }
    fields.update(meta or {})
    handlers = Handlers(board)
    message = handlers.submit(str(path), fields["judge"], fields["model"], fields["revision"], fields["link"],
                              fields["license_"], fields["weights"], None)  # fmt: skip
    return shown(message)  # as the page shows it


@pytest.mark.parametrize(("benchmark", "mutate", "meta", "pattern"), [c[1:] for c in SUBMISSIONS],
                         ids=[c[0] for c in SUBMISSIONS])  # fmt: skip
def test_hostile_submission(board, rows, tmp_path, benchmark, mutate, meta, pattern) -> None:
    lines = _lines(benchmark, rows)
    data = ("\n".join(mutate(lines) if mutate else lines) + "\n").encode("utf-8", "surrogatepass")
    before = snapshot(board.store)
    message = _submit(board, tmp_path, data, meta)
    assert message.startswith("**Rejected.**"), message[:300]
    assert re.search(pattern, message), message[:600]
    assert snapshot(board.store) == before


@pytest.mark.parametrize(
    ("data", "pattern"), [c[1:] for c in SUBMISSION_BYTES], ids=[c[0] for c in SUBMISSION_BYTES]
)
def test_hostile_submission_bytes(board, tmp_path, data, pattern) -> None:
    board.settings = Settings(**{**board.settings.__dict__, "max_bytes": 2 * 1024 * 1024})
    before = snapshot(board.store)
    message = _submit(board, tmp_path, data)
    assert message.startswith("**Rejected.**") and re.search(pattern, message), message[:300]
    assert snapshot(board.store) == before


DUPLICATE_MODELS = [
    ("case", "ORG/Model"),
    ("trailing-slash", "org/model/"),
    ("outer-spaces", "  org/model  "),
    ("full-width", "ｏｒｇ/ｍｏｄｅｌ"),
    ("zero-width", "org/mo\u200bdel"),
    ("cyrillic-a", "org/mod\u0435l"),  # Cyrillic е among Latin letters: refused as mixed-script
    ("greek-omicron", "org/m\u03bfdel"),  # Greek ο: refused as mixed-script
    ("all-cyrillic", "\u043e\u0433g/m\u043ed\u0435l"),  # mixed too (the g stays Latin)
]


@pytest.mark.parametrize("model", [m for _, m in DUPLICATE_MODELS], ids=[i for i, _ in DUPLICATE_MODELS])
def test_duplicate_check_is_not_bypassed(board, reference, tmp_path, model) -> None:
    first = prediction_lines("emoprefer", reference["emoprefer"], seed=1)
    assert "Stored" in _submit(board, tmp_path, ("\n".join(first) + "\n").encode(), {"model": "org/model"})
    before = snapshot(board.store)
    second = prediction_lines("emoprefer", reference["emoprefer"], seed=2)
    message = _submit(board, tmp_path, ("\n".join(second) + "\n").encode(), {"model": model})
    assert message.startswith("**Rejected.**")
    assert re.search(r"already has a submitted emoprefer row: #\d+|U\+200B|must be written in one script", message), message
    assert snapshot(board.store) == before


def test_a_single_script_look_alike_id_is_a_duplicate(board, reference, tmp_path) -> None:
    """An id written wholly in another script, letter for look-alike letter, has the key of the Latin one
    (Unicode TR39 confusables): the duplicate check stops it."""
    first = prediction_lines("emoprefer", reference["emoprefer"], seed=1)
    assert "Stored" in _submit(board, tmp_path, ("\n".join(first) + "\n").encode(), {"model": "ooo/aeo"})
    second = prediction_lines("emoprefer", reference["emoprefer"], seed=2)
    look_alike = "\u043e\u043e\u043e/\u0430\u0435\u043e"  # Cyrillic о о о / а е о
    message = _submit(board, tmp_path, ("\n".join(second) + "\n").encode(), {"model": look_alike})
    assert message.startswith("**Rejected.**") and "already has a submitted emoprefer row" in message, message


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\u0085", "\x1c", "\x1d", "\x1e", "\x0b", "\x0c"],
                         ids=["U+2028", "U+2029", "U+0085", "FS", "GS", "RS", "VT", "FF"])  # fmt: skip
def test_line_separators_inside_a_json_string_do_not_split_a_record(
    board, reference, tmp_path, separator
) -> None:
    lines = prediction_lines("emorealm", reference["emorealm"], seed=3)
    record = json.loads(lines[1]) | {"prediction": f"The answer{separator}is (A)", "no_judgment": False}
    lines[1] = json.dumps(record, ensure_ascii=False)  # the separator stays raw, as JSON allows
    message = _submit(board, tmp_path, ("\n".join(lines) + "\n").encode())
    assert "Stored" in message, message[:400]
    assert len(board.store.submissions("emorealm")) == 1


def test_mist_no_judgment_on_the_changed_cells_is_shown_beside_the_score(board, rows, tmp_path) -> None:
    """Marking the changed cells no_judgment instead of dropping them is stored, with its rate in view."""
    lines = [x if not _changed(x) else json.dumps(json.loads(x) | {"label": None, "no_judgment": True})
             for x in _lines("mist", rows)]  # fmt: skip
    assert "Stored" in _submit(board, tmp_path, ("\n".join(lines) + "\n").encode())
    table = Handlers(board).table("mist")
    assert [table.column(h) for h in ("Coverage %", "No judgment %")] == [
        [100.0],
        [20.0],
    ]  # 256 of 1280 cells


def test_gold_letter_outside_the_choices_on_the_server_is_a_clear_error(
    data_root, reference, tmp_path
) -> None:
    rows = [dict(r) for r in reference["emorealm"]]
    rows[0] = rows[0] | {"answer": "E", "choices": ["(A) a", "(B) b", "(C) c", "(D) d"]}
    (tmp_path / "labels" / "emorealm").mkdir(parents=True)
    board = Leaderboard(Store(tmp_path / "lb.sqlite"), Settings(data_root=tmp_path / "labels", require_login=False),
                        rows_fn=lambda b, folder: rows)  # fmt: skip
    message = _submit(board, tmp_path, ("\n".join(prediction_lines("emorealm", rows)) + "\n").encode())
    assert message.startswith("**Rejected.**") and "gold letter 'E' has no choice among" in message
    assert board.store.submissions() == []


# --- model requests ------------------------------------------------------------------------------------

REQUESTS: list[tuple[str, dict[str, Any], bool, str]] = [
    ("api-judge-non-admin", {"backend": "openai_compatible", "config": "frames: 8"}, False, r"only an admin can queue it"),
    ("base-url-to-requester", {"backend": "openai_compatible", "config": "options: {base_url: 'http://requester.example/v1'}"},
     True, r"request key `options\.base_url` is not something a requester may set"),
    ("internal-base-url", {"backend": "openai_compatible", "config": "options: {base_url: 'http://169.254.169.254/latest'}"},
     True, r"`options\.base_url`"),
    ("api-key-env-hf-token", {"backend": "openai_compatible", "config": "options: {api_key_env: HF_TOKEN}"}, True,
     r"`options\.api_key_env`"),
    ("checkpoint-etc", {"backend": "video_reward", "config": "options: {checkpoint: /etc}"}, False,
     r"`options\.checkpoint` of video_reward: expected a Hub repo id"),
    ("checkpoint-dotdot", {"backend": "video_reward", "config": "options: {checkpoint: ../../etc}"}, False, r"`options\.checkpoint`"),
    ("checkpoint-file-url", {"backend": "video_reward", "config": "options: {checkpoint: 'file:///etc/passwd'}"}, False,
     r"`options\.checkpoint`"),
    ("checkpoint-home", {"backend": "video_reward", "config": "options: {checkpoint: ~/.ssh}"}, False, r"`options\.checkpoint`"),
    ("checkpoint-revision-dotdot", {"backend": "video_reward", "config": "options: {checkpoint_revision: ../x}"}, False,
     r"`options\.checkpoint_revision`"),
    ("processor-path", {"backend": "clip_score", "config": "options: {processor: /root/.cache/x}"}, False, r"`options\.processor`"),
    ("text-model-path", {"backend": "pairwise_describe", "config": "options: {text_model: /models/x}"}, False,
     r"`options\.text_model`"),
    ("system-prompt", {"backend": "audio_visual", "config": "options: {system_prompt: ignore all}"}, False,
     r"`options\.system_prompt` is not something"),
    ("model-class", {"backend": "vlm_digit", "config": "options: {model_class: os.system}"}, False, r"`options\.model_class`"),
    ("means-override", {"backend": "video_reward", "config": "options: {means: {VQ: 1.0}}"}, False, r"`options\.means`"),
    ("prompt-template", {"backend": "vlm_digit", "config": "prompt_template: 'say 9 {prompt}'"}, False, r"`prompt_template`"),
    ("unknown-key", {"config": "frame: 8"}, False, r"request key `frame` is not something"),
    ("model-in-config", {"config": "model: /etc"}, False, r"request key `model` is not something"),
    ("judge-in-config", {"config": "judge: openai_compatible"}, False, r"request key `judge` is not something"),
    ("batch-size-huge", {"config": "batch_size: 1000000000"}, False, r"`batch_size` of random: expected an integer from 1 to 64"),
    ("frames-negative", {"backend": "vlm_digit", "config": "frames: -1"}, False, r"`frames` of vlm_digit: expected an integer"),
    ("fps-nan", {"backend": "vlm_digit", "config": "fps: .nan"}, False, r"`fps` of vlm_digit: expected a number"),
    ("seed-date", {"config": "seed: 2024-01-01"}, False, r"`seed` of random: expected an integer"),
    ("local-files-only-string", {"backend": "vlm_digit", "config": "local_files_only: 'yes'"}, False,
     r"`local_files_only` of vlm_digit: expected true or false"),
    ("name-rtl", {"config": "name: \"a\\u202eb\""}, False, r"`name` of random: expected one line of visible text"),
    ("non-string-key", {"config": "1: 2"}, False, r"request key `1` is not something"),
    ("options-list", {"config": "options: [1, 2]"}, False, r"request key `options` of random must be a mapping"),
    ("alias-bomb", {"config": "a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]"}, False, r"anchors and aliases"),
    ("config-too-long", {"config": "seed: 1\n" + "#" * 5000}, False, r"at most 4096 characters"),
    ("config-deep-nesting", {"config": "a: " + "[" * 2000 + "]" * 2000}, False, r"nested too deeply|request key `a`"),
    ("config-not-mapping", {"config": "[1, 2]"}, False, r"config must be a mapping"),
    ("config-bad-yaml", {"config": "a: [1"}, False, r"config must be YAML or JSON"),
    ("model-abs-path", {"model": "/etc"}, False, r"model must be a Hub repo id"),
    ("model-dotdot", {"model": "../../etc"}, False, r"model must be a Hub repo id"),
    ("model-url", {"model": "https://evil.example/x"}, False, r"model must be a Hub repo id"),
    ("model-zero-width", {"model": "org/mo\u200bdel"}, False, r"model must be a Hub repo id"),
    ("model-nul", {"model": "org/m\x00"}, False, r"model must be a Hub repo id"),
    ("revision-shell", {"revision": "main; rm -rf /"}, False, r"revision must be a commit, branch or tag name"),
    ("revision-dotdot", {"revision": "../../x"}, False, r"revision must be"),
    ("backend-unknown", {"backend": "shell"}, False, r"unknown judge backend 'shell'"),
    ("benchmarks-unknown", {"benchmarks": ["imagenet"]}, False, r"non-empty subset"),
    ("benchmarks-empty", {"benchmarks": []}, False, r"non-empty subset"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("fields", "admin", "pattern"), [c[1:] for c in REQUESTS], ids=[c[0] for c in REQUESTS]
)
def test_hostile_request(board, fields, admin, pattern) -> None:
    args = {
        "model": "org/model",
        "revision": "main",
        "backend": "random",
        "config": "",
        "benchmarks": ["emorealm"],
    }
    args.update(fields)
    if args["backend"] == "random" and ("model" in fields or "revision" in fields):
        args["backend"] = "label_choice"  # model and revision checks: a judge that loads a Hub model
    elif args["backend"] == "random":
        args["model"] = ""  # a weight-free judge names no model
    before = snapshot(board.store)
    message = Handlers(board).request_model(args["model"], args["revision"], args["backend"], args["config"],
                                            args["benchmarks"], _profile(ADMIN) if admin else None)  # fmt: skip
    plain = shown(message)
    assert plain.startswith("**Rejected.**"), plain[:300]
    assert re.search(pattern, plain), plain[:400]
    assert snapshot(board.store) == before


def test_duplicate_request_is_not_bypassed_by_case_or_benchmark_order(board) -> None:
    handlers = Handlers(board)
    assert "Queued" in handlers.request_model(
        "org/model", "main", "label_choice", "seed: 1", ["mist", "emorealm"], None
    )
    before = snapshot(board.store)
    for model, benchmarks in (("ORG/MODEL", ["mist", "emorealm"]), ("Org/Model", ["emorealm", "mist"])):
        message = handlers.request_model(model, "MAIN", "label_choice", "seed: 1", benchmarks, None)
        assert "Rejected" in message and "already queued" in message
    assert snapshot(board.store) == before


# --- row numbers from the UI and the public API -------------------------------------------------------

ROW_IDS = [1e30, float("inf"), float("-inf"), float("nan"), -1, 0, 2.5, "abc", 2**70]


@pytest.mark.parametrize("value", ROW_IDS, ids=[str(v) for v in ROW_IDS])
def test_hostile_row_number(board, value) -> None:
    handlers = Handlers(board)
    before = snapshot(board.store)
    with pytest.raises(gr.Error, match="row # must be a whole number"):
        handlers.results_file(value)
    assert "row # must be a whole number" in shown(handlers.hide(value, _profile(ADMIN)))
    assert snapshot(board.store) == before


# --- media paths -------------------------------------------------------------------------------------


def _pair_rows() -> list[dict[str, str]]:
    return [{"pair_id": f"p{i}", "prompt": "a cat", "intervention": "temporal_shuffle",
             "video_chosen": f"clips/p{i}/a.mp4", "video_rejected": f"clips/p{i}/b.mp4"} for i in range(2)]  # fmt: skip


def _write_pairs(raw: Path, rows: list[dict[str, str]], extra_lines: str = "") -> None:
    raw.mkdir(parents=True, exist_ok=True)
    for row in rows:
        for side in ("video_chosen", "video_rejected"):
            path = raw / row[side]
            if ".." not in row[side] and "\x00" not in row[side] and not row[side].startswith(("/", "C:")):
                path.parent.mkdir(parents=True, exist_ok=True)
                if not path.exists():
                    path.write_bytes(f"bytes of {row[side]}".encode())
    with (raw / "test.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
        handle.write(extra_lines)


def _symlink_out(raw: Path, rows: list[dict[str, str]]) -> None:
    outside = raw.parent / "secret.mp4"
    outside.write_bytes(b"not yours")
    link = raw / "clips" / "p1" / "a.mp4"
    link.unlink()
    os.symlink(outside, link)


MEDIA: list[tuple[str, dict[str, str], str, Callable[[Path, list[dict[str, str]]], None] | None, str]] = [
    ("nul-byte", {"video_chosen": "clips/p1/a\x00.mp4"}, "", None, r"row 2 \(pair_id 'p1'\), column 'video_chosen'.*NUL byte"),
    ("symlink-escape", {}, "", _symlink_out, r"row 2 \(pair_id 'p1'\), column 'video_chosen'.*outside its root"),
    ("absolute", {"video_rejected": "/etc/passwd"}, "", None, r"row 2 .*column 'video_rejected'.*absolute"),
    ("dotdot", {"video_rejected": "../../etc/passwd"}, "", None, r"row 2 .*column 'video_rejected'.*escapes"),
    ("windows-drive", {"video_chosen": "C:\\Windows\\x.mp4"}, "", None, r"row 2 .*column 'video_chosen'.*absolute"),
    ("backslash-dotdot", {"video_chosen": "..\\..\\etc\\x.mp4"}, "", None, r"row 2 .*column 'video_chosen'.*escapes"),
    ("empty-path", {"video_chosen": ""}, "", None, r"row 2 .*column 'video_chosen'"),
    ("csv-extra-field", {}, "p9,a cat,temporal_shuffle,clips/p0/a.mp4,clips/p0/b.mp4,surplus\n", None,
     r"row 3 \(line 4\): expected 5 comma-separated fields per row .* got 6 fields: field 6 has no column"),
    ("csv-missing-field", {}, "p9,a cat,temporal_shuffle,clips/p0/a.mp4\n", None,
     r"row 3 \(line 4\), column 'video_rejected': expected 5 comma-separated fields per row .* got 4 fields"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("change", "extra", "prepare", "pattern"), [c[1:] for c in MEDIA], ids=[c[0] for c in MEDIA]
)
def test_hostile_media_path_in_a_build(tmp_path, change, extra, prepare, pattern) -> None:
    rows = _pair_rows()
    rows[1] = rows[1] | change
    raw = tmp_path / "raw"
    _write_pairs(raw, rows, extra)
    if prepare is not None:
        prepare(raw, rows)
    with pytest.raises(SchemaError, match=pattern) as info:
        build_dataset("isovrbench", raw, tmp_path / "out")
    assert "test.csv" in str(info.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["raw"] + (["secret.mp4"] if prepare else [])


@pytest.mark.parametrize(
    "relpath", ["a\x00b.mp4", "\x00", "video/\x00/../x.mp4"], ids=["middle", "only", "with-dotdot"]
)
def test_nul_byte_in_a_media_path_is_a_clear_error(tmp_path, relpath) -> None:
    with pytest.raises(SchemaError, match="contains a NUL byte"):
        resolve_media(relpath, tmp_path)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [("daily_limit", -1, "daily_limit must be 0 or more, got -1"),
     ("max_bytes", 0, "max_bytes must be a positive integer, got 0"),
     ("max_attempts", 0, "max_attempts must be a positive integer, got 0"),
     ("ladder_margin", 0.0, "ladder_margin must be a positive number of headline points, got 0.0")],
)  # fmt: skip
def test_settings_refuse_values_out_of_range_and_say_the_range(field: str, value: float, message: str) -> None:
    from mmjudge._configs import validated
    from mmjudge.errors import ConfigError

    with pytest.raises(ConfigError, match=re.escape(message)):
        validated(Settings, {field: value}, "leaderboard settings")  # as open_leaderboard builds them
    assert validated(Settings, {"daily_limit": 0}, "").daily_limit == 0  # no uploads at all is a valid policy

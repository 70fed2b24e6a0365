"""eval.yaml of a built folder: written with its checks, read back, and refused when malformed."""

from __future__ import annotations

import pytest

from mmjudge.data.eval_yaml import read_eval_yaml, task_ids, write_eval_yaml
from mmjudge.errors import MissingFileError, SchemaError

DOC = {
    "name": "Toy",
    "description": "A toy benchmark.",
    "evaluation_framework": "mmjudge",
    "tasks": [{"id": "overall", "config": "all", "split": "test"}, {"id": "a", "config": "a", "split": "test"}],
}


def test_round_trip(tmp_path):
    write_eval_yaml(tmp_path, DOC)
    assert read_eval_yaml(tmp_path) == DOC
    assert task_ids(read_eval_yaml(tmp_path)) == ["overall", "a"]


def test_missing_file_names_the_build_flag(tmp_path):
    with pytest.raises(MissingFileError, match=r"build-dataset \.\.\. --eval-yaml"):
        read_eval_yaml(tmp_path)


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({**DOC, "tasks": []}, "non-empty `tasks` list"),
        ({k: v for k, v in DOC.items() if k != "evaluation_framework"}, r"missing keys \['evaluation_framework'\]"),
        ({**DOC, "tasks": [{"id": "x", "config": "all"}]}, "each task needs id, config and split"),
        ({**DOC, "tasks": [DOC["tasks"][0], DOC["tasks"][0]]}, "task ids must be unique"),
        (["not", "a", "mapping"], "expected a mapping"),
    ],
)
def test_malformed_documents_are_refused(tmp_path, document, message):
    with pytest.raises(SchemaError, match=message):
        write_eval_yaml(tmp_path, document)

"""push-dataset: the exact files and card a push uploads (offline), and the calls it makes."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from data_helpers import write_csv

from mmjudge.benchmarks import build_dataset
from mmjudge.cli import main
from mmjudge.data.card import split_front_matter
from mmjudge.data.push import plan_push, push_dataset
from mmjudge.errors import ConfigError, SchemaError

ROWS = [
    {"name": "s1", "a1": "x", "a2": "y", "preference": "a1"},
    {"name": "s2", "a1": "x", "a2": "y", "preference": "same"},
]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    write_csv(tmp_path / "raw" / "emoprefer.csv", ROWS)
    return build_dataset("emoprefer", tmp_path / "raw", tmp_path / "built")


def test_plan_lists_exact_files_and_card_yaml(folder):
    (folder / ".cache").mkdir()
    (folder / ".cache" / "x.lock").write_text("")
    plan = plan_push(
        folder,
        "org/emoprefer",
        revision="v1.0",
        remote_files=["README.md", "data/old/test.parquet", ".gitattributes"],
    )
    assert plan.files == [
        "LICENSE.md",  # the card's license_link
        "README.md",
        "data/pairs/test-00000-of-00001.parquet",
        "data/pairs_reversed/test-00000-of-00001.parquet",
    ]
    assert plan.deletes == ["data/old/test.parquet"]
    meta, body = split_front_matter(plan.card_text)
    assert meta == plan.card_yaml
    assert [c["config_name"] for c in meta["configs"]] == ["pairs", "pairs_reversed"]
    assert meta["dataset_info"][0]["splits"] == [{"name": "test", "num_bytes": 0, "num_examples": 2}]
    assert 'load_dataset("org/emoprefer", "pairs", revision="v1.0")' in body
    assert yaml.safe_load(plan.card_text.split("---\n")[1]) == meta


def test_plan_after_push_plan_still_loads_offline(folder, load_offline):
    plan = plan_push(folder, "org/emoprefer", revision="v1")
    staged = folder.parent / "staged"
    for rel in plan.files:
        (staged / rel).parent.mkdir(parents=True, exist_ok=True)
        (staged / rel).write_bytes((folder / rel).read_bytes())
    (staged / "README.md").write_text(plan.card_text, encoding="utf-8")
    assert load_offline(staged, "pairs_reversed")["test"]["preference"] == ["a2", "same"]


def test_plan_refuses_bad_input(folder, tmp_path):
    with pytest.raises(ConfigError, match="ORG/NAME"):
        plan_push(folder, "emoprefer")
    with pytest.raises(ConfigError, match="tag name"):
        plan_push(folder, "org/x", revision="v 1")
    with pytest.raises(SchemaError, match=r"README\.md"):
        plan_push(tmp_path / "raw", "org/x")
    (folder / "data/pairs_reversed/test-00000-of-00001.parquet").unlink()
    with pytest.raises(SchemaError, match="pairs_reversed"):
        plan_push(folder, "org/x")


class FakeApi:
    def __init__(self, tags: tuple[str, ...] = (), remote: tuple[str, ...] = ()) -> None:
        self.calls: list[tuple[str, dict]] = []
        self.tags, self.remote = tags, remote

    def create_repo(self, repo_id, **kw):
        self.calls.append(("create_repo", {"repo_id": repo_id, **kw}))

    def list_repo_files(self, repo_id, **kw):
        return list(self.remote)

    def list_repo_refs(self, repo_id, **kw):
        return SimpleNamespace(tags=[SimpleNamespace(name=t) for t in self.tags])

    def create_commit(self, repo_id, operations, **kw):
        self.calls.append(("create_commit", {"repo_id": repo_id, "operations": list(operations), **kw}))
        return SimpleNamespace(oid="abc123", commit_url="https://hub/commit/abc123")

    def create_tag(self, repo_id, **kw):
        self.calls.append(("create_tag", {"repo_id": repo_id, **kw}))


def test_push_makes_one_commit_then_tags_it(folder):
    api = FakeApi(remote=("stale.txt",))
    result = push_dataset(folder, "org/emoprefer", revision="v2", private=True, api=api)
    assert result.oid == "abc123" and result.revision == "v2"
    names = [c[0] for c in api.calls]
    assert names == ["create_repo", "create_commit", "create_tag"]
    assert api.calls[0][1] == {
        "repo_id": "org/emoprefer",
        "repo_type": "dataset",
        "private": True,
        "exist_ok": True,
    }
    ops = api.calls[1][1]["operations"]
    added = {op.path_in_repo: op for op in ops if type(op).__name__ == "CommitOperationAdd"}
    deleted = [op.path_in_repo for op in ops if type(op).__name__ == "CommitOperationDelete"]
    assert sorted(added) == plan_push(folder, "org/emoprefer", revision="v2").files
    assert deleted == ["stale.txt"]
    assert b'revision="v2"' in added["README.md"].path_or_fileobj
    assert api.calls[2][1] == {
        "repo_id": "org/emoprefer",
        "tag": "v2",
        "revision": "abc123",
        "repo_type": "dataset",
    }


def test_push_refuses_to_move_an_existing_tag(folder):
    api = FakeApi(tags=("v1",))
    with pytest.raises(ConfigError, match="already has a tag 'v1'"):
        push_dataset(folder, "org/emoprefer", revision="v1", api=api)
    assert [c[0] for c in api.calls] == ["create_repo"]


def test_cli_dry_run_lists_files(folder, capsys):
    assert main(["push-dataset", str(folder), "--repo", "org/e", "--revision", "v3", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "would upload 4 files to org/e, tag v3" in out and "data/pairs/test-00000-of-00001.parquet" in out


def test_eval_yaml_is_built_on_request_and_held_back_from_a_push_unless_asked(tmp_path):
    write_csv(tmp_path / "raw" / "emoprefer.csv", ROWS)
    folder = tmp_path / "with-eval"
    argv = ["build-dataset", "emoprefer", "--source", str(tmp_path / "raw"), "--out", str(folder), "--eval-yaml"]
    assert main(argv) == 0
    document = yaml.safe_load((folder / "eval.yaml").read_text(encoding="utf-8"))
    assert document["evaluation_framework"] == "mmjudge"
    assert [(t["id"], t["config"], t["split"]) for t in document["tasks"]] == [
        ("waf_2class", "pairs", "test"),
        ("acc_3class", "pairs", "test"),
        ("swap_consistency", "pairs_reversed", "test"),
    ]
    assert "## eval.yaml" in (folder / "README.md").read_text(encoding="utf-8")
    held = plan_push(folder, "org/emoprefer", remote_files=["eval.yaml"])
    assert "eval.yaml" not in held.files and held.held_back == ("eval.yaml",)
    assert held.deletes == []  # an eval.yaml already in the repo is left alone, not deleted
    asked = plan_push(folder, "org/emoprefer", include_eval_yaml=True)
    assert "eval.yaml" in asked.files and asked.held_back == ()


def test_eval_yaml_requested_but_absent_is_refused(folder):
    assert not (folder / "eval.yaml").exists()
    assert plan_push(folder, "org/emoprefer").held_back == ()
    with pytest.raises(SchemaError, match=r"lacks; rebuild it with `mmjudge build-dataset \.\.\. --eval-yaml`"):
        plan_push(folder, "org/emoprefer", include_eval_yaml=True)


def test_push_dataset_dry_run_names_the_held_back_eval_yaml(tmp_path, capsys):
    write_csv(tmp_path / "raw" / "emoprefer.csv", ROWS)
    folder = build_dataset("emoprefer", tmp_path / "raw", tmp_path / "b", eval_yaml=True)
    assert main(["push-dataset", str(folder), "--repo", "org/e", "--dry-run"]) == 0
    assert "(held back: eval.yaml; pass --eval-yaml to upload it)" in capsys.readouterr().out
    assert main(["push-dataset", str(folder), "--repo", "org/e", "--dry-run", "--eval-yaml"]) == 0
    assert "  eval.yaml\n" in capsys.readouterr().out

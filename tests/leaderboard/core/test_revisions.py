"""Model requests pinned to the commit their revision names before the duplicate check (the resolver is a
fake Hub: a branch table that moves, raising ``huggingface_hub``'s own errors)."""

from __future__ import annotations

import pytest

from mmjudge.leaderboard import SubmissionRejected
from mmjudge.leaderboard.app.ui import Handlers
from mmjudge.leaderboard.core import queue as q
from mmjudge.leaderboard.core.revisions import pin_revision

from ..conftest import shown

OLD, NEW = "a" * 40, "b" * 40


class FakeHub:
    """``(model, revision) -> commit`` over a table of branches and tags; counts its calls."""

    def __init__(self) -> None:
        self.refs = {("org/tiny", "main"): OLD, ("org/tiny", "v1.0"): OLD}
        self.calls: list[tuple[str, str]] = []

    def __call__(self, model: str, revision: str) -> str:
        import httpx
        from huggingface_hub.errors import RepositoryNotFoundError, RevisionNotFoundError

        self.calls.append((model, revision))
        answer = httpx.Response(404, request=httpx.Request("GET", f"https://huggingface.co/api/models/{model}"))
        if not any(m == model for m, _ in self.refs):
            raise RepositoryNotFoundError(f"{model} not found", response=answer)
        if (model, revision) not in self.refs:
            raise RevisionNotFoundError(f"{revision} not found", response=answer)
        return self.refs[(model, revision)]


def _request(handlers: Handlers, revision: str, config: str = "batch_size: 1", model: str = "org/tiny") -> str:
    return shown(handlers.request_model(model, revision, "vlm_digit", config, ["isovrbench"], None))


@pytest.mark.parametrize("revision", ["", "main", "refs/heads/main", "v1.0", OLD])
def test_every_spelling_of_one_commit_is_one_request(board_factory, revision) -> None:
    """The issue's case: ``main`` queued again as ``''``, ``refs/heads/main`` (and here a tag or the commit
    itself naming the same commit) is one GPU run; the request is stored at the commit."""
    hub = FakeHub()
    handlers = Handlers(board_factory(resolve_revision=hub))
    first = _request(handlers, "main")
    assert "**Queued**" in first and f"at commit {OLD} (main now)" in first
    (stored,) = q.list_requests(handlers.board.store)
    assert stored.revision == stored.config["revision"] == OLD
    again = _request(handlers, revision)
    assert "the same request is already queued" in again, again
    assert len(q.list_requests(handlers.board.store)) == 1


def test_a_branch_that_moved_is_a_new_run(board_factory) -> None:
    hub = FakeHub()
    handlers = Handlers(board_factory(resolve_revision=hub))
    assert "**Queued**" in _request(handlers, "main")
    hub.refs[("org/tiny", "main")] = NEW
    assert f"at commit {NEW}" in _request(handlers, "main")
    assert [r.revision for r in q.list_requests(handlers.board.store)] == [OLD, NEW]


@pytest.mark.parametrize(("model", "revision", "expected"), [
    ("org/tiny", "no-such-branch", "has no revision 'no-such-branch' on the Hub"),
    ("org/absent", "main", "no model repo 'org/absent' that this server can read"),
])  # fmt: skip
def test_a_revision_the_hub_does_not_know_is_refused_and_nothing_is_queued(board_factory, model, revision,
                                                                           expected) -> None:  # fmt: skip
    handlers = Handlers(board_factory(resolve_revision=FakeHub()))
    assert expected in _request(handlers, revision, model=model)
    assert q.list_requests(handlers.board.store) == []


def test_an_unreachable_hub_queues_nothing(board_factory) -> None:
    def offline(model: str, revision: str) -> str:
        raise OSError("network is unreachable")

    handlers = Handlers(board_factory(resolve_revision=offline))
    message = _request(handlers, "main")
    assert "could not ask the Hub which commit org/tiny@main is (OSError)" in message
    assert q.list_requests(handlers.board.store) == []


def test_an_answer_that_is_not_a_commit_is_refused() -> None:
    spec = q.validate_request("org/tiny", "main", "vlm_digit", None, ["isovrbench"], known_backends=["vlm_digit"])
    with pytest.raises(SubmissionRejected, match="named no commit"):
        pin_revision(spec, lambda model, revision: "main")


def test_a_commit_or_no_resolver_is_not_asked_about(board_factory) -> None:
    hub = FakeHub()
    spec = q.validate_request("org/tiny", OLD, "vlm_digit", None, ["isovrbench"], known_backends=["vlm_digit"])
    assert pin_revision(spec, hub) is spec and hub.calls == []
    unpinned = q.validate_request("org/tiny", "main", "vlm_digit", None, ["isovrbench"], known_backends=["vlm_digit"])
    assert pin_revision(unpinned, None) is unpinned


def test_a_served_leaderboard_pins_and_a_local_one_does_not(tmp_path) -> None:
    from mmjudge.leaderboard.app.startup import open_leaderboard
    from mmjudge.leaderboard.core.revisions import hub_commit

    served = open_leaderboard(tmp_path / "a.sqlite", require_login=True)
    local = open_leaderboard(tmp_path / "b.sqlite", require_login=False)
    assert served.settings.resolve_revision is hub_commit and local.settings.resolve_revision is None
    assert open_leaderboard(tmp_path / "c.sqlite", require_login=False, pin_revisions=True).settings.resolve_revision

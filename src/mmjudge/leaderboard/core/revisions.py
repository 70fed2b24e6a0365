"""Pinning a model request to the commit its revision names, before the duplicate check.

A branch or tag moves; a commit does not. As the Open LLM Leaderboard does, a served leaderboard asks the
Hub which commit a requested revision (``main``, ``refs/heads/main``, a tag, none at all) names *now* and
queues the request at that commit: two requests for one commit are one run however their revision was
spelled, the worker loads exactly that commit, and the ``run here`` row it stores names it. A later
request for the same branch after a new commit is a new run.

The resolver is injected (:data:`RevisionResolver`; :func:`hub_commit` asks the Hub), so that a server
without the Hub (an offline machine, ``--no-auth``) keeps requests at the revision they name, and tests
need no network.

An API model (``gpt-4o`` behind an OpenAI-compatible endpoint) is no Hub repo: it is never asked of the Hub.
What an endpoint serves under a name changes without a commit, so such a request is pinned by the UTC date it
is made (:func:`pin_date`; one run per model, config and day), and the row the worker stores names the
endpoint and the date of the run.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from mmjudge._hub import hub_commit
from mmjudge.errors import ConfigError
from mmjudge.judges.repos import pin_config
from mmjudge.leaderboard.core.queue import RequestSpec, canonical_revision
from mmjudge.leaderboard.store import SubmissionRejected

__all__ = ["COMMIT", "RevisionResolver", "endpoint_name", "hub_commit", "pin_date", "pin_revision"]

RevisionResolver = Callable[[str, str], str]
"""``(model repo id, revision) -> the 40-hex commit the revision names now``; raises the
``huggingface_hub`` errors :func:`hub_commit` raises."""
COMMIT = re.compile(r"[0-9a-f]{40}")
"""A full commit SHA (what a pinned request's revision is)."""


def pin_revision(spec: RequestSpec, resolve: RevisionResolver | None) -> RequestSpec:
    """``spec`` at the commit its revision names (:func:`canonical_revision`: none is the default branch), and
    every second repo its options load (:func:`mmjudge.judges.repos.loaded_repos`: a text LLM, a checkpoint, a
    processor) at the commit its own revision names.

    ``spec`` is returned as it is when there is no resolver; a revision that is already a full commit, and a
    local model folder (a local admin's request), are kept.

    >>> spec = RequestSpec("org/m", "refs/heads/main", "random", {"judge": "random", "revision": "refs/heads/main"},
    ...                    ("mist",))
    >>> pinned = pin_revision(spec, lambda model, revision: {"main": "ab" * 20}[revision])
    >>> pinned.revision == pinned.config["revision"] == "ab" * 20
    True

    Raises:
        SubmissionRejected: a repo or revision does not exist (or the server may not read it), the Hub did
            not answer, or the answer is not a commit; nothing is queued.
    """
    if resolve is None:
        return spec

    if not (COMMIT.fullmatch(spec.revision) or Path(spec.model).is_absolute()):
        commit = _commit_of(spec.model, canonical_revision(spec.revision), resolve)
        spec = replace(spec, revision=commit, config={**spec.config, "revision": commit})
    try:
        config = pin_config(spec.config, lambda repo, revision: _commit_of(repo, revision, resolve))
    except ConfigError as exc:
        raise SubmissionRejected(f"{exc}; nothing was queued") from None
    return spec if config == spec.config else replace(spec, config=config)


def _commit_of(repo: str, asked: str, resolve: RevisionResolver) -> str:
    """The commit ``asked`` names in the Hub model repo ``repo`` (see :func:`pin_revision` for the refusals)."""
    from huggingface_hub.errors import RepositoryNotFoundError, RevisionNotFoundError

    try:
        commit = resolve(repo, asked)
    except RevisionNotFoundError:
        raise SubmissionRejected(
            f"model {repo!r} has no revision {asked!r} on the Hub: give a branch, tag or commit of the repo"
        ) from None
    except RepositoryNotFoundError:
        raise SubmissionRejected(
            f"no model repo {repo!r} that this server can read on the Hub (it does not exist, or it is "
            "private or gated): check the repo id, or grant the server access"
        ) from None
    except Exception as exc:  # any other failure to reach the Hub queues nothing, with one line
        raise SubmissionRejected(
            f"could not ask the Hub which commit {repo}@{asked} is ({type(exc).__name__}); nothing was "
            "queued: try again later"
        ) from None
    if not COMMIT.fullmatch(commit):
        raise SubmissionRejected(
            f"the Hub named no commit for {repo}@{asked} (got {commit[:60]!r}); nothing was queued: try again "
            "later"
        )
    return commit


def pin_date(spec: RequestSpec, now: float | None = None) -> RequestSpec:
    """An API model's request at the UTC date it is made (``YYYY-MM-DD``), never asked of the Hub.

    >>> spec = RequestSpec("gpt-4o", "", "openai_compatible", {"judge": "openai_compatible"}, ("mist",))
    >>> pin_date(spec, now=0.0).revision
    '1970-01-01'
    """
    return replace(spec, revision=time.strftime("%Y-%m-%d", time.gmtime(now)))


def endpoint_name(base_url: str) -> str:
    """How a row names the API endpoint it was run against: the host of a public endpoint; a private one
    (an address, ``localhost``, a name without a dot, ``.internal``/``.local``) only by a digest of its URL,
    so that the table never shows an internal address.

    >>> endpoint_name("https://api.openai.com/v1"), endpoint_name("http://10.0.0.5:8000/v1")[:17]
    ('api.openai.com', 'private endpoint ')
    """
    import hashlib
    import ipaddress
    from urllib.parse import urlsplit

    host = (urlsplit(base_url).hostname or "").lower()
    try:
        ipaddress.ip_address(host)
        internal = True
    except ValueError:
        internal = "." not in host or host.endswith((".internal", ".local", ".localhost", ".lan"))
    if host and not internal:
        return host
    return f"private endpoint {hashlib.sha256(base_url.encode('utf-8')).hexdigest()[:10]}"

"""Credentials in URLs and text: strip them before a URL is written anywhere public, redact them in logs.

A leaf module: it imports nothing from mmjudge. A URL's *userinfo* (``scheme://user:password@host``) holds
credentials whatever the scheme: a token as the user of an HTTPS remote, a password in a database,
Redis or AMQP URL. :func:`strip_userinfo` removes it from one URL (keeping an SSH login name, which
names an account and proves nothing); :func:`redact_credentials` masks it, and ``password=`` query
values, everywhere in a text; :func:`redact_values` masks given secret values.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import urlsplit, urlunsplit

__all__ = ["MIN_SECRET_LENGTH", "USERINFO", "redact_credentials", "redact_values", "strip_userinfo", "url_credentials"]

USERINFO = re.compile(r"\b([A-Za-z][A-Za-z0-9+.-]*://)[^\s/?#@'\"<>]+@")
"""``scheme://<userinfo>@``: group 1 is the scheme and its ``://``."""
_PASSWORD_PARAM = re.compile(r"([?&;]password=)[^&;\s'\"<>]*", re.IGNORECASE)
MIN_SECRET_LENGTH = 8
"""Shorter values are not masked by :func:`redact_values` (``1``, ``true``, a port would mask ordinary text)."""


def strip_userinfo(url: str) -> str:
    """``url`` without its credentials: the userinfo of any URL goes, except an SSH login name without a
    password (``ssh://git@host/...``, which an SSH remote needs); ``password=`` query values go too.

    >>> strip_userinfo("https://ci-bot:ghp_abc123@github.com/org/mmjudge.git")
    'https://github.com/org/mmjudge.git'
    >>> strip_userinfo("https://ghp_abc123@github.com/org/mmjudge")
    'https://github.com/org/mmjudge'
    >>> strip_userinfo("ssh://git@github.com/org/mmjudge")
    'ssh://git@github.com/org/mmjudge'
    >>> strip_userinfo("ssh://git:pw@github.com/org/mmjudge")
    'ssh://git@github.com/org/mmjudge'
    """
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return _PASSWORD_PARAM.sub(r"\1", url)
    userinfo, host = parts.netloc.rsplit("@", 1)
    user, _, _ = userinfo.partition(":")
    keep = f"{user}@" if parts.scheme in ("ssh", "git+ssh") and user else ""
    return _PASSWORD_PARAM.sub(r"\1", urlunsplit(parts._replace(netloc=keep + host)))


def url_credentials(url: str) -> list[str]:
    """The credentials a URL carries, as values to look for: its password, its ``password=`` query values and
    its user (except an SSH login name, which names an account, as :func:`strip_userinfo` keeps it).

    >>> url_credentials("https://ci-bot:ghp_abc123@github.com/org/x"), url_credentials("ssh://git:pw@host/x")
    (['ghp_abc123', 'ci-bot'], ['pw'])
    >>> url_credentials("postgresql:///lb?host=/tmp&password=s3cret"), url_credentials("/data/lb.sqlite")
    (['s3cret'], [])
    """
    from urllib.parse import parse_qs

    if "://" not in url:
        return []
    parts = urlsplit(url)
    values = [parts.password or "", *parse_qs(parts.query).get("password", [])]
    if parts.scheme not in ("ssh", "git+ssh"):
        values.append(parts.username or "")
    return [v for v in values if v]


def redact_credentials(text: str) -> str:
    """Every ``scheme://userinfo@`` in ``text`` as ``scheme://***@``, every ``password=`` value as ``***``.

    >>> redact_credentials("connect postgresql://lb:s3cret@db:5432/x failed; redis://:pw@cache:6379/0")
    'connect postgresql://***@db:5432/x failed; redis://***@cache:6379/0'
    >>> redact_credentials("postgresql:///lb?host=/tmp&password=s3cret")
    'postgresql:///lb?host=/tmp&password=***'
    """
    return _PASSWORD_PARAM.sub(r"\1***", USERINFO.sub(r"\1***@", text))


def redact_values(text: str, values: Iterable[str]) -> str:
    """``text`` with every value of ``values`` at least :data:`MIN_SECRET_LENGTH` long as ``***`` (the
    longest first, so a secret that contains another is masked whole).

    >>> redact_values("key sk-live-12345678 and sk-live-12345678-extra", ["sk-live-12345678", "1"])
    'key *** and ***-extra'
    """
    for value in sorted({v for v in values if v and len(v) >= MIN_SECRET_LENGTH}, key=len, reverse=True):
        text = text.replace(value, "***")
    return text

"""What the leaderboard never shows: the settings that hold credentials, and a log made fit for the public.

Kept apart from the worker (which writes logs), the Space (which reads the settings) and the UI and mirror
(which show logs), so that each imports it and none imports another for it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from mmjudge._secrets import redact_credentials, redact_values
from mmjudge.leaderboard.core.login_settings import SECRETS as AUTH_SECRETS
from mmjudge.leaderboard.core.settings import SETTINGS

__all__ = ["SECRETS", "public_log"]

SECRETS: dict[str, str] = {
    **{s.variable: s.help for s in SETTINGS if s.secret and s.variable is not None},
    "HF_TOKEN": "read access to private label repos; write access to MMJUDGE_MIRROR_REPO when mirroring",
    **AUTH_SECRETS,
}
"""The settings that hold credentials (those of :data:`~mmjudge.leaderboard.core.settings.SETTINGS` declared
``secret``, the Hub token, and the login's): set as Space secrets, never written into a build, and masked in
every log a worker makes public (whatever their value looks like). The login's (``OAUTH_CLIENT_SECRET``,
``MMJUDGE_SESSION_SECRET``) are set only off a Space; on one, ``hf_oauth: true`` provides the login."""


_SECRET_NAME = re.compile(r"TOKEN|KEY|SECRET|PASSWORD|PASSWD|CREDENTIAL", re.IGNORECASE)
_ABSOLUTE_PATH = re.compile(r"(?<![\w.:/~<>-])(?:/[^\s/'\"<>|:,;()]+)+/?")
_URL = re.compile(r"\b[A-Za-z][A-Za-z0-9+.-]*://[^\s'\"<>]+")
_PUBLIC_HOSTS = ("huggingface.co", "hf.co")


def public_log(text: str, folders: dict[str, str] | None = None, *,
               environ: Iterable[tuple[str, str]] | None = None, secrets: Iterable[str] = ()) -> str:  # fmt: skip
    """A log as the public queue may show it: no server paths, internal URLs, credentials or secret values.

    ``secrets`` (the values the worker was configured with as secrets, :func:`secret_values`) and the
    values of environment variables whose name says token, key, secret or password become ``***``; so
    does the userinfo of every ``scheme://user:password@`` URL, whatever the scheme (``postgresql``,
    ``postgres``, ``redis``, ``amqp``, ``https``, ...) and every ``password=`` query value. Known folders
    become their placeholder; any other absolute path keeps only its last part; URLs outside the Hugging
    Face Hub become ``<url>``, whatever their scheme.

    >>> public_log("open /srv/lb/data/bench/x.parquet failed; POST http://10.0.0.5:8000/v1 ok",
    ...            {"/srv/lb/data": "<data>"}, environ=[])
    'open <data>/bench/x.parquet failed; POST <url> ok'
    >>> public_log('File "/usr/lib/python3.11/json/decoder.py", line 3', environ=[("HF_TOKEN", "hf_abcdefgh")])
    'File ".../decoder.py", line 3'
    """
    pairs = list(os.environ.items() if environ is None else environ)
    text = redact_values(text, [*secrets, *(value for name, value in pairs if _SECRET_NAME.search(name))])
    text = redact_credentials(text)
    for folder, placeholder in sorted((folders or {}).items(), key=lambda kv: -len(kv[0])):
        if len(folder) > 1:
            text = text.replace(folder, placeholder)
    text = _URL.sub(lambda m: m.group(0) if _public_url(m.group(0)) else "<url>", text)
    return _ABSOLUTE_PATH.sub(lambda m: ".../" + m.group(0).rstrip("/").rsplit("/", 1)[-1], text)


def _public_url(url: str) -> bool:
    host = url.split("://", 1)[1].split("/", 1)[0].split(":", 1)[0].lower()
    return any(host == h or host.endswith("." + h) for h in _PUBLIC_HOSTS)

"""The login's settings, read by the app (which logs users in) and by :mod:`~mmjudge.leaderboard.core.redaction`
(which masks the credentials among them), so that neither reads the other for them."""

from __future__ import annotations

__all__ = [
    "CLIENT_ID",
    "CLIENT_SECRET",
    "DEFAULT_PROVIDER",
    "DEFAULT_SCOPES",
    "MIN_SECRET_CHARS",
    "NEW_APP_URL",
    "PROVIDER",
    "PUBLIC_URL",
    "SCOPES",
    "SECRETS",
    "SESSION_SECRET",
    "VARIABLES",
]

CLIENT_ID, CLIENT_SECRET, SCOPES, PROVIDER = (
    "OAUTH_CLIENT_ID",
    "OAUTH_CLIENT_SECRET",
    "OAUTH_SCOPES",
    "OPENID_PROVIDER_URL",
)
"""The login's environment variables (:data:`VARIABLES` says what each holds)."""
SESSION_SECRET, PUBLIC_URL = "MMJUDGE_SESSION_SECRET", "MMJUDGE_PUBLIC_URL"
DEFAULT_SCOPES, DEFAULT_PROVIDER = "openid profile", "https://huggingface.co"

MIN_SECRET_CHARS = 32
NEW_APP_URL = "https://huggingface.co/settings/applications/new"

VARIABLES: dict[str, str] = {
    CLIENT_ID: "off a Space, with login: client id of the leaderboard's OAuth app on huggingface.co "
    "(on a Space `hf_oauth: true` sets it)",
    CLIENT_SECRET: "off a Space, with login: that OAuth app's client secret (a secret; on a Space "
    "`hf_oauth: true` sets it)",
    SCOPES: f"off a Space: scopes asked for at login (default `{DEFAULT_SCOPES}`)",
    PROVIDER: f"off a Space: the OpenID provider (default {DEFAULT_PROVIDER})",
    PUBLIC_URL: "off a Space: the server's public URL; the OAuth redirect URL is <it>/login/callback "
    "(default: the URL a request arrives at)",
    SESSION_SECRET: f"off a Space: key signing the login cookies, {MIN_SECRET_CHARS}+ random characters (a "
    "secret; default: generated once into a mode-0600 file beside the SQLite store, or in the user data dir)",
}
"""The login settings read off a Space (a Space's own OAuth reads the first four itself)."""

SECRETS: dict[str, str] = {
    CLIENT_SECRET: VARIABLES[CLIENT_SECRET],
    SESSION_SECRET: VARIABLES[SESSION_SECRET],
}
"""The login settings that are credentials."""

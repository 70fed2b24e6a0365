"""The leaderboard's rules, without gradio: settings (each declared once), submission validation, the
:class:`~mmjudge.leaderboard.core.service.Leaderboard` service (submit, request, hide), the model-request queue
with its policy and revisions, worker heartbeats, the login's setting names, and what is never shown
(:mod:`~mmjudge.leaderboard.core.redaction`). Used by the app and the worker alike."""

"""Asking the Hub which commit a revision names now (a leaf: ``huggingface_hub`` is imported when asked)."""

from __future__ import annotations

__all__ = ["HUB_TIMEOUT_S", "hub_commit"]

HUB_TIMEOUT_S = 10.0
"""How long a question to the Hub may take."""


def hub_commit(repo: str, revision: str) -> str:
    """The commit ``revision`` of the Hub model repo ``repo`` names now (``HfApi.model_info``; ``HF_TOKEN`` lets
    the caller read gated and private repos); raises ``huggingface_hub``'s errors."""
    from huggingface_hub import HfApi

    return str(HfApi().model_info(repo, revision=revision, timeout=HUB_TIMEOUT_S).sha or "")

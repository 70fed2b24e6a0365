"""Fixtures shared by the leaderboard app's browser tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import STEP_MS, chromium


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium for the module, with every wait on a page as long as a step may take (the
    assertion default is 5 s)."""
    with chromium() as launched:
        from playwright.sync_api import expect

        expect.set_options(timeout=STEP_MS)
        yield launched

"""Fixtures of the robustness tests: the synthetic judges registered beside the built-in ones."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture
def synthetic_judges(monkeypatch: pytest.MonkeyPatch, sample_data: Path) -> Path:
    """Register the synthetic judges (a registry holding the built-ins too) and fill their clip tables."""
    import synthetic_judges as sj

    from mmjudge.data.media_paths import resolve_media
    from mmjudge.data.rows import load_rows
    from mmjudge.judges import JUDGES
    from mmjudge.registry import Registry

    registry = Registry("judge")
    for name in JUDGES.names():
        registry.register(name)(JUDGES.get(name))
    for name, cls in sj.JUDGES.items():
        registry.register(name)(cls)
    monkeypatch.setattr("mmjudge.judges._registry.JUDGES", registry)
    folder = sample_data / "isovrbench"
    for clip in load_rows(folder, "clips"):
        path = str(resolve_media(clip["video_path"], folder))
        monkeypatch.setitem(sj.PROMPT_OF, path, str(clip["prompt"]))
        monkeypatch.setitem(sj.GENERATOR_OF, path, str(clip["generator"]))
    return sample_data

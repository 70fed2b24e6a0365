"""mmjudge allows huggingface-hub 0.34+ (beside transformers 4.x); the eval-results export alone needs 1.4+
(``EvalResultEntry``) and, on an older one, says which version to install instead of failing on an import."""

from __future__ import annotations

import sys
from types import ModuleType

import pytest

from mmjudge.errors import MissingDependencyError
from mmjudge.export.eval_results import eval_result_entries


def test_an_old_huggingface_hub_gets_a_clear_error(monkeypatch):
    old = ModuleType("huggingface_hub")
    old.__version__ = "0.34.0"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "huggingface_hub", old)
    with pytest.raises(MissingDependencyError, match=r"huggingface-hub>=1\.4 .* 0\.34\.0 is installed"):
        eval_result_entries(None, {}, dataset_repo="org/data")  # type: ignore[arg-type]

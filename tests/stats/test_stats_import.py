"""`import mmjudge.stats` stays light: scipy, scikit-learn and statsmodels load on first use."""

from __future__ import annotations

import subprocess
import sys


def test_import_stats_does_not_load_heavy_libraries():
    code = "import sys, mmjudge.stats; print(','.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    loaded = set(out.strip().split(","))
    assert not {"scipy", "sklearn", "statsmodels", "torch", "pandas"} & loaded

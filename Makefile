# The README's two commands: `make demo` and `make test` (ruff, mypy, lint-imports, pytest). Each sets up .venv on its own.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.mmjudge-installed
comma := ,
# One pytest worker per core and one more: the tests also wait (subprocesses, sockets, PostgreSQL, leases), and on
# 2 cores a third worker filled those waits (the default suite in 318 s, against 344 s with two and 345 s with four;
# 2026-12-07). Each worker computes on one thread (tests/conftest.py).
PYTEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
PYTEST_ARGS ?= -n $(PYTEST_WORKERS) --dist worksteal -m "not slow and not gpu and not browser" --durations=15
# The browser tests run after the rest, one at a time: beside two workers running torch, a first page load of
# the gradio app in Chromium has taken over a minute on the 2-core CI machine.
BROWSER_PYTEST_ARGS ?= -p no:xdist -m "browser and not slow and not gpu" --durations=5

.PHONY: demo test lint typecheck layers pytest docs test-pythons venv clean

$(STAMP): pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -c constraints.txt "torch==2.14.1" "torchvision==0.29.1"
	$(PY) -m pip install --quiet --disable-pip-version-check -c constraints.txt -e ".[all]"
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/mmjudge demo --out demo-output

lint: $(STAMP)
	$(VENV)/bin/ruff check .

typecheck: $(STAMP)
	$(VENV)/bin/mypy

layers: $(STAMP)
	$(VENV)/bin/lint-imports

# PYTHONDONTWRITEBYTECODE emptied: where the environment sets it (as container images often do), every worker and
# every mmjudge subprocess the tests start compiled the sources again; a fresh clone's default suite took 350 s with
# it set and 323 s without (2026-12-07). The .pyc files go to __pycache__ folders git ignores.
pytest: $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(VENV)/bin/pytest $(PYTEST_ARGS)
	PYTHONDONTWRITEBYTECODE= $(VENV)/bin/pytest $(BROWSER_PYTEST_ARGS)

# The docs site (mkdocs.yml, docs/): the generated pages must be current (scripts/gen_docs.py), then a strict
# build (a broken link, a missing anchor or an API reference that does not resolve fails it) into site/.
docs: $(STAMP)
	$(PY) scripts/gen_docs.py --check
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --quiet

test: lint typecheck layers docs pytest test-pythons

# The lowest and highest Python that pyproject.toml's requires-python admits (>=3.10; 3.13 is the newest
# tried). Each gets its own venv with mmjudge[video,metrics,dev] and WITHOUT torch: the torch wheels on this
# disk are for Python 3.11 only, and for any other Python pip would download a multi-GB CUDA build of torch.
# So these venvs run a fast slice of the tests that need no torch (the torch tests importorskip it):
# scoring, metrics, stats, the prediction and results files, data building and the CLI's sample-data,
# `eval --judge random`, score and compare flows (the README's tour, run verbatim), which also shows that
# weight-free judges run without torch. Left to the 3.11 `pytest` run: the Monte Carlo checks of the statistics
# (marker `simulation`: seeded numpy, the same draws on every Python; about 80 s of CPU per slice), the leaderboard (the `space` extra)
# and the Hub modules' fresh-venv test (its own venv from the index). The interpreter is pyenv's
# ~/.pyenv/versions/<x.y>.*, else python<x.y> on PATH. No constraints.txt: its pins are for 3.11 (numpy,
# pandas and scipy releases that need >=3.11), so pip resolves these venvs from the index.
PYTHON_VERSIONS := 3.10 3.13
PYTHON_VENVS := $(foreach v,$(PYTHON_VERSIONS),.venv-py$(subst .,,$(v)))
PYTHONS_PYTEST_ARGS ?= -n $(PYTEST_WORKERS) -m "not slow and not gpu and not browser and not simulation" -p no:cacheprovider -q
PYTHONS_SLICE := tests/test_scoring.py tests/test_predictions.py tests/test_prediction_schema.py \
	tests/test_results_estimates.py tests/stats tests/metrics tests/data tests/test_eval_cli.py \
	tests/comparison tests/test_readme_commands.py tests/runner tests/test_hashing.py \
	tests/media/test_fork_after_decode.py \
	--ignore=tests/metrics/test_hub_modules.py

$(foreach v,$(PYTHON_VERSIONS),$(eval .venv-py$(subst .,,$(v))/.mmjudge-installed: PYVER := $(v)))
.venv-py%/.mmjudge-installed: pyproject.toml
	@py=""; for c in $(HOME)/.pyenv/versions/$(PYVER).*/bin/python$(PYVER) $$(command -v python$(PYVER)); do \
	  "$$c" -c 'import sys; sys.exit(sys.version_info[:2] != ($(subst .,$(comma),$(PYVER))))' 2>/dev/null \
	    && { py="$$c"; break; }; \
	done; \
	test -n "$$py" || { echo "make test-pythons: no Python $(PYVER) found (looked in ~/.pyenv/versions and PATH); install it, e.g. pyenv install $(PYVER)" >&2; exit 1; }; \
	test -x $(@D)/bin/python || "$$py" -m venv $(@D)
	$(@D)/bin/python -m pip install --quiet --disable-pip-version-check -e ".[video,metrics,dev]"
	touch $@

test-pythons: $(foreach d,$(PYTHON_VENVS),$(d)/.mmjudge-installed)
	for d in $(PYTHON_VENVS); do \
	  ! $$d/bin/python -c "import torch" 2>/dev/null || { echo "$$d has torch: this slice must run without it" >&2; exit 1; }; \
	  PYTHONDONTWRITEBYTECODE= $$d/bin/python -m pytest $(PYTHONS_PYTEST_ARGS) $(PYTHONS_SLICE) || exit 1; \
	done

clean:
	rm -rf demo-output site .mypy_cache .ruff_cache

# The README's two commands: `make demo` and `make test` (ruff, mypy, lint-imports, pytest). Each sets up .venv on its own.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.mmjudge-installed
PYTEST_ARGS ?= -n 2 -m "not slow and not gpu" --durations=15

.PHONY: demo test lint typecheck layers pytest venv clean

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

pytest: $(STAMP)
	$(VENV)/bin/pytest $(PYTEST_ARGS)

test: lint typecheck layers pytest

clean:
	rm -rf demo-output .mypy_cache .ruff_cache

# Two commands: `make demo` runs the main job end to end, `make test` runs the tests.
# Both create .venv and install the project into it once (the stamp makes reruns no-ops).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: demo test lint bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/poker-audit demo

test: $(STAMP) lint
	$(PY) -m pytest

lint: $(STAMP)
	$(VENV)/bin/ruff check .

bench: $(STAMP)
	$(VENV)/bin/poker-audit bench $(addprefix --phh ,$(wildcard ../shared/data/handhq/*.phhs)) --out bench-result.json

clean:
	rm -rf $(VENV) audit-store fixtures/build bench/results .pytest_cache

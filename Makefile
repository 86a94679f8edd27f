# Two commands: `make demo` runs the main job end to end, `make test` runs the tests (all of
# them, as CI does); `make check` is the fast subset for everyday work; `make notebooks` opens
# the investigation notebooks in JupyterLab.
# Each creates .venv and installs the project into it once (the stamp makes reruns no-ops),
# then compiles the replay kernel into numba's cache: the demo compiles it anyway, and the
# tests' two workers (make test, CI) would each compile it at once, ~2 GB apiece.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: demo test check lint bench clean browser notebooks

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@echo "compiling the replay kernel once (first install: 2-3 min)..."
	$(PY) -m audit.devtools.faults_warmup
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/poker-audit demo

# The investigation notebooks (notebooks/) in JupyterLab, installed into .venv (the dev extra
# has it; a venv made before it gets it here), on the store in $$POKER_AUDIT_STORE, else
# ./audit-store (an absolute path: a notebook runs in notebooks/). Make one with
# `.venv/bin/poker-audit demo --store audit-store`, or ingest and audit your own hands. As root
# (a container), Jupyter starts only with --allow-root.
NOTEBOOK_STORE = $(abspath $(or $(POKER_AUDIT_STORE),audit-store))
notebooks: $(STAMP)
	@$(VENV)/bin/jupyter-lab --version >/dev/null 2>&1 || \
		$(PY) -m pip install --quiet -e '.[notebooks]'
	@test -f "$(NOTEBOOK_STORE)/manifest.jsonl" || echo "note: no store at $(NOTEBOOK_STORE) \
	yet: make one with .venv/bin/poker-audit demo --store $(NOTEBOOK_STORE), or set \
	POKER_AUDIT_STORE"
	POKER_AUDIT_STORE="$(NOTEBOOK_STORE)" $(VENV)/bin/jupyter lab notebooks/ \
		$$([ "$$(id -u)" = 0 ] && echo --allow-root)

# On both cores (pytest-xdist): tests marked xdist_group run on one worker, in order.
test: $(STAMP) lint browser
	$(PY) -m pytest -n 2 --dist loadgroup

# Lint, then every test but the slow ones (a second or more), the browser and the notebooks,
# with the doctests: under 3 minutes on two cores. The markers are in pyproject.toml.
check: $(STAMP) lint
	$(PY) -m pytest -m "not slow and not browser and not notebooks"

# The report's browser test drives Debian's chromium (never a browser download).
browser:
	@command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || \
		(apt-get update -qq && apt-get install -y -qq chromium >/dev/null) || \
		echo "chromium could not be installed: the report's browser test will be skipped"

# ruff, the import contracts in .importlinter (the layer rule of ARCHITECTURE.md), then mypy
# --strict on poker/, rules/, store/ and the leaf modules below them ([tool.mypy] in pyproject.toml)
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

bench: $(STAMP)
	$(VENV)/bin/poker-audit bench $(addprefix --phh ,$(wildcard ../shared/data/handhq/*.phhs)) --out bench-result.json

clean:
	rm -rf $(VENV) audit-store fixtures/build bench/results .pytest_cache .import_linter_cache \
		.mypy_cache

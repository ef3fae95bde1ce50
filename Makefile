# Two commands matter: `make run` starts the bot, `make test` checks everything.
# Both build .venv from pyproject.toml on first use and again whenever it changes.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python

.PHONY: run test lint bench clean

run: $(VENV)/.run-installed
	$(PY) -m bot $(ARGS)

# Two workers, tests handed out one at a time (--dist loadgroup): the complete SimCord games
# sit in one file, which the other modes would give to a single worker. PYTEST_ARGS=-n0 runs
# serially.
test: $(VENV)/.dev-installed
	$(PY) -m ruff check .
	$(PY) -m pytest -n 2 --dist loadgroup $(PYTEST_ARGS)

lint: $(VENV)/.dev-installed
	$(PY) -m ruff check .

bench: $(VENV)/.dev-installed
	$(PY) benchmarks/engines.py
	$(PY) benchmarks/bot_load.py $(BENCH_ARGS)

$(VENV)/bin/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
	  { echo "Glory needs Python 3.11 or newer; $(PYTHON) is $$($(PYTHON) --version 2>&1)."; exit 1; }
	@$(PYTHON) -m venv $(VENV) 2>/dev/null || \
	  { rm -rf $(VENV); echo "Could not create a virtual environment. On Debian or Ubuntu run:"; \
	    echo "    sudo apt-get install python3-venv"; echo "and then run make again."; exit 1; }
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.run-installed: pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet -e .
	@touch $@

$(VENV)/.dev-installed: pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $@ $(VENV)/.run-installed

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis

# Two commands matter: `make run` starts the bot, `make test` checks everything.
# Both build .venv on first use and again whenever pyproject.toml or a lock file changes. The
# lock files hold the exact versions every install uses (make run: requirements.lock; make test
# and CI: requirements-dev.lock; the Dockerfile and Procfile platforms: requirements.lock);
# pyproject.toml keeps the ranges Glory works with. `make lock` writes them again from those
# ranges, keeping every pin that still fits; `make lock UPGRADE=--upgrade` takes the newest.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
UV_VERSION ?= 0.13.9
LOCK   := $(VENV)/bin/uv pip compile --quiet --universal --python-version 3.11 \
          --annotation-style line $(UPGRADE) pyproject.toml

.PHONY: run test lint bench lock clean playground playground-shots

run: $(VENV)/.run-installed
	$(PY) -m bot $(ARGS)

# Two workers, tests handed out one at a time (--dist loadgroup): the complete SimCord games
# sit in one file, which the other modes would give to a single worker. PYTEST_ARGS=-n0 runs
# serially.
test: $(VENV)/.dev-installed
	$(PY) -m ruff check .
	$(VENV)/bin/hadolint Dockerfile
	$(PY) -m pytest -n 2 --dist loadgroup $(PYTEST_ARGS)

lint: $(VENV)/.dev-installed
	$(PY) -m ruff check .
	$(VENV)/bin/hadolint Dockerfile

# Glory in the browser without Discord (docs/playground.md): the real bot against the local
# emulator, the page on http://127.0.0.1:8787 (ARGS="--port 9000 --players ann,ben" ...).
playground: $(VENV)/.run-installed
	$(PY) -m bot playground $(ARGS)

# The pictures in docs/pictures/playground, taken anew in headless Chromium (Debian's chromium).
playground-shots: $(VENV)/.dev-installed
	$(PY) -m bot.playground.shots docs/pictures/playground

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

# The locked versions first, then Glory itself without dependencies (so nothing unpinned).
$(VENV)/.run-installed: pyproject.toml requirements.lock | $(VENV)/bin/python
	$(PY) -m pip install --quiet -r requirements.lock
	$(PY) -m pip install --quiet --no-deps -e .
	@touch $@

# The dev lock holds setuptools, so Glory builds without a separate build environment.
$(VENV)/.dev-installed: pyproject.toml requirements-dev.lock | $(VENV)/bin/python
	$(PY) -m pip install --quiet -r requirements-dev.lock
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e .
	@touch $@ $(VENV)/.run-installed

lock: | $(VENV)/bin/python
	$(PY) -m pip install --quiet "uv==$(UV_VERSION)"
	$(LOCK) -o requirements.lock
	$(LOCK) --extra dev -o requirements-dev.lock

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis

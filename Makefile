# Two commands do all the set-up on a fresh machine: `make demo` and `make test`.
# Both create or update .venv/ and install the project into it.

PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test venv bytecode proto events sdk gen lint bench clean

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip setuptools wheel
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

# npm ci installs buf and the Node client's dependencies (clients/node is a workspace).
node_modules/.bin/buf: package.json package-lock.json clients/node/package.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

venv: $(STAMP)

# The project's bytecode, compiled once (a second is enough; then only what changed): every
# service, CLI and test process loads it instead of compiling each module anew, which
# Python does at every start where PYTHONDONTWRITEBYTECODE is set (about 0.25 s a process).
bytecode: $(STAMP)
	$(PY) -m compileall -q -j 0 poker services clients bench > /dev/null

demo: $(STAMP) bytecode
	$(VENV)/bin/poker demo

# One worker a core (pytest-xdist): the suite is about 14 minutes on one, 8 on two.
test: $(STAMP) node_modules/.bin/buf bytecode
	PATH="$(CURDIR)/node_modules/.bin:$$PATH" $(PY) -m pytest -n auto

# A message changed is what calls for clients/events.py, clients/table_config.py and
# clients/tournament_values.py anew.
proto: $(STAMP)
	$(PY) -m poker.protogen
	$(MAKE) events

# clients/events.py, clients/table_config.py and clients/tournament_values.py (the SDK's
# events, request-form TableConfig and tournament answers) are generated from poker.vocab
# and the messages by clients/derive.py; tests/sdk/test_derive.py fails when stale.
events: $(STAMP)
	$(PY) -c "import sys; from clients.derive import main; sys.exit(main())"

# Clients of the API in Python and TypeScript into gen/ (buf.gen.yaml: local plugins only).
gen: $(STAMP) node_modules/.bin/buf
	PATH="$(CURDIR)/node_modules/.bin:$$PATH" buf generate

# clients/sdk.py (the sync SDK) is generated from clients/aio.py; tests/sdk/test_syncgen.py
# fails when it is stale.
sdk: $(STAMP)
	$(PY) -m clients.syncgen

lint: $(STAMP) node_modules/.bin/buf
	node_modules/.bin/buf lint
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy poker services clients

bench: $(STAMP)
	$(PY) bench/evaluator.py
	$(PY) bench/engine.py
	$(PY) bench/dealer.py
	$(PY) bench/table.py
	$(PY) bench/wire.py
	$(PY) bench/admission.py
	$(PY) bench/table_core.py

clean:
	rm -rf $(VENV) node_modules .pytest_cache

# The two fresh-machine commands of the README: `make demo` and `make test`.
# Both create .venv with Python 3.11 and install the project into it; nothing is installed globally
# except the Debian packages the browser tests need (scripts/system-deps.sh, only when missing).
PYTHON ?= python3.11
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: demo test lint typecheck unit samples bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip setuptools wheel

$(VENV)/.serve: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install -q -e '.[serve,learned]'
	touch $@

$(VENV)/.test: $(BIN)/python pyproject.toml
	bash scripts/system-deps.sh
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@ $(VENV)/.serve

demo: $(VENV)/.serve
	$(BIN)/tableref serve

lint: $(VENV)/.test
	$(BIN)/ruff check .

typecheck: $(VENV)/.test
	$(BIN)/mypy

unit: $(VENV)/.test
	$(BIN)/python -m pytest -q

test: lint typecheck unit

samples: $(VENV)/.serve
	$(BIN)/python scripts/make_samples.py

bench: $(VENV)/.serve
	$(BIN)/python benchmarks/bench_simulator.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache

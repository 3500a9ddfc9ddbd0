# Set-up is idempotent: the venv is (re)built when pyproject.toml or constraints.txt change.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup run test lint bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[st,dev]'
	touch $(STAMP)

run: setup
	$(BIN)/gpu-advisor

lint: setup
	$(BIN)/ruff check assistant calculators tests bench
	$(BIN)/mypy

test: setup lint
	$(BIN)/python -m pytest

bench: setup
	for script in bench/*.py; do $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache

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
	$(BIN)/ruff format --check assistant calculators tests bench
	$(BIN)/mypy

test: setup lint
	$(BIN)/python -m pytest

# The peer calculator (llm-analysis) is installed without its dependencies: it pins old ones
# that would downgrade ours, and it needs only `fire` to run.
bench: setup
	$(BIN)/python -m pip install --quiet --no-deps 'llm-analysis==0.2.2'
	$(BIN)/python -m pip install --quiet fire
	for script in bench/*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache

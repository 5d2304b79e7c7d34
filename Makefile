# tablero — every target installs what it needs first (idempotent).
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha1sum | cut -c1-12)
PYTHON ?= python3
JOBS ?= 2

.PHONY: install play test test-deep lint typecheck pytest bench clean

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	@rm -f $(VENV)/.installed-*
	@touch $(STAMP)

install: $(STAMP)

## The main job: a game of Don Carlo in the terminal, you against two bots.
play: install
	$(BIN)/tablero play don-carlo --seats you,greedy,greedy

## The test suite (lint, types, tests); stays under 15 minutes on 2 cores.
test: install lint typecheck pytest

lint: install
	$(BIN)/ruff check tablero tests

typecheck: install
	$(BIN)/mypy tablero

pytest: install
	HYPOTHESIS_PROFILE=ci $(BIN)/pytest -q -n $(JOBS) tests

## Thousands of random games per game and player count.
test-deep: install
	TABLERO_DEEP=1 HYPOTHESIS_PROFILE=deep $(BIN)/pytest -q -n $(JOBS) tests

## Random playout speed of every game, as JSON lines.
bench: install
	$(BIN)/tablero bench --game don-carlo --players 4 --seconds 5 --json
	$(BIN)/tablero bench --game el-grande --players 4 --seconds 5 --json
	$(BIN)/tablero bench --game mafia-legend --players 4 --seconds 5 --json

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis

# tablero — every target installs what it needs first (idempotent).
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha1sum | cut -c1-12)
PYTHON ?= python3
JOBS ?= 2

.PHONY: install play serve services test test-deep lint typecheck pytest bench bench-bots bench-server bench-cluster bench-study bench-rl rl-example clean

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev,rl]'
	@rm -f $(VENV)/.installed-*
	@touch $(STAMP)

install: $(STAMP)

## System packages and servers for the tests (Chromium, PostgreSQL 15); idempotent.
PG_URL ?= postgresql+psycopg://tablero:tablero@127.0.0.1:5432/tablero_test
services:
	bash scripts/services.sh install
	bash scripts/services.sh start

## The main job in the browser: http://127.0.0.1:8000 on an embedded SQLite database.
serve: install
	$(BIN)/tablero serve --host 127.0.0.1 --port 8000

## The main job: a game of Don Carlo in the terminal, you against two bots.
play: install
	$(BIN)/tablero play don-carlo --seats you,greedy,greedy

## The test suite (lint, types, tests); stays under 15 minutes on 2 cores.
test: install services lint typecheck pytest

lint: install
	$(BIN)/ruff check tablero tests
	$(BIN)/lint-imports

typecheck: install
	$(BIN)/mypy tablero

pytest: install
	TABLERO_TEST_PG_URL=$(PG_URL) HYPOTHESIS_PROFILE=ci $(BIN)/pytest -q -n $(JOBS) tests

## Thousands of random games per game and player count.
test-deep: install services
	TABLERO_TEST_PG_URL=$(PG_URL) TABLERO_DEEP=1 HYPOTHESIS_PROFILE=deep $(BIN)/pytest -q -n $(JOBS) --timeout=5400 tests

## Random playout speed of every game, as JSON lines.
bench: install
	$(BIN)/tablero bench --game don-carlo --players 4 --seconds 5 --json
	$(BIN)/tablero bench --game el-grande --players 4 --seconds 5 --json
	$(BIN)/tablero bench --game mafia-legend --players 4 --seconds 5 --json

## Strength (seats rotated, 95% intervals) and speed of the search bots, as JSON (docs/bench-bots.json).
## Hours on 2 cores: BENCH_BOTS_ARGS="--only don-carlo --games 20" measures a part.
BENCH_BOTS_ARGS ?=
bench-bots: install
	$(BIN)/python -m tablero.botbench --out docs/bench-bots.json $(BENCH_BOTS_ARGS)

## Many concurrent games through the real WebSocket API (SQLite, then PostgreSQL), as JSON.
bench-server: install services
	$(BIN)/python -m tablero.server.bench --games 200 --players 4 --think 1.0 --seconds 30
	$(BIN)/python -m tablero.server.bench --games 200 --players 4 --think 1.0 --seconds 30 \
		--database postgresql+psycopg://tablero:tablero@127.0.0.1:5432/tablero_bench

## 1,000 concurrent 4-player Don Carlo games, each a person (a WebSocket client, 10 s per move)
## against three server bots, on one PostgreSQL database: one server process, two (each seat on
## either), two with one killed (kill -9) mid-run and every acknowledged move looked up
## (docs/deploy.md, "More than one process"). The games start over a minute, as they would end.
BENCH_CLUSTER = $(BIN)/python -m tablero.server.bench --games 1000 --players 4 --bot-seats 3 --think 10 \
	--ramp 60 --warmup 60 --seconds 60 --database postgresql+psycopg://tablero:tablero@127.0.0.1:5432/tablero_bench
bench-cluster: install services
	$(BENCH_CLUSTER) --processes 1
	$(BENCH_CLUSTER) --processes 2
	$(BENCH_CLUSTER) --processes 2 --kill-after 20

## Games/s of the executor on 1 and 2 local workers and Ray local (2 CPUs), with the scaling
## efficiency, as JSON (docs/bench-study.json; docs/cluster.md).
bench-study: install
	$(BIN)/python -m tablero.study.scaling --repeat 3 --out docs/bench-study.json

## Decisions/s through the research bindings (PettingZoo, OpenSpiel) beside the raw engine, as JSON.
bench-rl: install
	$(BIN)/python -m tablero.rl.bench --seconds 5 --out docs/bench-rl.json

## The worked training example (docs/rl-training.md): MaskablePPO on Don Carlo, 3 players, a few
## minutes on the CPU; the curve and the win shares go to docs/ (RL_EXAMPLE_ARGS="--steps 100000").
RL_EXAMPLE_ARGS ?=
rl-example: install
	$(PY) -m pip install -q -e '.[dev,rl,train]'
	$(PY) examples/train_don_carlo.py --out build/rl-example $(RL_EXAMPLE_ARGS)
	cp build/rl-example/curve.png docs/images/rl-don-carlo-curve.png
	cp build/rl-example/results.json docs/rl-training.json

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis

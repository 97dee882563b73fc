# make demo: set up .venv, simulate a default batch into data/delve.duckdb, open the dashboard.
# make test: set up .venv and run the test suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DB ?= data/delve.duckdb
DEMO_GAMES ?= 1500
PORT ?= 8501

.PHONY: demo test simulate dashboard install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

simulate: $(STAMP)
	$(BIN)/delve simulate glimmerdeep --games $(DEMO_GAMES) --players 4 --bots greedy --seed 1 --jobs 2 --db $(DB) --label demo

dashboard: $(STAMP)
	$(BIN)/delve dashboard --db $(DB) --port $(PORT)

demo: simulate dashboard

test: $(STAMP)
	$(BIN)/python -m pytest -q

clean:
	rm -rf $(VENV) .pytest_cache

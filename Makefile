# make demo: set up .venv, simulate a default batch into data/delve.duckdb, open the dashboard.
# make test: set up .venv and run the test suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DB ?= data/delve.duckdb
DEMO_GAMES ?= 1500
PORT ?= 8501

.PHONY: demo test soak bench-dashboard simulate dashboard install clean chromium

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	@echo "==> Installing Delve and its dependencies into $(VENV) (a few minutes on a fresh machine)"
	$(BIN)/pip install -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

simulate: $(STAMP)
	@echo "==> Simulating $(DEMO_GAMES) greedy 4-player Glimmerdeep games into $(DB) (about 1 minute on 2 idle cores, several when busy; a progress bar follows)"
	$(BIN)/delve simulate glimmerdeep --games $(DEMO_GAMES) --players 4 --bots greedy --seed 1 --jobs 2 --db $(DB) --label demo

dashboard: $(STAMP)
	@echo "==> Serving the dashboard at http://localhost:$(PORT) (Ctrl-C stops it)"
	$(BIN)/delve dashboard --db $(DB) --port $(PORT)

demo: simulate dashboard

# The browser tests drive Debian's chromium: install it when missing (needs apt and root).
chromium:
	@command -v chromium >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq chromium >/dev/null) \
	  || echo "warning: could not install Debian's chromium; the browser tests need it"

test: $(STAMP) chromium
	$(BIN)/python -m pytest -q -n 2 --durations=25

# 10,000 random games of every registered game, invariants checked after every step.
SOAK_GAMES ?= 10000
soak: $(STAMP)
	$(BIN)/python -m pipelines.bench.soak --games $(SOAK_GAMES) --jobs 2

# Every dashboard page rendered on synthetic 100,000 / 300,000 / 1,000,000-game, 4-player
# databases, and each page's growth from 100k (~1 GB of files, git-ignored; PERFORMANCE.md).
bench-dashboard: $(STAMP)
	$(BIN)/delve bench-dashboard --games 100000 --games 300000 --games 1000000 --db data/bench_dashboard.duckdb

clean:
	rm -rf $(VENV) .pytest_cache

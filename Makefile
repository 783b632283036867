# The two commands of the README: `make demo` sets up and serves the demo league,
# `make test` sets up and runs the tests. Both need only Python 3.11 on a fresh machine.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# The suite runs on every core (pytest-xdist), idle workers taking queued tests from busy ones
# (worksteal: the long browser tests no longer leave one core idle at the end); XDIST= runs it
# in one process.
XDIST ?= -n auto --dist worksteal
# The exhaustive checks (every hand, every pegging bound, the lifecycle machine: about four
# minutes of CPU) are marked slow and left to `make test-slow` and CI; PYTEST_ARGS= runs all.
PYTEST_ARGS ?= -m 'not slow'

.PHONY: install demo test test-slow lint typecheck bench messages clean

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/activate
	$(BIN)/pip install --quiet -e ".[dev]"
	touch $@

install: $(VENV)/.installed

# Links in mails, pushes and calendars point at the address the demo serves (unless set).
demo: export PEGBOARD_SITE_URL ?= http://$(HOST):$(PORT)
demo: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py seed_demo --if-empty --url http://$(HOST):$(PORT)/
	$(BIN)/python manage.py runserver $(HOST):$(PORT) --noreload

test: install lint typecheck
	$(BIN)/pytest $(XDIST) $(PYTEST_ARGS) --durations=25

test-slow: install
	$(BIN)/pytest $(XDIST) -m slow

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/vulture

typecheck: install
	$(BIN)/mypy

bench: install
	$(BIN)/python bench/scorer.py

# The French catalogues from the sources (tests/web/test_i18n.py fails when they are behind):
# translate what is new or fuzzy in locale/fr/LC_MESSAGES/*.po, then `make messages` again.
MESSAGES_IGNORE := -i '.venv/*' -i 'tests/*' -i 'bench/*'
messages: install
	$(BIN)/python manage.py makemessages -l fr --no-obsolete $(MESSAGES_IGNORE)
	$(BIN)/python manage.py makemessages -d djangojs -l fr --no-obsolete $(MESSAGES_IGNORE)
	$(BIN)/python manage.py compilemessages -l fr $(MESSAGES_IGNORE)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

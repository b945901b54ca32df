# Two commands on a fresh machine: `make sweep` runs the main job, `make test` runs the tests.
# Both create .venv when missing and install the project with its test extras into it.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: sweep test install clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

# The main job: a short sweep of the 50 logbook missions, 4 players, 10 deals each.
sweep: $(STAMP)
	$(BIN)/crew sweep --deals 10 --out sweeps/quick

test: $(STAMP)
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) build *.egg-info

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

# The main job. Until `crew sweep` exists it solves one fixed four-player deal
# with four drafted tasks and tokens 1 and 2.
DEMO_DEAL := p2 p7 b1 b6 g2 g9 y3 y8 r1 r4 | p3 p8 b2 b7 g3 g7 y4 y9 r2 p1 | p4 p9 b3 b8 g4 g8 y1 y5 r3 b9 | p5 p6 b4 b5 g1 g5 g6 y2 y6 y7
sweep: $(STAMP)
	$(BIN)/crew solve --deal "$(DEMO_DEAL)" --tasks "g3 b8 y2 p6" --tokens "1,2,-,-"

test: $(STAMP)
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) build *.egg-info

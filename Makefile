# Two commands on a fresh machine: `make site` (install + build) and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
BUILD_FLAGS ?=
# make serve PORT=8001 when 8000 is taken (0: any free port)
PORT   ?= 8000

.PHONY: site test shots lint serve check sweep bench clean

site: $(VENV)/.installed node_modules/.installed
	$(PY) build.py $(BUILD_FLAGS)

# four workers (pytest-xdist), whatever the cores: a browser test spends part of its time
# waiting on chromium's frames and idle callbacks, so on 2 cores two workers kept the CPU
# 90 % busy and four 95 % (a fresh clone, back to back: 353 s with 2 workers, 321 s with 4).
# The session's site is built once for all.
# worksteal: a worker that runs out of tests takes the ones still queued behind a long test
# (the tests marked `slow` are put first, tests/conftest.py, so that none is left for the end)
# Bytecode caches are written even where the environment says not to (PYTHONDONTWRITEBYTECODE):
# the suite starts many Python processes (builds of copies, nested pytest runs, its
# workers), each of which would otherwise compile the package and rewrite the tests' asserts
# anew; __pycache__/ is ignored by git.
test: $(VENV)/.installed node_modules/.installed
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -q -n 4 --dist worksteal

# screenshots and a print PDF of every page, for a person to look at (test-artifacts/)
shots: $(VENV)/.installed node_modules/.installed
	$(PY) -m pytest -q -m shots

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check sqrtdk build.py tests bench
	$(VENV)/bin/mypy

sweep: $(VENV)/.installed node_modules/.installed
	$(PY) build.py --sweep 100

serve: $(VENV)/.installed node_modules/.installed
	$(PY) build.py --serve --port $(PORT)

check: $(VENV)/.installed node_modules/.installed
	$(PY) build.py --check

bench: $(VENV)/.installed node_modules/.installed
	$(PY) bench/run.py

$(VENV)/.installed: requirements.txt requirements-test.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt -r requirements-test.txt
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

clean:
	$(PY) build.py --clean

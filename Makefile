PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Two pytest workers, each taking whole files (module fixtures stay in one process); set
# PYTEST_PARALLEL= to run the suite in one process.
PYTEST_PARALLEL ?= -n 2 --dist loadfile

.PHONY: serve test lint bench clean chromium

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

serve: $(STAMP)
	$(BIN)/reverie serve

test: $(STAMP)
	$(BIN)/ruff check src tests bench
	cd src && ../$(BIN)/mypy -p reverie
	@test -x /usr/bin/chromium || $(MAKE) --no-print-directory chromium
	$(BIN)/python -m pytest $(PYTEST_PARALLEL)
	REVERIE_TEST_ENGINE=postgres $(BIN)/python -m pytest $(PYTEST_PARALLEL)

# The web UI's browser tests drive Debian's Chromium (nothing may download a browser of its own).
chromium:
	@if [ "$$(id -u)" != 0 ]; then \
		echo "Chromium is not installed, so the web UI's browser tests will be skipped."; \
		echo "Install it as root: apt-get install -y --no-install-recommends chromium"; \
	else \
		start=$$(date +%s); \
		ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1 || apt-get update -q; \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium \
			|| { apt-get update -q && DEBIAN_FRONTEND=noninteractive \
				apt-get install -y -q --no-install-recommends chromium; } || exit 1; \
		echo "Installed Debian's chromium in $$(( $$(date +%s) - start )) s"; \
	fi

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/store_bench.py

# Mutation testing with mutmut, module by module on SQLite; hours for all of src/reverie, so not part of
# `make test`. MODULES="extract/keys.py accounts.py" limits the run; see tests/MUTATION.md.
.PHONY: mutation
mutation: $(STAMP)
	$(BIN)/python bench/mutation_report.py $(MODULES)

clean:
	rm -rf $(VENV) build src/*.egg-info

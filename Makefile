# Entry points for the Crusade tracker. Start with `make run` (try it) and `make test` (check it).
SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

VENV := .venv
PY := $(VENV)/bin/python
RUFF := $(VENV)/bin/ruff
PYTEST := $(PY) -m pytest
# Our own Django apps. Named explicitly: makemigrations skips an app with no migrations/ yet.
APPS := campaign

# Production-like environment for `check --deploy`. The key only exists for this check.
DEPLOY_ENV := DEBUG=0 \
	SECRET_KEY=deploy-check-only-lczjHJ0JZT5ZcvjCZ_YxT8af0iGghcCEgvMIlDeXryfXFSB3oARzlNEQCnvDiXLc \
	ALLOWED_HOSTS=example.org \
	DATABASE_URL=sqlite:////tmp/x.sqlite3

.PHONY: help venv run test system-deps lint checks migrations-check test-sqlite \
	test-postgresql bench bench-postgresql bench-uploads load throughput screenshots pack-files format serve clean

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-16s %s\n", $$1, $$2}'

venv: $(VENV)/.installed ## Create .venv and install the pinned requirements

$(VENV)/.installed: requirements.txt requirements-dev.txt
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

run: venv ## Migrate, load the demo campaign, print the logins, serve on 127.0.0.1:8000 (and send email)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo
	PY=$(PY) scripts/run_with_worker 127.0.0.1:8000

# The virtualenv and the system packages are installed side by side (pip and apt wait on
# the network more than on the processor), then lint and the checks run side by side.
test: ## Everything CI runs
	$(MAKE) --no-print-directory -j2 --output-sync=target venv system-deps
	$(MAKE) --no-print-directory -j3 --output-sync=target lint checks migrations-check
	@echo "make test: the SQLite and PostgreSQL suites run side by side; each prints when it ends"
	$(MAKE) --no-print-directory -j2 --output-sync=target test-sqlite test-postgresql
	@echo "make test: all green"

system-deps: ## Install PostgreSQL and Chromium with apt if they are missing
	.ci/system-deps

lint: venv ## ruff lint and format check
	$(RUFF) check .
	$(RUFF) format --check .

checks: venv ## Django system checks, including --deploy under production settings
	$(PY) manage.py check
	$(DEPLOY_ENV) $(PY) manage.py check --deploy --fail-level WARNING

migrations-check: venv ## Fail if a model change has no migration
	$(PY) manage.py makemigrations --check --dry-run $(APPS)

test-sqlite: venv ## Test suite on in-memory SQLite, browser tests included
	$(PYTEST) -m "not postgresql" --durations=15

# The PostgreSQL leg runs every test that opens the database, browser tests aside: a test
# that opens none gives the same result on both, and the SQLite leg runs it.
test-postgresql: venv ## Test suite on a throwaway PostgreSQL cluster: the tests that use a database
	@url="$$(.ci/postgres start)"; \
	trap '.ci/postgres stop' EXIT; \
	DATABASE_URL="$$url" $(PYTEST) -m "not browser and not database_free" --durations=15

# `make bench DB=postgresql` for PostgreSQL; `ARGS="--scale small"` (or --reuse, --json PATH, ...)
# is passed to `manage.py bench`. The configured database is never used: the command makes
# its own, and DATABASE_URL only chooses where.
DB ?= sqlite
ARGS ?=

bench: venv ## Seed a 100-force league in a throwaway database and time its pages (DB=postgresql)
	@case "$(DB)" in \
		sqlite) DATABASE_URL=sqlite:///:memory: $(PY) manage.py bench $(ARGS) ;; \
		postgresql) $(MAKE) --no-print-directory bench-postgresql ;; \
		*) echo "make bench: DB is sqlite or postgresql, not '$(DB)'" >&2; exit 2 ;; \
	esac

bench-postgresql: venv ## The same benchmark on a throwaway, durable PostgreSQL cluster
	@url="$$(DURABLE=1 .ci/postgres start)"; \
	trap '.ci/postgres stop' EXIT; \
	DATABASE_URL="$$url" $(PY) manage.py bench $(ARGS)

bench-uploads: venv ## Measure the server's memory for picture uploads (gunicorn, temp SQLite file)
	$(PY) -m scripts.bench_uploads

# `make load` (DB=postgresql, USERS=200, LOAD_TIME=60; ARGS="--workers 4 --threads 2" ...):
# the league under load, served by gunicorn as deployed, played by locust's players.
USERS ?= 50
LOAD_TIME ?= 60
LOAD := $(PY) -m scripts.load --users $(USERS) --time $(LOAD_TIME)

load: venv ## Players of a league copy through the real forms, gunicorn as deployed (DB=postgresql, USERS=200)
	@case "$(DB)" in \
		sqlite) $(LOAD) $(ARGS) ;; \
		postgresql) url="$$(.ci/postgres start)"; \
			trap '.ci/postgres stop' EXIT; \
			$(LOAD) --postgresql "$$url" $(ARGS) ;; \
		*) echo "make load: DB is sqlite or postgresql, not '$(DB)'" >&2; exit 2 ;; \
	esac

throughput: venv system-deps ## Requests/s per page with wrk, for several workers x threads (DB=postgresql)
	@case "$(DB)" in \
		sqlite) $(PY) -m scripts.load --throughput $(ARGS) ;; \
		postgresql) url="$$(.ci/postgres start)"; \
			trap '.ci/postgres stop' EXIT; \
			$(PY) -m scripts.load --throughput --postgresql "$$url" $(ARGS) ;; \
		*) echo "make throughput: DB is sqlite or postgresql, not '$(DB)'" >&2; exit 2 ;; \
	esac

screenshots: venv ## Take docs/*.png again from the demo campaign (Chromium, throwaway SQLite)
	$(PY) -m scripts.screenshots
	$(PY) scripts/sample_card_image.py

pack-files: venv ## Write docs/content-pack.schema.json, docs/core-pack.json and docs/campaign-map.schema.json again from the code
	$(PY) -c "from campaign.packs import schema_text; print(schema_text(), end='')" \
		> docs/content-pack.schema.json
	$(PY) -c "from campaign.packs import core_pack_text; print(core_pack_text(), end='')" \
		> docs/core-pack.json
	$(PY) -c "from campaign.maps import schema_text; print(schema_text(), end='')" \
		> docs/campaign-map.schema.json

format: venv ## Reformat and apply safe lint fixes
	$(RUFF) format .
	$(RUFF) check --fix .

# gunicorn as the README's Deploying runs it (measured with `make throughput`).
GUNICORN_OPTIONS := --workers 2 --threads 4 --reuse-port

serve: venv ## Production-style: collectstatic, then gunicorn on 127.0.0.1:8000 (settings from env)
	$(PY) manage.py collectstatic --noinput
	$(VENV)/bin/gunicorn campaign.wsgi --bind 127.0.0.1:8000 $(GUNICORN_OPTIONS)

clean: ## Remove the venv, collected static files and caches (keeps db.sqlite3 and media/)
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

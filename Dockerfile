# Tournament Steward: the bot (or `steward web`, `steward db …`) in a container — docs/deploy.md (issue 43).
#
#   docker build -t tournament-steward .          # or: podman build --format docker -t tournament-steward .
#   docker compose up -d                          # the bot with PostgreSQL: compose.yaml
#
# BASE is the Python image both stages start from (the same Python in both: the virtual environment is copied).
# Users take the official python:3.11-slim; the container test (tests/test_container.py) passes a Debian image it
# builds itself, where no image registry is reachable. Podman/Buildah keep HEALTHCHECK only with --format docker.
ARG BASE=python:3.11-slim

# --- build: a C compiler, the wheel with the compiled engines, every dependency installed into a venv ----------
FROM ${BASE} AS build
# setuptools-scm style builds read the version from here when .git is not in the build context (.dockerignore)
ARG VERSION=
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1
RUN if ! command -v gcc >/dev/null 2>&1; then \
        apt-get update && apt-get install -y --no-install-recommends build-essential \
        && rm -rf /var/lib/apt/lists/*; \
    fi
WORKDIR /src
COPY . .
RUN python3 -m venv /tmp/builder \
    && if [ -n "$VERSION" ]; then export SETUPTOOLS_SCM_PRETEND_VERSION="$VERSION"; fi \
    && /tmp/builder/bin/pip wheel --wheel-dir /wheels . \
    && /tmp/builder/bin/python -c "import glob, zipfile; \
names = zipfile.ZipFile(glob.glob('/wheels/tournament_steward-*.whl')[0]).namelist(); \
missing = [e for e in ('_fastsolve', '_drawsearch') if not any(e in n and n.endswith('.so') for n in names)]; \
assert not missing, f'the compiled engines did not build: {missing}'"
WORKDIR /
RUN python3 -m venv /opt/steward/venv \
    && /opt/steward/venv/bin/pip install --no-index --find-links /wheels tournament-steward \
    && /opt/steward/venv/bin/python -c "import bot.rules.ricochet._fastsolve, bot.rules.tournament._drawsearch" \
    && /opt/steward/venv/bin/python -m bot.i18n compile

# --- runtime: no compiler, the venv, a user of its own ----------------------------------------------------------
FROM ${BASE}
# pg_dump for `steward db backup` on PostgreSQL (it must be at least the server's version: python:3.11-slim on
# Debian 13 brings 17, enough for compose.yaml's postgres:16); skipped when the base already has it
RUN if ! command -v pg_dump >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then \
        apt-get update && apt-get install -y --no-install-recommends postgresql-client \
        && rm -rf /var/lib/apt/lists/*; \
    fi \
    && useradd --system --user-group --uid 10001 --home-dir /data --shell /usr/sbin/nologin steward \
    && mkdir -p /data/backups && chown -R steward:steward /data
COPY --from=build /opt/steward/venv /opt/steward/venv
ENV PATH=/opt/steward/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    DATABASE_URL=sqlite:////data/steward.db \
    WEB_HOST=0.0.0.0 \
    WEB_PORT=8080 \
    BACKUP_DIR=/data/backups
USER steward
WORKDIR /data
VOLUME ["/data"]
EXPOSE 8080
# /healthz answers 200 while the process is alive (/readyz: Discord, database, migrations, scheduler); no curl here
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python3", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + (os.environ.get('WEB_PORT') or '8080') + '/healthz', timeout=4)"]
ENTRYPOINT ["steward"]
CMD ["run"]

#!/usr/bin/env bash
# Start a throwaway PostgreSQL server on 127.0.0.1 for the persistence tests and print its URL.
# Installs the server from Debian's packages when it is missing. Used by .ci/run; safe to run by hand.
set -euo pipefail
PORT="${PGPORT_TEST:-54329}"
DATA="${PGDATA_TEST:-/tmp/steward-ci-pg}"

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
if [ -z "$(pg_bin)" ] || [ ! -x "$(pg_bin)/initdb" ]; then
  echo "installing PostgreSQL from Debian packages..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >&2
fi
BIN="$(pg_bin)"
RUN_AS=()
if [ "$(id -u)" = "0" ]; then RUN_AS=(runuser -u postgres --); fi

if [ -f "$DATA/postmaster.pid" ]; then "${RUN_AS[@]}" "$BIN/pg_ctl" -D "$DATA" -m fast stop >&2 || true; fi
rm -rf "$DATA"
mkdir -p "$DATA"
[ "$(id -u)" = "0" ] && chown postgres:postgres "$DATA"
"${RUN_AS[@]}" "$BIN/initdb" -D "$DATA" -U steward --auth=trust -E UTF8 >/dev/null
"${RUN_AS[@]}" "$BIN/pg_ctl" -D "$DATA" -l "$DATA/server.log" -w \
  -o "-c listen_addresses=127.0.0.1 -p $PORT -k $DATA -c fsync=off -c full_page_writes=off" start >&2
"${RUN_AS[@]}" "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U steward steward_test
echo "postgresql://steward@127.0.0.1:$PORT/steward_test"

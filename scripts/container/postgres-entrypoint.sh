#!/bin/sh
# First run: initdb into the (empty) PGDATA volume with a password for POSTGRES_USER, connections from the
# container network by password (scram-sha-256), and POSTGRES_DB. Every run: exec postgres in the foreground.
set -eu
bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
user="${POSTGRES_USER:-postgres}"
db="${POSTGRES_DB:-$user}"

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "${POSTGRES_PASSWORD:-}" ]; then
    echo "postgres-entrypoint: set POSTGRES_PASSWORD (the first run sets the password of $user with it)" >&2
    exit 1
  fi
  pwfile="$(mktemp)"
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  "$bin/initdb" --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 \
    --encoding=UTF8 --locale=C.UTF-8 -D "$PGDATA" >/dev/null
  rm -f "$pwfile"
  printf '%s\n' "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
  printf '%s\n' "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  if [ "$db" != postgres ]; then
    "$bin/postgres" -D "$PGDATA" -c listen_addresses='' >/tmp/first-run.log 2>&1 &
    pid=$!
    until "$bin/pg_isready" -q -h /run/postgresql; do sleep 0.2; done
    "$bin/psql" -h /run/postgresql -U "$user" -d postgres -v ON_ERROR_STOP=1 -q \
      -c "CREATE DATABASE \"$db\""
    kill -INT "$pid"
    wait "$pid"
  fi
  echo "postgres-entrypoint: made the cluster with user $user and database $db"
fi
exec "$bin/postgres" -D "$PGDATA"

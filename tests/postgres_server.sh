#!/usr/bin/env bash
# A throwaway PostgreSQL server on loopback for the storage tests.
#
#   tests/postgres_server.sh start   # prints the URL to export as CARWARS_TEST_POSTGRES_URL
#   tests/postgres_server.sh stop    # stops the server and deletes its folder
#
# Both commands are idempotent. Settings (environment):
#   CARWARS_PG_DIR   folder for the cluster, default /tmp/carwars-postgres
#   CARWARS_PG_PORT  port on 127.0.0.1, default 54329
#   CARWARS_PG_BIN   folder holding initdb/pg_ctl, default the newest /usr/lib/postgresql/*/bin
#
# When run as root the server runs as the "postgres" system user (PostgreSQL
# refuses to run as root). Authentication is "trust" on loopback only: never
# use this for anything but tests.
set -euo pipefail

PG_DIR="${CARWARS_PG_DIR:-/tmp/carwars-postgres}"
PG_PORT="${CARWARS_PG_PORT:-54329}"
PG_DB="carwars_test"
DATA="$PG_DIR/data"
LOG="$PG_DIR/server.log"

find_bin() {
    if [[ -n "${CARWARS_PG_BIN:-}" ]]; then
        echo "$CARWARS_PG_BIN"
        return
    fi
    local candidate
    for candidate in /usr/lib/postgresql/15/bin $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -rV); do
        if [[ -x "$candidate/pg_ctl" ]]; then
            echo "$candidate"
            return
        fi
    done
    if command -v pg_ctl >/dev/null 2>&1; then
        dirname "$(command -v pg_ctl)"
        return
    fi
    echo "postgres_server.sh: no PostgreSQL found (apt-get install -y postgresql)" >&2
    exit 1
}

PG_BIN="$(find_bin)"

# Run a PostgreSQL program as the user that owns the cluster.
as_owner() {
    if [[ "$(id -u)" == "0" ]]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

is_running() {
    [[ -f "$DATA/PG_VERSION" ]] && as_owner "$PG_BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1
}

url() {
    echo "postgresql+psycopg://postgres@127.0.0.1:$PG_PORT/$PG_DB"
}

start() {
    if ! [[ -f "$DATA/PG_VERSION" ]]; then
        rm -rf "$DATA"  # what a failed initdb left behind
        mkdir -p "$PG_DIR"
        if [[ "$(id -u)" == "0" ]]; then
            chown postgres: "$PG_DIR"
        fi
        as_owner "$PG_BIN/initdb" -D "$DATA" -U postgres --auth=trust \
            --encoding=UTF8 --locale=C >"$PG_DIR/initdb.log" 2>&1
    fi
    if ! is_running; then
        if ! as_owner "$PG_BIN/pg_ctl" -D "$DATA" -l "$LOG" -w -t 60 start \
            -o "-c listen_addresses=127.0.0.1 -c port=$PG_PORT -c unix_socket_directories=$PG_DIR -c fsync=off" \
            >/dev/null; then
            echo "postgres_server.sh: the server did not start; its log:" >&2
            tail -n 20 "$LOG" >&2 || true
            exit 1
        fi
    fi
    if ! as_owner "$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -tAc \
        "SELECT 1 FROM pg_database WHERE datname = '$PG_DB'" | grep -q 1; then
        as_owner "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres "$PG_DB"
    fi
    url
}

stop() {
    if is_running; then
        as_owner "$PG_BIN/pg_ctl" -D "$DATA" -w -t 60 stop -m fast >/dev/null
    fi
    rm -rf "$PG_DIR"
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    url) url ;;
    *)
        echo "usage: $0 start|stop|url" >&2
        exit 2
        ;;
esac

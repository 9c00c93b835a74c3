#!/usr/bin/env bash
# A throwaway PostgreSQL for the tests and the benchmark.
#
#   scripts/postgres-test-server.sh start DIR [PORT]   initdb into DIR, start on 127.0.0.1:PORT
#                                                      (default: the first free port from 55432),
#                                                      print the connection URL
#   scripts/postgres-test-server.sh stop DIR           stop it (-m immediate) and remove DIR
#
# initdb and postgres refuse to run as root, so when run as root the server runs as the
# `postgres` user and DIR is handed to it. Exits non-zero (with the server log) when the
# server cannot start: callers must fail, never skip.
set -euo pipefail

bindir=${PG_BINDIR:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
[ -x "$bindir/pg_ctl" ] || { echo "postgres-test-server: no PostgreSQL server binaries (apt-get install postgresql)" >&2; exit 1; }

as_owner() { # run a server binary as the data directory's owner
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
start)
    dir=${2:?usage: $0 start DIR [PORT]}
    port=${3:-}
    if [ -z "$port" ]; then
        port=55432
        while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
    fi
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres: "$dir"
    chmod 700 "$dir"
    as_owner test -w "$dir" || { echo "postgres-test-server: the server's user cannot reach $dir (a parent is not traversable)" >&2; exit 1; }
    as_owner "$bindir/initdb" -D "$dir/data" -A trust -U postgres --no-sync >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    # Enough connections for the 50-runner tests and benchmark (each runner holds a data session and a
    # lock session, and other suites run beside them).
    as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=400" start >/dev/null \
        || { cat "$dir/server.log" >&2; exit 1; }
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
stop)
    dir=${2:?usage: $0 stop DIR}
    if [ -d "$dir/data" ]; then as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null || true; fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: $0 start DIR [PORT] | stop DIR" >&2
    exit 64
    ;;
esac

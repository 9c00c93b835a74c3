#!/usr/bin/env bash
# A throwaway PgBouncer in transaction pooling mode, in front of a PostgreSQL server, for the
# fleet tests and the benchmark (Debian: apt-get install pgbouncer).
#
#   scripts/pgbouncer-test-server.sh start DIR PG_URL [PORT]   configure DIR, start PgBouncer on
#                                                              127.0.0.1:PORT (default: the first
#                                                              free port from 56432), print its URL
#   scripts/pgbouncer-test-server.sh stop DIR                  stop it and remove DIR
#
# PG_URL is a URL of scripts/postgres-test-server.sh (postgres://USER@HOST:PORT/DB, trust
# authentication). PgBouncer refuses to run as root, so as root it runs as the `postgres` user
# and DIR is handed to it. Every database of the server is reachable through it (`* =` entry),
# and PG_URL's database also as `milepost_pool_of_one`, a pool of one server connection;
# auth_type = trust. Exits non-zero (with the log) when it cannot start: callers must fail, never skip.
set -euo pipefail

as_owner() { # run as DIR's owner
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
start)
    dir=${2:?usage: $0 start DIR PG_URL [PORT]}
    url=${3:?usage: $0 start DIR PG_URL [PORT]}
    port=${4:-}
    command -v pgbouncer >/dev/null || { echo "pgbouncer-test-server: no pgbouncer (apt-get install pgbouncer)" >&2; exit 1; }
    # postgres://USER@HOST:PORT/DB[?…]
    rest=${url#*://}; rest=${rest%%\?*}
    user=${rest%%@*}; rest=${rest#*@}
    hostport=${rest%%/*}
    pg_host=${hostport%%:*}; pg_port=${hostport##*:}
    [ "$pg_port" != "$hostport" ] || pg_port=5432
    if [ -z "$port" ]; then
        port=56432
        while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
    fi
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres: "$dir"
    chmod 700 "$dir"
    cat >"$dir/pgbouncer.ini" <<INI
[databases]
* = host=$pg_host port=$pg_port
; PG_URL's database with a pool of one server connection (FleetLeaseTests: the pool a runner needs)
milepost_pool_of_one = host=$pg_host port=$pg_port dbname=${rest#*/} pool_size=1

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = trust
auth_file = $dir/userlist.txt
pool_mode = transaction
; 50 runners with two connections each, plus the tests' own; 1,000 replicas' pre-start no-ops at
; once (benchmarks/postgres/run.sh)
max_client_conn = 1200
default_pool_size = 40
; the server's connections are reused as soon as a transaction ends
server_reset_query =
ignore_startup_parameters = extra_float_digits
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
INI
    echo "\"$user\" \"\"" >"$dir/userlist.txt"
    [ "$(id -u)" = 0 ] && chown postgres: "$dir"/*
    as_owner pgbouncer -d "$dir/pgbouncer.ini" >"$dir/start.log" 2>&1 \
        || { cat "$dir/start.log" "$dir/pgbouncer.log" >&2 2>/dev/null; exit 1; }
    for _ in $(seq 100); do
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && { echo "postgres://$user@127.0.0.1:$port/${rest#*/}"; exit 0; }
        sleep 0.1
    done
    echo "pgbouncer-test-server: PgBouncer did not listen on 127.0.0.1:$port" >&2
    cat "$dir/pgbouncer.log" >&2 2>/dev/null || true
    exit 1
    ;;
stop)
    dir=${2:?usage: $0 stop DIR}
    if [ -f "$dir/pgbouncer.pid" ]; then kill "$(cat "$dir/pgbouncer.pid")" 2>/dev/null || true; fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: $0 start DIR PG_URL [PORT] | stop DIR" >&2
    exit 64
    ;;
esac

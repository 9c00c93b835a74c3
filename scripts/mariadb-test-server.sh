#!/usr/bin/env bash
# A throwaway MariaDB for the tests.
#
#   scripts/mariadb-test-server.sh start DIR [PORT]   mariadb-install-db into DIR, start mariadbd on
#                                                     127.0.0.1:PORT (default: the first free port
#                                                     from 53306) with its socket in DIR, create the
#                                                     database `milepost`, print the connection URL
#
# Besides the user `milepost` (every privilege), the user `milepost_idle` (password `milepost`, the
# databases `milepost_idle_*` only) gets a `wait_timeout` of 2 s on every session: `init_connect`
# runs for users without the admin privileges only, so the server closes that user's idle
# connections, and no one else's (MariaDBFaultTests).
#   scripts/mariadb-test-server.sh stop DIR           stop it (SIGKILL: nothing in it is kept) and remove DIR
#
# mariadbd refuses to run as root, so when run as root the server runs as the `mysql` user and DIR
# is handed to it. Exits non-zero (with the server log) when the server cannot start: callers must
# fail, never skip.
set -euo pipefail

command -v mariadbd >/dev/null || [ -x /usr/sbin/mariadbd ] \
    || { echo "mariadb-test-server: no mariadbd (apt-get install mariadb-server)" >&2; exit 1; }
mariadbd=$(command -v mariadbd || echo /usr/sbin/mariadbd)

as_owner() { # run a server binary as the data directory's owner
    if [ "$(id -u)" = 0 ]; then runuser -u mysql -- "$@"; else "$@"; fi
}

case "${1:-}" in
start)
    dir=${2:?usage: $0 start DIR [PORT]}
    port=${3:-}
    if [ -z "$port" ]; then
        port=53306
        while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
    fi
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    [ "$(id -u)" = 0 ] && chown mysql: "$dir"
    chmod 700 "$dir"
    as_owner test -w "$dir" || { echo "mariadb-test-server: the server's user cannot reach $dir (a parent is not traversable)" >&2; exit 1; }
    as_owner mariadb-install-db --no-defaults --datadir="$dir/data" --auth-root-authentication-method=normal \
        --skip-test-db >"$dir/install.log" 2>&1 || { cat "$dir/install.log" >&2; exit 1; }
    # Enough connections for the concurrent-runner tests (each runner holds a data connection and a
    # lock connection); durability as in production (every commit flushed and synced).
    as_owner "$mariadbd" --no-defaults --datadir="$dir/data" --socket="$dir/mysqld.sock" --pid-file="$dir/mysqld.pid" \
        --bind-address=127.0.0.1 --port="$port" --max-connections=400 --innodb-flush-log-at-trx-commit=1 \
        --skip-name-resolve --log-error="$dir/server.log" >/dev/null 2>&1 &
    for _ in $(seq 1 300); do
        if mariadb --no-defaults --socket="$dir/mysqld.sock" -uroot -e "SELECT 1" >/dev/null 2>&1; then break; fi
        if ! kill -0 $! 2>/dev/null; then cat "$dir/server.log" >&2; exit 1; fi
        sleep 0.1
    done
    mariadb --no-defaults --socket="$dir/mysqld.sock" -uroot -e "
        CREATE DATABASE IF NOT EXISTS milepost;
        CREATE USER IF NOT EXISTS 'milepost'@'127.0.0.1' IDENTIFIED BY 'milepost';
        GRANT ALL ON *.* TO 'milepost'@'127.0.0.1';
        CREATE USER IF NOT EXISTS 'milepost_idle'@'127.0.0.1' IDENTIFIED BY 'milepost';
        GRANT ALL ON \`milepost\\_idle\\_%\`.* TO 'milepost_idle'@'127.0.0.1';
        SET GLOBAL init_connect = 'SET SESSION wait_timeout = 2';" 2>"$dir/setup.log" \
        || { cat "$dir/setup.log" "$dir/server.log" >&2; exit 1; }
    echo "mysql://milepost:milepost@127.0.0.1:$port/milepost"
    ;;
stop)
    dir=${2:?usage: $0 stop DIR}
    if [ -f "$dir/mysqld.pid" ]; then kill -9 "$(cat "$dir/mysqld.pid")" 2>/dev/null || true; fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: $0 start DIR [PORT] | stop DIR" >&2
    exit 64
    ;;
esac

#!/usr/bin/env bash
# Sets up the no-op of the tools users would pick instead of Milepost, each with one migration
# already applied to a SQLite database, and prints the command that times it (one per line,
# `name command…`), for benchmarks/run.sh:
#   alembic  `alembic upgrade head` (PyPI alembic in a venv, SQLAlchemy's SQLite)
#   sqitch   `sqitch deploy` (Debian sqitch with libdbd-sqlite3-perl, SQLite engine)
# Installs what is missing (apt-get, pip); a peer that cannot be set up is reported on stderr and
# left out. The venv is kept in benchmarks/.peers between runs; the projects are made anew.
#   benchmarks/peers.sh DIR
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="$1"
say() { echo "peers: $*" >&2; }
rm -rf "$dir" && mkdir -p "$dir"

# --- alembic -------------------------------------------------------------------------------------
setup_alembic() {
    local venv="$here/.peers/venv"
    if [ ! -x "$venv/bin/alembic" ]; then
        python3 -m venv "$venv" 2>/dev/null || { apt-get install -y python3-venv >&2 && python3 -m venv "$venv"; } || return 1
        "$venv/bin/pip" install --quiet alembic >&2 || return 1
    fi
    mkdir -p "$dir/alembic" && cd "$dir/alembic" || return 1
    "$venv/bin/alembic" init --template generic migrations >/dev/null || return 1
    sed -i 's|^sqlalchemy.url = .*|sqlalchemy.url = sqlite:///state.sqlite|' alembic.ini
    "$venv/bin/alembic" revision -m one >/dev/null || return 1
    "$venv/bin/alembic" upgrade head 2>/dev/null || return 1
    echo "alembic cd $dir/alembic && $venv/bin/alembic upgrade head"
}

# --- sqitch --------------------------------------------------------------------------------------
setup_sqitch() {
    if ! command -v sqitch >/dev/null || ! perl -MDBD::SQLite -e 1 2>/dev/null || ! command -v sqlite3 >/dev/null; then
        apt-get install -y sqitch libdbd-sqlite3-perl sqlite3 >&2 || return 1
    fi
    mkdir -p "$dir/sqitch" && cd "$dir/sqitch" || return 1
    export SQITCH_FULLNAME=bench SQITCH_EMAIL=bench@localhost
    sqitch init bench --engine sqlite --target db:sqlite:state.sqlite >/dev/null || return 1
    sqitch add one -n one >/dev/null || return 1
    echo "CREATE TABLE one (id INTEGER);" >> deploy/one.sql
    sqitch deploy >/dev/null || return 1
    echo "sqitch cd $dir/sqitch && SQITCH_FULLNAME=bench SQITCH_EMAIL=bench@localhost sqitch deploy"
}

( setup_alembic ) || say "alembic could not be set up (needs python3-venv and PyPI); its row is left out"
( setup_sqitch ) || say "sqitch could not be set up (needs Debian sqitch, libdbd-sqlite3-perl, sqlite3); its row is left out"

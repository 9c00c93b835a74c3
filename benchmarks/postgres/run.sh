#!/usr/bin/env bash
# Benchmark of the PostgreSQL store (figures in docs/postgres.md):
#   1. per-step checkpoint cost: N steps in one run, minus an up-to-date run, divided by N,
#      for `sql` steps in their checkpoint's transaction, `sql` with transaction: false, and
#      `exec true` on the PostgreSQL store and on the file store (the difference is the cost of
#      the PostgreSQL checkpoints over the file store's);
#   2. 50 runners started at once on a store already at --to (the pre-start fast path), and
#      50 runners started at once with one step left (one runs it, 49 wait and re-read);
#   3. 50 runners started at once on an empty store (an exec and an sql step), directly with the
#      session lock, directly with the lease, and through PgBouncer in transaction mode (the lease);
#   4. the pre-start no-op of each server store against its floor, a C client that connects with
#      the same client library and reads the state row (benchmarks/c/pg_state_read.c,
#      mariadb_state_read.c): the median of 21 runs each, interleaved, and their ratio (goal 1.5);
#      then REPLICAS no-ops started at once through PgBouncer against REPLICAS such C clients.
#
#   benchmarks/postgres/run.sh [STEPS] [RUNNERS] [REPLICAS]   (default 200 steps, 50 runners, 1000 replicas)
#
# Uses MILEPOST (default .build/release/milepost) and MILEPOST_BENCH_POSTGRES_URL, or starts a
# throwaway server with scripts/postgres-test-server.sh when that is unset; MILEPOST_BENCH_PGBOUNCER_URL,
# or a PgBouncer started with scripts/pgbouncer-test-server.sh; and MILEPOST_BENCH_MARIADB_URL
# (mysql://USER:PASSWORD@HOST:PORT/DATABASE), or a server started with scripts/mariadb-test-server.sh.
# Needs gcc and libpq-dev for the C clients.
set -euo pipefail
cd "$(dirname "$0")/../.."
steps=${1:-200}
runners=${2:-50}
replicas=${3:-1000}
milepost=$(realpath "${MILEPOST:-.build/release/milepost}")
[ -x "$milepost" ] || { echo "no $milepost: swift build -c release --product milepost" >&2; exit 1; }

work=$(mktemp -d /tmp/milepost-bench.XXXXXX)
url=${MILEPOST_BENCH_POSTGRES_URL:-}
if [ -z "$url" ]; then
    server=$(mktemp -d /tmp/milepost-bench-server.XXXXXX)
    url=$(scripts/postgres-test-server.sh start "$server" "${MILEPOST_BENCH_PORT:-55433}")
fi
bouncer_url=${MILEPOST_BENCH_PGBOUNCER_URL:-}
if [ -z "$bouncer_url" ]; then
    bouncer=$(mktemp -d /tmp/milepost-bench-pgbouncer.XXXXXX)
    bouncer_url=$(scripts/pgbouncer-test-server.sh start "$bouncer" "$url")
fi
cleanup() {
    if [ -n "${bouncer:-}" ]; then scripts/pgbouncer-test-server.sh stop "$bouncer" || true; fi
    if [ -n "${server:-}" ]; then scripts/postgres-test-server.sh stop "$server" || true; fi
    if [ -n "${maria:-}" ]; then scripts/mariadb-test-server.sh stop "$maria" || true; fi
    rm -rf "$work"
}
maria_url=${MILEPOST_BENCH_MARIADB_URL:-}
if [ -z "$maria_url" ]; then
    maria=$(mktemp -d /tmp/milepost-bench-mariadb.XXXXXX)
    maria_url=$(scripts/mariadb-test-server.sh start "$maria")
fi
trap cleanup EXIT
gcc -O2 -o "$work/pg_state_read" benchmarks/c/pg_state_read.c -I"$(pg_config --includedir)" -lpq
gcc -O2 -o "$work/mariadb_state_read" benchmarks/c/mariadb_state_read.c -l:libmariadb.so.3
sep() { case "$1" in *\?*) echo "&";; *) echo "?";; esac; }
store() { echo "$url$(sep "$url")milepost_schema=bench_$1_$$"; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

manifest() { # manifest FILE STEP-YAML: STEPS copies of one step under one threshold
    { echo "migrations:"; echo "  \"1.0\":"
      for i in $(seq 1 "$steps"); do echo "    - {$2, id: s$i}"; done; } >"$1"
}

per_step() { # per_step LABEL STORE STEP-YAML
    local file="$work/$1.yaml" start end upto
    manifest "$file" "$3"
    start=$(now_ms); "$milepost" run --manifest "$file" --store "$2" --to 1.0 >/dev/null 2>&1; end=$(now_ms)
    local ran=$((end - start))
    start=$(now_ms); "$milepost" run --manifest "$file" --store "$2" --to 1.0 >/dev/null 2>&1; end=$(now_ms)
    upto=$((end - start))
    awk -v l="$1" -v r="$ran" -v u="$upto" -v n="$steps" \
        'BEGIN { printf "%-34s %6d ms for %d steps, up-to-date run %4d ms: %.2f ms per step\n", l, r, n, u, (r - u) / n }'
}

echo "milepost: $milepost"
echo "server:   $(psql "$url" -Atc 'SHOW server_version' 2>/dev/null || echo "$url") (fsync $(psql "$url" -Atc 'SHOW fsync' 2>/dev/null || echo '?'))"
echo "machine:  $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "== per-step cost, $steps steps in one run"
per_step "sql, in the checkpoint transaction" "$(store tx)" 'name: sql, with: {sql: "SELECT 1"}'
per_step "sql, transaction: false" "$(store notx)" 'name: sql, with: {sql: "SELECT 1", transaction: false}'
per_step "exec true, PostgreSQL store" "$(store exec)" 'name: exec, with: {command: ["true"]}'
per_step "exec true, file store" "$work/filestore" 'name: exec, with: {command: ["true"]}'

together() { # together LABEL STORE MANIFEST: RUNNERS runs started at once; wall time until all exit
    local start end failed=0 pids=()
    start=$(now_ms)
    for _ in $(seq 1 "$runners"); do
        "$milepost" run --manifest "$3" --store "$2" --to "${4:-2.0}" --lock-timeout 5m >/dev/null 2>&1 & pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid" || failed=$((failed + 1)); done
    end=$(now_ms)
    printf "%-50s %6d ms (%d failed)\n" "$1" $((end - start)) "$failed"
}

echo
echo "== $runners runners started at once"
fleet="$(store fleet)"
printf 'migrations:\n  "1.0": [{name: sql, with: {sql: "SELECT 1"}}]\n  "2.0": [{name: sql, with: {sql: "SELECT 1"}}]\n' >"$work/fleet.yaml"
"$milepost" run --manifest "$work/fleet.yaml" --store "$fleet" --to 1.0 >/dev/null 2>&1
together "one step left (one runs it, the rest wait, re-read)" "$fleet" "$work/fleet.yaml"
together "nothing left (the pre-start fast path)" "$fleet" "$work/fleet.yaml"
start=$(now_ms); "$milepost" run --manifest "$work/fleet.yaml" --store "$fleet" --to 2.0 >/dev/null 2>&1; end=$(now_ms)
printf "%-50s %6d ms\n" "one runner alone, nothing left" $((end - start))

echo
echo "== $runners runners started at once on an empty store (an exec and an sql step)"
printf 'migrations:\n  "1.0":\n    - {name: exec, with: {command: ["true"]}}\n    - {name: sql, with: {sql: "SELECT 1"}}\n' >"$work/empty.yaml"
together "direct, session advisory lock" "$(store direct)" "$work/empty.yaml" 1.0
together "direct, lease (milepost_lock=lease)" "$(store lease)&milepost_lock=lease" "$work/empty.yaml" 1.0
bounced="${bouncer_url}$(sep "$bouncer_url")milepost_schema=bench_pgbouncer_$$"
together "through PgBouncer (transaction mode, lease)" "$bounced" "$work/empty.yaml" 1.0

median_ms() { # median_ms COMMAND…: the median wall time of 21 runs, in ms (with two decimals)
    local times=()
    for _ in $(seq 1 21); do
        local start end
        start=$(date +%s%N); "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }; end=$(date +%s%N)
        times+=($(( (end - start) / 10000 )))
    done
    printf '%s\n' "${times[@]}" | sort -n | awk '{ t[NR] = $1 } END { printf "%.2f", t[11] / 100 }'
}

floor_ratio() { # floor_ratio LABEL MILEPOST-COMMAND… -- FLOOR-COMMAND…
    local label=$1; shift
    local ours=() floor=()
    while [ "$1" != "--" ]; do ours+=("$1"); shift; done; shift
    floor=("$@")
    local a b
    a=$(median_ms "${ours[@]}"); b=$(median_ms "${floor[@]}")
    awk -v l="$label" -v a="$a" -v b="$b" 'BEGIN { printf "%-44s %7.2f ms, C client %6.2f ms: %.2fx (goal 1.5x)\n", l, a, b, a / b }'
}

echo
echo "== the pre-start no-op against a C client that connects and reads the state row"
noop="$(store noop)"
printf 'migrations:\n  "1.0": [{name: exec, with: {command: ["true"]}}]\n' >"$work/noop.yaml"
"$milepost" run --manifest "$work/noop.yaml" --store "$noop" --to 1.0 >/dev/null 2>&1
"$milepost" run --manifest "$work/noop.yaml" --store "$noop" --to 1.0 >/dev/null 2>&1
floor_ratio "PostgreSQL, direct" "$milepost" run --manifest "$work/noop.yaml" --store "$noop" --to 1.0 \
    -- "$work/pg_state_read" "$url" "bench_noop_$$"
bounced_noop="${bouncer_url}$(sep "$bouncer_url")milepost_schema=bench_noop_$$"
floor_ratio "PostgreSQL, through PgBouncer" "$milepost" run --manifest "$work/noop.yaml" --store "$bounced_noop" --to 1.0 \
    -- "$work/pg_state_read" "${bouncer_url%%\?*}" "bench_noop_$$"
maria_noop="${maria_url%/*}/bench_noop_$$"
"$milepost" run --manifest "$work/noop.yaml" --store "$maria_noop" --to 1.0 >/dev/null 2>&1
"$milepost" run --manifest "$work/noop.yaml" --store "$maria_noop" --to 1.0 >/dev/null 2>&1
# mysql://USER:PASSWORD@HOST:PORT/DATABASE, split for the C client.
maria_authority=${maria_url#*://}; maria_authority=${maria_authority%%/*}
maria_credentials=${maria_authority%@*}; maria_host=${maria_authority#*@}
floor_ratio "MariaDB, direct" "$milepost" run --manifest "$work/noop.yaml" --store "$maria_noop" --to 1.0 \
    -- "$work/mariadb_state_read" "${maria_host%:*}" "${maria_host#*:}" "${maria_credentials%%:*}" "${maria_credentials#*:}" \
    "bench_noop_$$"

at_once() { # at_once LABEL COMMAND…: REPLICAS copies started at once; wall time until all exited
    local label=$1; shift
    local start end failed=0 pids=()
    start=$(now_ms)
    for _ in $(seq 1 "$replicas"); do "$@" >/dev/null 2>&1 & pids+=($!); done
    for pid in "${pids[@]}"; do wait "$pid" || failed=$((failed + 1)); done
    end=$(now_ms)
    echo $((end - start)) "$failed"
}

echo
echo "== $replicas replicas started at once through PgBouncer (transaction mode), store up to date"
read -r ours ours_failed < <(at_once milepost "$milepost" run --manifest "$work/noop.yaml" --store "$bounced_noop" --to 1.0)
read -r floor floor_failed < <(at_once c "$work/pg_state_read" "${bouncer_url%%\?*}" "bench_noop_$$")
awk -v a="$ours" -v af="$ours_failed" -v b="$floor" -v bf="$floor_failed" -v n="$replicas" \
    'BEGIN { printf "%d milepost no-ops %6d ms (%d failed), %d C clients %6d ms (%d failed): %.2fx (goal 1.5x)\n", n, a, af, n, b, bf, a / b }'

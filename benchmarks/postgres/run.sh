#!/usr/bin/env bash
# Benchmark of the PostgreSQL store (figures in docs/postgres.md):
#   1. per-step checkpoint cost: N steps in one run, minus an up-to-date run, divided by N,
#      for `sql` steps in their checkpoint's transaction, `sql` with transaction: false, and
#      `exec true` on the PostgreSQL store and on the file store (the difference is the cost of
#      the PostgreSQL checkpoints over the file store's);
#   2. 50 runners started at once on a store already at --to (the pre-start fast path), and
#      50 runners started at once with one step left (one runs it, 49 wait and re-read);
#   3. 50 runners started at once on an empty store (an exec and an sql step), directly with the
#      session lock, directly with the lease, and through PgBouncer in transaction mode (the lease).
#
#   benchmarks/postgres/run.sh [STEPS] [RUNNERS]        (default 200 steps, 50 runners)
#
# Uses MILEPOST (default .build/release/milepost) and MILEPOST_BENCH_POSTGRES_URL, or starts a
# throwaway server with scripts/postgres-test-server.sh when that is unset; and
# MILEPOST_BENCH_PGBOUNCER_URL, or a PgBouncer started with scripts/pgbouncer-test-server.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
steps=${1:-200}
runners=${2:-50}
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
    [ -n "${bouncer:-}" ] && scripts/pgbouncer-test-server.sh stop "$bouncer"
    [ -n "${server:-}" ] && scripts/postgres-test-server.sh stop "$server"
    rm -rf "$work"
}
trap cleanup EXIT
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

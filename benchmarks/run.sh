#!/usr/bin/env bash
# Builds Milepost, the benchmark executable and the C floors in release mode, runs every benchmark
# of docs/performance.md against its floor in the same run, and prints the table (Markdown).
# Usage: benchmarks/run.sh [ROUNDS]   (default 3; each figure is the median of the rounds' medians)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
work="$here/.work"
rounds="${1:-3}"
rm -rf "$work" && mkdir -p "$work"

say() { echo "bench: $*" >&2; }
need() { command -v "$1" >/dev/null || { say "$1 is missing (Debian: apt-get install $2)"; exit 1; }; }
need hyperfine hyperfine
need gcc gcc
pkg-config --exists yaml-0.1 || { say "libyaml is missing (Debian: apt-get install libyaml-dev)"; exit 1; }

# --- Build ---------------------------------------------------------------------------------------
say "building (release; this takes minutes on a busy machine)"
swift build --package-path "$root" -c release --static-swift-stdlib --disable-local-rpath --traits OpenTelemetry --product milepost >&2
static="$(swift build --package-path "$root" -c release --static-swift-stdlib --disable-local-rpath --traits OpenTelemetry --show-bin-path)/milepost"
swift build --package-path "$here" -c release --product milepost-bench >&2
bench="$(swift build --package-path "$here" -c release --show-bin-path)/milepost-bench"
gcc -O2 -o "$work/state_floor" "$here/c/state_floor.c"
# shellcheck disable=SC2046
gcc -O2 -o "$work/yaml_floor" "$here/c/yaml_floor.c" $(pkg-config --cflags --libs yaml-0.1)
# Reference rows: what any static Swift program pays, built the way milepost is (libstdc++
# linked statically through scripts/link, as Package.swift does).
swiftc -O -static-stdlib -L "$root/scripts/link" -o "$work/swift_hello" "$here/reference/hello.swift" >&2
swiftc -O -static-stdlib -L "$root/scripts/link" -o "$work/swift_decode_state" "$here/reference/decode_state.swift" >&2

# --- Helpers -------------------------------------------------------------------------------------
get() { awk -v key="$1" '$1 == key { print $2 }'; }                       # get KEY < "key value" lines
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
fmt() { awk -v v="$1" 'BEGIN { printf (v < 10 ? "%.2f" : v < 100 ? "%.1f" : "%.0f"), v }'; }
rows=()
row() { rows+=("| $1 | $2 | $3 | $4 | $5 |"); }

# --- 1. No-op pre-start --------------------------------------------------------------------------
# A real store: 100 steps run through the checkpoint benchmark, so state.json holds 100 completions.
say "checkpoint cost and the no-op store"
checkpoint_ms=()
for round in $(seq "$rounds"); do
    rm -rf "$work/checkpoint"
    mkdir -p "$work/checkpoint"
    checkpoint_ms+=("$("$bench" checkpoint "$work/checkpoint" 100 | get ms_per_step)")
done
store="$work/checkpoint/store"
# A 10 KiB manifest the store was planned with: the first run plans (its steps are late, under
# `late: warn`) and records its digest, so every later run reads the state and the manifest's bytes.
"$bench" generate 10240 "$work/noop.yaml"
run_args=(run --store "$store" --to 1.100 --manifest "$work/noop.yaml")
"$static" "${run_args[@]}" 2>/dev/null || { say "the first run with the no-op manifest failed"; exit 1; }
grep -q '"planned_with"' "$store/state.json" || { say "the run recorded no manifest digest"; exit 1; }
# The same no-op on an SQLite store (issue 30): planned once, then up to date on every later run.
sqlite_args=(run --store "sqlite:$work/noop.db" --to 1.100 --manifest "$work/noop.yaml")
"$static" "${sqlite_args[@]}" >/dev/null 2>&1 || { say "the first run on the SQLite store failed"; exit 1; }

say "no-op pre-start (hyperfine, $rounds rounds)"
for round in $(seq "$rounds"); do
    hyperfine -N --warmup 20 --runs 200 --export-csv "$work/noop-$round.csv" \
        -n static "$static ${run_args[*]}" -n sqlite "$static ${sqlite_args[*]}" -n floor "$work/state_floor $store/state.json" \
        -n hello "$work/swift_hello" -n decode "$work/swift_decode_state $store/state.json" >/dev/null 2>&1
done
noop() { cat "$work"/noop-*.csv | awk -F, -v name="$1" '$1 == name { print $4 * 1000 }' | median; }
static_ms="$(noop static)"; floor_ms="$(noop floor)"; hello_ms="$(noop hello)"; decode_ms="$(noop decode)"
sqlite_ms="$(noop sqlite)"
row "C: open + read state.json (the floor)" "—" "$(fmt "$floor_ms") ms" "1×" "—"
row "static Swift \`print(\"hi\")\` (reference)" "$(fmt "$hello_ms") ms" "$(fmt "$floor_ms") ms" "$(ratio "$hello_ms" "$floor_ms")×" "—"
row "static Swift, Foundation \`JSONDecoder\` of state.json (reference)" "$(fmt "$decode_ms") ms" "$(fmt "$floor_ms") ms" \
    "$(ratio "$decode_ms" "$floor_ms")×" "—"
row "no-op \`run\` (file store, up to date), static release binary" "$(fmt "$static_ms") ms" "$(fmt "$floor_ms") ms (C open+read)" \
    "$(ratio "$static_ms" "$floor_ms")×" "≤ 4×"
row "no-op \`run\` (file store) vs an empty static Swift program" "$(fmt "$static_ms") ms" "$(fmt "$hello_ms") ms (\`print(\"hi\")\`)" \
    "$(ratio "$static_ms" "$hello_ms")×" "—"
row "no-op \`run\`, SQLite store (issue 30), beside the file store's" "$(fmt "$sqlite_ms") ms" "$(fmt "$static_ms") ms (file store)" \
    "$(ratio "$sqlite_ms" "$static_ms")×" "—"
# What every host downloads and maps: the binary as scripts/release.sh ships it (stripped).
strip -o "$work/milepost-stripped" "$static"
row "release binary, stripped (as shipped)" \
    "$(awk -v b="$(stat -c %s "$work/milepost-stripped")" 'BEGIN { printf "%.1f MiB", b / 1048576 }')" \
    "$(awk -v b="$(stat -c %s "$static")" 'BEGIN { printf "%.1f MiB unstripped", b / 1048576 }')" "—" "≤ 40 MiB"
if command -v valgrind >/dev/null; then
    # valgrind cannot read the DWARF 5 of Swift's release build: count on a copy without it.
    strip --strip-debug -o "$work/milepost-nodebug" "$static"
    instructions() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 | awk '/Collected/ { print $4 }'; }
    swift_ir="$(instructions "$work/milepost-nodebug" "${run_args[@]}")"
    floor_ir="$(instructions "$work/state_floor" "$store/state.json")"
    row "no-op \`run\`, instructions (callgrind)" "$(awk -v v="$swift_ir" 'BEGIN { printf "%.1f M", v / 1e6 }')" \
        "$(awk -v v="$floor_ir" 'BEGIN { printf "%.2f M", v / 1e6 }')" "$(ratio "$swift_ir" "$floor_ir")×" "—"
else
    say "valgrind is missing (Debian: apt-get install valgrind): no instruction count row"
fi

# --- Peers: the no-op of the tools users would pick instead ----------------------------------------
say "peers (alembic, sqitch)"
while read -r name command; do
    [ -n "$name" ] || continue
    peer_runs=()
    for round in $(seq "$rounds"); do
        hyperfine --warmup 2 --runs 10 --export-csv "$work/peer-$name-$round.csv" "$command" >/dev/null 2>&1
        peer_runs+=("$(awk -F, 'NR == 2 { print $4 * 1000 }' "$work/peer-$name-$round.csv")")
    done
    peer_ms="$(printf '%s\n' "${peer_runs[@]}" | median)"
    row "peer: \`$name\` with nothing to do (SQLite)" "$(fmt "$static_ms") ms (no-op \`run\`)" "$(fmt "$peer_ms") ms" \
        "Milepost $(ratio "$peer_ms" "$static_ms")× faster" "≥ 100× faster"
done < <("$here/peers.sh" "$work/peers")

# --- 2. Manifest load ----------------------------------------------------------------------------
for spec in "10KB 10240 200" "512KiB 524288 25" "1MiB 1048576 15" "4MiB 4194304 5"; do
    read -r label size iterations <<<"$spec"
    say "manifest load, $label"
    file="$work/manifest-$label.yaml"
    "$bench" generate "$size" "$file"
    swift_runs=(); floor_runs=()
    for round in $(seq "$rounds"); do
        swift_runs+=("$("$bench" load "$file" "$iterations" | get median_ms)")
        floor_runs+=("$("$work/yaml_floor" "$file" "$iterations" | get median_ms)")
    done
    swift_ms="$(printf '%s\n' "${swift_runs[@]}" | median)"
    floor_ms="$(printf '%s\n' "${floor_runs[@]}" | median)"
    bytes="$(stat -c %s "$file")"
    mbs() { awk -v b="$bytes" -v ms="$1" 'BEGIN { printf "%.0f MB/s", b / 1e6 / (ms / 1e3) }'; }
    target="—"; case $label in 512KiB | 4MiB) target="≥ 0.5×" ;; esac
    row "manifest load $label ($(awk -v b="$bytes" 'BEGIN { printf "%.0f", b / 1024 }') KiB)" \
        "$(fmt "$swift_ms") ms, $(mbs "$swift_ms")" "$(fmt "$floor_ms") ms, $(mbs "$floor_ms") (libyaml events)" \
        "$(ratio "$floor_ms" "$swift_ms")× floor speed" "$target"
    if command -v valgrind >/dev/null; then
        # The same by instructions, the stable measure here: `Manifest.load` and the C program's
        # `load()` only, without starting the process (a Swift one loads the dynamic runtime).
        [ -x "$work/bench-nodebug" ] || strip --strip-debug -o "$work/bench-nodebug" "$bench"
        swift_ir="$(instructions '--toggle-collect=*LoadBenchmarkO8measured4path*' "$work/bench-nodebug" load "$file" 1)"
        floor_ir="$(instructions --toggle-collect=load "$work/yaml_floor" "$file" 1)"
        [ "${swift_ir:-0}" -gt 0 ] && [ "${floor_ir:-0}" -gt 0 ] || { echo "run.sh: --toggle-collect counted nothing" >&2; exit 1; }
        row "manifest load $label, instructions (callgrind, the load only)" \
            "$(awk -v v="$swift_ir" 'BEGIN { printf "%.1f M", v / 1e6 }')" "$(awk -v v="$floor_ir" 'BEGIN { printf "%.1f M", v / 1e6 }') (libyaml events)" \
            "$(ratio "$floor_ir" "$swift_ir")× floor speed" "$target"
    fi
    peak="$("$bench" load-memory "$file" | get peak_above_baseline_kib)"
    target="—"; [ "$label" = 1MiB ] && target="≤ 8 MiB"
    row "peak memory, load $label" "+$(awk -v k="$peak" 'BEGIN { printf "%.1f", k / 1024 }') MiB above baseline" \
        "$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1048576 }') MiB of input" "—" "$target"
done

# --- 3. Planning ---------------------------------------------------------------------------------
say "planning 100k steps"
plan_ms=(); plan_out=""
for round in $(seq "$rounds"); do
    plan_out="$("$bench" plan 100000 11)"
    plan_ms+=("$(get median_ms <<<"$plan_out")")
done
row "plan 100k steps, stored version in the middle" "$(fmt "$(printf '%s\n' "${plan_ms[@]}" | median)") ms" "—" "—" "< 50 ms"
row "plan 100k steps, peak memory" \
    "+$(awk -v k="$(get peak_above_baseline_kib <<<"$plan_out")" 'BEGIN { printf "%.1f", k / 1024 }') MiB" "—" "—" "—"
row "(parse + validate that 100k-step manifest)" "$(fmt "$(get manifest_parse_ms <<<"$plan_out")") ms" "—" "—" "—"

# --- 4. Checkpoints ------------------------------------------------------------------------------
row "per-step overhead of a run (2 checkpoints)" \
    "$(fmt "$(printf '%s\n' "${checkpoint_ms[@]}" | median)") ms/step" "—" "—" "—"
if command -v strace >/dev/null; then
    # The difference between 200 and 100 steps leaves out the run's fixed cost (its start and end).
    fsyncs() {
        rm -rf "$work/fsync" && mkdir -p "$work/fsync"
        strace -f -c -e trace=fsync,fdatasync -o "$work/fsync.txt" "$bench" checkpoint "$work/fsync" "$1" >/dev/null
        awk '$NF == "fsync" || $NF == "fdatasync" { n += $4 } END { print n + 0 }' "$work/fsync.txt"
    }
    row "fsync + fdatasync of a 20-step run (strace)" "$(fsyncs 20)" "—" "—" "≤ 44 (2 per step + 4)"
    per_step="$(awk -v a="$(fsyncs 200)" -v b="$(fsyncs 100)" 'BEGIN { printf "%.2f", (a - b) / 100 }')"
    row "fsyncs per step (strace, 200 − 100 steps; 2 checkpoints a step)" \
        "$per_step ($(awk -v s="$per_step" 'BEGIN { printf "%.2f", s / 2 }') per checkpoint)" "—" "—" "≤ 2 per step"
    # Twenty `exec` steps through the command line, whose process groups are recorded too (issue 44).
    awk 'BEGIN { print "migrations:"; for (i = 1; i <= 20; i++) printf "  \"1.%d\":\n    - {name: exec, id: s%d, with: {command: [\"true\"]}}\n", i, i }' \
        > "$work/exec20.yaml"
    rm -rf "$work/exec-store"
    strace -f -c -e trace=fsync,fdatasync -o "$work/exec.txt" "$static" run --manifest "$work/exec20.yaml" --to 1.20 --store "$work/exec-store" >/dev/null
    row "fsync + fdatasync of 20 \`exec\` steps through \`milepost run\`, fresh store (strace)" \
        "$(awk '$NF == "fsync" || $NF == "fdatasync" { n += $4 } END { print n + 0 }' "$work/exec.txt")" "—" "—" "≤ 44 (2 per step + 4)"
else
    say "strace is missing (Debian: apt-get install strace): no fsync count row"
fi

# --- 5. status with a long journal -----------------------------------------------------------------
say "status with a 1M-record journal"
"$here/long-journal.sh" "$work/long" 1000000 "$static"
status_runs=()
for round in $(seq "$rounds"); do
    hyperfine -N --warmup 1 --runs 5 --export-csv "$work/status-$round.csv" "$static status --store $work/long" >/dev/null 2>&1
    status_runs+=("$(awk -F, 'NR == 2 { print $4 * 1000 }' "$work/status-$round.csv")")
done
row "\`status\` with a 1,000,000-record journal" "$(fmt "$(printf '%s\n' "${status_runs[@]}" | median)") ms" "—" "—" "≤ 50 ms"

# --- 6. Costs that grow with the work (issue 44) --------------------------------------------------
# Each command on 1×, 2×, 4× and 8× an input, by callgrind instructions on the release binary: the
# manifest of benchmarks/warned-manifest.sh (500 steps at 1×, a warning every ten) with a store of
# benchmarks/scaled-store.sh (half the steps completed, drift, orphans; 1,000 journal records at
# 1×), and a journal alone (benchmarks/long-journal.sh, 2,500 records at 1×). A doubling of the
# input that costs more than 2.3× fails the run: something costs more than the input grows.
scaling_failed=""
if command -v valgrind >/dev/null; then
    say "scaling: commands on 1×, 2×, 4×, 8× a manifest and a journal (callgrind)"
    for factor in 1 2 4 8; do
        "$here/scaled-store.sh" "$work/scaled-$factor" $((500 * factor)) $((1000 * factor)) "$static"
        "$here/long-journal.sh" "$work/journal-$factor" $((2500 * factor)) "$static"
        # One line of 1,000 aliases at 1×, each a finding quoted with its line (a minified
        # manifest; the manifest fuzz target's timeouts).
        awk -v n=$((1000 * factor)) 'BEGIN { printf "{ &a { k: ["; for (i = 0; i < n; i++) printf "%s*a", (i ? ", " : ""); print "] } }" }' \
            > "$work/one-line-$factor.yaml"
    done
    # The command's instructions; its output and its exit status do not count.
    counted() { { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null || true; } | awk '/Collected/ { print $4 }'; }
    # scaling LABEL ARGUMENTS…: ARGUMENTS with @ for the input of each size.
    scaling() {
        local label=$1 counts=() worst=0 factor count
        shift
        for factor in 1 2 4 8; do
            count="$(counted "$work/milepost-nodebug" "${@//@/$factor}")"
            [ "${count:-0}" -gt 0 ] || { say "scaling: $label counted nothing"; exit 1; }
            [ ${#counts[@]} -eq 0 ] || worst="$(awk -v w="$worst" -v a="$count" -v b="${counts[-1]}" 'BEGIN { r = a / b; printf "%.2f", (r > w ? r : w) }')"
            counts+=("$count")
        done
        row "scaling: \`$label\` at 1×, 2×, 4×, 8×, instructions (callgrind)" \
            "$(printf '%s\n' "${counts[@]}" | awk '{ printf "%s%.1f M", (NR > 1 ? " / " : ""), $1 / 1e6 }')" "—" \
            "worst doubling ${worst}×" "≤ 2.3× a doubling"
        awk -v w="$worst" 'BEGIN { exit !(w > 2.3) }' && scaling_failed="$scaling_failed $label"
        return 0
    }
    scaled="$work/scaled-@"
    scaling "validate" validate --manifest "$scaled/milepost.yaml"
    scaling "validate --format github" validate --manifest "$scaled/milepost.yaml" --format github
    scaling "validate (one line, a finding per alias)" validate --manifest "$work/one-line-@.yaml"
    scaling "plan --format markdown" plan --manifest "$scaled/milepost.yaml" --store "$scaled/store" --to 1000 --format markdown
    scaling "status" status --manifest "$scaled/milepost.yaml" --store "$scaled/store" --to 1000
    scaling "lock" lock --manifest "$scaled/milepost.yaml" --lock-file "$work/scaled.lock"
    scaling "status (journal)" status --store "$work/journal-@"
    scaling "history (journal)" history --store "$work/journal-@"

    # validate of a 4 MiB manifest with warnings against libyaml's event loop over the same file.
    "$here/warned-manifest.sh" 51500 > "$work/warned-4MiB.yaml"
    validate_ir="$(counted "$work/milepost-nodebug" validate --manifest "$work/warned-4MiB.yaml")"
    floor_ir="$(counted "$work/yaml_floor" "$work/warned-4MiB.yaml" 1)"
    row "\`validate\` 4 MiB, $(grep -c 'name: exec' "$work/warned-4MiB.yaml") steps with warnings, instructions (callgrind, the process)" \
        "$(awk -v v="$validate_ir" 'BEGIN { printf "%.0f M", v / 1e6 }')" "$(awk -v v="$floor_ir" 'BEGIN { printf "%.0f M", v / 1e6 }') (libyaml events)" \
        "$(ratio "$validate_ir" "$floor_ir")×" "≤ 2×"
fi
validate_runs=(); floor_runs=()
[ -f "$work/warned-4MiB.yaml" ] || "$here/warned-manifest.sh" 51500 > "$work/warned-4MiB.yaml"
for round in $(seq "$rounds"); do
    hyperfine -N --warmup 1 --runs 5 --export-csv "$work/validate-$round.csv" \
        -n validate "$static validate --manifest $work/warned-4MiB.yaml" >/dev/null 2>&1
    validate_runs+=("$(awk -F, 'NR == 2 { print $4 * 1000 }' "$work/validate-$round.csv")")
    floor_runs+=("$("$work/yaml_floor" "$work/warned-4MiB.yaml" 5 | get median_ms)")
done
validate_ms="$(printf '%s\n' "${validate_runs[@]}" | median)"; floor_ms="$(printf '%s\n' "${floor_runs[@]}" | median)"
row "\`validate\` 4 MiB with warnings, wall clock" "$(fmt "$validate_ms") ms" "$(fmt "$floor_ms") ms (libyaml events)" \
    "$(ratio "$validate_ms" "$floor_ms")×" "≤ 2×"

# --- Table ---------------------------------------------------------------------------------------
echo "Machine: $(nproc) cores, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo), load $(cut -d' ' -f1-3 /proc/loadavg); $(swift --version 2>/dev/null | head -1); $(date -u +%Y-%m-%d)"
echo "Each figure: median of $rounds rounds' medians. Store and manifests in $work ($(df -T "$work" | awk 'NR == 2 { print $2 }'))."
echo
echo "| Benchmark | Milepost | Floor | Ratio | Target |"
echo "|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
if [ -n "$scaling_failed" ]; then
    say "a doubling of the input cost more than 2.3× for:$scaling_failed"
    exit 1
fi

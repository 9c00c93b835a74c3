#!/usr/bin/env bash
# Builds `milepost-fuzz` (every fuzz target of Sources/MilepostFuzzing) with libFuzzer and
# AddressSanitizer, checks that it catches a planted crash, hang and leak, then fuzzes each target
# for a bounded time. docs/reliability.md, "Fuzzing", says what each target reads and checks.
#
#   fuzz/run.sh [SECONDS [TARGET…]]     default 20 s per target, every target (`milepost-fuzz --list`)
#
# SwiftPM builds it from the package's own targets (`--sanitize=fuzzer` compiles the executable as a
# library and links libFuzzer's `main`), release with Swift's debug checks kept (`-assert-config
# Debug`: preconditions of unsafe buffers, `assert`), in .build/fuzz. SwiftPM hands swiftc each
# `--sanitize` as a flag of its own, and swiftc keeps only the last (`-sanitize=address`: no coverage,
# so libFuzzer fuzzes blind); `-Xswiftc -sanitize=fuzzer,address`, which comes after them, wins.
# UndefinedBehaviorSanitizer is clang's: swiftc refuses `-sanitize=undefined`. Each target runs over its seed
# corpus, fuzz/corpus/TARGET (read only; the inputs it adds go to .build/fuzz-corpus/TARGET, kept
# between runs). A crash (a failed oracle or a sanitizer report), an input slower than 10 s, a leak,
# or more than 2 GiB of memory fails the run, and the input is copied into fuzz/corpus/TARGET under
# libFuzzer's name (crash-…, timeout-…, leak-…, oom-…), where FuzzCorpusTests replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
shift $(( $# > 0 ? 1 : 0 ))

echo "fuzz: building milepost-fuzz (libFuzzer, AddressSanitizer)" >&2
swift build -c release --scratch-path .build/fuzz --sanitize=fuzzer --sanitize=address \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -assert-config -Xswiftc Debug --product milepost-fuzz >&2
fuzzer=$PWD/.build/fuzz/release/milepost-fuzz
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(ASAN_OPTIONS=detect_leaks=0 "$fuzzer" --list | cut -f1)
[ ${#targets[@]} -gt 0 ] || { echo "fuzz: milepost-fuzz --list names no target" >&2; exit 1; }

# The store targets write their files here; libFuzzer's crash reports need no Swift backtrace.
scratch=$(mktemp -d "$( [ -w /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}" )/milepost-fuzz.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export TMPDIR=$scratch SWIFT_BACKTRACE=enable=no

# fuzz TARGET SECONDS ARTIFACTS [CORPUS…]: runs libFuzzer on TARGET; its log is ARTIFACTS/log.
fuzz() {
    local target=$1 time=$2 artifacts=$3
    shift 3
    mkdir -p "$artifacts"
    "$fuzzer" --target="$target" -max_total_time="$time" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$artifacts/" "$@" >"$artifacts/log" 2>&1
}

# The planted defects first: a build or a run that does not report each of them would miss a real one.
# Each starts from the input 'bug': they prove AddressSanitizer, the timeout and LeakSanitizer, not
# the search (from nothing, libFuzzer missed 'bug' within 60 s on the loaded machine). Coverage is
# proved by its count: a build that has none (swiftc kept only -sanitize=address) fuzzes blind.
for kind in crash hang leak; do
    artifacts=$scratch/planted-$kind
    mkdir -p "$artifacts/corpus"
    printf bug >"$artifacts/corpus/bug"
    if fuzz "planted-$kind" 60 "$artifacts" "$artifacts/corpus"; then
        echo "fuzz: the planted $kind went unnoticed for 60 s: this build would miss a real one" >&2
        tail -n 20 "$artifacts/log" >&2
        exit 1
    fi
    expected=$(case $kind in crash) echo crash ;; hang) echo timeout ;; leak) echo leak ;; esac)
    if ! compgen -G "$artifacts/$expected-*" >/dev/null; then
        echo "fuzz: planted-$kind failed without a $expected report" >&2
        tail -n 20 "$artifacts/log" >&2
        exit 1
    fi
    counters=$(sed -nE 's/^INFO: Loaded [0-9]+ modules +\(([0-9]+) inline 8-bit counters\).*/\1/p' "$artifacts/log")
    if [ "${counters:-0}" -lt 10000 ]; then
        echo "fuzz: milepost-fuzz has ${counters:-no} coverage counters: built without -sanitize=fuzzer, it fuzzes blind" >&2
        exit 1
    fi
    echo "fuzz: the planted $kind is caught ($(grep -m1 -oE 'ERROR: [A-Za-z]+: [a-z-]+|ALARM: working on the last Unit for [0-9]+ seconds' "$artifacts/log"))" >&2
done

echo "| target | seconds | executions | per second | coverage (edges) | features | corpus | peak RSS |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
failed=()
for target in "${targets[@]}"; do
    artifacts=$scratch/$target
    mkdir -p ".build/fuzz-corpus/$target"
    status=0
    fuzz "$target" "$seconds" "$artifacts" ".build/fuzz-corpus/$target" "fuzz/corpus/$target" || status=$?
    log=$artifacts/log
    final() { grep -m1 "^stat::$1:" "$log" | awk '{print $2}' || true; }
    last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -n 1 || true)
    field() { sed -nE "s/.* $1: ([0-9]+).*/\1/p" <<<"$last"; }
    corpus=$(sed -nE 's/.* corp: ([0-9]+\/[0-9]+[a-zA-Z]*).*/\1/p' <<<"$last")
    echo "| $target | $seconds | $(final number_of_executed_units) | $(final average_exec_per_sec) | $(field cov) | $(field ft) | ${corpus:-?} | $(final peak_rss_mb) MB |"
    kept=0
    for artifact in "$artifacts"/crash-* "$artifacts"/timeout-* "$artifacts"/leak-* "$artifacts"/oom-*; do
        [ -e "$artifact" ] || continue
        cp "$artifact" "fuzz/corpus/$target/"
        echo "fuzz: $target: kept $(basename "$artifact") in fuzz/corpus/$target" >&2
        kept=1
    done
    if [ "$status" != 0 ] || [ "$kept" != 0 ]; then
        grep -E -m5 'milepost-fuzz:|ERROR: |ALARM|SUMMARY' "$log" >&2 || tail -n 20 "$log" >&2
        failed+=("$target")
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: failed: ${failed[*]} (logs above; the inputs are kept in fuzz/corpus)" >&2
    exit 1
fi

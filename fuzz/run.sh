#!/usr/bin/env bash
# Builds the libFuzzer target (fuzz/ManifestFuzzer.swift) with swiftc directly and runs it for a
# bounded time over a copy of the seed corpus.
#
#   fuzz/run.sh [SECONDS]     default 60; prints libFuzzer's summary and exits non-zero on a crash
#
# SwiftPM executables clash with -parse-as-library (swift-package-manager#4522), so the modules are
# compiled here: Logging (from SwiftPM's checkout, uninstrumented), then MilepostYAML and Milepost
# with -sanitize=fuzzer,address (coverage + ASan), then the target, linked against the system libyaml.
# New inputs go to .build/fuzz/corpus, never into fuzz/corpus; a crashing input is copied into
# fuzz/corpus (where FuzzCorpusTests replays it) and reported.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
out=.build/fuzz
mkdir -p "$out/modules" "$out/corpus" "$out/artifacts"

[ -d .build/checkouts/swift-log/Sources/Logging ] || swift package resolve
common=(-parse-as-library -O -g -swift-version 6 -package-name milepost -I "$out/modules" -I Sources/CYAML)
strict=(-enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault)
instrumented=(-sanitize=fuzzer,address)

module() { # module NAME SOURCE_DIR [EXTRA FLAGS…]: one object and one .swiftmodule per module
    local name=$1 dir=$2
    shift 2
    swiftc "${common[@]}" "$@" -module-name "$name" -wmo -c $(find "$dir" -name '*.swift' | sort) \
        -emit-module -emit-module-path "$out/modules/$name.swiftmodule" -o "$out/$name.o"
}

echo "fuzz: building" >&2
module Logging .build/checkouts/swift-log/Sources/Logging -swift-version 5
module MilepostYAML Sources/MilepostYAML "${strict[@]}" "${instrumented[@]}"
module Milepost Sources/Milepost "${strict[@]}" "${instrumented[@]}"
swiftc "${common[@]}" "${strict[@]}" "${instrumented[@]}" -module-name ManifestFuzzer \
    fuzz/ManifestFuzzer.swift "$out/Logging.o" "$out/MilepostYAML.o" "$out/Milepost.o" -lyaml \
    -o "$out/manifest-fuzzer"

echo "fuzz: running for ${seconds}s" >&2
status=0
"$out/manifest-fuzzer" "$out/corpus" fuzz/corpus \
    -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$out/artifacts/" -print_final_stats=1 2>&1 | tee "$out/last-run.log" || status=$?

for artifact in "$out"/artifacts/*; do
    [ -e "$artifact" ] || continue
    cp "$artifact" "fuzz/corpus/regression-$(basename "$artifact")"
    echo "fuzz: kept $(basename "$artifact") as fuzz/corpus/regression-$(basename "$artifact")" >&2
done
exit "$status"

#!/usr/bin/env bash
# Measures `milepost validate` on every hostile input with /usr/bin/time -v (apt-get install time):
# exit code, wall time and peak RSS, as a Markdown table for docs/reliability.md.
#
#   fuzz/measure.sh [MILEPOST]     default .build/release/milepost (swift build -c release --product milepost)
set -euo pipefail
cd "$(dirname "$0")/.."
milepost=$(realpath "${1:-.build/release/milepost}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The big cases, too large for the seed corpus.
python3 - "$work" <<'PY'
import sys
d = sys.argv[1]
open(f"{d}/deep-flow-200000.yaml", "w").write("[" * 200_000 + "]" * 200_000)
open(f"{d}/deep-block-2000.yaml", "w").write("".join("  " * i + "k:\n" for i in range(2000)))
open(f"{d}/big-scalar-64KiB-aliased-3000.yaml", "w").write(
    "big: &big " + "x" * 65536 + "\nuses: [" + ", ".join(["*big"] * 3000) + "]\n")
open(f"{d}/over-size-cap.yaml", "w").write(
    'migrations:\n  1.0: [{name: exec, with: {command: ["true"]}}]\n#' + "x" * (4 << 20) + "\n")
PY
mkfifo "$work/fifo"

echo "| input | bytes | exit | wall | peak RSS |"
echo "|---|---:|---:|---:|---:|"
for input in manifests/example.yaml fuzz/corpus/manifest/hostile-* "$work"/*.yaml /dev/zero "$work/fifo"; do
    /usr/bin/time -v "$milepost" validate --manifest "$input" >/dev/null 2>"$work/time.txt" && status=0 || status=$?
    wall=$(grep -a 'Elapsed (wall clock)' "$work/time.txt" | awk '{print $NF}')
    rss=$(grep -a 'Maximum resident set size' "$work/time.txt" | awk '{print $NF}')
    bytes=$([ -f "$input" ] && stat -c %s "$input" || echo -)
    echo "| $(basename "$input") | $bytes | $status | $wall | $((rss / 1024)) MiB |"
done

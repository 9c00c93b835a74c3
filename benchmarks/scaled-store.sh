#!/bin/sh
# Writes the inputs of the scaling benchmark (benchmarks/run.sh, docs/performance.md) in DIR:
#   DIR/milepost.yaml  STEPS steps of benchmarks/warned-manifest.sh (a warning every ten steps);
#   DIR/store          a file store at the middle threshold with the steps below it completed, one
#                      in ten recorded with another fingerprint (drift), one in ten under an id the
#                      manifest no longer has (an orphan, and a late step), and a journal of RECORDS
#                      records (benchmarks/long-journal.sh).
#   benchmarks/scaled-store.sh DIR STEPS RECORDS MILEPOST
set -eu
dir=$1 steps=$2 records=$3 milepost=$4
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$dir"
"$here/warned-manifest.sh" "$steps" > "$dir/milepost.yaml"
"$here/long-journal.sh" "$dir/store" "$records" "$milepost"
# The lock file lists each step's id and fingerprint in run order: the first half is what a run
# to the middle threshold completed.
"$milepost" lock --manifest "$dir/milepost.yaml" --lock-file "$dir/fingerprints" >/dev/null
awk -v half="$((steps / 2))" '
    BEGIN { printf "{\"completed\":[" }
    /^#/ { next }
    { n++; if (n > half) exit; id = $1; fingerprint = $2; version = substr(id, 1, index(id, "/") - 1)
      if (n % 10 == 3) fingerprint = "0000000000000000"
      if (n % 10 == 7) id = id "-gone"
      printf "%s{\"at\":\"2026-01-02T03:04:05.678Z\",\"fingerprint\":\"%s\",\"id\":\"%s\",\"run\":\"r00000000000\"}", (n > 1 ? "," : ""), fingerprint, id }
    END { printf "],\"format\":1,\"updated_at\":\"2026-01-02T03:04:05.678Z\",\"version\":\"%s\"}\n", version }' \
    "$dir/fingerprints" > "$dir/store/state.json"

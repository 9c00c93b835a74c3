#!/bin/sh
# Writes a file store in DIR whose journal holds RECORDS records (runs of run-started,
# step-started, step-succeeded, run-finished, as `milepost run` writes them), for timing
# `status` and `history --limit` against a long journal (docs/performance.md).
#   benchmarks/long-journal.sh DIR RECORDS MILEPOST
set -eu
dir=$1 records=$2 milepost=$3
rm -rf "$dir"
"$milepost" baseline 1 --store "$dir" >/dev/null
awk -v n="$records" 'BEGIN {
    for (i = 0; i < n; i += 4) {
        run = sprintf("r%011d", i / 4)
        t = "2026-01-02T03:04:05.678Z"
        printf "{\"app\":\"bench\",\"event\":\"run-started\",\"from\":\"1\",\"host\":\"bench-host\",\"pid\":4242,\"run\":\"%s\",\"time\":\"%s\",\"to\":\"1\"}\n", run, t
        printf "{\"app\":\"bench\",\"attempt\":1,\"event\":\"step-started\",\"run\":\"%s\",\"step\":\"1/step\",\"time\":\"%s\"}\n", run, t
        printf "{\"app\":\"bench\",\"attempt\":1,\"duration_ms\":12,\"event\":\"step-succeeded\",\"run\":\"%s\",\"step\":\"1/step\",\"time\":\"%s\"}\n", run, t
        printf "{\"app\":\"bench\",\"event\":\"run-finished\",\"from\":\"1\",\"outcome\":\"succeeded\",\"run\":\"%s\",\"time\":\"%s\",\"to\":\"1\"}\n", run, t
    }
}' > "$dir/journal.jsonl"

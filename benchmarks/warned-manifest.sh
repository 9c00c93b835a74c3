#!/bin/sh
# Prints a manifest of STEPS `exec` steps under unquoted thresholds 1.1, 1.2, … 1.100, 2.1, …, the
# shape the before-stop check and issue 44 time: each pair such as 1.1 and 1.10 is one number to
# other YAML tools and earns a warning with a note (one step in ten).
#   benchmarks/warned-manifest.sh STEPS > FILE
set -eu
awk -v n="$1" 'BEGIN {
    print "migrations:"
    for (i = 0; i < n; i++) printf "  %d.%d:\n    - {name: exec, id: s%d, with: {command: [sh, -c, \047echo %d\047]}}\n", 1 + int(i / 100), i % 100 + 1, i, i
}'

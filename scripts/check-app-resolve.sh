#!/usr/bin/env bash
# check-app-resolve.sh: add Milepost to a new application the way an app does (a tagged git copy,
# `.package(url: "file://…", from: "9.9.9")`, product `Milepost` only), resolve it, and fail unless
# the app's Package.resolved pins exactly the library's own packages (issue 31). With `--build`,
# build the app too. Prints the pins.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=0
[ "${1:-}" = --build ] && build=1

# What an application may resolve: Milepost itself and what its library products need.
expected="milepost swift-argument-parser swift-atomics swift-distributed-tracing swift-log swift-metrics swift-prometheus swift-system"

work=$(mktemp -d /tmp/milepost-app-resolve.XXXXXX)
trap 'rm -rf "$work"' EXIT

# The package as it is in this working tree (committed or not), in a git repository tagged 9.9.9.
mkdir "$work/milepost"
(
    cd "$root"
    git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' file; do
        if [ -e "$file" ]; then printf '%s\0' "$file"; fi    # a file deleted but not committed is left out
    done | xargs -0 cp --parents -t "$work/milepost"
)
git -C "$work/milepost" init -q
git -C "$work/milepost" add -A
git -C "$work/milepost" -c user.name=ci -c user.email=ci@localhost commit -q -m copy
git -C "$work/milepost" tag 9.9.9

mkdir -p "$work/app/Sources/App"
cat > "$work/app/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "App",
    dependencies: [.package(url: "file://$work/milepost", from: "9.9.9")],
    targets: [.executableTarget(name: "App", dependencies: [.product(name: "Milepost", package: "milepost")])]
)
SWIFT
cat > "$work/app/Sources/App/main.swift" <<'SWIFT'
import Milepost

let version: Version = "2.1"
print(version)
SWIFT

cd "$work/app"
swift package resolve >resolve.log 2>&1 || { cat resolve.log >&2; exit 1; }
pins=$(python3 -c 'import json; print(" ".join(sorted(p["identity"] for p in json.load(open("Package.resolved"))["pins"])))')
echo "app-resolve: $(wc -w <<<"$pins") pins: $pins"
if [ "$pins" != "$expected" ]; then
    echo "app-resolve: an app that uses only the Milepost product resolves other packages; expected: $expected" >&2
    exit 1
fi
if [ "$build" = 1 ]; then
    swift build >build.log 2>&1 || { cat build.log >&2; exit 1; }
    [ "$(.build/debug/App)" = 2.1 ] || { echo "app-resolve: the app did not run" >&2; exit 1; }
    echo "app-resolve: the app builds and runs"
fi

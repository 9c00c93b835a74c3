#!/usr/bin/env bash
# Builds what an ops engineer installs, into dist/ (or the directory given):
#
#   scripts/release.sh [OUT_DIR]
#
#   milepost-VERSION-linux-ARCH.tar.gz         the static binary, man page, shell completions, README
#   milepost_VERSION_DEBARCH.deb               the same as a Debian package (binary in /usr/bin)
#   milepost-VERSION-linux-ARCH-debug.tar.gz   the binaries' debug information (DWARF), for gdb
#   SHA256SUMS                                 sha256sum of the three, for `sha256sum -c SHA256SUMS`
#
# The shipped binaries are stripped; each names its debug file (`.gnu_debuglink`), which the debug
# tarball holds at MILEPOST-FOLDER/usr/bin/.debug/: extracted beside the release tarball, gdb finds
# it there; for the .deb, copy the .debug files to /usr/lib/debug/usr/bin/.
#
# The binary is built exactly as the README's production recipe says
# (`swift build -c release --static-swift-stdlib --disable-local-rpath`): the Swift runtime is inside it, and it needs
# only the C libraries the .deb's Depends: names (computed by dpkg-shlibdeps from the binary).
# libpq and libsqlite3 are loaded only when a postgres:// or sqlite: store is opened, so they are
# recommended, not required.
# Needs: swift, dpkg-deb and dpkg-shlibdeps (Debian: dpkg-dev), objcopy (binutils), gzip.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-dist}")

work=$(mktemp -d /tmp/milepost-release.XXXXXX)
trap 'rm -rf "$work"' EXIT

echo "release: building the static binaries" >&2
# With the OpenTelemetry trait (Package.swift), which links the exporter into milepost-otel.
# --disable-local-rpath: SwiftPM gives executables `RUNPATH $ORIGIN`, so the loader would look for
# libyaml in 23 directories beside the binary before ld.so.cache at every start, and load a library
# planted beside a binary installed in a writable directory.
swift build -c release --static-swift-stdlib --disable-local-rpath --traits OpenTelemetry --product milepost >&2
swift build -c release --static-swift-stdlib --disable-local-rpath --traits OpenTelemetry --product milepost-otel >&2
# Copied at once: any later non-static release build (a plugin's, say) writes the same paths.
# milepost-otel is milepost with the OpenTelemetry exporter linked; milepost execs it, from its own
# directory, when OTEL_* asks for export (docs/observability.md).
binary=$work/milepost
exporter=$work/milepost-otel
cp .build/release/milepost "$binary"
cp .build/release/milepost-otel "$exporter"
for built in "$binary" "$exporter"; do
    # Read first, so that a readelf that fails stops the script (set -e) rather than passing a check.
    dynamic=$(readelf -d "$built")
    if grep -q 'NEEDED.*libswift' <<<"$dynamic"; then
        echo "release: $built links the Swift runtime dynamically: not the static build" >&2
        exit 1
    fi
    if grep -q -E '\((RUNPATH|RPATH)\)' <<<"$dynamic"; then
        echo "release: $built has a RUNPATH: build it with --disable-local-rpath" >&2
        exit 1
    fi
done
version=$("$binary" --version | cut -d' ' -f1)
arch=$(uname -m)
debarch=$(dpkg --print-architecture)
name="milepost-$version-linux-$arch"

# Stripped, with the debug information kept apart (in the debug tarball).
echo "release: stripping (debug information in the debug tarball)" >&2
mkdir -p "$work/debug/$name/usr/bin/.debug"
for built in "$binary" "$exporter"; do
    debug="$work/debug/$name/usr/bin/.debug/$(basename "$built").debug"
    objcopy --only-keep-debug "$built" "$debug"
    objcopy --strip-all --add-gnu-debuglink="$debug" "$built"
done

# The man page, from swift-argument-parser's generate-manual tool (the same command tree as
# --help), run on milepost alone: its package plugin runs it on every executable that links
# ArgumentParser, milepost-fuzz included, whose main is libFuzzer's. Its output leaves blank lines
# inside paragraphs, which mdoc warns about and renders as nothing: make each a paragraph break.
echo "release: generating the man page" >&2
swift build --configuration debug --product generate-manual >&2
mkdir -p "$work/man"
.build/debug/generate-manual "$binary" --output-directory "$work/man" >&2
sed 's/^$/.Pp/' "$work/man/milepost.1" > "$work/milepost.1"

# stage ROOT: the installed layout, rooted at ROOT.
stage() {
    local root=$1
    install -D -m 0755 "$binary" "$root/usr/bin/milepost"
    install -D -m 0755 "$exporter" "$root/usr/bin/milepost-otel"
    install -D -m 0644 "$work/milepost.1" "$root/usr/share/man/man1/milepost.1"
    gzip -9n "$root/usr/share/man/man1/milepost.1"
    install -d "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
        "$root/usr/share/fish/vendor_completions.d"
    "$binary" --generate-completion-script bash > "$root/usr/share/bash-completion/completions/milepost"
    "$binary" --generate-completion-script zsh > "$root/usr/share/zsh/vendor-completions/_milepost"
    "$binary" --generate-completion-script fish > "$root/usr/share/fish/vendor_completions.d/milepost.fish"
    install -D -m 0644 README.md "$root/usr/share/doc/milepost/README.md"
}

mkdir -p "$out"

# The tarball: the same files, in a folder named after the release, paths as installed under /usr.
echo "release: packing the tarballs" >&2
stage "$work/$name"
tarball="$out/$name.tar.gz"
tar -C "$work" --owner=0 --group=0 --numeric-owner -czf "$tarball" "$name"
debug_tarball="$out/$name-debug.tar.gz"
tar -C "$work/debug" --owner=0 --group=0 --numeric-owner -czf "$debug_tarball" "$name"

# The Debian package. Depends: comes from the binary's NEEDED entries, as Debian's own packages do.
echo "release: building the Debian package" >&2
root="$work/deb"
stage "$root"
mkdir -p "$work/shlibs/debian" "$root/DEBIAN"
printf 'Source: milepost\n\nPackage: milepost\nArchitecture: any\n' > "$work/shlibs/debian/control"
depends=$(cd "$work/shlibs" && dpkg-shlibdeps -O "$root/usr/bin/milepost" "$root/usr/bin/milepost-otel" | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "release: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<EOF
Package: milepost
Version: $version
Architecture: $debarch
Maintainer: Milepost developers <milepost@localhost>
Installed-Size: $size
Depends: $depends
Recommends: libpq5, libsqlite3-0
Section: admin
Priority: optional
Description: run one-time upgrade steps when an application moves past a version
 A YAML manifest maps version thresholds to named steps; milepost compares the
 stored version with the target, runs every pending step once with a
 checkpoint per step, and journals every run. Made for pre-start hooks
 (systemd ExecStartPre, Kubernetes init containers) on a file store or
 PostgreSQL.
EOF
deb="$out/milepost_${version}_${debarch}.deb"
dpkg-deb --root-owner-group -Zgzip --build "$root" "$deb" >&2

(cd "$out" && sha256sum "$(basename "$tarball")" "$(basename "$deb")" "$(basename "$debug_tarball")" > SHA256SUMS)
echo "$tarball"
echo "$deb"
echo "$debug_tarball"
echo "$out/SHA256SUMS"

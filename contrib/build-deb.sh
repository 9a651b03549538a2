#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds the Debian packages of contrib/debian/ from a temporary copy of the
# tree, as a maintainer would, and checks them with lintian -I --pedantic.
# Exits non-zero when the build fails or lintian reports an error or warning.
#
#   contrib/build-deb.sh [OUTDIR]
#
# OUTDIR, when given, receives the .deb, .dsc, .changes, .buildinfo, the
# tarballs, build.log and lintian.log; otherwise nothing is kept but, when
# the build fails, its whole log and meson's test log (the path is printed). DEB_BUILD_OPTIONS is passed on (for example
# nocheck, or parallel=4). The copy holds the files git tracks (or, outside
# a checkout, the tree without build directories), uncommitted changes
# included. Needs dpkg-dev, debhelper and lintian, and the Build-Depends of
# contrib/debian/control (dpkg-buildpackage lists what is missing).
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-}
[ -z "$out" ] || out=$(mkdir -p "$out" && cd "$out" && pwd)

for tool in dpkg-buildpackage dh lintian; do
	command -v "$tool" >/dev/null || { echo "build-deb.sh: $tool is missing (apt-get install dpkg-dev debhelper lintian)" >&2; exit 1; }
done

version=$(sed -n "s/^ *version *: *'\([^']*\)'.*/\1/p" "$src/meson.build" | head -n 1)
deb_version=$(dpkg-parsechangelog -l "$src/contrib/debian/changelog" -S Version)
if [ "${deb_version%-*}" != "$version" ]; then
	echo "build-deb.sh: contrib/debian/changelog is at ${deb_version%-*}, the project at $version:" \
		"add a changelog entry first (dch -c contrib/debian/changelog -v $version-1)" >&2
	exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/taskview-deb-XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
tree="$work/taskview-$version"
mkdir "$tree"

# the upstream tree: tracked files, or everything but .git and meson build
# directories when the tree is not a checkout's top (a tarball, also one
# unpacked inside a checkout, as `meson dist` does)
if [ "$(git -C "$src" rev-parse --show-toplevel 2>/dev/null)" = "$src" ]; then
	list() { git -C "$src" ls-files -z; }
else
	list() { (cd "$src" && find . \( -name .git -o -type d -exec test -e '{}/meson-private' \; \) -prune \
		-o -type f -print0); }
fi
list | (cd "$src" && while IFS= read -r -d '' f; do
	[ -e "$f" ] && cp --parents -p -- "$f" "$tree/"
done)
tar -C "$work" --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 \
	-cJf "$work/taskview_$version.orig.tar.xz" "taskview-$version"
cp -r "$src/contrib/debian" "$tree/debian"

echo "build-deb.sh: building taskview $deb_version in $tree"
(cd "$tree" && dpkg-buildpackage -us -uc) >"$work/build.log" 2>&1 || {
	tail -n 60 "$work/build.log"
	# the whole log and meson's test log outlive the copy: in OUTDIR, or beside it
	keep=$out
	[ -n "$keep" ] || keep=$(mktemp -d "${TMPDIR:-/tmp}/taskview-deb-failed-XXXXXX")
	cp "$work/build.log" "$keep/build.log"
	for log in "$tree"/obj-*/meson-logs/testlog.txt; do
		[ -f "$log" ] && cp "$log" "$keep/testlog.txt"
	done
	echo "build-deb.sh: dpkg-buildpackage failed (last lines above; the whole log: $keep/build.log$(
		[ -f "$keep/testlog.txt" ] && echo ", the tests': $keep/testlog.txt"))" >&2
	exit 1
}
grep -E '^(Ok|Fail|Skipped|Timeout|Expected Fail|Unexpected Pass): ' "$work/build.log" || true

changes=$(ls "$work"/taskview_"$deb_version"_*.changes)
# Debian's first upload closes its ITP bug; that number exists only once someone files one
echo "build-deb.sh: not checked: initial-upload-closes-no-bugs (an upload to Debian adds '(Closes: #ITP)'" \
	"to the first changelog entry)"
status=0
lintian -I --pedantic --fail-on error,warning --suppress-tags initial-upload-closes-no-bugs "$changes" \
	>"$work/lintian.log" 2>&1 || status=$?
cat "$work/lintian.log"
if [ -n "$out" ]; then
	cp "$work"/*.deb "$work"/*.dsc "$work"/*.changes "$work"/*.buildinfo "$work"/*.tar.* "$work/lintian.log" \
		"$work/build.log" "$out/"
fi
if [ "$status" -ne 0 ]; then
	echo "build-deb.sh: lintian reports errors or warnings (exit $status)" >&2
	exit 1
fi
echo "build-deb.sh: built $(cd "$work" && ls ./*.deb | tr '\n' ' '); lintian: no error or warning"

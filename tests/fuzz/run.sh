#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs every fuzz harness of a -Dfuzz=true build for a while on the seed
# corpus, e.g. in CI: tests/fuzz/run.sh build-fuzz 5
# New inputs go to a temporary directory; the tree is not changed. A crash
# keeps its input there and makes the run fail.
# Usage: run.sh BUILD_DIR [SECONDS_EACH] [TARGET...]
set -eu
build=${1:?usage: run.sh BUILD_DIR [SECONDS_EACH] [TARGET...]}
secs=${2:-5}
shift
[ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")" && pwd)
targets="$*"
if [ -z "$targets" ]; then
	targets=$(cd "$here/corpus" && ls)
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/taskview-fuzz.XXXXXX")
failed=""
for t in $targets; do
	exe="$build/tests/fuzz/fuzz_$t"
	if [ ! -x "$exe" ]; then
		echo "fuzz_$t: not built (meson setup -Dfuzz=true with clang)" >&2
		failed="$failed $t"
		continue
	fi
	mkdir -p "$work/$t/new"
	if "$exe" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$work/$t/" "$work/$t/new" "$here/corpus/$t" >"$work/$t/log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$t/log")
		echo "fuzz_$t: ok, ${runs:-?} runs in ${secs} s"
	else
		echo "fuzz_$t: FAILED; input and log in $work/$t/" >&2
		tail -n 30 "$work/$t/log" >&2
		failed="$failed $t"
	fi
done
if [ -n "$failed" ]; then
	echo "failed:$failed" >&2
	exit 1
fi
rm -rf "$work"

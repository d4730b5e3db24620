#!/bin/sh
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
#
# build_in_tree.sh - js/build.sh in a clone that was first configured the
# way the top README's "Using the library" builds it, in its own
# directory: autoreconf -fi && ./configure && make. A newcomer follows
# that order, and the package's build must still work there (issue 44).
# Of what that make writes in the tree, only wasm-core/ (js/Makefile.inc)
# is something js/build.sh's own make could take for its own (through
# VPATH); the test makes that and not the libraries, which take a minute
# or two more and which nothing of js/build.sh reads. The clone is
# a copy of this checkout's tracked files as they are in the work tree
# (uncommitted changes included), made a git checkout of its own, in a
# temporary directory that is removed at the end. The libsodium that
# js/build.sh built here for wasm32 (js/build/sodium) is copied into the
# clone when there is one, so that the test takes the time of configure
# and the core, not of libsodium; js/build.sh skips that step when its
# library is there, as it does on a second run.
#
# It walks doc/bad-input.md's build-js- row (build-js-in-tree), whose
# outcome's first code span is the file the build must write; a row with
# no check here, or this check with no row, fails.
#
# Prints TAP (scripts/wasm.sh counts "# pass", "# fail", "# skipped"):
#   0. doc/bad-input.md has the one build-js- row this script checks;
#   1. the clone configures in its own directory;
#   2. js/build.sh there writes the row's file (js/dist/equix.wasm);
#   3. and writes no file of the clone outside js/build and js/dist;
#   4. that core verifies Tor's PoW v1 vectors (standard HashX: the
#      package's configuration, not whatever the clone's own build has).
# Needs git, the native build's packages and js/build.sh's toolchain
# (scripts/test.sh --wasm installs them); exits 1 when a check fails.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
JOBS=${JOBS:-2}
pass=0 fail=0 n=0

# One TAP line; on failure the last lines of `log` as comments.
check() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
		pass=$((pass + 1))
	else
		echo "not ok $n - $2"
		[ -z "${3:-}" ] || tail -n 20 "$3" | sed 's/^/# /'
		fail=$((fail + 1))
	fi
}

finish() {
	echo "1..$n"
	echo "# pass $pass"
	echo "# fail $fail"
	echo "# skipped 0"
	[ "$fail" = 0 ]
	exit
}

echo "TAP version 13"

# 0. The row: "| `build-js-in-tree` | call | bad input | `FILE`: ... |".
rows=$(awk -F'|' '/^\| `build-js-/ {
	id = $2; gsub(/[ `]/, "", id)
	if (match($5, /`[^`]*`/)) print id " " substr($5, RSTART + 1, RLENGTH - 2)
}' "$top/doc/bad-input.md")
want=${rows#build-js-in-tree }
[ "$rows" != "$want" ] && [ -n "$want" ] && [ "$(echo "$rows" | wc -l)" = 1 ]
check $? "doc/bad-input.md has one build-js- row, build-js-in-tree (${rows:-none})"
[ "$fail" = 0 ] || finish

if ! git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	echo "build_in_tree.sh: $top is not a git checkout (the clone is made from its tracked files)" >&2
	exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/equix-build-in-tree.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
clone=$tmp/equix
log=$tmp/log
mkdir "$clone"

# The tracked files as the work tree has them, then a git checkout of
# its own (an index, no commit needed: git ls-files reads the index).
start=$(date +%s)
if ! { (cd "$top" && git ls-files -z | tar --null -T - --ignore-failed-read -cf -) |
	tar -C "$clone" -xf - && git -C "$clone" init -q && git -C "$clone" add -A; }; then
	echo "build_in_tree.sh: copying the tracked files failed" >&2
	exit 1
fi

# 1. The README's build, in the clone's own directory.
(cd "$clone" && autoreconf -fi && ./configure -q && make -s wasm-core) >"$log" 2>&1
check $? "the clone is configured in its own directory (autoreconf -fi && ./configure && make wasm-core)" "$log"
[ -f "$clone/config.status" ] || finish
echo "# $(($(date +%s) - start)) s"

# 2. and 3. The package's build there.
if [ -f "$top/js/build/sodium/lib/libsodium.a" ]; then
	mkdir -p "$clone/js/build"
	cp -R "$top/js/build/sodium" "$clone/js/build/"
fi
touch "$tmp/stamp"
(cd "$clone/js" && JOBS=$JOBS ./build.sh) >"$log" 2>&1
[ -f "$clone/$want" ]
check $? "js/build.sh writes $want after it" "$log"
[ -f "$clone/$want" ] || finish
find "$clone" \( -path "$clone/.git" -o -path "$clone/js/build" -o -path "$clone/js/dist" \) -prune \
	-o -type f -newer "$tmp/stamp" -print >"$log"
[ ! -s "$log" ]
check $? "js/build.sh writes no file of the clone outside js/build and js/dist" "$log"
echo "# $(($(date +%s) - start)) s"

# 4. The core it built, on Tor's vectors (tests/test_pow.c's table).
# shellcheck disable=SC2016 # JavaScript's ${...}, not the shell's
(cd "$clone/js" && node --input-type=module -e '
import { ready, pow } from "./src/index.js";
import { hex, torVectors } from "./test/vectors.js";
await ready();
const vectors = torVectors();
if (vectors.length === 0) throw new Error("no vectors");
for (const v of vectors) {
  const proof = { id: hex(v.id), seed: hex(v.seed), nonce: hex(v.nonce), effort: v.effort,
    seedHead: hex(v.seed).slice(0, 4), solution: hex(v.solution) };
  const r = pow.verify(proof);
  if (r !== "OK") throw new Error(`vector ${v.nonce}: ${r}`);
}
console.log(`${vectors.length} vectors verified`);
') >"$log" 2>&1
check $? "that core verifies Tor's PoW v1 vectors ($(tail -n 1 "$log"))" "$log"
echo "# $(($(date +%s) - start)) s"
finish

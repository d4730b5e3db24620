#!/bin/sh
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
#
# prepack.sh - npm runs it (package.json's "prepack") before `npm pack`
# and `npm publish` make the tarball, which must carry what the package
# cannot run or be used without:
#   dist/equix.wasm  the core. Built by ./build.sh when missing (minutes,
#                    and build.sh's Debian packages); an existing file is
#                    packed as it is, so build it from the commit you
#                    publish. With EQUIX_PREPACK_NO_BUILD=1 a missing
#                    core stops the pack instead of being built.
#   LICENSE          the repository's top LICENSE, copied here: npm packs
#                    a package's LICENSE from the package's own directory.
#                    The copy is in .gitignore rather than committed, so
#                    that the text has one home and the copy cannot drift
#                    from it (each pack copies it afresh).
# A failure is one line on standard error and a non-zero status, which
# stops npm before it packs anything. build.sh's own output goes to
# standard error too: `npm pack --json` prints its JSON on standard
# output.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")

fail() {
	echo "prepack.sh: $*" >&2
	exit 1
}

[ -f "$top/LICENSE" ] ||
	fail "no LICENSE at the repository's top ($top/LICENSE) to pack"

if [ ! -f "$here/dist/equix.wasm" ]; then
	[ "${EQUIX_PREPACK_NO_BUILD:-}" != 1 ] ||
		fail "dist/equix.wasm is missing and EQUIX_PREPACK_NO_BUILD=1: run ./build.sh first"
	status=0
	"$here/build.sh" >&2 || status=$?
	[ "$status" -eq 0 ] ||
		fail "dist/equix.wasm is missing and ./build.sh failed (status $status; its output is above)"
	[ -f "$here/dist/equix.wasm" ] ||
		fail "./build.sh succeeded but wrote no dist/equix.wasm"
fi

cp "$top/LICENSE" "$here/LICENSE"

#!/bin/sh
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# Makes the static archive that is installed: all of the library's objects
# linked into one relocatable object (ld -r), in which only the names of
# the library's version script stay global (objcopy); every internal name
# (hashx_generate, replay_cache_insert, libequix's copy of the HashX core,
# ...) becomes local, so that a static client can also link another HashX
# (libhashx.a, Tor's own copy) or define those names itself. doc/abi.md
# says why this way.
#
#   localize-archive.sh IN.a VERSION_SCRIPT OUT.a
#
# LD, OBJCOPY, AR and NM come from the environment (make passes
# configure's, so a cross build uses the cross tools).
set -eu
in=$1 map=$2 out=$3
LD=${LD:-ld} OBJCOPY=${OBJCOPY:-objcopy} AR=${AR:-ar} NM=${NM:-nm}
tmp=$out.tmp.d
rm -rf "$tmp"
mkdir "$tmp"
trap 'rm -rf "$tmp"' EXIT

# The public names: the version script's "name;" lines (not "*;").
sed -n 's/^[[:space:]]*\([A-Za-z_][A-Za-z0-9_]*\);.*/\1/p' "$map" \
	>"$tmp/keep"
[ -s "$tmp/keep" ] || { echo "$0: no names in $map" >&2; exit 1; }

obj=$(basename "$out" .a).o
$LD -r -o "$tmp/$obj" --whole-archive "$in"
$OBJCOPY --keep-global-symbols="$tmp/keep" "$tmp/$obj"

# Nothing but public names may be left global (a name in the list but not
# defined is fine: the list may be ahead of the code).
extra=$($NM -g --defined-only "$tmp/$obj" | awk 'NF == 3 {print $3}' |
	grep -vxF -f "$tmp/keep" || true)
if [ -n "$extra" ]; then
	echo "$0: still global in $obj:" $extra >&2
	exit 1
fi
rm -f "$out"
$AR rcs "$out" "$tmp/$obj"

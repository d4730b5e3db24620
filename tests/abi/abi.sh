#!/bin/sh
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# make abi-check / make abi-dump (doc/abi.md): the ABI of the freshly built
# libhashx.so, libhashwx.so and libequix.so, read by abi-dumper from their debug
# information and the public headers, against the dumps of this release
# committed in tests/abi/ (abi-compliance-checker: any incompatibility
# fails), or written there as the new reference.
#
#   abi.sh check|dump SRCDIR VERSION
#
# Run from the build directory, a build with shared libraries and debug
# information (scripts/test.sh --abi configures one: CFLAGS='-g -Og').
# Reports of a check: abi-report/LIB.html.
set -eu
mode=$1 srcdir=$2 version=$3
DUMPER=${ABI_DUMPER:-abi-dumper}
CHECKER=${ABI_COMPLIANCE_CHECKER:-abi-compliance-checker}
for tool in "$DUMPER" "$CHECKER"; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "abi: $tool not found (Debian packages abi-dumper, abi-compliance-checker; scripts/test.sh --abi installs them)" >&2
		exit 1
	}
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# What abi-dumper counts as public: the installed headers, plus the
# first release's two pow functions that libequix still exports for old
# programs (src/pow/solve_compat.h).
mkdir "$tmp/headers"
cp include/hashx.h "$srcdir/include/hashwx.h" "$srcdir/include/equix.h" "$srcdir/include/equix_pow.h" \
	"$srcdir/include/equix_pow_defence.h" "$srcdir/src/pow/solve_compat.h" \
	"$tmp/headers/"

status=0
for lib in libhashx libhashwx libequix; do
	so=src/${lib#lib}/.libs/$lib.so
	if [ ! -f "$so" ]; then
		echo "abi: $so not built (configure with shared libraries)" >&2
		exit 1
	fi
	if ! ${READELF:-readelf} -S "$so" | grep -q '\.debug_info'; then
		echo "abi: $so has no debug information (configure CFLAGS='-g -Og')" >&2
		exit 1
	fi
	"$DUMPER" "$so" -o "$tmp/$lib.dump" -lver "$version" \
		-public-headers "$tmp/headers" >"$tmp/$lib.dumper.log" 2>&1 || {
		cat "$tmp/$lib.dumper.log" >&2
		exit 1
	}
	ref=$srcdir/tests/abi/$lib.dump
	if [ "$mode" = dump ]; then
		cp "$tmp/$lib.dump" "$ref"
		echo "abi: wrote $ref"
		continue
	fi
	if [ ! -f "$ref" ]; then
		echo "abi: no reference $ref (make abi-dump writes it)" >&2
		exit 1
	fi
	mkdir -p abi-report
	if "$CHECKER" -l "$lib" -old "$ref" -new "$tmp/$lib.dump" \
		-report-path "abi-report/$lib.html" >"$tmp/$lib.acc.log" 2>&1; then
		echo "abi: $lib: compatible with tests/abi/$lib.dump"
		grep -E 'Binary compatibility|Source compatibility' "$tmp/$lib.acc.log" || true
	else
		cat "$tmp/$lib.acc.log"
		echo "abi: $lib: INCOMPATIBLE with tests/abi/$lib.dump (report: abi-report/$lib.html)"
		status=1
	fi
done
exit $status

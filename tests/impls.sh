#!/bin/sh
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# tests/impls.sh - the Equi-X solution vectors and Tor's PoW vectors through
# every way this machine can hash a solver's inputs: each implementation
# of batch.h is forced with HASHX_IMPL and the solving tests run under it.
# One this CPU or build cannot run is reported as skipped, not run as
# another.
#
# The implementations are the ones `equix-bench --list-impls` names
# (src/facade/impl.h's list), never a list of this script's own.
#
# Environment (set by tests/Makefile.am): TEST_BUILDDIR, the build's tests
# directory; EQUIX_BENCH, the equix-bench program; TEST_RUNNER, the
# emulator of a cross build; VECTOR_DIR.
set -u

program=${TEST_BUILDDIR:?TEST_BUILDDIR must name the tests directory}/test_batch
bench=${EQUIX_BENCH:?EQUIX_BENCH must name the equix-bench program}
. "$(dirname "$0")/shtest.sh"

$runner "$bench" --list-impls >"$tmp/impls" ||
	fail "equix-bench --list-impls" "status $?"
[ -s "$tmp/impls" ] || fail "equix-bench --list-impls" "no implementation listed"

# The default implementation is what test_equix and test_pow already ran.
default=$($runner "$program" --default)
# NAME:AVAILABLE per implementation (read first: the programs the loop
# runs keep their own standard input)
for entry in $(awk '{ print $1 ":" $3 }' "$tmp/impls"); do
	impl=${entry%%:*}
	if [ "${entry#*:}" != yes ]; then
		skip "solvers through $impl" "not available on this CPU or build"
		continue
	fi
	# the listing and the library's own answer agree
	if ! $runner "$program" --available "$impl"; then
		fail "solvers through $impl" "listed available, but test_batch says not"
		continue
	fi
	if [ "$impl" = "$default" ]; then
		echo "# $impl: the default here, run by test_equix and test_pow"
		continue
	fi
	for case in compiled verify; do
		if HASHX_IMPL=$impl CK_RUN_CASE=$case $runner \
			"$TEST_BUILDDIR/test_equix" >"$tmp/out" 2>&1; then
			pass "Equi-X vectors ($case case) through $impl"
		else
			fail "Equi-X vectors ($case case) through $impl" \
				"$(grep -m1 -E 'FAIL|ERROR|:[EF]:' "$tmp/out")"
		fi
	done
	if HASHX_IMPL=$impl CK_RUN_CASE=tor_compiled $runner \
		"$TEST_BUILDDIR/test_pow" >"$tmp/out" 2>&1; then
		pass "Tor PoW vectors through $impl"
	else
		fail "Tor PoW vectors through $impl" \
			"$(grep -m1 -E 'FAIL|ERROR|:[EF]:' "$tmp/out")"
	fi
done
finish

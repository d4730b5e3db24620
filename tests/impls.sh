#!/bin/sh
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# tests/impls.sh - the Equi-X solution vectors and Tor's PoW vectors through
# every way this machine can hash a solver's inputs: each implementation
# of batch.h is forced with HASHX_IMPL and the solving tests run under it.
# One this CPU or build cannot run is reported as skipped, not run as
# another.
#
# Environment (set by tests/Makefile.am): TEST_BUILDDIR, the build's tests
# directory; TEST_RUNNER, the emulator of a cross build; VECTOR_DIR.
set -u

program=${TEST_BUILDDIR:?TEST_BUILDDIR must name the tests directory}/test_batch
. "$(dirname "$0")/shtest.sh"

# The default implementation is what test_equix and test_pow already ran.
default=$($runner "$program" --default)
for impl in portable scalar avx2 avx512 hybrid2; do
	if ! $runner "$program" --available "$impl"; then
		skip "solvers through $impl" "not available on this CPU or build"
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

# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# tests/shtest.sh - what the shell tests share (sourced, not run): a
# scratch directory, PASS/FAIL/SKIP lines, running the program under test
# through the cross build's emulator, and the Check-style summary line that
# scripts/test.sh counts.
#
# The sourcing script sets $program (the executable) first.

# The emulator of a cross build, or natively the wrapper of
# make check-valgrind (empty otherwise).
runner=${TEST_RUNNER:-${EQUIX_TEST_WRAPPER:-}}
vectors=${VECTOR_DIR:?VECTOR_DIR must name tests/vectors}

tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
checks=0
failures=0

pass() { checks=$((checks + 1)); echo "PASS: $1"; }
fail() {
	checks=$((checks + 1)); failures=$((failures + 1))
	echo "FAIL: $1 ($2)"
}
skip() { echo "SKIP: $1 ($2)"; }

# The valgrind sample, as tests/testutil.h has it for the C tests (the
# rule and why: above check-valgrind in tests/Makefile.am, which sets
# EQUIX_TEST_VALGRIND). sampled N: whether item N (from 0) of a loop over
# like items runs: always, or under valgrind item 0 and every 20th after
# it, the same items every run.
valgrind_stride=20
under_valgrind() {
	case ${EQUIX_TEST_VALGRIND:-0} in 0) false ;; *) true ;; esac
}
sampled() {
	! under_valgrind || [ $(($1 % valgrind_stride)) = 0 ]
}
# sample_note WHAT RAN TOTAL [ALSO]: under valgrind, when a sampled loop
# ran fewer than all of its items, says so (scripts/test.sh shows these
# lines); ALSO names the items that ran outside the stride.
sample_note() {
	under_valgrind && [ "$2" -lt "$3" ] &&
		echo "SAMPLE: $1: $2 of $3 (item 0 and every ${valgrind_stride}th after it${4:+, $4}; valgrind)"
	return 0
}
# valgrind_skip WHAT WHY: a part that only repeats, at great cost under
# valgrind, what the test's other parts cover.
valgrind_skip() { echo "SKIP: $1 under valgrind ($2)"; }

# run ARGS...: the program, stdout in $tmp/out, stderr in $tmp/err,
# status in $rc. $runner is split on purpose ("qemu-aarch64 -L DIR").
run() {
	$runner "$program" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
}

# The summary line; the script's exit status is whether all passed.
finish() {
	pct=100
	[ "$checks" -gt 0 ] && pct=$(((checks - failures) * 100 / checks))
	echo "$pct%: Checks: $checks, Failures: $failures, Errors: 0"
	[ "$failures" = 0 ]
}

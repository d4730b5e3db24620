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

#!/bin/sh
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# tests/bench.sh - equix-bench end to end, in a few seconds: the report's
# format, a baseline saved then compared, the refusal of a library whose
# output differs from the reference vectors (a deliberately corrupted copy
# of the vectors), the HTML report, --json, --list and bad options.
#
# Environment (set by tests/Makefile.am): EQUIX_BENCH, the program;
# TEST_RUNNER, the emulator of a cross build (empty natively); VECTOR_DIR.
# Prints PASS/FAIL/SKIP lines and a Check-style summary.
set -u

program=${EQUIX_BENCH:?EQUIX_BENCH must name the equix-bench program}
. "$(dirname "$0")/shtest.sh"

# Two cheap benchmarks, quick settings, results in $tmp.
FILTER='^(hash/interp|verify/interp)$'
quick() {
	run --quick --filter "$FILTER" --results "$tmp/results" "$@"
}

# ---- The report -----------------------------------------------------
TIME='^(hash/interp|verify/interp) +time:   \[[0-9.]+ (ps|ns|µs|ms|s) [0-9.]+ (ps|ns|µs|ms|s) [0-9.]+ (ps|ns|µs|ms|s)\]$'
THRPT='^ {24}thrpt:  \[[0-9.]+ [KMG]?hash/s [0-9.]+ [KMG]?hash/s [0-9.]+ [KMG]?hash/s\]$'
quick --save-baseline smoke
# A build with another HashX salt cannot match the vectors.
if [ "$rc" = 1 ] && grep -q 'HashX salt' "$tmp/err"; then
	skip "bench" "$(head -n 1 "$tmp/err")"
	exit 77
fi
if [ "$rc" != 0 ]; then
	fail "first run" "status $rc: $(head -c 300 "$tmp/err")"
elif [ "$(grep -cE "$TIME" "$tmp/out")" != 2 ]; then
	fail "time lines" "$(head -c 300 "$tmp/out")"
else
	pass "time lines"
fi
if grep -qE "$THRPT" "$tmp/out"; then
	pass "throughput line"
else
	fail "throughput line" "$(head -c 300 "$tmp/out")"
fi
# Every line is one of Criterion's.
OTHER=$(grep -vE "$TIME" "$tmp/out" | grep -vE '^ {24}thrpt:  \[' |
	grep -vE '^Found [0-9]+ outliers among 10 measurements \([0-9]+\.[0-9]{2}%\)$' |
	grep -vE '^  [0-9]+ \([0-9]+\.[0-9]{2}%\) (low|high) (mild|severe)$' |
	grep -vE '^Warning: Unable to complete ')
if [ -z "$OTHER" ]; then
	pass "report lines"
else
	fail "report lines" "unexpected: $OTHER"
fi
if grep -q change: "$tmp/out"; then
	fail "no change without a baseline" "$(grep change: "$tmp/out")"
else
	pass "no change without a baseline"
fi
if [ -f "$tmp/results/hash_interp/smoke.json" ] &&
	[ -f "$tmp/results/verify_interp/smoke.json" ]; then
	pass "baseline saved"
else
	fail "baseline saved" "$(ls -R "$tmp/results" 2>&1 | head -c 300)"
fi
if [ -s "$tmp/results/report/index.html" ] &&
	grep -qi '<html' "$tmp/results/report/index.html"; then
	pass "HTML report"
else
	fail "HTML report" "no $tmp/results/report/index.html"
fi

# ---- The change against the baseline -------------------------------
CHANGE='^ {24}change: \[[-+][0-9.]+% [-+][0-9.]+% [-+][0-9.]+%\] \(p = [0-9]\.[0-9]{2} [<>] 0\.05\)$'
VERDICT='^ {24}(No change in performance detected|Change within noise threshold|Performance has (improved|regressed))\.$'
quick --baseline smoke --no-report
if [ "$rc" != 0 ]; then
	fail "baseline run" "status $rc: $(head -c 300 "$tmp/err")"
elif [ "$(grep -cE "$CHANGE" "$tmp/out")" != 2 ] ||
	[ "$(grep -cE "$VERDICT" "$tmp/out")" != 2 ]; then
	fail "change lines" "$(head -c 400 "$tmp/out")"
else
	pass "change lines"
fi

# A malformed baseline is refused before anything is timed.
printf '{"format": "equix-bench-baseline", "iters": [1, 2,' \
	>"$tmp/results/hash_interp/broken.json"
cp "$tmp/results/verify_interp/smoke.json" \
	"$tmp/results/verify_interp/broken.json"
quick --baseline broken --no-report
if [ "$rc" = 1 ] && grep -q 'malformed baseline' "$tmp/err" &&
	! grep -q 'time:' "$tmp/out"; then
	pass "malformed baseline"
else
	fail "malformed baseline" "status $rc: $(head -c 300 "$tmp/err")"
fi

# ---- Refusal of a wrong output ---------------------------------------
mkdir "$tmp/vec" && cp "$vectors/hashx.txt" "$vectors/equix.txt" "$tmp/vec/" ||
	exit 99
# The first line's first recorded hash, its first digit changed.
awk 'NR == 1 { split($4, p, ":"); d = substr(p[2], 1, 1) == "0" ? "1" : "0"
	$4 = p[1] ":" d substr(p[2], 2) } { print }' \
	"$vectors/hashx.txt" >"$tmp/vec/hashx.txt"
if cmp -s "$vectors/hashx.txt" "$tmp/vec/hashx.txt"; then
	fail "corrupt vectors" "sed changed nothing"
fi
quick --vectors "$tmp/vec" --no-report
if [ "$rc" = 1 ] &&
	grep -q '^equix-bench: hash/interp: output differs from the reference vectors: .*; not timed$' "$tmp/err" &&
	! grep -q 'time:' "$tmp/out"; then
	pass "wrong output refused"
else
	fail "wrong output refused" "status $rc: $(head -c 300 "$tmp/err") $(head -c 200 "$tmp/out")"
fi

# ---- The v2 rows (issue 46) -----------------------------------------
# HashWX and Equi-X v2 are timed after their check against the v2 corpora;
# a wrong HashWX hash is refused as a wrong HashX one is.
V2TIME='^(hashwx-hash/interp|verify-v2/interp) +time:   \['
run --quick --no-report --results "$tmp/results" \
	--filter '^(hashwx-hash/interp|verify-v2/interp)$'
if [ "$rc" = 0 ] && [ "$(grep -cE "$V2TIME" "$tmp/out")" = 2 ]; then
	pass "v2 time lines"
else
	fail "v2 time lines" "status $rc: $(head -c 300 "$tmp/err") $(head -c 300 "$tmp/out")"
fi
cp "$vectors/equix-v2.txt" "$tmp/vec/" || exit 99
awk 'NR == 1 { split($3, p, ":"); d = substr(p[2], 1, 1) == "0" ? "1" : "0"
	$3 = p[1] ":" d substr(p[2], 2) } { print }' \
	"$vectors/hashwx-v2.txt" >"$tmp/vec/hashwx-v2.txt"
cp "$vectors/hashx.txt" "$tmp/vec/hashx.txt" || exit 99
run --quick --no-report --results "$tmp/results" --vectors "$tmp/vec" \
	--filter '^hashwx-hash/interp$'
if [ "$rc" = 1 ] &&
	grep -q '^equix-bench: hashwx-hash/interp: output differs from the reference vectors: .*; not timed$' "$tmp/err" &&
	! grep -q 'time:' "$tmp/out"; then
	pass "wrong HashWX output refused"
else
	fail "wrong HashWX output refused" "status $rc: $(head -c 300 "$tmp/err")"
fi

# ---- JSON ------------------------------------------------------------
quick --json --no-report --baseline smoke
if [ "$rc" != 0 ] || ! grep -q '"name": "verify/interp"' "$tmp/out" ||
	grep -q 'time:' "$tmp/out"; then
	fail "json" "status $rc: $(head -c 300 "$tmp/out")"
elif command -v python3 >/dev/null 2>&1; then
	if python3 -m json.tool <"$tmp/out" >/dev/null 2>"$tmp/jerr"; then
		pass "json parses"
	else
		fail "json parses" "$(head -c 300 "$tmp/jerr")"
	fi
else
	skip "json parses" "no python3"
fi

# A JSON document that cannot be written is a failure, with one line
# saying so (the harness once exited 0 with its output lost).
if [ -w /dev/full ]; then
	$runner "$program" --quick --filter '^pow/effort-check$' --json \
		--no-report --results "$tmp/results" >/dev/full 2>"$tmp/err"
	rc=$?
	if [ "$rc" = 1 ] && grep -qx 'equix-bench: --json: the document could not be built or written' "$tmp/err"; then
		pass "json to a full disk"
	else
		fail "json to a full disk" "status $rc: $(tail -n 1 "$tmp/err")"
	fi
else
	skip "json to a full disk" "no /dev/full"
fi

# ---- --list, --help, bad options -------------------------------------
run --list
if [ "$rc" = 0 ] && grep -qx 'verify/interp' "$tmp/out" &&
	grep -qx 'pow/verify' "$tmp/out" &&
	[ "$(tail -n 8 "$tmp/out" | tr '\n' ' ')" = \
	"hashwx-generate/interp hashwx-generate/compiled hashwx-hash/interp hashwx-hash/compiled verify-v2/interp verify-v2/try-compile solve-v2/interp solve-v2/compiled " ]; then
	pass "list"
else
	fail "list" "status $rc: $(head -c 200 "$tmp/out")"
fi
run --list --reference /nonexistent/libequix.so --filter '^solve/'
if [ "$rc" = 0 ] && [ "$(tr '\n' ' ' <"$tmp/out")" = \
	"solve/interp solve/interp-ref solve/compiled solve/compiled-ref " ]; then
	pass "list with reference"
else
	fail "list with reference" "status $rc: $(head -c 200 "$tmp/out")"
fi
run --help
if [ "$rc" = 0 ] && grep -q '^usage: equix-bench' "$tmp/out"; then
	pass "help"
else
	fail "help" "status $rc"
fi
for v in --version -V; do
	run $v
	if [ "$rc" = 0 ] && grep -qx 'equix-bench [0-9][0-9.]*[^ ]*' "$tmp/out"; then
		pass "$v"
	else
		fail "$v" "status $rc: $(head -c 100 "$tmp/out")"
	fi
done
for args in "--bogus" "--sample-size 1" "--sample-size x" "--filter (" \
	"--warm-up-time -1" "--measurement-time nan" "--confidence-level 1" \
	"--baseline a/b" "--nresamples" "extra" \
	"--baseline a --save-baseline b" "--reference-hashx x.so" \
	"--reference-hashwx x.so"; do
	# $args split on purpose
	run $args
	if [ "$rc" = 2 ] && [ ! -s "$tmp/out" ] &&
		[ "$(wc -l <"$tmp/err" | tr -d ' ')" = 1 ] &&
		grep -q '^equix-bench: ' "$tmp/err"; then
		pass "bad option: $args"
	else
		fail "bad option: $args" "status $rc: $(head -c 200 "$tmp/err")"
	fi
done
run --quick --no-report --reference "$tmp/missing.so"
if [ "$rc" = 1 ] && ! grep -q 'time:' "$tmp/out"; then
	pass "missing reference"
else
	fail "missing reference" "status $rc"
fi

finish

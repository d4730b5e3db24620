#!/bin/sh
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# tests/count.sh - make bench-instructions' two halves, in a few seconds
# and without callgrind: bench/equix-count outside valgrind (its checks
# against the vectors, a corrupted copy of them refused, every bad
# argument one line and status 2), and bench/instructions.sh's
# comparison, fed by a stand-in for valgrind that writes callgrind dumps
# of chosen counts (growth over 2% fails and is named, smaller growth and
# improvements pass, a figure on one side only fails, --update writes a
# baseline that then passes, a compiled hash as dear as an interpreted
# one fails).
#
# Environment (set by tests/Makefile.am): EQUIX_COUNT, the program (not
# built without valgrind/callgrind.h: its part is then skipped);
# TOP_SRCDIR; TEST_RUNNER; VECTOR_DIR.
set -u

program=${EQUIX_COUNT:?EQUIX_COUNT must name the equix-count program}
script=${TOP_SRCDIR:?TOP_SRCDIR must name the source tree}/bench/instructions.sh
. "$(dirname "$0")/shtest.sh"

# ---- equix-count ----------------------------------------------------
# one_line NAME STATUS: the last run exited STATUS with one line on
# stderr, the program's name first.
one_line() {
	if [ "$rc" = "$2" ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
		grep -q '^equix-count: ' "$tmp/err"; then
		pass "$1"
	else
		fail "$1" "status $rc: $(head -c 300 "$tmp/err")"
	fi
}

if [ ! -x "$program" ]; then
	skip "equix-count" "not built (no valgrind/callgrind.h when configuring)"
else
	run
	if [ "$rc" = 1 ] && grep -q 'HashX salt' "$tmp/err"; then
		skip "equix-count" "$(head -n 1 "$tmp/err")"
	elif [ "$rc" = 1 ] && grep -q 'hashx_make gave 4' "$tmp/err"; then
		# HASHX_FAIL_COMPILE: a build without the compiler
		# (--disable-jit) has no compiled figures to count
		skip "every figure checked" "no HashX compiler in this build"
	elif [ "$rc" = 0 ] && [ "$(grep -c ' checked$' "$tmp/out")" = 11 ] &&
		grep -q '^impl ' "$tmp/out" && grep -q '^compiler ' "$tmp/out"; then
		pass "every figure checked"
	else
		fail "every figure checked" "status $rc: $(head -c 300 "$tmp/err")"
	fi
	run --impl portable --figure hash/interp --figure verify/interp
	if [ "$rc" = 0 ] && [ "$(grep ' checked$' "$tmp/out" | tr '\n' ' ')" = \
		"hash/interp 256 checked verify/interp 32 checked " ] &&
		grep -qx 'impl portable' "$tmp/out"; then
		pass "chosen figures, chosen implementation"
	else
		fail "chosen figures" "status $rc: $(head -c 300 "$tmp/out")"
	fi
	run --list
	[ "$rc" = 0 ] && [ "$(wc -l <"$tmp/out")" = 11 ] &&
		grep -qx 'solve/compiled' "$tmp/out" &&
		grep -qx 'verify-v2/interp' "$tmp/out" && pass "--list" ||
		fail "--list" "status $rc"
	run --list-impls
	if [ "$rc" = 0 ] && grep -qx 'portable 1 yes' "$tmp/out" &&
		! grep -vqE '^[a-z0-9]+ [1-9][0-9]* (yes|no)$' "$tmp/out"; then
		pass "--list-impls"
	else
		fail "--list-impls" "status $rc: $(head -c 300 "$tmp/out")"
	fi
	run --help
	[ "$rc" = 0 ] && grep -q '^usage: equix-count' "$tmp/out" &&
		pass "--help" || fail "--help" "status $rc"
	run --version
	[ "$rc" = 0 ] && grep -qx 'equix-count [0-9][0-9.]*[^ ]*' "$tmp/out" &&
		pass "--version" || fail "--version" "status $rc"

	# A hash that differs from its record: no count.
	mkdir "$tmp/vec" && cp "$vectors"/*.txt "$tmp/vec/" &&
		awk 'NR == 1 { sub(/ 0:./, " 0:" (substr($0, index($0, " 0:") + 3, 1) == "0" ? "1" : "0")) } { print }' \
			"$vectors/hashx.txt" >"$tmp/vec/hashx.txt"
	run --figure hash/interp --vectors "$tmp/vec"
	one_line "corrupted vectors refused" 1
	grep -q 'differs from the recorded one' "$tmp/err" &&
		pass "refusal names the difference" ||
		fail "refusal names the difference" "$(head -c 300 "$tmp/err")"
	# The same for a HashWX hash (hashwx-v2.txt: "hashwx SEED 0:HASH ...").
	cp "$vectors/hashx.txt" "$tmp/vec/hashx.txt" &&
		awk 'NR == 1 { sub(/ 0:./, " 0:" (substr($0, index($0, " 0:") + 3, 1) == "0" ? "1" : "0")) } { print }' \
			"$vectors/hashwx-v2.txt" >"$tmp/vec/hashwx-v2.txt"
	run --figure hashwx-hash/interp --vectors "$tmp/vec"
	one_line "corrupted HashWX vectors refused" 1
	grep -q 'differs from the recorded one' "$tmp/err" &&
		pass "HashWX refusal names the difference" ||
		fail "HashWX refusal names the difference" "$(head -c 300 "$tmp/err")"
	run --vectors "$tmp/nothing"
	one_line "missing vectors" 1

	run --bogus
	one_line "unknown option" 2
	run --impl
	one_line "missing argument" 2
	run --impl foo
	one_line "unknown implementation" 2
	run --impl scalar --impl scalar
	one_line "--impl twice" 2
	run --figure nothing
	one_line "unknown figure" 2
	run --figure hash/interp --figure hash/interp
	one_line "--figure twice" 2
	run extra
	one_line "extra argument" 2
	# valgrind's CPU and many others have no AVX-512: an error, not
	# another path counted.
	run --impl avx512 --figure hash/interp
	if [ "$rc" = 0 ]; then
		pass "--impl avx512 (available here)"
	else
		one_line "--impl avx512 unavailable" 2
	fi
fi

# ---- instructions.sh ------------------------------------------------
# The stand-in valgrind: for --impl P, one dump per line "FIGURE P TOTAL
# ITERS" of $tmp/counts, in callgrind's format, and the driver's
# "checked" lines; status $FAKE_STATUS.
cat >"$tmp/valgrind" <<'EOF'
#!/bin/sh
[ "$1" = --version ] && { echo valgrind-fake; exit 0; }
# the driver's --list-impls, as under valgrind's CPU (no AVX-512)
for a; do
	[ "$a" = --list-impls ] || continue
	printf '%s\n' 'portable 1 yes' 'scalar 1 yes' 'avx2 4 yes' 'avx512 16 no'
	exit 0
done
for a; do
	case $a in
	--callgrind-out-file=*) out=${a#*=} ;;
	esac
	[ "${prev:-}" = --impl ] && path=$a
	prev=$a
done
echo "impl $path"
echo "compiler fake 1.0"
i=1
while read -r fig p total iters; do
	[ "$p" = "$path" ] || continue
	printf 'desc: Trigger: Client Request: count %s %s\nsummary: %s\ntotals: %s\n' \
		"$fig" "$iters" "$total" "$total" >"$out.$i"
	echo "$fig $iters checked"
	i=$((i + 1))
done <"$FAKE_COUNTS"
exit "${FAKE_STATUS:-0}"
EOF
chmod +x "$tmp/valgrind"
FAKE_COUNTS=$tmp/counts
export FAKE_COUNTS

# counts GEN HASH_INTERP HASH_COMPILED: per-operation counts (x64 and
# x256 iterations), the same on every path.
counts() {
	: >"$tmp/counts"
	for p in portable scalar avx2; do
		printf '%s %s %s 64\n' generate/interp $p $(($1 * 64))
		printf '%s %s %s 256\n' hash/interp $p $(($2 * 256)) \
			hash/compiled $p $(($3 * 256))
	done >"$tmp/counts"
}
compare() {
	VALGRIND=$tmp/valgrind sh "$script" --driver "$tmp/valgrind" \
		--baseline "$tmp/baseline" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

counts 100000 6000 900
compare --update --paths scalar
[ "$rc" = 2 ] && pass "--update with --paths refused" ||
	fail "--update with --paths refused" "status $rc"
compare --update
if [ "$rc" = 0 ] && head -n 2 "$tmp/baseline" | grep -q 'Copyright (c) 2026 The equix authors' &&
	grep -qx '# compiler: fake 1.0' "$tmp/baseline" &&
	grep -qx 'generate/interp scalar 100000.0' "$tmp/baseline" &&
	grep -qx 'hash/compiled avx2 900.0' "$tmp/baseline" &&
	[ "$(grep -vc '^#' "$tmp/baseline")" = 9 ]; then
	pass "--update writes the baseline"
else
	fail "--update writes the baseline" "status $rc: $(head -c 300 "$tmp/err")"
fi
compare
[ "$rc" = 0 ] && grep -q 'none grew by more than 2%' "$tmp/out" &&
	pass "same counts pass" || fail "same counts pass" "status $rc: $(cat "$tmp/err")"

counts 101900 6000 900
compare
[ "$rc" = 0 ] && grep -q '^generate/interp  *scalar  *100000.0  *101900.0  *+1.90%$' "$tmp/out" &&
	pass "1.9% more passes" || fail "1.9% more passes" "status $rc: $(cat "$tmp/out")"

counts 102100 6000 900
compare
if [ "$rc" = 1 ] && grep -q '+2.10%  REGRESSED$' "$tmp/out" &&
	grep -qx 'instructions: 3 figure(s) grew by more than 2%: generate/interp on portable +2.10%, generate/interp on scalar +2.10%, generate/interp on avx2 +2.10%' "$tmp/err"; then
	pass "2.1% more fails, named"
else
	fail "2.1% more fails" "status $rc: $(cat "$tmp/err")"
fi
compare --paths scalar
[ "$rc" = 1 ] && [ "$(grep -c REGRESSED "$tmp/out")" = 1 ] &&
	grep -q 'generate/interp on scalar +2.10%$' "$tmp/err" &&
	pass "--paths compares its lines only" ||
	fail "--paths compares its lines only" "status $rc: $(cat "$tmp/err")"
compare --threshold 5
[ "$rc" = 0 ] && pass "--threshold" || fail "--threshold" "status $rc"

counts 50000 6000 900
compare
[ "$rc" = 0 ] && grep -q '\-50.00%  improved$' "$tmp/out" &&
	pass "improvement passes" || fail "improvement passes" "status $rc"

counts 100000 6000 3100
compare
[ "$rc" = 1 ] && grep -q 'JIT did not run' "$tmp/err" &&
	pass "compiled hash as dear as interpreted fails" ||
	fail "compiled hash sanity" "status $rc: $(cat "$tmp/err")"

counts 100000 6000 900
grep -v '^hash/compiled avx2' "$tmp/counts" >"$tmp/c" && mv "$tmp/c" "$tmp/counts"
compare
[ "$rc" = 1 ] && grep -q 'NOT COUNTED$' "$tmp/out" &&
	grep -q 'on one side only' "$tmp/err" &&
	pass "figure missing from the run fails" ||
	fail "figure missing from the run" "status $rc"
counts 100000 6000 900
echo 'verify/interp avx2 6400 32' >>"$tmp/counts"
compare
[ "$rc" = 1 ] && grep -q 'NOT IN BASELINE$' "$tmp/out" &&
	pass "figure missing from the baseline fails" ||
	fail "figure missing from the baseline" "status $rc"

counts 100000 6000 900
cp "$tmp/baseline" "$tmp/good"
echo 'hash/interp scalar 6000.0' >>"$tmp/baseline"
compare
[ "$rc" = 1 ] && grep -q 'hash/interp scalar given twice' "$tmp/err" &&
	pass "repeated baseline line fails" || fail "repeated baseline line" "status $rc"
cp "$tmp/good" "$tmp/baseline"
echo 'hash/interp scalar' >>"$tmp/baseline"
compare
[ "$rc" = 1 ] && grep -q 'not FIGURE PATH COUNT' "$tmp/err" &&
	pass "malformed baseline line fails" || fail "malformed baseline line" "status $rc"
cp "$tmp/good" "$tmp/baseline"

FAKE_STATUS=1 compare
[ "$rc" = 1 ] && grep -q 'failed under callgrind; nothing compared' "$tmp/err" &&
	pass "failed run fails" || fail "failed run" "status $rc"
rm "$tmp/baseline"
compare
[ "$rc" = 1 ] && grep -q 'no baseline' "$tmp/err" &&
	pass "missing baseline fails" || fail "missing baseline" "status $rc"

for bad in "--paths avx512" "--paths foo" "--threshold x" "--bogus" "--driver"; do
	# shellcheck disable=SC2086 # split on purpose
	compare $bad
	[ "$rc" = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
		pass "instructions.sh $bad" || fail "instructions.sh $bad" "status $rc"
done

finish

#!/bin/sh
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# tests/cli.sh - equix-cli end to end: every subcommand and exit status,
# outputs checked against the reference vectors (tests/vectors) and Tor's
# PoW v1 test vectors, and hostile inputs that must give a one-line usage
# error or, at worst, a clean failure, never a crash.
#
# Environment (set by tests/Makefile.am): EQUIX_CLI, the program;
# TEST_RUNNER, the emulator of a cross build (empty natively);
# VECTOR_DIR; EQUIX_TEST_EMULATED=1 under qemu-user (no threads there).
# Prints PASS/FAIL/SKIP lines and a Check-style summary.
set -u

program=${EQUIX_CLI:?EQUIX_CLI must name the equix-cli program}
cli=$program
emulated=${EQUIX_TEST_EMULATED:-0}
. "$(dirname "$0")/shtest.sh"

# run_stdin FILE ARGS...: the same with FILE on standard input.
run_stdin() {
	f=$1; shift
	$runner "$cli" "$@" >"$tmp/out" 2>"$tmp/err" <"$f"
	rc=$?
}
out() { cat "$tmp/out"; }
lines() { wc -l <"$1" | tr -d ' '; }

# expect NAME STATUS STDOUT ARGS...: exact status and standard output.
expect() {
	name=$1 want_rc=$2 want=$3; shift 3
	run "$@"
	got=$(out)
	if [ "$rc" != "$want_rc" ]; then
		fail "$name" "status $rc, expected $want_rc; stderr: $(head -c 200 "$tmp/err")"
	elif [ "$got" != "$want" ]; then
		fail "$name" "stdout '$got', expected '$want'"
	else
		pass "$name"
	fi
}

# check_one_line_error NAME STATUS: the last run failed with STATUS, no
# stdout and exactly one "equix-cli: " line on stderr.
check_one_line_error() {
	if [ "$rc" != "$2" ]; then
		fail "$1" "status $rc, expected $2"
	elif [ -s "$tmp/out" ]; then
		fail "$1" "unexpected stdout: $(head -c 100 "$tmp/out")"
	elif [ "$(lines "$tmp/err")" != 1 ] ||
	     ! grep -q '^equix-cli: ' "$tmp/err"; then
		fail "$1" "stderr is not one 'equix-cli: ' line: $(head -c 200 "$tmp/err")"
	else
		pass "$1"
	fi
}

# usage NAME ARGS...: status 2 with one line on stderr.
usage() {
	name=$1; shift
	run "$@"
	check_one_line_error "$name" 2
}

# no_crash NAME ARGS...: any of the statuses 0, 1, 2, nothing else.
no_crash() {
	name=$1; shift
	run "$@"
	case $rc in
	0|1|2) pass "$name" ;;
	*) fail "$name" "status $rc" ;;
	esac
}

# stderr_has NAME TEXT: the last run's stderr contains TEXT.
stderr_has() {
	if grep -q -e "$2" "$tmp/err"; then pass "$1"
	else fail "$1" "stderr lacks '$2': $(head -c 200 "$tmp/err")"; fi
}

repeat() { # repeat TEXT N
	r= i=0
	while [ $i -lt "$2" ]; do r=$r$1; i=$((i + 1)); done
	printf '%s' "$r"
}

# ---- --version and --help ---------------------------------------------

run --version
if [ "$rc" = 0 ] && grep -qx 'equix-cli [0-9][0-9.]*[^ ]*' "$tmp/out"; then
	pass "--version"
else
	fail "--version" "status $rc, output '$(out)'"
fi
for cmd in "" solve verify hash pow "pow solve" "pow verify"; do
	# shellcheck disable=SC2086 # "pow solve" is two words
	run $cmd --help
	if [ "$rc" = 0 ] && head -n 1 "$tmp/out" |
	   grep -q "^usage: equix-cli ${cmd:-COMMAND}"; then
		pass "${cmd:-equix-cli} --help"
	else
		fail "${cmd:-equix-cli} --help" "status $rc, '$(head -n 1 "$tmp/out")'"
	fi
done
run -h
[ "$rc" = 0 ] && [ -s "$tmp/out" ] && pass "-h" || fail "-h" "status $rc"

# ---- Usage errors: status 2, one line -----------------------------------

usage "no command"
usage "--version with an argument" --version x
usage "unknown command" frobnicate
usage "pow without command" pow
usage "pow unknown command" pow frobnicate
usage "solve: no challenge" solve
usage "solve: extra operand" solve a b
usage "solve: unknown option" solve --bogus a
usage "solve: unknown short option" solve -x a
usage "solve: option with argument" solve --hex=1 a
usage "solve: odd hex" solve --hex abc
usage "solve: non-hex" solve --hex 00zz
usage "solve: --interpret with --compile" solve --interpret --compile a
usage "verify: no solution" verify a
usage "verify: short solution" verify a 0011
usage "verify: 7 indices" verify a 1,2,3,4,5,6,7
usage "verify: 9 indices" verify a 1,2,3,4,5,6,7,8,9
usage "verify: 5-digit index" verify a 1,2,3,4,5,6,7,10000
usage "verify: empty index" verify a 1,2,,4,5,6,7,8
usage "verify: non-hex solution" verify a 0123456789abcdef0123456789abcdeg
usage "verify: --indices refused" verify --indices a 1,2,3,4,5,6,7,8
usage "hash: no nonce" hash seed
usage "hash: negative nonce" hash seed -1
usage "hash: nonce too big" hash seed 18446744073709551616
usage "hash: hex nonce too big" hash seed 0x10000000000000000
usage "hash: empty 0x" hash seed 0x
usage "hash: nonce garbage" hash seed 12ab
usage "hash: empty nonce" hash seed ""

run pow solve --id 123 --seed "$(repeat aa 32)" --effort 1
if [ "$(cat "$tmp/err")" = "equix-cli: --id: expected 64 hex digits, got 3 characters" ] && [ "$rc" = 2 ]; then
	pass "pow solve: short --id message"
else
	fail "pow solve: short --id message" "status $rc: $(cat "$tmp/err")"
fi

# ---- The reference's Equi-X vectors ------------------------------------

# A vector's indices "abcd,..." in wire form: each index little-endian.
wire_of() {
	echo "$1" | sed 's/\([0-9a-f][0-9a-f]\)\([0-9a-f][0-9a-f]\)/\2\1/g; s/,//g'
}
# Under valgrind the sample (shtest.sh), and each vector with no solutions
# (another path of the script and of solve).
n=0 ran=0
grep '^equix [^ ]* ok ' "$vectors/equix.txt" | head -n 12 >"$tmp/equix-vectors"
while read -r _ challenge _ count sols; do
	n=$((n + 1))
	sampled $((n - 1)) || [ "$count" = 0 ] || continue
	ran=$((ran + 1))
	[ "$challenge" = - ] && challenge=
	want=$(echo $sols | tr ' ' '\n')
	expect "solve vector $n ($count solutions, indices)" 0 "$want" \
		solve --hex --indices "$challenge"
	want_wire=$(for s in $sols; do wire_of "$s"; done)
	expect "solve vector $n (wire form)" 0 "$want_wire" \
		solve --hex "$challenge"
	if [ "$count" = 0 ]; then
		expect "solve vector $n: no solutions, --quiet" 0 "" \
			solve --quiet --hex "$challenge"
		[ -s "$tmp/err" ] && fail "solve vector $n: --quiet" "stderr"
		run solve --hex "$challenge"
		stderr_has "solve vector $n: 'no solutions' note" "no solutions"
		continue
	fi
	first=${sols%% *}
	expect "verify vector $n (indices)" 0 valid verify --hex "$challenge" "$first"
	expect "verify vector $n (wire)" 0 valid verify --hex "$challenge" \
		"$(wire_of "$first")"
	expect "verify vector $n --interpret" 0 valid verify --interpret \
		--hex "$challenge" "$first"
done <"$tmp/equix-vectors"
sample_note "Equi-X vectors" "$ran" "$n" "and each with no solutions"

# A text challenge: "fcwwkdyy" is the vector 666377776b647979.
want=$(grep '^equix 666377776b647979 ok ' "$vectors/equix.txt" | head -n 1 |
       cut -d' ' -f5- | tr ' ' '\n')
expect "solve text challenge" 0 "$want" solve --indices fcwwkdyy
expect "solve: challenge starting with -" 0 "$(cat "$tmp/out")" \
	solve --indices -- fcwwkdyy

# No HashX function for this challenge (equix-named.txt: fail-challenge).
run solve --hex f9050000
check_one_line_error "solve: challenge without HashX function" 1
expect "verify: challenge without HashX function" 1 \
	"invalid: challenge (it has no HashX function)" \
	verify --hex f9050000 1,2,3,4,5,6,7,8

# Wrong solutions: each failure has its reason.
sol=0a82,5f51,4f87,dfd6,1306,a618,44c1,fd49
expect "verify: order" 1 "invalid: order (the indices are not in tree order)" \
	verify --hex 81455ce9 5f51,0a82,4f87,dfd6,1306,a618,44c1,fd49
expect "verify: partial sum" 1 \
	"invalid: partial sum (a pair or quad sum lacks its zero bits)" \
	verify --hex 81455ce9 0a82,5f51,4f87,dfd6,1306,a618,44c1,fd48
run verify --hex 81455ce9 "$sol"
[ "$rc" = 0 ] && pass "verify: the unchanged solution" ||
	fail "verify: the unchanged solution" "status $rc"

# ---- The reference's HashX vectors ---------------------------------------

n=0 ran=0
grep '^hashx [^ ]* ok ' "$vectors/hashx.txt" | head -n 12 >"$tmp/hashx-vectors"
while read -r _ seed _ pairs; do
	n=$((n + 1))
	sampled $((n - 1)) || continue
	ran=$((ran + 1))
	[ "$seed" = - ] && seed=
	bad=
	for pair in $pairs; do
		input=${pair%%:*} want=${pair#*:}
		run hash --hex "$seed" "0x$input"
		got=$(out)
		# A build with --with-hashx-size=N prints the first N bytes.
		case $want in
		"$got"*) [ -n "$got" ] && [ "$rc" = 0 ] || bad="$input: status $rc" ;;
		*) bad="$input: got '$got'" ;;
		esac
	done
	[ -z "$bad" ] && pass "hash vector $n" || fail "hash vector $n" "$bad"
done <"$tmp/hashx-vectors"
sample_note "HashX vectors" "$ran" "$n"

line=$(grep '^hashx 726674646e6777677777767a77686f7275736c776c6f67 ok' \
	"$vectors/hashx.txt" | head -n 1)
want=$(echo "$line" | sed 's/.* ok 0:\([0-9a-f]*\) .*/\1/')
run hash rftdngwgwwvzwhoruslwlog 0
case $want in "$(out)"*) [ "$rc" = 0 ] && [ -s "$tmp/out" ] ;; *) false ;; esac &&
	pass "hash: text seed" || fail "hash: text seed" "'$(out)'"
run hash --interpret rftdngwgwwvzwhoruslwlog 0x0
case $want in "$(out)"*) [ "$rc" = 0 ] && [ -s "$tmp/out" ] ;; *) false ;; esac &&
	pass "hash: --interpret, 0x nonce" || fail "hash: --interpret" "'$(out)'"
run hash --hex f9050000 1
check_one_line_error "hash: seed without HashX function" 1

# --compile: native code where there is a compiler, else status 1 and one
# line; whichever this machine gives, every command must agree.
run hash --compile rftdngwgwwvzwhoruslwlog 0
compile_rc=$rc
if [ "$rc" = 0 ]; then
	case $want in "$(out)"*) pass "hash --compile" ;;
	*) fail "hash --compile" "'$(out)'" ;; esac
else
	check_one_line_error "hash --compile, no compiler here" 1
	stderr_has "hash --compile message" "--compile"
fi
run solve --compile --hex 81455ce9
if [ "$rc" = "$compile_rc" ] && { [ "$rc" = 1 ] ||
   [ "$(lines "$tmp/out")" = 2 ]; }; then pass "solve --compile"
else fail "solve --compile" "status $rc, hash --compile gave $compile_rc"; fi
run verify --compile --hex 81455ce9 "$sol"
[ "$rc" = "$compile_rc" ] && pass "verify --compile" ||
	fail "verify --compile" "status $rc, hash --compile gave $compile_rc"

# ---- --v2: HashWX and Equi-X v2, the reference's corpora ---------------

# hash --v2: the first lines of tests/vectors/hashwx-v2.txt, every nonce
# of each through equix-cli, as 16 hex digits; --interpret the same.
n=0 ran=0
head -n 8 "$vectors/hashwx-v2.txt" >"$tmp/hashwx-vectors"
while read -r _ seed pairs; do
	n=$((n + 1))
	sampled $((n - 1)) || continue
	ran=$((ran + 1))
	bad=
	for pair in $pairs; do
		input=${pair%%:*} want=${pair#*:}
		run hash --v2 "$seed" "0x$input"
		[ "$rc" = 0 ] && [ "$(out)" = "$want" ] ||
			bad="$input: status $rc, got '$(out)', want $want"
		run hash --v2 --interpret "$seed" "0x$input"
		[ "$rc" = 0 ] && [ "$(out)" = "$want" ] ||
			bad="$input --interpret: status $rc, got '$(out)'"
	done
	[ -z "$bad" ] && pass "hash --v2 vector $n" || fail "hash --v2 vector $n" "$bad"
done <"$tmp/hashwx-vectors"
sample_note "HashWX vectors" "$ran" "$n"
usage "hash --v2: a 31-byte seed" hash --v2 "$(repeat ab 31)" 1
usage "hash --v2: a 33-byte seed" hash --v2 "$(repeat ab 33)" 1
usage "hash --v2: a text seed" hash --v2 seed 1
usage "hash --v2: a non-hex seed" hash --v2 "$(repeat ab 31)zz" 1
stderr_has "hash --v2: the seed's message" "expected 64 hex digits"
run hash --v2 --compile "$(repeat 00 32)" 0
if [ "$rc" = 0 ]; then
	[ "$(out)" = 91abdf0422944e5d ] && pass "hash --v2 --compile" ||
		fail "hash --v2 --compile" "'$(out)'"
else
	check_one_line_error "hash --v2 --compile, no HashWX compiler here" 1
	stderr_has "hash --v2 --compile message" "HashWX"
	echo "SKIP: hash --v2 --compile: no compiled HashWX on this machine"
fi

# solve/verify --v2: the first challenges of tests/vectors/equix-v2.txt,
# every solution in the reference's order; each one valid under --v2.
n=0 ran=0
head -n 6 "$vectors/equix-v2.txt" >"$tmp/equixv2-vectors"
while read -r _ challenge count sols; do
	n=$((n + 1))
	sampled $((n - 1)) || continue
	ran=$((ran + 1))
	[ "$challenge" = - ] && challenge=
	want=$(echo $sols | tr ' ' '\n')
	expect "solve --v2 vector $n ($count solutions)" 0 "$want" \
		solve --v2 --hex --indices "$challenge"
	[ "$count" = 0 ] && continue
	first=${sols%% *}
	expect "verify --v2 vector $n" 0 valid verify --v2 --hex "$challenge" "$first"
	expect "verify --v2 vector $n (wire)" 0 valid verify --v2 --interpret \
		--hex "$challenge" "$(wire_of "$first")"
done <"$tmp/equixv2-vectors"
sample_note "Equi-X v2 vectors" "$ran" "$n"

# ---- pow solve: Tor's test vectors ----------------------------------------

id=$(repeat 11 32)
seed=$(repeat aa 32)
seed2=$(repeat bb 32)

json_shape='^\{"nonce":"[0-9a-f]{32}","effort":[0-9]+,"seed_head":"[0-9a-f]{8}","solution":"[0-9a-f]{32}","attempts":[0-9]+,"seconds":[0-9]+\.[0-9]+\}$'

# pow_json NAME NONCE SOLUTION ARGS...: "pow solve ARGS --json" finds the
# proof with NONCE and SOLUTION, printed as one JSON line.
pow_json() {
	name=$1 want_nonce=$2 want_sol=$3; shift 3
	run pow solve --json "$@"
	if [ "$rc" != 0 ]; then
		fail "$name" "status $rc: $(head -c 200 "$tmp/err")"
	elif [ "$(lines "$tmp/out")" != 1 ] || ! grep -Eq "$json_shape" "$tmp/out"; then
		fail "$name" "not one JSON line of the expected shape: $(out)"
	elif ! grep -q "\"nonce\":\"$want_nonce\"" "$tmp/out" ||
	     ! grep -q "\"solution\":\"$want_sol\"" "$tmp/out"; then
		fail "$name" "$(out)"
	else
		pass "$name"
	fi
}

run pow solve --id "$id" --seed "$seed" --effort 1 \
	--nonce 55555555555555555555555555555555
want="nonce: 55555555555555555555555555555555
effort: 1
seed_head: aaaaaaaa
solution: 84355542ab2b3f79532ef055144ac5ab
attempts: 1"
if [ "$rc" = 0 ] && [ "$(head -n 5 "$tmp/out")" = "$want" ] &&
   [ "$(lines "$tmp/out")" = 6 ] &&
   tail -n 1 "$tmp/out" | grep -q '^seconds: [0-9]*\.[0-9]*$'; then
	pass "pow solve effort 1, text output (Tor vector)"
else
	fail "pow solve effort 1, text output (Tor vector)" "status $rc: $(out)"
fi
pow_json "pow solve effort 1 --json (Tor vector)" \
	55555555555555555555555555555555 84355542ab2b3f79532ef055144ac5ab \
	--id "$id" --seed "$seed" --effort 1 \
	--nonce 55555555555555555555555555555555
pow_json "pow solve effort 10 (Tor vector)" \
	56555555555555555555555555555555 128bbda5df2929c3be086de2aad34aed \
	--id "$id" --seed "$seed" --effort 10 \
	--nonce 55555555555555555555555555555555
proof10=$(out)
pow_json "pow solve effort 10, nonce wraps (Tor vector)" \
	01000000000000000000000000000000 203af985537fadb23f3ed5873b4c81ce \
	--id "$id" --seed "$seed" --effort 10 \
	--nonce ffffffffffffffffffffffffffffffff
# 131 attempts: a quarter of a minute under valgrind, for the nonce loop
# and carry that the two vectors above run in 2 and 3.
if under_valgrind; then
	valgrind_skip "pow solve effort 1337 (Tor vector)" \
		"131 attempts of the nonce loop that effort 10 runs"
else
	pow_json "pow solve effort 1337 (Tor vector)" \
		01000000000000000000000000000000 31c377cb72796ed80ae77df6ac1d6bfd \
		--id "4$(repeat 1 63)" --seed "$seed" --effort 1337 \
		--nonce 7fffffffffffffffffffffffffffffff
fi
pow_json "pow solve --interpret (Tor vector)" \
	56555555555555555555555555555555 128bbda5df2929c3be086de2aad34aed \
	--interpret --id "$id" --seed "$seed" --effort 10 \
	--nonce 55555555555555555555555555555555
if [ "$compile_rc" = 0 ]; then
	pow_json "pow solve --compile (Tor vector)" \
		56555555555555555555555555555555 128bbda5df2929c3be086de2aad34aed \
		--compile --id "$id" --seed "$seed" --effort 10 \
		--nonce 55555555555555555555555555555555
else
	run pow solve --compile --id "$id" --seed "$seed" --effort 10
	check_one_line_error "pow solve --compile, no compiler here" 1
fi
case $proof10 in
*'"attempts":2,'*) pass "pow solve: attempts counts the winning nonce" ;;
*) fail "pow solve: attempts counts the winning nonce" "$proof10" ;;
esac

# Effort 0: every solution passes, the first nonce with one wins.
run pow solve --json --id "$id" --seed "$seed" --effort 0 \
	--nonce 55555555555555555555555555555555
proof0=$(out)
if [ "$rc" = 0 ] && grep -q '"effort":0,' "$tmp/out"; then
	pass "pow solve effort 0"
else
	fail "pow solve effort 0" "status $rc: $(out)"
fi
# A random start nonce also gives a proof of the right shape.
run pow solve --json --quiet --id "$id" --seed "$seed" --effort 1
grep -Eq "$json_shape" "$tmp/out" && [ "$rc" = 0 ] &&
	pass "pow solve: random nonce" || fail "pow solve: random nonce" "$(out)"

# Threads: the same proof as one thread.
if [ "$emulated" = 1 ]; then
	skip "pow solve --threads 2" "threads hang under qemu-user"
else
	pow_json "pow solve --threads 2" \
		56555555555555555555555555555555 128bbda5df2929c3be086de2aad34aed \
		--threads 2 --id "$id" --seed "$seed" --effort 10 \
		--nonce 55555555555555555555555555555555
fi

# Threads short of address space: wherever one thread finds the proof
# under ulimit -v, two and four find the same one. (Each thread's stack
# takes `ulimit -s` of address space: once, a thread whose stack fitted
# but whose context did not stopped the whole search.) The limits tried
# run from the least one thread needs (found by bisection) to that plus
# a thread stack and 2 MiB, in 512 KiB steps; a limit where one thread
# fails is left out. A runner that needs more than 64 MiB (a sanitizer,
# valgrind, qemu) is skipped.
solve_within() { # KIB THREADS: the proof's lines, without the time
	(ulimit -v "$1" && exec $runner "$cli" pow solve --quiet --id "$id" \
		--seed "$seed" --effort 20 --threads "$2" \
		--nonce 55555555555555555555555555555555) 2>&1 | grep -v '^seconds:'
}
ulimit_threads() {
	lo=1024 hi=65536
	want=$(solve_within $hi 1)
	case $want in
	nonce:*) ;;
	*) skip "pow solve --threads under ulimit -v" \
		"one thread does not run within 64 MiB here"; return ;;
	esac
	while [ $((hi - lo)) -gt 128 ]; do
		mid=$(((lo + hi) / 2))
		case $(solve_within $mid 1) in
		nonce:*) hi=$mid ;;
		*) lo=$mid ;;
		esac
	done
	stack=$(ulimit -s)
	[ "$stack" = unlimited ] && stack=8192
	limits=0 bad=
	for kib in $(seq "$hi" 512 $((hi + stack + 2048))); do
		[ "$(solve_within "$kib" 1)" = "$want" ] || continue
		limits=$((limits + 1))
		for t in 2 4; do
			got=$(solve_within "$kib" $t)
			[ "$got" = "$want" ] ||
				bad="$bad; $t threads, $kib KiB: $(echo "$got" | head -n 1)"
		done
	done
	if [ -n "$bad" ]; then
		fail "pow solve --threads under ulimit -v" "${bad#; }"
	elif [ "$limits" -lt 8 ]; then
		fail "pow solve --threads under ulimit -v" \
			"one thread found the proof under only $limits limits"
	else
		pass "pow solve --threads under ulimit -v ($limits limits from $hi KiB)"
	fi
}
if [ "$emulated" = 1 ]; then
	skip "pow solve --threads under ulimit -v" "threads hang under qemu-user"
else
	ulimit_threads
fi

# Limits: status 1 and one line.
run pow solve --id "$id" --seed "$seed" --effort 4000000000 --max-attempts 2 \
	--nonce 55555555555555555555555555555555
check_one_line_error "pow solve --max-attempts reached" 1
run pow solve --id "$id" --seed "$seed" --effort 4000000000 --timeout 0.2
check_one_line_error "pow solve --timeout reached" 1

# Ctrl-C: a clean stop with status 1, from one SIGINT. A second one gets
# the default action (cancel.h), so the test sends exactly one: timeout(1)
# sent two (to the child, then to its process group), and when the first
# was handled before the second arrived, as ThreadSanitizer's deferred
# delivery made happen on a CI machine, the second killed equix-cli
# (status 130, no message). The signal must also come after equix-cli has
# put its handler in place; a fixed delay was a guess that a loaded CI
# machine once broke, so natively the test waits until Linux shows the
# handler in /proc/PID/status (SigCgt, SIGINT's bit) of the program
# itself, not of a libtool wrapper script that execs it. An emulator or
# valgrind catches every signal itself, so under a runner, or without
# /proc, the test waits 3 s. The program runs in the background with
# SIGINT back to its default (env --default-signal): a background job of
# a script ignores it.
sigint_caught() { # PID: whether PID's own program catches SIGINT
	case $(readlink "/proc/$1/exe" 2>/dev/null) in
	''|*/sh|*/dash|*/bash) return 1 ;;
	esac
	mask=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
	[ -n "$mask" ] || return 1
	last=${mask#"${mask%?}"}
	[ $((0x$last & 2)) != 0 ]
}
wait_for_sigint_handler() { # PID: at most 60 s
	if [ -n "$runner" ] || [ ! -r "/proc/$1/status" ]; then
		sleep 3; return
	fi
	i=0
	while [ $i -lt 600 ] && ! sigint_caught "$1"; do
		sleep 0.1; i=$((i + 1))
	done
}
if env --default-signal=INT true 2>/dev/null; then
	env --default-signal=INT $runner "$cli" pow solve --quiet \
		--id "$id" --seed "$seed" --effort 4000000000 --timeout 300 \
		>"$tmp/out" 2>"$tmp/err" </dev/null &
	pid=$!
	wait_for_sigint_handler $pid
	kill -INT $pid
	wait $pid
	rc=$?
	check_one_line_error "pow solve: SIGINT cancels cleanly" 1
	stderr_has "pow solve: SIGINT message" "cancelled"
else
	skip "pow solve: SIGINT" "no env --default-signal here"
fi

# In the background of a script (no job control) SIGINT is ignored, and
# pow solve leaves it so: kill -INT does nothing. SIGTERM, never caught,
# ends it at once: no output, status 128 + 15.
$runner "$cli" pow solve --quiet --id "$id" --seed "$seed" \
	--effort 4000000000 --timeout 120 >"$tmp/bg.out" 2>"$tmp/bg.err" </dev/null &
pid=$!
sleep 1
kill -INT $pid 2>/dev/null
sleep 1
kill -0 $pid 2>/dev/null && alive=yes || alive=no
kill -TERM $pid 2>/dev/null
wait $pid
rc=$?
if [ "$alive" = yes ] && [ "$rc" = 143 ] && [ ! -s "$tmp/bg.out" ]; then
	pass "pow solve in the background: SIGINT ignored, SIGTERM stops it"
else
	fail "pow solve in the background: SIGINT ignored, SIGTERM stops it" \
		"alive after SIGINT: $alive, status $rc, stderr: $(head -c 200 "$tmp/bg.err")"
fi

# Usage errors of pow solve.
usage "pow solve: no --id" pow solve --seed "$seed" --effort 1
usage "pow solve: no --seed" pow solve --id "$id" --effort 1
usage "pow solve: no --effort" pow solve --id "$id" --seed "$seed"
usage "pow solve: --effort missing argument" pow solve --id "$id" --seed "$seed" --effort
usage "pow solve: effort too big" pow solve --id "$id" --seed "$seed" --effort 4294967296
usage "pow solve: negative effort" pow solve --id "$id" --seed "$seed" --effort -1
usage "pow solve: effort with sign" pow solve --id "$id" --seed "$seed" --effort +1
usage "pow solve: effort with space" pow solve --id "$id" --seed "$seed" --effort " 1"
usage "pow solve: effort garbage" pow solve --id "$id" --seed "$seed" --effort 1x
usage "pow solve: empty effort" pow solve --id "$id" --seed "$seed" --effort ""
usage "pow solve: threads 0" pow solve --id "$id" --seed "$seed" --effort 1 --threads 0
usage "pow solve: threads 1025" pow solve --id "$id" --seed "$seed" --effort 1 --threads 1025
usage "pow solve: huge threads" pow solve --id "$id" --seed "$seed" --effort 1 --threads 99999999999999999999999
usage "pow solve: short nonce" pow solve --id "$id" --seed "$seed" --effort 1 --nonce 55
usage "pow solve: non-hex seed" pow solve --id "$id" --seed "$(repeat aa 31)zz" --effort 1
usage "pow solve: 0x id" pow solve --id "0x$(repeat 11 31)" --seed "$seed" --effort 1
usage "pow solve: bad timeout" pow solve --id "$id" --seed "$seed" --effort 1 --timeout nan
usage "pow solve: negative timeout" pow solve --id "$id" --seed "$seed" --effort 1 --timeout -1
usage "pow solve: bad max-attempts" pow solve --id "$id" --seed "$seed" --effort 1 --max-attempts 1e3
usage "pow solve: operand" pow solve --id "$id" --seed "$seed" --effort 1 extra
usage "pow solve: unknown option" pow solve --id "$id" --seed "$seed" --effort 1 --frob
usage "pow solve: ambiguous option" pow solve --id "$id" --seed "$seed" --effort 1 --i

# Every option of every command, given twice, is refused: the first value
# must not be silently dropped. The options are those its --help lists;
# values are not read before the options are, so any value does.
for cmd in solve verify hash "pow solve" "pow verify"; do
	# shellcheck disable=SC2086 # "pow solve" is two words
	$runner "$cli" $cmd --help |
		sed -n 's/^  \(-[a-z], \)\{0,1\}\(--[a-z][a-z0-9-]*\)\( [A-Z]\)\{0,1\}.*/\2\3/p' \
		>"$tmp/options"
	[ -s "$tmp/options" ] || fail "$cmd: repeated options" "no options in --help"
	# Under valgrind the sample of each command's options: one check
	# (args.c's note_given) serves them all.
	i=0 ran=0
	while read -r opt takes; do
		i=$((i + 1))
		sampled $((i - 1)) || continue
		ran=$((ran + 1))
		v=${takes:+1}
		# shellcheck disable=SC2086 # $cmd is two words, $v none or one
		run $cmd "$opt" $v "$opt" $v
		name="$cmd: $opt given twice"
		if [ "$rc" != 2 ] || [ -s "$tmp/out" ]; then
			fail "$name" "status $rc, stdout $(head -c 100 "$tmp/out")"
		elif [ "$(cat "$tmp/err")" != "equix-cli: $cmd: option '$opt' given twice" ]; then
			fail "$name" "stderr: $(head -c 200 "$tmp/err")"
		else
			pass "$name"
		fi
	done <"$tmp/options"
	sample_note "$cmd: options given twice" "$ran" "$i"
done
usage "solve: -q -q" solve -q -q a
usage "pow solve: -qq" pow solve -qq --id "$id" --seed "$seed" --effort 1
usage "pow solve: --threads=2 --threads 2" pow solve --threads=2 --threads 2 \
	--id "$id" --seed "$seed" --effort 1

# ---- pow verify -----------------------------------------------------------

n10=56555555555555555555555555555555
s10=128bbda5df2929c3be086de2aad34aed
expect "pow verify: valid" 0 valid pow verify --id "$id" --seed "$seed" \
	--nonce $n10 --effort 10 --seed-head aaaaaaaa --solution $s10
indices=$(echo $s10 | sed 's/\(..\)\(..\)/\2\1,/g; s/,$//')
expect "pow verify: solution as indices" 0 valid pow verify --id "$id" \
	--seed "$seed" --nonce $n10 --effort 10 --seed-head aaaaaaaa \
	--solution "$indices"
expect "pow verify --interpret" 0 valid pow verify --interpret --id "$id" \
	--seed "$seed" --nonce $n10 --effort 10 --seed-head aaaaaaaa \
	--solution $s10
expect "pow verify --min-effort: at the minimum" 0 valid pow verify \
	--min-effort 10 --id "$id" --seed "$seed" --nonce $n10 --effort 10 \
	--seed-head aaaaaaaa --solution $s10
expect "pow verify --min-effort: below it" 1 \
	"invalid: effort below the minimum" pow verify --min-effort 11 \
	--id "$id" --seed "$seed" --nonce $n10 --effort 10 \
	--seed-head aaaaaaaa --solution $s10
run pow verify --id "$id" --seed "$seed" --nonce $n10 --effort 10 \
	--seed-head aaaaaaaa --solution 128bbda5df2929c3be086de2aad34aee
if [ "$rc" = 1 ] && grep -q '^invalid: ' "$tmp/out"; then
	pass "pow verify: corrupted solution"
else
	fail "pow verify: corrupted solution" "status $rc: $(out)"
fi
expect "pow verify: higher effort than solved for" 1 \
	"invalid: effort check failed" pow verify --id "$id" --seed "$seed" \
	--nonce $n10 --effort 4000000000 --seed-head aaaaaaaa --solution $s10
expect "pow verify: unknown seed head" 1 "invalid: unknown seed head" \
	pow verify --id "$id" --seed "$seed" --nonce $n10 --effort 10 \
	--seed-head bbbbbbbb --solution $s10
run pow verify --id "$(repeat 22 32)" --seed "$seed" --nonce $n10 --effort 10 \
	--seed-head aaaaaaaa --solution $s10
[ "$rc" = 1 ] && grep -q '^invalid: ' "$tmp/out" &&
	pass "pow verify: other id" || fail "pow verify: other id" "status $rc"

# --previous-seed: a proof for the previous seed is still accepted.
run pow solve --json --id "$id" --seed "$seed2" --effort 2 \
	--nonce 55555555555555555555555555555555
proof_prev=$(out)
printf '%s\n' "$proof_prev" >"$tmp/prev.jsonl"
run pow verify --id "$id" --seed "$seed" --previous-seed "$seed2" \
	--batch "$tmp/prev.jsonl"
[ "$rc" = 0 ] && [ "$(out)" = "line 1: valid" ] &&
	pass "pow verify --previous-seed" ||
	fail "pow verify --previous-seed" "status $rc: $(out)"
expect "pow verify: previous seed not given" 1 \
	"line 1: invalid: unknown seed head" \
	pow verify --id "$id" --seed "$seed" --batch "$tmp/prev.jsonl"
expect "pow verify: current seed with --previous-seed" 0 valid \
	pow verify --id "$id" --seed "$seed" --previous-seed "$seed2" \
	--nonce $n10 --effort 10 --seed-head aaaaaaaa --solution $s10

# Usage errors of pow verify.
usage "pow verify: no --id" pow verify --seed "$seed" --batch -
usage "pow verify: no --seed" pow verify --id "$id" --batch -
usage "pow verify: neither proof nor batch" pow verify --id "$id" --seed "$seed"
usage "pow verify: no --solution" pow verify --id "$id" --seed "$seed" \
	--nonce $n10 --effort 10 --seed-head aaaaaaaa
usage "pow verify: --batch with --nonce" pow verify --id "$id" --seed "$seed" \
	--batch - --nonce $n10
usage "pow verify: short seed head" pow verify --id "$id" --seed "$seed" \
	--nonce $n10 --effort 10 --seed-head aaaa --solution $s10
usage "pow verify: bad solution" pow verify --id "$id" --seed "$seed" \
	--nonce $n10 --effort 10 --seed-head aaaaaaaa --solution xyz
usage "pow verify: bad --previous-seed" pow verify --id "$id" --seed "$seed" \
	--previous-seed 00 --batch -
usage "pow verify: missing batch file" pow verify --id "$id" --seed "$seed" \
	--batch "$tmp/no-such-file"

# ---- pow verify --batch -----------------------------------------------------

# batch NAME STATUS STDOUT: verifies $tmp/batch against id/seed.
batch() {
	expect "$1" "$2" "$3" pow verify --id "$id" --seed "$seed" \
		--batch "$tmp/batch"
}
printf '%s\n' "$proof10" >"$tmp/batch"
batch "batch: pow solve --json output is valid" 0 "line 1: valid"
run_stdin "$tmp/batch" pow verify --id "$id" --seed "$seed" --batch -
[ "$rc" = 0 ] && [ "$(out)" = "line 1: valid" ] &&
	pass "batch from standard input" || fail "batch from standard input" "$(out)"

printf '%s\n%s\n' "$proof10" "$proof10" >"$tmp/batch"
batch "batch: a replay within the batch" 1 "line 1: valid
line 2: invalid: replayed proof"

printf '\n  \n%s\n\n%s\n' "$proof10" "$proof0" >"$tmp/batch"
batch "batch: blank lines skipped, numbers kept" 0 "line 3: valid
line 5: valid"

printf '%s' "$proof10" >"$tmp/batch"
batch "batch: last line without newline" 0 "line 1: valid"

bad_sol=$(echo "$proof10" | sed 's/"solution":"128bbda5/"solution":"128bbda6/')
printf '%s\n' "$bad_sol" >"$tmp/batch"
run pow verify --id "$id" --seed "$seed" --batch "$tmp/batch"
[ "$rc" = 1 ] && grep -q '^line 1: invalid: ' "$tmp/out" &&
	pass "batch: corrupted solution" ||
	fail "batch: corrupted solution" "status $rc: $(out)"

# Other keys are ignored, any order, escapes decoded, spaces allowed.
printf '%s\n' ' { "x" : [1] , "solution":"128bbda5df2929c3be086de2aad34aed", "effort": 10, "seed_head":"aaaaaaaa","nonce":"\u00356555555555555555555555555555555"}' >"$tmp/batch"
run pow verify --id "$id" --seed "$seed" --batch "$tmp/batch"
# (the "x" value is an array: nesting is refused even for unknown keys)
[ "$rc" = 2 ] && grep -q '^line 1: malformed: nested' "$tmp/out" &&
	pass "batch: nested value refused" || fail "batch: nested value refused" "$(out)"
printf '%s\n' ' { "x" : "\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00" , "solution":"128bbda5df2929c3be086de2aad34aed", "effort": 10, "seed_head":"aaaaaaaa","nonce":"\u00356555555555555555555555555555555", "y": -1.5e+3 } ' >"$tmp/batch"
batch "batch: unknown keys, escapes, spaces" 0 "line 1: valid"

# Malformed lines: reported with their line numbers, status 2 even with
# valid lines around them.
malformed_lines='{"nonce":"56555555555555555555555555555555","effort":10,"seed_head":"aaaaaaaa"}
{"nonce":"56555555555555555555555555555555","nonce":"56555555555555555555555555555555","effort":10,"seed_head":"aaaaaaaa","solution":"128bbda5df2929c3be086de2aad34aed"}
{"nonce":"56555555555555555555555555555555","effort":"10","seed_head":"aaaaaaaa","solution":"128bbda5df2929c3be086de2aad34aed"}
{"nonce":"56555555555555555555555555555555","effort":10.0,"seed_head":"aaaaaaaa","solution":"128bbda5df2929c3be086de2aad34aed"}
{"nonce":"56555555555555555555555555555555","effort":4294967296,"seed_head":"aaaaaaaa","solution":"128bbda5df2929c3be086de2aad34aed"}
{"nonce":"5655","effort":10,"seed_head":"aaaaaaaa","solution":"128bbda5df2929c3be086de2aad34aed"}
{"nonce":56555555555555555555555555555555,"effort":10,"seed_head":"aaaaaaaa","solution":"128bbda5df2929c3be086de2aad34aed"}
{"nonce":"56555555555555555555555555555555","effort":10,"seed_head":"aaaaaaaa","solution":"128bbda5df2929c3be086de2aad34aed"} x
{"nonce":"56555555555555555555555555555555","effort":10,"seed_head":"aaaaaaaa","solution":"128bbda5df2929c3be086de2aad34aed"
[1,2]
"just a string"
{"a":true}
{"a":"\u0000"}
{"a":"\ud800"}
{"a":"\x"}
{"a":01}
{"a":1.}
{"a":-}
{"a" 1}
{"a":1,}
{,}
{"a":1}{"b":2}
nonsense'
printf '%s\n' "$malformed_lines" >"$tmp/batch"
total=$(lines "$tmp/batch")
run pow verify --id "$id" --seed "$seed" --batch "$tmp/batch"
if [ "$rc" = 2 ] && [ "$(lines "$tmp/out")" = "$total" ] &&
   [ "$(grep -c '^line [0-9]*: malformed: ' "$tmp/out")" = "$total" ]; then
	pass "batch: $total kinds of malformed line"
else
	fail "batch: $total kinds of malformed line" "status $rc: $(out)"
fi

# Each kind of malformed line, with its exact message and column: the
# columns are part of the interface (doc/bad-input.md), so a change to the
# reader (src/cli/json_line.c) cannot move them unseen.
rest='"seed_head":"aaaaaaaa","solution":"128bbda5df2929c3be086de2aad34aed"'
n55='"nonce":"56555555555555555555555555555555"'
{ for e in -0 1e2 12345678901234567890 1e999; do
	printf '{%s,"effort":%s,%s}\n' "$n55" "$e" "$rest"; done
  printf '%s\n' '{"a":true}' '{"a":[]}' '{"a\"b":1,"a\"b":2}' \
	'{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17,"k18":18,"k19":19,"k20":20,"k21":21,"k22":22,"k23":23,"k24":24,"k25":25,"k26":26,"k27":27,"k28":28,"k29":29,"k30":30,"k31":31,"k32":32}' \
	'{"a":"\u12"}' '{"a":"\ud800"}' '{"a":"\x"}' '{"a":01}' '{"a":1.}' \
	'{"a":1e+}' '{"a" 1}' '{"a":1,}' '{"a":1 "b":2}' '{"a":"abc' \
	'{"\u0000":1}' '{"a":"\u12'
  printf '{"a":"\t"}\n{"\377":1}\n'
  echo "$proof0" | sed 's/^{/{"x":1e999,"y":123456789012345678901234567890,/'
} >"$tmp/batch"
int='expected an integer from 0 to 4294967295'
batch "batch: each malformed line's message and column" 2 "line 1: malformed: \"effort\": $int
line 2: malformed: \"effort\": $int
line 3: malformed: \"effort\": $int
line 4: malformed: \"effort\": $int
line 5: malformed: expected a string or a number at column 6
line 6: malformed: nested objects and arrays are not accepted at column 6
line 7: malformed: duplicate key at column 11
line 8: malformed: too many keys at column 270
line 9: malformed: bad hex digit in \\u escape at column 11
line 10: malformed: unpaired surrogate in \\u escape at column 7
line 11: malformed: unknown escape in string at column 7
line 12: malformed: expected ',' or '}' at column 7
line 13: malformed: expected digits after '.' at column 8
line 14: malformed: expected digits in exponent at column 9
line 15: malformed: expected ':' after the key at column 6
line 16: malformed: expected a string at column 8
line 17: malformed: expected ',' or '}' at column 8
line 18: malformed: unterminated string at column 10
line 19: malformed: \\u0000 is not accepted at column 3
line 20: malformed: truncated \\u escape at column 9
line 21: malformed: control character in string at column 7
line 22: malformed: invalid UTF-8 in string at column 3
line 23: valid"

printf '%s\n%s\n%s\n' "$proof10" '{"nonce":1' "$bad_sol" >"$tmp/batch"
run pow verify --id "$id" --seed "$seed" --batch "$tmp/batch"
if [ "$rc" = 2 ] && [ "$(sed -n 1p "$tmp/out")" = "line 1: valid" ] &&
   sed -n 2p "$tmp/out" | grep -q '^line 2: malformed: ' &&
   sed -n 3p "$tmp/out" | grep -q '^line 3: invalid: '; then
	pass "batch: malformed beats invalid beats valid"
else
	fail "batch: malformed beats invalid beats valid" "status $rc: $(out)"
fi

# A line past the bound is skipped whole; the next line still counts.
{ repeat xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx 200; echo
  printf '%s\n' "$proof10"; } >"$tmp/batch"
batch "batch: overlong line" 2 "line 1: malformed: longer than 4096 bytes
line 2: valid"

# A NUL byte: the input is not text, and reading stops at it.
printf '%s\n{"a":\0}\n%s\n' "$proof10" "$proof0" >"$tmp/batch"
batch "batch: a NUL byte stops the batch" 2 "line 1: valid
line 2: malformed: NUL byte at column 6; the rest is not read"

# An endless line gets its verdict once it passes the bound, not when (if
# ever) it ends: the writer waits for it before ending the line.
rm -f "$tmp/early" "$tmp/early.out"
{
	repeat xxxxxxxxxx 500
	i=0
	while [ $i -lt 100 ] &&
	      ! grep -q '^line 1: malformed' "$tmp/early.out" 2>/dev/null; do
		sleep 0.1; i=$((i + 1))
	done
	[ $i -lt 100 ] && : >"$tmp/early"
	printf '\n%s\n' "$proof10"
} | $runner "$cli" pow verify --id "$id" --seed "$seed" --batch - \
	>"$tmp/early.out" 2>"$tmp/err"
rc=$?
if [ "$rc" = 2 ] && [ -f "$tmp/early" ] &&
   [ "$(cat "$tmp/early.out")" = "line 1: malformed: longer than 4096 bytes
line 2: valid" ]; then
	pass "batch: an overlong line is reported before it ends"
else
	fail "batch: an overlong line is reported before it ends" \
		"status $rc, early: $([ -f "$tmp/early" ] && echo yes || echo no), stdout: $(cat "$tmp/early.out")"
fi

# Binary garbage, NUL bytes included.
if [ -r /dev/urandom ]; then
	head -c 65536 /dev/urandom >"$tmp/batch"
	printf '\0{"a":1}\n\0\0\n' >>"$tmp/batch"
	run pow verify --id "$id" --seed "$seed" --batch "$tmp/batch"
	[ "$rc" = 2 ] && pass "batch: binary garbage" ||
		fail "batch: binary garbage" "status $rc"
fi
# No proofs: valid (none is invalid), but said on stderr, unless --quiet.
printf '' >"$tmp/batch"
batch "batch: empty input" 0 ""
[ "$(cat "$tmp/err")" = "equix-cli: no proofs in the batch" ] &&
	pass "batch: empty input, note" ||
	fail "batch: empty input, note" "stderr: $(head -c 200 "$tmp/err")"
printf '\n  \n' >"$tmp/batch"
expect "batch: blank lines only, --quiet" 0 "" pow verify --quiet \
	--id "$id" --seed "$seed" --batch "$tmp/batch"
[ -s "$tmp/err" ] && fail "batch: blank lines only, --quiet, no note" \
	"stderr: $(head -c 200 "$tmp/err")" ||
	pass "batch: blank lines only, --quiet, no note"

# ---- Standard output that cannot be written --------------------------------

# write_error NAME REASON REDIRECTION ARGS...: with standard output full
# (/dev/full) or closed (>&-), the command reports the write error in one
# line and fails (status 1, or 2 for a malformed batch): output is never
# lost while the tool says it succeeded.
write_error() {
	name=$1 reason=$2 how=$3; shift 3
	want_rc=1
	[ "$name" = "${name%malformed*}" ] || want_rc=2
	case $how in
	full) $runner "$cli" "$@" >/dev/full 2>"$tmp/err" <"$tmp/batch" ;;
	closed) $runner "$cli" "$@" >&- 2>"$tmp/err" <"$tmp/batch" ;;
	esac
	rc=$?
	if [ "$rc" != "$want_rc" ]; then
		fail "$name" "status $rc, expected $want_rc; stderr: $(head -c 200 "$tmp/err")"
	elif [ "$(cat "$tmp/err")" != "equix-cli: write error: $reason" ]; then
		fail "$name" "stderr '$(head -c 200 "$tmp/err")', expected the write error"
	else
		pass "$name"
	fi
}
printf '%s\n' "$proof10" >"$tmp/batch"
for how in full closed; do
	reason="Bad file descriptor"
	if [ "$how" = full ]; then
		[ -w /dev/full ] || { skip "write errors: /dev/full" "no /dev/full"; continue; }
		reason="No space left on device"
	fi
	for cmd in "" solve verify hash pow "pow solve" "pow verify"; do
		# shellcheck disable=SC2086 # "pow solve" is two words
		write_error "${cmd:-equix-cli} --help, stdout $how" "$reason" $how $cmd --help
	done
	write_error "--version, stdout $how" "$reason" $how --version
	write_error "solve, stdout $how" "$reason" $how solve --hex 81455ce9
	write_error "solve --indices, stdout $how" "$reason" $how solve --indices --hex 81455ce9
	write_error "verify, stdout $how" "$reason" $how verify --hex 81455ce9 "$sol"
	write_error "verify, invalid, stdout $how" "$reason" $how verify --hex 81455ce9 0,0,0,0,0,0,0,0
	write_error "hash, stdout $how" "$reason" $how hash seed 1
	write_error "pow solve, stdout $how" "$reason" $how pow solve --id "$id" \
		--seed "$seed" --effort 1 --nonce 55555555555555555555555555555555
	write_error "pow solve --json, stdout $how" "$reason" $how pow solve --json \
		--id "$id" --seed "$seed" --effort 1 --nonce 55555555555555555555555555555555
	write_error "pow verify, stdout $how" "$reason" $how pow verify --id "$id" \
		--seed "$seed" --nonce $n10 --effort 10 --seed-head aaaaaaaa --solution $s10
	write_error "pow verify --batch -, stdout $how" "$reason" $how pow verify \
		--id "$id" --seed "$seed" --batch -
	write_error "pow verify --batch FILE, stdout $how" "$reason" $how pow verify \
		--id "$id" --seed "$seed" --batch "$tmp/batch"
	printf 'x\n%s\n' "$proof10" >"$tmp/batch2"
	write_error "pow verify --batch, malformed, stdout $how" "$reason" $how \
		pow verify --id "$id" --seed "$seed" --batch "$tmp/batch2"
done
# Many verdicts: the first failed write stops the batch, reported once.
i=0
while [ $i -lt 300 ]; do printf '%s\n' "$bad_sol"; i=$((i + 1)); done >"$tmp/batch"
if [ -w /dev/full ]; then
	write_error "pow verify --batch, 300 verdicts, stdout full" \
		"No space left on device" full pow verify --id "$id" --seed "$seed" --batch -
fi

# ---- Hostile arguments: never a crash -----------------------------------

# 64 KiB: Linux refuses single arguments of 64 KiB or more.
long=$(repeat 0123456789abcdef 4096)
no_crash "solve: 64 KiB text challenge" solve --quiet "$long"
no_crash "solve: 64 KiB hex challenge" solve --quiet --hex "$long"
no_crash "verify: 64 KiB hex challenge" verify --hex "$long" 1,2,3,4,5,6,7,8
no_crash "hash: 64 KiB seed" hash "$long" 1
usage "verify: 64 KiB solution" verify a "$long"
usage "hash: 64 KiB nonce" hash a "$long"
usage "pow solve: 64 KiB id" pow solve --id "$long" --seed "$seed" --effort 1
usage "pow solve: 64 KiB effort" pow solve --id "$id" --seed "$seed" --effort "$long"
usage "pow verify: 64 KiB solution" pow verify --id "$id" --seed "$seed" \
	--nonce $n10 --effort 10 --seed-head aaaaaaaa --solution "$long"
usage "unknown 64 KiB option" solve "--$long" a
expect "solve: empty text challenge" 0 "$(wire_of 0098,3a4d,c489,cfba,7ef3,a498,a00f,ec20)
$(wire_of 78d8,8611,a4df,ec19,0927,a729,842f,f771)
$(wire_of 54b5,cc11,1593,e624,9357,b339,b138,ed99)" solve ""
usage "pow solve: empty id" pow solve --id "" --seed "$seed" --effort 1
usage "pow solve: empty --nonce" pow solve --id "$id" --seed "$seed" --effort 1 --nonce ""
usage "pow verify: empty solution" pow verify --id "$id" --seed "$seed" \
	--nonce $n10 --effort 10 --seed-head aaaaaaaa --solution ""
usage "verify: control characters" verify a "$(printf '\001\002\033[2J')"
usage "pow solve: escape sequence in effort" pow solve --id "$id" --seed "$seed" \
	--effort "$(printf '1\033[2J')"
usage "empty command" ""
usage "solve: lone dash option" solve - -
no_crash "solve: challenge '-'" solve --quiet -- -

# ---- Conventions: -V, help COMMAND, "-" on standard input, --json --------

run --version
cp "$tmp/out" "$tmp/version"
run -V
if [ "$rc" = 0 ] && cmp -s "$tmp/out" "$tmp/version"; then pass "-V is --version"
else fail "-V is --version" "status $rc, '$(out)'"; fi
for cmd in "" solve verify hash pow "pow solve" "pow verify" "pow simulate" help; do
	# shellcheck disable=SC2086 # "pow solve" is two words
	run $cmd --help
	cp "$tmp/out" "$tmp/help"
	# shellcheck disable=SC2086
	run help $cmd
	if [ "$rc" = 0 ] && [ -s "$tmp/out" ] && cmp -s "$tmp/out" "$tmp/help"; then
		pass "help $cmd is ${cmd:-equix-cli} --help"
	else
		fail "help $cmd is ${cmd:-equix-cli} --help" "status $rc, '$(head -n 1 "$tmp/out")'"
	fi
done

# stdin_is NAME INPUT ARGS...: ARGS with INPUT (with printf's \n) on
# standard input print what the last run printed.
stdin_is() {
	name=$1 input=$2; shift 2
	cp "$tmp/out" "$tmp/want"
	printf '%b' "$input" >"$tmp/in"
	run_stdin "$tmp/in" "$@"
	if [ "$rc" != 0 ] || [ -s "$tmp/err" ]; then
		fail "$name" "status $rc; stderr: $(head -c 200 "$tmp/err")"
	elif ! [ -s "$tmp/want" ] || ! cmp -s "$tmp/out" "$tmp/want"; then
		fail "$name" "stdout '$(head -c 200 "$tmp/out")', want '$(head -c 200 "$tmp/want")'"
	else
		pass "$name"
	fi
}
run solve --indices fcwwkdyy
stdin_is "solve -: the challenge from stdin" 'fcwwkdyy\n' solve --indices -
run solve --indices fcwwkdyy
stdin_is "solve -: a last line without newline" 'fcwwkdyy' solve --indices -
run solve --hex --indices 81455ce9
stdin_is "solve --hex -: hex from stdin" '81455ce9\n' solve --hex --indices -
run solve ""
stdin_is "solve -: an empty line is the empty challenge" '\n' solve -
run solve --hex 2d
stdin_is "solve -: the challenge '-' itself, from stdin" '-\n' solve -
run hash seed 1
stdin_is "hash -: the seed from stdin" 'seed\n' hash - 1
run hash --v2 "$(repeat 00 32)" 1
stdin_is "hash --v2 -: the seed from stdin" "$(repeat 00 32)\\n" hash --v2 - 1
run verify --hex 81455ce9 0a82,5f51,4f87,dfd6,1306,a618,44c1,fd49
stdin_is "verify -: the challenge from stdin" '81455ce9\n' verify --hex - \
	0a82,5f51,4f87,dfd6,1306,a618,44c1,fd49
run pow verify --id "$id" --seed "$seed" --nonce 55555555555555555555555555555555 \
	--effort 1 --seed-head aaaaaaaa --solution 84355542ab2b3f79532ef055144ac5ab
stdin_is "pow verify --seed -" "$seed\\n" pow verify --id "$id" --seed - \
	--nonce 55555555555555555555555555555555 --effort 1 --seed-head aaaaaaaa \
	--solution 84355542ab2b3f79532ef055144ac5ab
run pow solve --id "$id" --seed "$seed" --effort 1 \
	--nonce 55555555555555555555555555555555 --max-attempts 5
grep -v '^seconds:' "$tmp/out" >"$tmp/solved"
printf '%s\n' "$id" >"$tmp/in"
run_stdin "$tmp/in" pow solve --id - --seed "$seed" --effort 1 \
	--nonce 55555555555555555555555555555555 --max-attempts 5
if [ "$rc" = 0 ] && grep -v '^seconds:' "$tmp/out" | cmp -s - "$tmp/solved" &&
   grep -q '^solution: 84355542ab2b3f79532ef055144ac5ab$' "$tmp/out"; then
	pass "pow solve --id -"
else
	fail "pow solve --id -" "status $rc, '$(head -c 200 "$tmp/out")'"
fi

# json NAME STATUS CHECK ARGS...: ARGS exit with STATUS, and their
# standard output is JSON objects, one a line, which python's json module
# reads; CHECK, a Python expression over the list `o` of them, holds.
json() {
	name=$1 want_rc=$2 check=$3; shift 3
	run "$@"
	if [ "$rc" != "$want_rc" ]; then
		fail "$name" "status $rc, want $want_rc; stderr: $(head -c 200 "$tmp/err")"
	elif python3 -c '
import json, sys
o = []
for line in open(sys.argv[1]):
    v = json.loads(line)
    assert isinstance(v, dict), line
    o.append(v)
sys.exit(0 if o and eval(sys.argv[2]) else 1)' "$tmp/out" "$check" 2>"$tmp/py"; then
		pass "$name"
	else
		fail "$name" "$check: $(head -c 300 "$tmp/out") $(tail -n 1 "$tmp/py")"
	fi
}
if command -v python3 >/dev/null 2>&1; then
	json "solve --json" 0 'o == [{"solutions": ["820a515f874fd6df061318a6c14449fd", "910dac33974e1c5bc402b5939741b49a"]}]' \
		solve --json --hex 81455ce9
	json "solve --json --indices" 0 'len(o) == 1 and o[0]["solutions"][0] == "0a82,5f51,4f87,dfd6,1306,a618,44c1,fd49"' \
		solve --json --indices --hex 81455ce9
	json "verify --json: valid" 0 'o == [{"valid": True}]' \
		verify --json --hex 81455ce9 820a515f874fd6df061318a6c14449fd
	json "verify --json: invalid" 1 'o == [{"valid": False, "reason": "order (the indices are not in tree order)"}]' \
		verify --json --hex 81455ce9 5f51,0a82,4f87,dfd6,1306,a618,44c1,fd49
	json "hash --json" 0 'o == [{"hash": "466cc2021c268560833b71084e256fa17d2e47165a6350f9939fd26e0c725a80"}]' \
		hash --json "" 0
	json "hash --v2 --json" 0 'o == [{"hash": "91abdf0422944e5d"}]' \
		hash --v2 --json "$(repeat 00 32)" 0
	json "pow solve --json" 0 'len(o) == 1 and o[0]["solution"] == "84355542ab2b3f79532ef055144ac5ab" and o[0]["effort"] == 1 and o[0]["nonce"] == "5"*32 and o[0]["seed_head"] == "aaaaaaaa" and o[0]["attempts"] == 1 and o[0]["seconds"] >= 0' \
		pow solve --json --id "$id" --seed "$seed" --effort 1 \
		--nonce 55555555555555555555555555555555
	cp "$tmp/out" "$tmp/proof"
	json "pow verify --json" 0 'o == [{"valid": True}]' \
		pow verify --json --id "$id" --seed "$seed" \
		--nonce 55555555555555555555555555555555 --effort 1 \
		--seed-head aaaaaaaa --solution 84355542ab2b3f79532ef055144ac5ab
	{ cat "$tmp/proof" "$tmp/proof"; echo '{"nonce":"x\"y"}'; } >"$tmp/batch.jsonl"
	json "pow verify --json --batch" 2 'o[0] == {"line": 1, "valid": True} and o[1]["line"] == 2 and o[1]["valid"] is False and "replay" in o[1]["reason"] and o[2]["line"] == 3 and o[2]["valid"] is False and o[2]["malformed"].startswith("\"nonce\"") and len(o) == 3' \
		pow verify --json --id "$id" --seed "$seed" --batch "$tmp/batch.jsonl"
else
	skip "--json parsed by a JSON library" "python3 is not installed"
fi

finish

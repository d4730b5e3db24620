#!/bin/sh
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# tests/simulate.sh - equix-cli pow simulate end to end: every built-in
# scenario at reduced length with its invariants, reproducibility (the
# same seed gives the same bytes, another seed other bytes), the scenario
# file's round trip, the reports (each plot's series told apart, traffic
# on a log axis, the plots in doc/defence/ what the documented command
# makes), and bad scenario files. The one-line
# errors of bad options are rows of doc/bad-input.md (bad_input_cli.sh).
#
# Environment (set by tests/Makefile.am): EQUIX_CLI, the program;
# TEST_RUNNER, the emulator of a cross build (empty natively); TOP_SRCDIR,
# where doc/defence/ holds the committed plots.
# Prints PASS/FAIL lines and a Check-style summary.
set -u

program=${EQUIX_CLI:?EQUIX_CLI must name the equix-cli program}
. "$(dirname "$0")/shtest.sh"

# The machine's figures given, so that no run measures (and all are
# reproducible); a short period so that minutes hold several updates.
fixed="--solve-rate 300 --solutions-per-nonce 2 --verify-cost-us 50 --period 30"

# sim NAME ARGS...: pow simulate must succeed with its invariants.
sim() {
	name=$1; shift
	# shellcheck disable=SC2086
	run pow simulate $fixed "$@"
	if [ "$rc" != 0 ]; then
		fail "$name" "status $rc: $(head -c 300 "$tmp/err")"
	elif ! grep -q '^invariants: ok$' "$tmp/out"; then
		fail "$name" "$(cat "$tmp/out")"
	else
		pass "$name"
	fi
}

# field CLASS COLUMN: a value of the results table in $tmp/r.csv.
field() {
	awk -F, -v c="$1" -v k="$2" '
	$1 == "class" { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$1 == c { print $col[k] }' "$tmp/r.csv"
}

# Each built-in scenario, a few simulated minutes.
for s in no-attack flood cores above bursty; do
	sim "scenario $s runs, invariants hold" --scenario "$s" \
		--duration 240 --csv "$tmp/$s.csv"
done

# The results are the model's, not just any numbers: without attack
# every legitimate client connects, in the launch's time in flight (1.5 s
# and the first 10 ms bucket: the queue is empty and the effort 0); the
# flood's requests are mostly not served.
cp "$tmp/no-attack.csv" "$tmp/r.csv"
if [ "$(field legit failed)" = 0 ] && [ "$(field legit p50_s)" = 1.51 ] &&
   [ "$(field attack started)" = 0 ]; then
	pass "no-attack: every client connects in 1.51 s"
else
	fail "no-attack: every client connects in 1.51 s" "$(cat "$tmp/r.csv")"
fi
cp "$tmp/flood.csv" "$tmp/r.csv"
ratio=$(field attack success_ratio)
if awk -v r="$ratio" 'BEGIN { exit !(r > 0 && r < 0.2) }'; then
	pass "flood: most of the flood is not served ($ratio)"
else
	fail "flood: most of the flood is not served" "ratio '$ratio'"
fi
# The effort rises under the cores' attack (period rows, column 3).
top=$(awk -F, '$1 == "period" && $3 > m { m = $3 } END { print m + 0 }' \
	"$tmp/cores.csv")
if [ "$top" -gt 0 ]; then
	pass "cores: the suggested effort rises ($top)"
else
	fail "cores: the suggested effort rises" "at most $top"
fi
# With no attack the effort stays 0; its decay by 2/3 is an invariant
# checked on every run (above).
top=$(awk -F, '$1 == "period" && $3 > m { m = $3 } END { print m + 0 }' \
	"$tmp/no-attack.csv")
[ "$top" = 0 ] && pass "no-attack: the effort stays 0" ||
	fail "no-attack: the effort stays 0" "at most $top"

# The same seed, the same bytes; another seed, others.
sim "seed 7" --scenario cores --duration 120 --seed 7 --csv "$tmp/a.csv" \
	--json "$tmp/a.json"
sim "seed 7 again" --scenario cores --duration 120 --seed 7 \
	--csv "$tmp/b.csv" --json "$tmp/b.json"
sim "seed 8" --scenario cores --duration 120 --seed 8 --csv "$tmp/c.csv"
if cmp -s "$tmp/a.csv" "$tmp/b.csv" && cmp -s "$tmp/a.json" "$tmp/b.json"
then
	pass "the same seed gives byte-identical CSV and JSON"
else
	fail "the same seed gives byte-identical CSV and JSON" "they differ"
fi
if cmp -s "$tmp/a.csv" "$tmp/c.csv"; then
	fail "another seed gives other results" "identical CSV"
else
	pass "another seed gives other results"
fi

# The scenario file's round trip: the printed scenario, read back, gives
# the same scenario and the same run.
run pow simulate $fixed --scenario bursty --duration 200 --attack-cores 9 \
	--print-scenario
cp "$tmp/out" "$tmp/s.json"
run pow simulate --scenario "$tmp/s.json" --print-scenario
if cmp -s "$tmp/out" "$tmp/s.json" && grep -q '"cores": 9' "$tmp/s.json"
then
	pass "scenario file round trip: printed, read, printed again"
else
	fail "scenario file round trip" "$(diff "$tmp/s.json" "$tmp/out")"
fi
sim "from the file" --scenario "$tmp/s.json" --csv "$tmp/f.csv"
sim "from the options" --scenario bursty --duration 200 --attack-cores 9 \
	--csv "$tmp/o.csv"
cmp -s "$tmp/f.csv" "$tmp/o.csv" &&
	pass "scenario file round trip: the same run" ||
	fail "scenario file round trip: the same run" "CSV differ"

# An option that the run would ignore is refused (rows of
# doc/bad-input.md), judged on the scenario the options make: with
# --attack-strategy fixed, a flood's attackers use --attack-effort and
# --attack-cores.
run pow simulate --scenario flood --attack-strategy fixed --attack-effort 5 \
	--attack-cores 2 --print-scenario
if [ "$rc" = 0 ] && grep -q '"strategy": "fixed"' "$tmp/out" &&
   grep -q '"effort": 5' "$tmp/out" && grep -q '"cores": 2' "$tmp/out"; then
	pass "options judged on the scenario with --attack-strategy applied"
else
	fail "options judged on the scenario with --attack-strategy applied" \
		"status $rc: $(head -c 300 "$tmp/err")"
fi

# The reports: JSON that parses (python3 when present), HTML with its
# plots, the SVG files.
sim "reports" --scenario flood --duration 60 --json "$tmp/r.json" \
	--html "$tmp/r.html" --svg "$tmp/pic"
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["invariants"] == "ok" and len(d["seconds"]) == 60' \
		"$tmp/r.json" && pass "JSON report parses" ||
		fail "JSON report parses" "$(head -c 200 "$tmp/r.json")"
else
	skip "JSON report parses" "no python3"
fi
if [ "$(grep -c '<svg' "$tmp/r.html")" = 5 ] &&
   [ -s "$tmp/pic-effort.svg" ] && [ -s "$tmp/pic-traffic.svg" ] &&
   [ -s "$tmp/pic-connect.svg" ]; then
	pass "HTML report has 5 plots, 3 SVG files"
else
	fail "HTML report has 5 plots, 3 SVG files" "$(ls "$tmp")"
fi

# The series of each picture are told apart by more than colour: no two
# lines share a colour, nor a dash pattern (so they stay apart in
# greyscale), and the legend names each. Traffic is on the log axis,
# which says how it shows 0; the HTML report adds the legitimate
# clients' own panel.
# strokes FILE ATTR: the values of ATTR ("" when absent) of the lines.
strokes() {
	grep -o '<polyline[^>]*' "$1" | sed 's/ points=.*//' |
		sed -n "s/.* $2=\"\([^\"]*\)\".*/\1/p; t; s/.*/-/p"
}
# distinct FILE N LABEL...: N lines, N colours, N dash patterns, each
# label in a <text> element.
distinct() {
	f=$tmp/pic-$1.svg; n=$2; shift 2; missing=
	for label in "$@"; do
		grep -q ">$label</text>" "$f" || missing="$missing '$label'"
	done
	lines=$(strokes "$f" stroke | wc -l | tr -d ' ')
	colours=$(strokes "$f" stroke | sort -u | wc -l | tr -d ' ')
	dashes=$(strokes "$f" stroke-dasharray | sort -u | wc -l | tr -d ' ')
	if [ "$lines $colours $dashes" = "$n $n $n" ] && [ -z "$missing" ]
	then
		pass "$(basename "$f"): $n series, each its colour and dash"
	else
		fail "$(basename "$f"): $n series, each its colour and dash" \
			"lines $lines, colours $colours, dashes $dashes; missing:$missing"
	fi
}
distinct effort 3 suggested published "seen by clients"
distinct traffic 4 "attack arrivals" "attack served" "legit arrivals" \
	"legit served"
distinct connect 1 "legit clients" "rendezvous timeout"
if grep -q '>y axis: log scale above 1,</text>' "$tmp/pic-traffic.svg" &&
   grep -q '>1000</text>' "$tmp/pic-traffic.svg" &&
   ! grep -q 'log scale' "$tmp/pic-effort.svg" &&
   [ "$(grep -c '>y axis: log scale above 1,</text>' "$tmp/r.html")" = 2 ] &&
   grep -q '>Legitimate requests per second</text>' "$tmp/r.html"; then
	pass "traffic and queue on a log axis, legit traffic its own panel"
else
	fail "traffic and queue on a log axis, legit traffic its own panel" \
		"$(grep -o '>[^<]*log scale[^<]*<' "$tmp/r.html")"
fi

# The plots committed in doc/defence/ are what the command documented in
# doc/defence.md section 3.3 makes today (seeded, so byte for byte): a
# change to the plots or the model that leaves them stale fails here.
# About 5 s natively; skipped under an emulator or valgrind, where it
# would take minutes and repeat what the native run checks.
if [ -n "$runner" ]; then
	skip "doc/defence/ plots are the documented command's" \
		"emulated or under valgrind"
else
	stale=
	for s in no-attack flood cores bursty; do
		run pow simulate --scenario "$s" --solve-rate 270 \
			--solutions-per-nonce 2 --verify-cost-us 20 \
			--svg "$tmp/doc-$s"
		[ "$rc" = 0 ] || stale="$stale $s (status $rc)"
		for w in effort traffic connect; do
			cmp -s "$tmp/doc-$s-$w.svg" \
				"$TOP_SRCDIR/doc/defence/$s-$w.svg" ||
				stale="$stale $s-$w.svg"
		done
	done
	[ -z "$stale" ] && pass "doc/defence/ plots are the documented command's" ||
		fail "doc/defence/ plots are the documented command's" \
			"differ:$stale"
fi

# Text from a scenario file is shown as the other commands show text from
# their input (cli_quote: each byte that is not printable ASCII as '?'),
# whole: its escape sequences and line breaks reach neither the terminal
# nor the HTML report, and it makes no line of its own ("FAKE:
# invariants: ok"). The JSON report keeps it exactly, JSON-escaped
# (jansson writes \u001B: the hex digits' case is its own).
printf '{"name": "%s", "description": "%s"}\n' \
	'\u001b[31mred\r\nFAKE: invariants: ok' \
	'\u001b]0;title\u0007 then a description longer than forty characters' \
	>"$tmp/name.json"
sim "a name with control characters" --scenario "$tmp/name.json" \
	--duration 5 --html "$tmp/name.html" --json "$tmp/name-report.json"
# controls FILE: the count of its control bytes (tabs and newlines apart).
controls() { LC_ALL=C tr -d '\t\n -~\200-\377' <"$1" | wc -c | tr -d ' '; }
want='scenario ?[31mred??FAKE: invariants: ok: 5 s simulated, seed 1'
if [ "$(head -n 1 "$tmp/out")" = "$want" ] &&
   [ "$(controls "$tmp/out")" = 0 ] &&
   ! grep -q '^FAKE' "$tmp/out"; then
	pass "the summary quotes the scenario's name"
else
	fail "the summary quotes the scenario's name" "$(head -n 3 "$tmp/out")"
fi
if [ "$(controls "$tmp/name.html")" = 0 ] &&
   grep -Fqx '<title>equix-cli pow simulate: ?[31mred??FAKE: invariants: ok</title>' \
	"$tmp/name.html" &&
   grep -Fqx '<p>?]0;title? then a description longer than forty characters</p>' \
	"$tmp/name.html"; then
	pass "the HTML report quotes the scenario's name and description, whole"
else
	fail "the HTML report quotes the scenario's name and description, whole" \
		"$(grep -n 'title\|^<p>' "$tmp/name.html" | head -n 3)"
fi
if grep -Fqi '"name":"\u001b[31mred\r\nFAKE: invariants: ok"' \
	"$tmp/name-report.json"; then
	pass "the JSON report keeps the name, JSON-escaped"
else
	fail "the JSON report keeps the name, JSON-escaped" \
		"$(head -c 200 "$tmp/name-report.json")"
fi

# A write that fails is a failure.
if [ -w /dev/full ]; then
	run pow simulate $fixed --duration 10 --csv /dev/full
	if [ "$rc" = 1 ] && grep -q 'write error' "$tmp/err"; then
		pass "a failed CSV write fails"
	else
		fail "a failed CSV write fails" "status $rc: $(cat "$tmp/err")"
	fi
fi

# Rates whose combination would take the machine's memory: four attackers
# at 10^7 proofs per second, each proof a second of verification (the
# line of proofs grew to 2.6 GB in 54 s), and 10^6 clients per second
# (70 MB per simulated second). Each stops at the default budget of live
# events, clients and requests (--max-live), in about half a second:
# status 1, one line. Under ulimit -v 300 MB, so that a program without
# the budget fails fast instead of taking the memory; natively only
# (valgrind and emulators need more address space than that). Smaller
# budgets are rows of doc/bad-input.md.
attacker='{"strategy": "fixed", "effort": 1, "rate": 10000000, "cores": 1000000, "cpu": 1000000}'
printf '{"service": {"verify_cost_us": 1000000}, "attackers": [%s, %s, %s, %s]}\n' \
	"$attacker" "$attacker" "$attacker" "$attacker" >"$tmp/verify-flood.json"
over_budget() { # NAME ARGS...
	name=$1; shift
	(ulimit -v 300000 && exec timeout 60 "$program" pow simulate \
		--solve-rate 300 --solutions-per-nonce 2 "$@") \
		>"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	case $(cat "$tmp/err") in
	"equix-cli: pow simulate: at "*" s, more than 1000000 events, clients, requests and rows of time series held at once (--max-live 1000000)")
		lines=$(wc -l <"$tmp/err" | tr -d ' ') ;;
	*) lines=0 ;;
	esac
	if [ "$rc" = 1 ] && [ "$lines" = 1 ] && [ ! -s "$tmp/out" ]; then
		pass "$name stops at the budget"
	else
		fail "$name stops at the budget" \
			"status $rc: $(head -c 300 "$tmp/err")"
	fi
}
# AddressSanitizer reserves terabytes of shadow address space at start,
# so a sanitized program cannot start under the limit at all: then the
# two are skipped (the smaller budgets' rows still run there).
fits_limit() {
	(ulimit -v 300000 && exec "$program" pow simulate --list-scenarios) \
		>/dev/null 2>&1 </dev/null
}
if [ -n "$runner" ]; then
	skip "a verification flood stops at the budget" "not native"
	skip "a million clients per second stops at the budget" "not native"
elif ! fits_limit; then
	skip "a verification flood stops at the budget" \
		"equix-cli does not start within 300 MB here (a sanitizer)"
	skip "a million clients per second stops at the budget" \
		"equix-cli does not start within 300 MB here (a sanitizer)"
else
	over_budget "a verification flood" --scenario "$tmp/verify-flood.json"
	over_budget "a million clients per second" --verify-cost-us 50 \
		--client-rate 1000000
fi

# The budget of work (--max-events): the events a run may process. This
# scenario keeps every field in its range and holds few events at once (a
# launch takes a millisecond), so --max-live never stops it, but its
# 900,000 simulated seconds of a flood at 10^7 requests a second would
# take about a month of CPU. It stops at the budget with status 1 and one
# line, before any report is written. The default (10^8 events, about
# 10 s of CPU on this flood) is too slow for the suite: a small budget
# shows the rule, and the --stats line below shows the default.
printf '%s\n' '{"duration_s": 900000, "service": {"rate": 0, "max_in_flight": 1000000, "rend_s": 0.001, "verify_cost_us": 0.001}, "machine": {"solve_rate": 1000, "solutions_per_nonce": 2}, "clients": {"rate": 0}, "attackers": [{"strategy": "flood", "rate": 10000000}]}' \
	>"$tmp/month.json"
run pow simulate --scenario "$tmp/month.json" --max-events 100000 \
	--csv "$tmp/month.csv"
case $(cat "$tmp/err") in
"equix-cli: pow simulate: at "*" s, more than 100000 events processed (--max-events 100000)")
	lines=$(wc -l <"$tmp/err" | tr -d ' ') ;;
*) lines=0 ;;
esac
if [ "$rc" = 1 ] && [ "$lines" = 1 ] && [ ! -s "$tmp/out" ] &&
   [ ! -e "$tmp/month.csv" ]; then
	pass "a month of CPU stops at the budget of events, no report written"
else
	fail "a month of CPU stops at the budget of events, no report written" \
		"status $rc: $(head -c 300 "$tmp/err")"
fi

# --stats reports the events processed and the budget, which counts the
# same events: a run of N events finishes with --max-events N (a budget
# raised from N - 1, where it stops) and its --stats line says N again.
# stats_events: N from the --stats line in $tmp/err, with budget $1.
stats_events() {
	sed -n "s/^equix-cli: pow simulate: \([0-9]*\) events in [0-9.]* s, [0-9]* events\/s (--max-events $1)\$/\1/p" \
		"$tmp/err"
}
run pow simulate $fixed --scenario flood --duration 20 --stats
events=$(stats_events 100000000)
if [ "$rc" = 0 ] && [ -n "$events" ] && [ "$events" -gt 1000 ]; then
	pass "--stats: $events events, the default budget 100000000"
else
	fail "--stats: the events and the default budget" \
		"status $rc: $(head -c 300 "$tmp/err")"
	events=1001
fi
run pow simulate $fixed --scenario flood --duration 20 \
	--max-events $((events - 1))
if [ "$rc" = 1 ] && [ "$(cat "$tmp/err")" = \
	"equix-cli: pow simulate: at 20.000 s, more than $((events - 1)) events processed (--max-events $((events - 1)))" ]; then
	pass "a run of $events events stops at a budget of $((events - 1))"
else
	fail "a run of $events events stops at a budget of $((events - 1))" \
		"status $rc: $(head -c 300 "$tmp/err")"
fi
run pow simulate $fixed --scenario flood --duration 20 --max-events "$events" \
	--stats
if [ "$rc" = 0 ] && grep -q '^invariants: ok$' "$tmp/out" &&
   [ "$(stats_events "$events")" = "$events" ]; then
	pass "the budget raised to $events, the run finishes"
else
	fail "the budget raised to $events, the run finishes" \
		"status $rc: $(head -c 300 "$tmp/err")"
fi

# Bad scenario files: one line, status 2.
# bad NAME CONTENT MESSAGE
bad() {
	printf '%s\n' "$2" >"$tmp/bad.json"
	run pow simulate --scenario "$tmp/bad.json"
	want="equix-cli: pow simulate: $tmp/bad.json: $3"
	if [ "$rc" = 2 ] && [ "$(cat "$tmp/err")" = "$want" ]; then
		pass "bad file: $1"
	else
		fail "bad file: $1" "status $rc: $(cat "$tmp/err"); want: $want"
	fi
}
bad "syntax, with the line" '{
"service": {"rate": 1,}
}' "line 2: string or '}' expected near '}'"
bad "unknown key" '{"servce": {}}' "servce: unknown key"
bad "unknown nested key" '{"service": {"rat": 1}}' "service.rat: unknown key"
bad "negative" '{"service": {"rate": -1}}' \
	"service.rate: expected an integer from 0 to 1e+06"
bad "not a number" '{"clients": {"rate": "x"}}' \
	"clients.rate: expected a number from 0 to 1e+06"
bad "a fraction for an integer" '{"service": {"burst": 1.5}}' \
	"service.burst: expected an integer from 0 to 1e+08"
bad "unknown strategy" '{"attackers": [{"strategy": "nuke"}]}' \
	"attackers[0].strategy: expected \"flood\", \"fixed\", \"match\" or \"above\""
bad "attacker key" '{"attackers": [{"strategy": "flood", "cpus": 2}]}' \
	"attackers[0].cpus: unknown key"
bad "duplicate key" '{"duration_s": 5, "duration_s": 6}' \
	"line 1: duplicate object key near '\"duration_s\"'"
bad "not an object" '[1]' "scenario: expected an object"
run pow simulate --scenario "$tmp/missing.json"
[ "$rc" = 2 ] && [ "$(wc -l <"$tmp/err" | tr -d ' ')" = 1 ] &&
	pass "bad file: missing" || fail "bad file: missing" "status $rc"

finish

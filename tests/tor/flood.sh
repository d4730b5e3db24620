#!/usr/bin/env bash
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# The PoW defence under a real flood, on a loopback Tor network
# (tests/tor/net.sh), side by side with `equix-cli pow simulate` run with
# the same parameters (doc/defence.md section 4). A scripted experiment,
# not a test: not run in CI; 5 minutes a period plus about 3 (the set-up,
# the last clients' patience, the simulator).
#
#   tests/tor/flood.sh --lib-tor PATH [--debian-tor /usr/bin/tor]
#       [--periods N] [--rate R] [--burst B] [--legit-rate L]
#       [--attack-rate A] [--attack-effort E] [--patience S]
#       [--attack-timeout S] [--seed N] [--equix-cli PATH] [--work DIR]
#
# The network: 3 authorities and 2 relays (Debian's tor); the service S
# (the library tor: its Equi-X verifies, Tor's own queue and controller
# decide) with HiddenServicePoWDefensesEnabled, HiddenServicePoWQueueRate R
# and HiddenServicePoWQueueBurst B (default 1 and 1) and a MetricsPort;
# the legitimate clients' tor L (Debian's, solving at the effort its
# cached descriptor suggests; Tor's client raises it only after an
# introduction point failed, not after a rendezvous that never came); the
# attacker's tor A (the library tor with its test-only knob
# EQUIX_TEST_TOR_CLIENT_EFFORT=E, default 0: no proof at all). The
# service's suggested effort starts at 0 and moves only by Tor's
# controller, every 300 s (HS_UPDATE_PERIOD) from the service's start.
#
# The load (tests/tor/flood.py): legitimate clients arriving at L a
# second (default 0.2), each waiting on its SOCKS connection (on which
# tor itself introduces again when no rendezvous came), a new one if tor
# gives up, until its patience (default 90 s) is used up; attack
# connections at A a second
# (default 4), each abandoned after --attack-timeout (default 30 s, so
# that it makes one introduction, see below); every
# connection with a SOCKS user name of its own, so a new circuit and a new
# introduction. It runs from shortly after the service's descriptor is
# published until just after the service's N-th update (default 4).
#
# Then the same parameters through `equix-cli pow simulate` (the time a
# connection takes on this unloaded network, measured first, as its
# rendezvous time; the time the legitimate clients took to see a new
# effort as its publication delay: on this network a client keeps its
# cached descriptor until the next HS time period, 240 s under
# TestingTorNetwork), once for the whole run and once stopped at each
# period's end (its time to connect is per run), and the side-by-side
# table. Every process is ended by its PID (net.sh), every step bounded
# in time. Writes
# under the work directory (default build/tor/flood, cleared first):
# flood.md (the table and the parameters), periods.csv, events.csv (one
# row per connection), metrics.csv (the service's suggested effort and
# queue, every 5 s), sim-scenario.json, sim.csv, sim.json, sim-K.csv
# (stopped at period K), and every node's logs.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)

lib_tor=
deb_tor=/usr/bin/tor
work=$top/build/tor/flood
periods=4
rate=1
burst=1
legit_rate=0.2
attack_rate=4
attack_effort=0
patience=90
attack_timeout=30
seed=1
equix_cli=$top/build/test/src/cli/equix-cli
usage() {
	sed -n '9,12p' "$0" | sed 's/^# *//' >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	--lib-tor) lib_tor=${2:-}; shift 2 || usage ;;
	--debian-tor) deb_tor=${2:-}; shift 2 || usage ;;
	--periods) periods=${2:-}; shift 2 || usage ;;
	--rate) rate=${2:-}; shift 2 || usage ;;
	--burst) burst=${2:-}; shift 2 || usage ;;
	--legit-rate) legit_rate=${2:-}; shift 2 || usage ;;
	--attack-rate) attack_rate=${2:-}; shift 2 || usage ;;
	--attack-effort) attack_effort=${2:-}; shift 2 || usage ;;
	--patience) patience=${2:-}; shift 2 || usage ;;
	--attack-timeout) attack_timeout=${2:-}; shift 2 || usage ;;
	--seed) seed=${2:-}; shift 2 || usage ;;
	--equix-cli) equix_cli=${2:-}; shift 2 || usage ;;
	--work) work=${2:-}; shift 2 || usage ;;
	*) usage ;;
	esac
done
[ -n "$lib_tor" ] || usage
for v in "$periods" "$rate" "$burst" "$attack_effort" "$seed"; do
	case $v in '' | *[!0-9]*) echo "flood: --periods, --rate, --burst, --attack-effort and --seed take whole numbers" >&2; exit 2 ;; esac
done
for v in "$legit_rate" "$attack_rate" "$patience" "$attack_timeout"; do
	[[ $v =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "flood: rates and times are decimal numbers (got '$v')" >&2; exit 2; }
done
[ "$periods" -ge 1 ] && [ "$periods" -le 12 ] || { echo "flood: --periods from 1 to 12" >&2; exit 2; }
[ "$rate" -ge 1 ] && [ "$burst" -ge "$rate" ] || { echo "flood: --rate at least 1 and --burst at least the rate (else Tor sets no rate limit)" >&2; exit 2; }
for b in "$lib_tor" "$deb_tor"; do
	[ -x "$b" ] || { echo "flood: $b: not an executable tor" >&2; exit 1; }
done
[ -x "$equix_cli" ] || { echo "flood: $equix_cli: no equix-cli (build the tree, or --equix-cli PATH)" >&2; exit 1; }
for c in python3 timeout od awk lscpu; do
	command -v "$c" >/dev/null || { echo "flood: $c not found" >&2; exit 1; }
done

# shellcheck source=net.sh
source "${NET_SH:-$here/net.sh}"

started=$(date +%s)
log() {
	printf 'flood: [%4ds] %s\n' $(($(date +%s) - started)) "$*"
}
fail() {
	echo "flood: FAIL: $*" >&2
	exit 1
}

# bounded NAME SECONDS CMD...: runs CMD in the background under timeout,
# recorded by net_spawn (so that an interruption ends it by its PID with
# the tors), and waits for it; its output goes to NAME.log in the work
# directory, shown when it fails. Waiting with `wait` (not as a
# foreground child) lets a signal's trap run at once.
bounded() {
	local name=$1 secs=$2 rc=0
	shift 2
	net_spawn "$name" "$NET_WORK/$name.log" "$NET_WORK" timeout -k 5 "$secs" "$@"
	wait "${NET_PID[$name]}" || rc=$?
	if [ "$rc" != 0 ]; then
		[ "$rc" != 124 ] || echo "flood: $name: still running after ${secs}s, stopped" >&2
		tail -n 20 "$NET_WORK/$name.log" >&2
	fi
	return "$rc"
}

# The whole run is bounded: setup, the periods, the patience of the last
# clients, the simulator.
net_init "$work" $((600 + periods * 300 + ${patience%.*} + ${attack_timeout%.*}))

mkdir -p "$NET_WORK/www"
token=flood-$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
echo "$token" >"$NET_WORK/www/index.txt"
http_port=$(net_port)
net_spawn http "$NET_WORK/http.log" "$NET_WORK/www" \
	python3 -m http.server --bind 127.0.0.1 --directory "$NET_WORK/www" "$http_port"

for n in a1 a2 a3; do net_add_authority "$n" "$deb_tor"; done
for n in r1 r2; do net_add_relay "$n" "$deb_tor"; done
net_add_service S "$lib_tor" "$http_port"
metrics_port=$(net_port)
cat >>"$(net_torrc S)" <<EOF
HiddenServicePoWQueueRate $rate
HiddenServicePoWQueueBurst $burst
MetricsPort 127.0.0.1:$metrics_port
MetricsPortPolicy accept 127.0.0.1
EOF
net_add_client L "$deb_tor"
net_add_client A "$lib_tor" "EQUIX_TEST_TOR_CLIENT_EFFORT=$attack_effort"
# The attacker's tor at notice level: at info, hundreds of streams waiting
# for their circuits write 100 MB a minute and most of its CPU time.
sed -i '/^Log info file/d' "$(net_torrc A)"
# Timestamps in milliseconds in the logs read below (default: seconds).
# A fixed circuit build timeout of 10 s instead of the learned one: a
# client waits 3 timeouts + 1 s (circuit_expire_building's
# c_rend_ready_cutoff), here 31 s, for the rendezvous after its
# introduction was acknowledged, then introduces itself again: the
# simulator's 30-s rendezvous timeout. Learned on loopback, the timeout
# is 60 s for the first 100 circuits (a 181-s wait) and about 50 ms after
# them (a 1.2-s wait, then a new introduction, again and again).
for n in S L A; do
	printf '%s\n' "LogTimeGranularity 1" "LearnCircuitBuildTimeout 0" \
		"CircuitBuildTimeout 10" >>"$(net_torrc "$n")"
done

net_start a1 a2 a3 r1 r2
log "network starting in $NET_WORK"
net_wait_consensus 120 a1 5 || fail "no consensus listing the 5 relays"
net_start S L A
for n in S L A; do net_wait_bootstrap 120 "$n" || fail "$n did not bootstrap"; done
NET_HSDIR_UPLOADS=10 net_wait_service 120 S || fail "the service's descriptors were not published"
onion=$(net_onion S)
log "service $onion published"

# The service's PoW state starts with its first housekeeping, before its
# first descriptor: the updates come every 300 s from then.
t0_line=$(grep -m1 'Generating both PoW seeds' "${NET_DIR[S]}/info.log") ||
	fail "the service logged no PoW set-up (\"Generating both PoW seeds\")"
log "service PoW state: $t0_line"

# Calibration: a few fetches through L with no attack, one at a time: the
# time a connection takes on this network when nothing waits.
bounded calibration $((5 * ${patience%.*} + 60)) python3 "$here/flood.py" load \
	--onion "$onion" --token "$token" \
	--legit-socks "$(net_socks_port L)" --attack-socks "$(net_socks_port A)" \
	--metrics-port "$metrics_port" --legit-rate 0 --attack-rate 0 --until 0 \
	--patience "$patience" --calibrate 5 --events "$NET_WORK/calibration.csv" \
	--metrics /dev/null ||
	fail "calibration fetches failed"
log "calibration: $(tail -n +2 "$NET_WORK/calibration.csv" | tr '\n' ' ')"

# The load, until 3 s after the service's last update of the run (Tor
# updates at its first housekeeping tick at or after each 300-s mark).
# Tor's clock here is in whole seconds (next_effort_update = time(NULL) +
# 300): the periods start at the set-up's second.
t0=$(date -d "$(cut -c1-15 <<<"$t0_line")" +%s)
until=$(awk -v t="$t0" -v p="$periods" 'BEGIN { printf "%.3f", t + 300 * p + 3 }')
log "load: legitimate $legit_rate/s, attack $attack_rate/s at effort $attack_effort, until $(date -d "@$until" +%T) (${periods} periods)"
# Bounded: the periods, then the last clients' patience and attack
# timeout, and a minute's margin.
load_secs=$(awk -v u="$until" -v p="$patience" -v a="$attack_timeout" -v now="$(date +%s)" \
	'BEGIN { printf "%d", u - now + p + a + 60 }')
bounded load "$load_secs" python3 "$here/flood.py" load \
	--onion "$onion" --token "$token" \
	--legit-socks "$(net_socks_port L)" --attack-socks "$(net_socks_port A)" \
	--metrics-port "$metrics_port" --legit-rate "$legit_rate" \
	--attack-rate "$attack_rate" --until "$until" --patience "$patience" \
	--attack-timeout "$attack_timeout" --seed "$seed" \
	--events "$NET_WORK/events.csv" --metrics "$NET_WORK/metrics.csv" ||
	fail "the load ended with an error"
log "load done"

# The simulator with the same parameters, and what the network measured:
# the time a connection takes when nothing waits (its rendezvous time),
# the delay before the legitimate clients solved at a new effort (its
# publication delay; the simulator's default, 60 s, when the effort never
# moved), the attack's start (the simulator's legitimate clients start at
# 0, the network's with the attack).
read -r rend_s publish_s start_s < <(python3 "$here/flood.py" measure \
	--calibration "$NET_WORK/calibration.csv" --events "$NET_WORK/events.csv" \
	--metrics "$NET_WORK/metrics.csv" --legit-log "${NET_DIR[L]}/info.log" \
	--t0 "$t0" --periods "$periods") || fail "could not read the measurements"
publish_note="measured"
if [ "$publish_s" = - ]; then
	publish_s=60
	publish_note="the simulator's default: the effort never moved, or the clients never solved at a new one"
fi
strategy=flood
effort_opt=()
if [ "$attack_effort" != 0 ]; then
	strategy=fixed
	effort_opt=(--attack-effort "$attack_effort")
fi
sim_opts=(--scenario flood --rate "$rate" --burst "$burst" --period 300 --client-rate "$legit_rate"
	--patience "${patience%.*}" --attack-rate "$attack_rate" --attack-strategy "$strategy"
	"${effort_opt[@]}" --rend-time "$rend_s" --publish-delay "$publish_s"
	--duration $((periods * 300 + 3)))
"$equix_cli" pow simulate --print-scenario "${sim_opts[@]}" >"$NET_WORK/sim-scenario.json" ||
	fail "equix-cli pow simulate refused the parameters"
python3 - "$NET_WORK/sim-scenario.json" "$start_s" <<'PY'
import json, sys
path, start = sys.argv[1], float(sys.argv[2])
s = json.load(open(path))
s["name"] = "tor-flood"
s["description"] = "tests/tor/flood.sh's parameters"
for a in s["attackers"]:
    a["start_s"] = start
json.dump(s, open(path, "w"), indent=1)
PY
# The machine's figures (solving rate, solutions per nonce, verification
# cost) measured once, by a one-second run, and written into the
# scenario: every run below then has the same scenario, so the runs
# stopped at each period's end repeat the full run's history up to there
# (the report's time to connect by period).
bounded sim-machine 300 "$equix_cli" pow simulate --scenario "$NET_WORK/sim-scenario.json" \
	--duration 1 --json "$NET_WORK/sim-machine.json" ||
	fail "equix-cli pow simulate could not measure the machine"
python3 - "$NET_WORK/sim-scenario.json" "$NET_WORK/sim-machine.json" <<'PY'
import json, sys
path, measured = sys.argv[1], json.load(open(sys.argv[2]))["scenario"]
s = json.load(open(path))
s["machine"] = measured["machine"]
s["service"]["verify_cost_us"] = measured["service"]["verify_cost_us"]
json.dump(s, open(path, "w"), indent=1)
PY
log "simulator: equix-cli pow simulate --scenario sim-scenario.json (${sim_opts[*]}, attack from ${start_s} s, the machine as measured) --seed $seed"
cum=()
for k in $(seq 1 $((periods - 1))); do
	bounded "sim-$k" 300 "$equix_cli" pow simulate --scenario "$NET_WORK/sim-scenario.json" \
		--seed "$seed" --duration $((k * 300)) --csv "$NET_WORK/sim-$k.csv" ||
		fail "equix-cli pow simulate (stopped at period $k) failed"
	cum+=(--sim-cum "$((k * 300)):$NET_WORK/sim-$k.csv")
done
bounded sim 300 "$equix_cli" pow simulate --scenario "$NET_WORK/sim-scenario.json" --seed "$seed" \
	--csv "$NET_WORK/sim.csv" --json "$NET_WORK/sim.json" ||
	fail "equix-cli pow simulate failed"
cum+=(--sim-cum "$((periods * 300)):$NET_WORK/sim.csv")
cat "$NET_WORK/sim.log"

{
	echo "# tests/tor/flood.sh, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "- CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -n 1), $(nproc) cores"
	echo "- service: $("$lib_tor" --version | head -n 1) (library tor), HiddenServicePoWQueueRate $rate, HiddenServicePoWQueueBurst $burst, suggested effort from 0 by Tor's controller"
	echo "- legitimate clients: $("$deb_tor" --version | head -n 1) ($deb_tor), $legit_rate a second (Poisson), patience $patience s"
	echo "- attacker: the library tor at effort $attack_effort (EQUIX_TEST_TOR_CLIENT_EFFORT), $attack_rate connections a second (Poisson), each abandoned after $attack_timeout s"
	echo "- $periods periods of 300 s from the service's PoW set-up; the load from ${start_s} s"
	echo "- simulator: equix-cli pow simulate ${sim_opts[*]} --seed $seed, the attack from ${start_s} s; rendezvous time ${rend_s} s (median connection with no load), publication delay ${publish_s} s ($publish_note); $(sed -n 2p "$NET_WORK/sim.log")"
	echo "- wall time: $(($(date +%s) - started)) s"
	echo
	python3 "$here/flood.py" report --events "$NET_WORK/events.csv" \
		--metrics "$NET_WORK/metrics.csv" --service-log "${NET_DIR[S]}/info.log" \
		--legit-log "${NET_DIR[L]}/info.log" --t0 "$t0" --periods "$periods" \
		--sim-csv "$NET_WORK/sim.csv" "${cum[@]}" --out-csv "$NET_WORK/periods.csv"
} >"$NET_WORK/flood.md" || fail "the report failed"
cat "$NET_WORK/flood.md"
log "done: $NET_WORK/flood.md"

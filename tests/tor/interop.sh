#!/usr/bin/env bash
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# Onion-service PoW interop between Debian's tor (the reference Equi-X
# inside) and a tor built against this library, on a loopback network
# (tests/tor/net.sh):
#
#   tests/tor/interop.sh --lib-tor PATH [--debian-tor /usr/bin/tor]
#                        [--work DIR] [--timeout SECONDS]
#
# One network: 3 authorities and 2 relays, all Debian's tor (they carry
# no PoW: only the onion services verify and only the clients solve, so
# the network's own nodes are the reference and every row differs only by
# the binaries at its two ends); services S_lib (library tor, suggesting
# effort EQUIX_INTEROP_EFFORT, default 32, through its test-only knob
# EQUIX_TEST_TOR_SERVICE_EFFORT) and S_deb (Debian tor: PoW defences on,
# suggests effort 0 but verifies any proof it gets); clients C_deb
# (Debian), C_lib (library, solving at EQUIX_INTEROP_CLIENT_EFFORT,
# default 16, through EQUIX_TEST_TOR_CLIENT_EFFORT, whatever the
# descriptor says) and C_lib_sandbox (library, Sandbox 1, following the
# descriptor). Rows, each a fetch through the onion address on fresh
# circuits (a SOCKS user name of its own):
#
#   C_deb -> S_lib          reference solver, library verifier
#   C_lib -> S_deb          library solver, reference verifier
#   C_lib -> S_lib          library at both ends
#   C_lib_sandbox -> S_lib  library solver under seccomp: interpreted
#
# A row holds when the page behind the service arrives intact, the
# client's log has a new "Proof of work solution (effort N) found using
# compiled|interpreted implementation" with N > 0 (interpreted for the
# sandboxed client, compiled for the others; for a client that follows
# the descriptor N is the service's suggested effort), the service's count
# of "PoW INTRODUCE2 request successfully verified." grew, and no service
# ever logged "PoW INTRODUCE2 request failed to verify.". Prints a table
# and the log lines behind it; on failure, the relevant log tails. Exit 0
# only when every row holds; a sandbox row this machine cannot run (no
# seccomp, a tor built without it) is SKIPPED with the reason and does not
# count as held: the exit status is then 77.
#
# Node names (tor nicknames, letters and digits only): Slib, Sdeb, Cdeb,
# Clib, Clibsb; a1-a3, r1-r2. Everything is under the work directory
# (default build/tor/net), cleared at the start and kept afterwards for
# reading; the whole run is bounded by --timeout (default 300 s; about
# 30-40 s when all goes well on 2 cores).
#
# Needs (Debian): tor, curl, python3 (the HTTP target behind the
# services), installed through scripts/setup.sh when missing. Runs as
# root (tor then only warns) or not.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)

lib_tor=
deb_tor=/usr/bin/tor
work=$top/build/tor/net
timeout=300
usage() {
	echo "usage: tests/tor/interop.sh --lib-tor PATH [--debian-tor PATH] [--work DIR] [--timeout SECONDS]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	--lib-tor) lib_tor=${2:-}; shift 2 || usage ;;
	--debian-tor) deb_tor=${2:-}; shift 2 || usage ;;
	--work) work=${2:-}; shift 2 || usage ;;
	--timeout) timeout=${2:-}; shift 2 || usage ;;
	*) usage ;;
	esac
done
[ -n "$lib_tor" ] || usage
case $timeout in '' | *[!0-9]*) usage ;; esac
effort=${EQUIX_INTEROP_EFFORT:-32}
client_effort=${EQUIX_INTEROP_CLIENT_EFFORT:-16}
for v in "$effort" "$client_effort"; do
	case $v in '' | *[!0-9]* | 0) echo "interop: efforts must be positive integers (got '$v')" >&2; exit 2 ;; esac
done

# Debian's tor (the reference), curl and python3, installed when missing
# (as root; otherwise the installer names what is missing and stops).
# shellcheck source=../../scripts/setup.sh
source "$top/scripts/setup.sh"
equix_install tor curl python3

for b in "$lib_tor" "$deb_tor"; do
	[ -x "$b" ] || { echo "interop: $b: not an executable tor" >&2; exit 1; }
done
for c in curl python3 timeout od awk; do
	command -v "$c" >/dev/null || { echo "interop: $c not found" >&2; exit 1; }
done

# shellcheck source=net.sh
source "$here/net.sh"

started=$(date +%s)
elapsed() {
	echo $(($(date +%s) - started))
}
now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

echo "interop: library tor $lib_tor: $("$lib_tor" --version | head -n 1)"
echo "interop: Debian tor  $deb_tor: $("$deb_tor" --version | head -n 1)"
if command -v ldd >/dev/null; then
	echo "interop: the library tor's Equi-X: $(ldd "$lib_tor" 2>/dev/null | awk '/libequix|libhashx/ { printf "%s => %s; ", $1, $3 }')"
fi
[ "$(id -u)" = 0 ] && echo "interop: running as root (tor warns about it; no User option is set)"

net_init "$work" "$timeout"

# The HTTP target: one small page with a random token, so that a fetch
# proves the whole way through the onion service.
mkdir -p "$NET_WORK/www"
token=interop-$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
echo "$token" >"$NET_WORK/www/index.txt"
http_port=$(net_port)
net_spawn http "$NET_WORK/http.log" "$NET_WORK/www" \
	python3 -m http.server --bind 127.0.0.1 --directory "$NET_WORK/www" "$http_port"
# It answers directly before any tor starts, so that a failure below is
# Tor's.
for _ in $(seq 20); do
	body=$(curl -sS --max-time 5 "http://127.0.0.1:$http_port/index.txt" 2>/dev/null) && break
	net_alive http || break
	sleep 0.5
done
[ "${body:-}" = "$token" ] || {
	echo "interop: FAIL: the HTTP target on 127.0.0.1:$http_port does not serve the token:" >&2
	cat "$NET_WORK/http.log" >&2
	exit 1
}

# Sandbox: the kernel must offer seccomp; the tor must have been built
# with it (checked from its log once started).
sandbox_skip=
if ! grep -q '^Seccomp:' /proc/self/status 2>/dev/null; then
	sandbox_skip="the kernel has no seccomp (no Seccomp line in /proc/self/status)"
fi

for n in a1 a2 a3; do net_add_authority "$n" "$deb_tor"; done
for n in r1 r2; do net_add_relay "$n" "$deb_tor"; done
net_add_service Slib "$lib_tor" "$http_port" "EQUIX_TEST_TOR_SERVICE_EFFORT=$effort"
net_add_service Sdeb "$deb_tor" "$http_port"
net_add_client Cdeb "$deb_tor"
net_add_client Clib "$lib_tor" "EQUIX_TEST_TOR_CLIENT_EFFORT=$client_effort"
clients=(Cdeb Clib)
if [ -z "$sandbox_skip" ]; then
	net_add_client Clibsb "$lib_tor"
	echo "Sandbox 1" >>"$(net_torrc Clibsb)"
	clients+=(Clibsb)
fi
services=(Slib Sdeb)
nodes=("${services[@]}" "${clients[@]}")

fail() {
	echo "interop: FAIL: $*" >&2
	exit 1
}

# The network first: services and clients pick their vanguards from the
# first consensus they get, which must list every relay (a consensus of
# authorities alone leaves too few nodes for onion-service paths).
t0=$(date +%s)
net_start a1 a2 a3 r1 r2
echo "interop: started a1 a2 a3 r1 r2 (work directory $NET_WORK)"
net_wait_consensus 120 a1 5 || fail "no consensus listing the 5 relays"
net_start "${nodes[@]}"
echo "interop: consensus after $(($(date +%s) - t0))s; started ${nodes[*]}"

# A sandboxed tor that cannot sandbox: built without libseccomp (it then
# runs unsandboxed, so the row would test nothing), or a kernel or
# container that refuses the filter (it exits). True, with the reason in
# sandbox_skip, in either case.
sandbox_check() {
	local log=${NET_DIR[Clibsb]}/notice.log
	if grep -q 'built without support for sandboxing' "$log" 2>/dev/null; then
		sandbox_skip="the library tor was built without libseccomp (its log: \"This version of Tor was built without support for sandboxing\")"
	elif grep -q '(Sandbox) failed to load' "$log" 2>/dev/null; then
		sandbox_skip="seccomp refused here: $(grep -m1 -o '(Sandbox) failed to load.*' "$log")"
	else
		return 1
	fi
	echo "interop: sandbox row SKIPPED: $sandbox_skip"
	clients=(Cdeb Clib)
}

# The relays are ready once the consensus lists them Running (their own
# circuits, which "Bootstrapped 100%" counts and which take them 10-20 s
# more, play no part in relaying); services and clients bootstrap.
for n in a1 a2 a3 r1 r2; do
	net_alive "$n" || { net_tail "$n" >&2; fail "$n ended"; }
done
for n in "${nodes[@]}"; do
	if net_wait_bootstrap 120 "$n"; then
		[ "$n" != Clibsb ] || sandbox_check || true
	else
		[ "$n" = Clibsb ] && sandbox_check && continue
		fail "$n did not bootstrap"
	fi
done
boot_s=$(($(date +%s) - t0))
echo "interop: every node bootstrapped ${boot_s}s after the network's start"

# The sandbox is really on: tor's process has more seccomp filters than
# this shell (a container may filter every process already).
if [[ " ${clients[*]} " == *" Clibsb "* ]]; then
	mine=$(awk '/^Seccomp_filters:/ { print $2 }' /proc/self/status)
	theirs=$(awk '/^Seccomp_filters:/ { print $2 }' "/proc/${NET_PID[Clibsb]}/status" 2>/dev/null || true)
	if [ -n "$mine" ] && [ -n "$theirs" ]; then
		[ "$theirs" -gt "$mine" ] || fail "Clibsb runs with Sandbox 1 but has no seccomp filter of its own ($theirs filters, this shell $mine)"
		echo "interop: Clibsb is sandboxed: $theirs seccomp filters (this shell: $mine)"
	else
		echo "interop: this kernel does not show seccomp filter counts; the row's 'interpreted' is the sign of the sandbox"
	fi
fi

t0=$(date +%s)
# Both descriptors (this time period's and the next's) stored on all 5
# HSDirs: a client that asked an HSDir still without the descriptor would
# not ask it again for 15 minutes.
export NET_HSDIR_UPLOADS=10
net_wait_service 120 "${services[@]}" || fail "a service's descriptor was not published"
echo "interop: services published their descriptors in $(($(date +%s) - t0))s more"
for s in "${services[@]}"; do
	echo "interop: $s is $(net_onion "$s")"
done

# (Logged when the service set up its defences, before its first
# descriptor.) The library tor must carry the test-only patch (its knobs): without
# it S_lib suggests no effort and the rows would fail for that reason.
grep -q "Test only: suggested PoW effort starts at $effort" "${NET_DIR[Slib]}/notice.log" ||
	fail "$lib_tor does not carry the test-only patch (no \"Test only: suggested PoW effort starts at $effort\" in Slib's log)"

count() {
	grep -cE -- "$2" "$1" 2>/dev/null || true
}
sol_re='Proof of work solution \(effort [0-9]+\) found using (compiled|interpreted) implementation'
ok_re='PoW INTRODUCE2 request successfully verified'
bad_re='PoW INTRODUCE2 request failed to verify'

declare -a table=() evidence=()
held=0
failed=0
skipped=0

# row NAME CLIENT SERVICE IMPL EFFORT: one fetch (retried on fresh
# circuits, after NEWNYM forgets the client's onion-service state, while
# the row's 65 s last; a fetch that works takes seconds), then the log
# assertions.
row() {
	local name=$1 c=$2 s=$3 impl=$4 want=$5 clog slog sol0 ver0 bad0 t start ms
	local attempt=0 body='' sols line e i why=''
	clog=${NET_DIR[$c]}/info.log
	slog=${NET_DIR[$s]}/info.log
	sol0=$(count "$clog" "$sol_re")
	ver0=$(count "$slog" "$ok_re")
	bad0=$(count "$slog" "$bad_re")
	start=$(now_ms)
	local end=$(($(date +%s) + $(net_bound 65)))
	while :; do
		t=$(net_bound 30)
		[ "$t" -le $((end - $(date +%s))) ] || t=$((end - $(date +%s)))
		if [ "$t" -le 0 ]; then
			[ "$attempt" -gt 0 ] || why="the global deadline passed before this row"
			break
		fi
		attempt=$((attempt + 1))
		body=$(curl -sS --max-time "$t" --socks5-hostname "127.0.0.1:$(net_socks_port "$c")" \
			--proxy-user "$name-$attempt:x" "http://$(net_onion "$s")/index.txt" 2>"$NET_WORK/curl-$name-$attempt.err") || true
		[ "$body" = "$token" ] && break
		echo "interop: $name attempt $attempt: no page ($(tr '\n' ' ' <"$NET_WORK/curl-$name-$attempt.err"))"
		[ "$(date +%s)" -lt "$end" ] || break
		net_control "$c" "SIGNAL NEWNYM" >/dev/null || true
		sleep 2
	done
	ms=$(($(now_ms) - start))
	[ -n "$why" ] || [ "$body" = "$token" ] || why="no page after $attempt attempts"
	# The proofs this row's fetch made: the client's new solution lines.
	sols=$(grep -E -- "$sol_re" "$clog" | tail -n +$((sol0 + 1)) || true)
	line=$(tail -n 1 <<<"$sols")
	e=$(sed -nE 's/.*\(effort ([0-9]+)\).*/\1/p' <<<"$line")
	i=$(sed -nE 's/.* using ([a-z]+) implementation.*/\1/p' <<<"$line")
	local ver1 bad1
	ver1=$(count "$slog" "$ok_re")
	bad1=$(count "$slog" "$bad_re")
	[ "$bad1" = "$bad0" ] || why="${why:+$why; }$s failed to verify $((bad1 - bad0)) proofs"
	if [ -z "$why" ] && [ -z "$line" ]; then
		why="$c logged no PoW solution"
	elif [ -z "$why" ] && [ "${e:-0}" -le 0 ]; then
		why="effort $e is not positive"
	elif [ -z "$why" ] && [ "$want" != any ] && [ "$e" != "$want" ]; then
		why="effort $e, expected $want"
	elif [ -z "$why" ] && [ "$i" != "$impl" ]; then
		why="$i implementation, expected $impl"
	elif [ -z "$why" ] && [ "$ver1" -le "$ver0" ]; then
		why="$s verified no new proof ($ver0 -> $ver1)"
	fi
	table+=("$(printf '%-22s %-8s %-8s %6s %-12s %7s.%03ds %6s  %s' \
		"$c -> $s" "$(binkind "$c")" "$(binkind "$s")" "${e:--}" "${i:--}" \
		$((ms / 1000)) $((ms % 1000)) "+$((ver1 - ver0))" "${why:-held}")")
	evidence+=("== $c -> $s" "$c: ${line:-(none)}")
	while read -r l; do
		evidence+=("$s: $l")
	done < <(grep -E -- "$ok_re" "$slog" | tail -n +$((ver0 + 1)) | head -n 3)
	if [ -n "$why" ]; then
		failed=$((failed + 1))
		echo "interop: row $c -> $s FAILED: $why" >&2
		for f in "$clog" "$slog"; do
			echo "---- last 30 lines of $f" >&2
			tail -n 30 "$f" >&2
		done
	else
		held=$((held + 1))
	fi
}

binkind() {
	[ "${NET_BIN[$1]}" = "$lib_tor" ] && echo lib || echo debian
}

row deb-lib Cdeb Slib compiled "$effort"
row lib-deb Clib Sdeb compiled "$client_effort"
row lib-lib Clib Slib compiled "$client_effort"
if [[ " ${clients[*]} " == *" Clibsb "* ]]; then
	row sbx-lib Clibsb Slib interpreted "$effort"
else
	skipped=1
	table+=("$(printf '%-22s %-8s %-8s %6s %-12s %11s %6s  %s' "Clibsb -> Slib" lib lib - - - - "SKIPPED: $sandbox_skip")")
fi

# No proof failed anywhere, in any row or between them.
bad_total=0
for s in "${services[@]}"; do
	n=$(count "${NET_DIR[$s]}/info.log" "$bad_re")
	if [ "$n" != 0 ]; then
		bad_total=$((bad_total + n))
		echo "interop: $s logged $n failed verifications:" >&2
		grep -E -- "$bad_re" "${NET_DIR[$s]}/info.log" >&2
	fi
done

echo
printf '%-22s %-8s %-8s %6s %-12s %11s %6s  %s\n' row client service effort impl fetch verified result
for l in "${table[@]}"; do echo "$l"; done
echo
echo "The proofs, as logged (client: the solution; service: its verification):"
for l in "${evidence[@]}"; do echo "  $l"; done
echo
echo "interop: rows: $held held, $failed failed, $skipped skipped; failed verifications: $bad_total; bootstrap ${boot_s}s, total $(elapsed)s"
[ "$failed" = 0 ] && [ "$bad_total" = 0 ] || exit 1
[ "$skipped" = 0 ] || exit 77
exit 0

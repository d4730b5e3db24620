# shellcheck shell=bash
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# A loopback Tor network for tests: directory authorities, relays, onion
# services and clients, all on 127.0.0.1, each its own tor process with its
# own data directory, torrc and ports, started with a tor binary and an
# environment of the caller's choice. Sourced, not run:
#
#   source tests/tor/net.sh
#   net_init WORK_DIR [GLOBAL_TIMEOUT_SECONDS]
#   net_add_authority NAME TOR_BIN [VAR=VALUE...]   (all before any start)
#   net_add_relay NAME TOR_BIN [VAR=VALUE...]
#   net_add_service NAME TOR_BIN TARGET_PORT [VAR=VALUE...]
#   net_add_client NAME TOR_BIN [VAR=VALUE...]
#   echo 'Sandbox 1' >>"$(net_torrc NAME)"          (optional extra lines)
#   net_start NAME...
#   net_wait_consensus SECONDS AUTHORITY COUNT     (authorities are ready)
#   net_wait_bootstrap SECONDS NAME...             (other nodes are ready)
#   net_wait_service SECONDS NAME...               (descriptors published)
#   net_onion NAME; net_socks_port NAME; net_control NAME COMMAND...
#   net_spawn NAME LOG MARK CMD...  (any other process, ended like the tors)
#   net_alive NAME; net_tail NAME [LINES]
#   net_stop_all                (also run by the EXIT trap net_init sets)
#
# Every process started here is recorded by PID and ended by that PID
# (SIGTERM, SIGKILL a few seconds later; a node with a control port is
# first asked to halt there), after checking that the PID still runs the
# command we started: never by name, as a machine may run other tors.
# Every wait is bounded by its own timeout and by the global deadline
# net_init sets; a wait that fails says which node and what it waited
# for, and shows that node's log tail.
#
# The torrcs follow Tor's testing-network options (TestingTorNetwork 1,
# votes every 10 s, every relay voted Guard, Exit and HSDir, reachability
# assumed), which bootstrap a network in about half a minute.

# Nodes, by name: role, data directory, tor binary, ports (NET_OR and
# NET_DIRPORT are for callers).
# shellcheck disable=SC2034
declare -gA NET_ROLE=() NET_DIR=() NET_BIN=() NET_OR=() NET_DIRPORT=() \
	NET_SOCKS=() NET_CTRL=() NET_PID=() NET_CMDMARK=()
declare -ga NET_NODES=() NET_PROCS=()
NET_WORK=
NET_DEADLINE=

net_log() {
	printf 'net: %s\n' "$*" >&2
}

# Seconds left before the global deadline (at least 0).
net_remaining() {
	local left=$((NET_DEADLINE - $(date +%s)))
	[ "$left" -gt 0 ] || left=0
	echo "$left"
}

# The smaller of SECONDS and the time left before the global deadline.
net_bound() {
	local left
	left=$(net_remaining)
	[ "$1" -lt "$left" ] && echo "$1" || echo "$left"
}

# net_init WORK_DIR [GLOBAL_TIMEOUT]: a fresh, empty work directory (a
# previous network's state there is removed; any other non-empty
# directory is refused), the global deadline (default 600 s from now) and
# the EXIT trap that ends every process started. A caller with its own
# EXIT trap must call net_stop_all from it.
net_init() {
	NET_WORK=${1:?net_init: work directory}
	NET_DEADLINE=$(($(date +%s) + ${2:-600}))
	case $NET_WORK in /*) ;; *) NET_WORK=$PWD/$NET_WORK ;; esac
	if [ -d "$NET_WORK" ] && [ ! -f "$NET_WORK/dirauth.conf" ] &&
		[ -n "$(ls -A "$NET_WORK")" ]; then
		net_log "$NET_WORK holds files and no earlier network (no dirauth.conf): not clearing it"
		return 1
	fi
	rm -rf "$NET_WORK"
	mkdir -p "$NET_WORK"
	: >"$NET_WORK/dirauth.conf"
	: >"$NET_WORK/ports.used"
	trap net_stop_all EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

# Local TCP ports in use in any state, in decimal, one a line, from
# /proc/net/tcp{,6} (no dependency on ss or netstat).
net_ports_in_use() {
	local f
	for f in /proc/net/tcp /proc/net/tcp6; do
		[ -r "$f" ] || continue
		awk 'NR > 1 { split($2, a, ":"); print a[2] }' "$f"
	done | while read -r hex; do echo $((16#$hex)); done | sort -un
}

# net_port: prints one free loopback port below the kernel's ephemeral
# range (so that no outgoing connection takes it before tor binds it),
# never one this network handed out before. Free means no socket of any
# state uses it, and nothing accepts a connection on 127.0.0.1 there.
net_port() {
	local lo=10000 hi=32767 eph p
	eph=$(awk '{print $1}' /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
	[ "$eph" -gt $((lo + 1000)) ] && hi=$((eph - 1))
	for _ in $(seq 200); do
		p=$((lo + (RANDOM * 32768 + RANDOM) % (hi - lo)))
		grep -qx "$p" "$NET_WORK/ports.used" && continue
		net_ports_in_use | grep -qx "$p" && continue
		if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			continue
		fi
		echo "$p" >>"$NET_WORK/ports.used"
		echo "$p"
		return 0
	done
	net_log "no free loopback port found in $lo-$hi"
	return 1
}

# Lines common to every node's torrc. DataDirectory and the logs are the
# node's own; the authorities come from dirauth.conf, which every
# authority added appends to (so all authorities must be added before the
# first start). Authorities and relays log at notice, services and
# clients at info: the PoW lines (hs_pow.c, hs_cell.c) are info.
net_common_torrc() {
	local name=$1 dir=$2 level=$3
	cat <<EOF
# $name: written by tests/tor/net.sh
TestingTorNetwork 1
DataDirectory $dir
Nickname $name
Log notice file $dir/notice.log
$([ "$level" = notice ] || echo "Log $level file $dir/$level.log")
SafeLogging 0
ShutdownWaitLength 0
RunAsDaemon 0
ContactInfo $name@test.invalid
AssumeReachable 1
PathsNeededToBuildCircuits 0.25
TestingDirAuthVoteGuard *
TestingDirAuthVoteExit *
TestingDirAuthVoteHSDir *
TestingMinExitFlagThreshold 0
V3AuthNIntervalsValid 2
%include $NET_WORK/dirauth.conf
EOF
}

# Registers a node: its directory (mode 0700, as tor wants), its
# environment (VAR=VALUE words, one a line in DIR/env) and binary.
net_new_node() {
	local name=$1 role=$2 bin=$3 dir
	shift 3
	case $name in *[!A-Za-z0-9]*|"") net_log "node name '$name': letters and digits only (it is the tor Nickname)"; return 1 ;; esac
	[ -z "${NET_ROLE[$name]:-}" ] || { net_log "node $name added twice"; return 1; }
	[ -x "$bin" ] || { net_log "$name: tor binary $bin is not executable"; return 1; }
	dir=$NET_WORK/$name
	mkdir -p "$dir"
	chmod 700 "$dir"
	: >"$dir/env"
	[ $# -eq 0 ] || printf '%s\n' "$@" >"$dir/env"
	NET_ROLE[$name]=$role
	NET_DIR[$name]=$dir
	NET_BIN[$name]=$bin
	NET_NODES+=("$name")
}

net_torrc() {
	echo "${NET_DIR[$1]}/torrc"
}

# tor-gencert of the given tor build when it has one (a build tree's
# src/tools, or beside an installed tor), else the one on PATH.
net_gencert_for() {
	local d c
	d=$(dirname "$1")
	for c in "$d/../tools/tor-gencert" "$d/tor-gencert"; do
		[ -x "$c" ] && { echo "$c"; return; }
	done
	command -v tor-gencert
}

# net_add_authority NAME TOR_BIN [VAR=VALUE...]: an authority's keys (its
# v3 identity and signing key from tor-gencert, its relay identity from
# tor --list-fingerprint) and its DirAuthority line in dirauth.conf.
net_add_authority() {
	local name=$1 bin=$2 dir orp dirp v3 fp gencert
	shift 2
	net_new_node "$name" authority "$bin" "$@" || return 1
	dir=${NET_DIR[$name]}
	orp=$(net_port) && dirp=$(net_port) || return 1
	NET_OR[$name]=$orp
	NET_DIRPORT[$name]=$dirp
	mkdir -p "$dir/keys"
	gencert=$(net_gencert_for "$bin") || { net_log "no tor-gencert found"; return 1; }
	# An empty passphrase on fd 0; 12 months of validity.
	if ! echo "" | timeout 60 "$gencert" --create-identity-key --passphrase-fd 0 \
		-i "$dir/keys/authority_identity_key" -s "$dir/keys/authority_signing_key" \
		-c "$dir/keys/authority_certificate" -m 12 -a "127.0.0.1:$dirp" \
		>"$dir/gencert.log" 2>&1; then
		net_log "$name: tor-gencert failed:"; cat "$dir/gencert.log" >&2; return 1
	fi
	v3=$(awk '$1 == "fingerprint" { print $2 }' "$dir/keys/authority_certificate")
	# The relay identity key: made by tor itself, with a torrc of its own
	# (TestingTorNetwork would want the DirAuthority lines not yet there).
	if ! timeout 60 "$bin" --defaults-torrc /dev/null -f /dev/null --ignore-missing-torrc \
		--list-fingerprint --DataDirectory "$dir" --ORPort "127.0.0.1:$orp" \
		--Nickname "$name" --Log "err stderr" >"$dir/fingerprint.log" 2>&1; then
		net_log "$name: tor --list-fingerprint failed:"; cat "$dir/fingerprint.log" >&2; return 1
	fi
	fp=$(awk '{ print $2 }' "$dir/fingerprint")
	if [ -z "$v3" ] || [ -z "$fp" ]; then
		net_log "$name: no v3 identity ('$v3') or fingerprint ('$fp')"; return 1
	fi
	echo "DirAuthority $name orport=$orp no-v2 v3ident=$v3 127.0.0.1:$dirp $fp" \
		>>"$NET_WORK/dirauth.conf"
	{
		net_common_torrc "$name" "$dir" notice
		cat <<EOF
SocksPort 0
Address 127.0.0.1
ORPort 127.0.0.1:$orp
DirPort 127.0.0.1:$dirp
AuthoritativeDirectory 1
V3AuthoritativeDirectory 1
ExitPolicy reject *:*
# A consensus every 10 s; the first one as soon as that allows (vote and
# distribution delays well below half the interval).
TestingV3AuthInitialVotingInterval 10
TestingV3AuthInitialVoteDelay 2
TestingV3AuthInitialDistDelay 2
V3AuthVotingInterval 10
V3AuthVoteDelay 2
V3AuthDistDelay 2
EOF
	} >"$dir/torrc"
}

# net_add_relay NAME TOR_BIN [VAR=VALUE...]: a middle relay (and HSDir,
# introduction and rendezvous point), no exit.
net_add_relay() {
	local name=$1 bin=$2 orp
	shift 2
	net_new_node "$name" relay "$bin" "$@" || return 1
	orp=$(net_port) || return 1
	NET_OR[$name]=$orp
	{
		net_common_torrc "$name" "${NET_DIR[$name]}" notice
		cat <<EOF
SocksPort 0
Address 127.0.0.1
ORPort 127.0.0.1:$orp
ExitPolicy reject *:*
EOF
	} >"$(net_torrc "$name")"
}

# net_add_service NAME TOR_BIN TARGET_PORT [VAR=VALUE...]: an onion
# service with PoW defences on, whose port 80 leads to 127.0.0.1:TARGET_PORT.
net_add_service() {
	local name=$1 bin=$2 target=$3 ctl
	shift 3
	net_new_node "$name" service "$bin" "$@" || return 1
	ctl=$(net_port) || return 1
	NET_CTRL[$name]=$ctl
	{
		net_common_torrc "$name" "${NET_DIR[$name]}" info
		cat <<EOF
SocksPort 0
ControlPort 127.0.0.1:$ctl
CookieAuthentication 1
HiddenServiceDir ${NET_DIR[$name]}/hs
HiddenServicePort 80 127.0.0.1:$target
HiddenServicePoWDefensesEnabled 1
EOF
	} >"$(net_torrc "$name")"
}

# net_add_client NAME TOR_BIN [VAR=VALUE...]: a client with a SOCKS port
# (streams isolated by SOCKS user name, tor's default) and a control port
# (cookie authentication).
net_add_client() {
	local name=$1 bin=$2 socks ctl
	shift 2
	net_new_node "$name" client "$bin" "$@" || return 1
	socks=$(net_port) && ctl=$(net_port) || return 1
	NET_SOCKS[$name]=$socks
	NET_CTRL[$name]=$ctl
	{
		net_common_torrc "$name" "${NET_DIR[$name]}" info
		cat <<EOF
SocksPort 127.0.0.1:$socks
ControlPort 127.0.0.1:$ctl
CookieAuthentication 1
EOF
	} >"$(net_torrc "$name")"
}

net_socks_port() {
	echo "${NET_SOCKS[$1]}"
}

# The onion address a service wrote (after its start).
net_onion() {
	cat "${NET_DIR[$1]}/hs/hostname"
}

# net_spawn NAME LOG MARK CMD...: starts CMD in the background, output to
# LOG, recorded for net_stop_all under NAME. MARK is a string that the
# process's command line holds for its whole life (through any exec of a
# wrapper such as env): a PID whose command line lacks it is no longer
# ours, and is never signalled.
#
# It returns once the process runs its command (its command line holds
# MARK) or has ended, so that net_alive is true from then on while the
# process runs. Between the fork and the exec the child's command line is
# still this shell's, without the mark: read then, a process that is
# starting looked dead, and net_stop_all left it running.
net_spawn() {
	local name=$1 log=$2 mark=$3 end
	shift 3
	"$@" >"$log" 2>&1 </dev/null &
	NET_PID[$name]=$!
	NET_CMDMARK[$name]=$mark
	NET_PROCS+=("$name")
	end=$((SECONDS + 10))
	while net_starting "$name"; do
		if [ "$SECONDS" -gt "$end" ]; then
			net_log "$name (pid ${NET_PID[$name]}) has not run its command 10 s after the fork"
			return 1
		fi
		sleep 0.05
	done
}

# net_start NAME...: starts each node with its binary and environment;
# EQUIX_TEST_* knobs not in the node's own environment are removed, so a
# knob meant for one node never reaches another.
net_start() {
	local name envs
	for name in "$@"; do
		mapfile -t envs <"${NET_DIR[$name]}/env"
		net_spawn "$name" "${NET_DIR[$name]}/stdout.log" "$(net_torrc "$name")" \
			env -u EQUIX_TEST_TOR_SERVICE_EFFORT -u EQUIX_TEST_TOR_CLIENT_EFFORT \
			"${envs[@]}" "${NET_BIN[$name]}" --defaults-torrc /dev/null \
			-f "$(net_torrc "$name")" || return 1
	done
}

# net_proc NAME: what the process recorded under NAME is: "runs" (its
# command line holds its mark), "starting" (it exists without the mark:
# forked, not yet exec'd) or "gone" (no such process, or a zombie, exited
# but not yet reaped).
net_proc() {
	local pid=${NET_PID[$1]:-} cmd state
	[ -n "$pid" ] || { echo gone; return; }
	state=$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null) || { echo gone; return; }
	[ "$state" != Z ] || { echo gone; return; }
	cmd=$(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline") || { echo gone; return; }
	case $cmd in *"${NET_CMDMARK[$1]}"*) echo runs ;; *) echo starting ;; esac
}

# True while the process recorded under NAME runs its command.
net_alive() {
	[ "$(net_proc "$1")" = runs ]
}

net_starting() {
	[ "$(net_proc "$1")" = starting ]
}

# The last lines of a node's logs, for a failure message.
net_tail() {
	local name=$1 n=${2:-25} dir=${NET_DIR[$1]:-} f
	[ -n "$dir" ] || return 0
	for f in "$dir/stdout.log" "$dir/notice.log"; do
		[ -s "$f" ] || continue
		echo "---- $name: last $n lines of $f"
		tail -n "$n" "$f"
	done
}

# net_wait_for SECONDS NAME FILE PATTERN COUNT WHAT: waits until FILE of
# node NAME holds COUNT lines matching the extended regex PATTERN. Fails,
# saying it waited for WHAT, when the time is up or the node's process
# ended.
net_wait_for() {
	local secs=$1 name=$2 file=$3 pattern=$4 count=$5 what=$6 end n
	end=$(($(date +%s) + $(net_bound "$secs")))
	while :; do
		n=$(grep -cE -- "$pattern" "$file" 2>/dev/null || true)
		[ "${n:-0}" -ge "$count" ] && return 0
		if ! net_alive "$name"; then
			net_log "$name: its tor ended while waiting for $what"
			net_tail "$name" >&2
			return 1
		fi
		if [ "$(date +%s)" -ge "$end" ]; then
			net_log "$name: no $what after ${secs}s (or the global deadline)"
			net_tail "$name" >&2
			return 1
		fi
		sleep 0.5
	done
}

# net_wait_bootstrap SECONDS NAME...: each node's log says
# "Bootstrapped 100%" (for authorities see net_wait_consensus).
net_wait_bootstrap() {
	local secs=$1 name
	shift
	for name in "$@"; do
		net_wait_for "$secs" "$name" "${NET_DIR[$name]}/notice.log" \
			'Bootstrapped 100%' 1 '"Bootstrapped 100%"' || return 1
	done
}

# net_wait_consensus SECONDS AUTHORITY COUNT: the authority has published
# a consensus in which COUNT relays (authorities included) are Running.
# This is how an authority is waited for: in a network this small, an
# authority started before the relays may never reach "Bootstrapped 100%"
# as a client (its vanguard set, picked from the first consensus, holds
# only authorities), which does not hinder it as a directory or a relay.
net_wait_consensus() {
	local secs=$1 name=$2 count=$3
	net_wait_for "$secs" "$name" "${NET_DIR[$name]}/cached-consensus" \
		'^s .*Running' "$count" "consensus with $count running relays"
}

# net_wait_service SECONDS NAME...: each service has had its descriptors
# accepted by COUNT HSDirs (NET_HSDIR_UPLOADS, default 1; status 200
# answers in its info log).
net_wait_service() {
	local secs=$1 name
	shift
	for name in "$@"; do
		net_wait_for "$secs" "$name" "${NET_DIR[$name]}/info.log" \
			'Uploading hidden service descriptor: finished with status 200' \
			"${NET_HSDIR_UPLOADS:-1}" "descriptor uploads (${NET_HSDIR_UPLOADS:-1} accepted)" ||
			return 1
	done
}

# net_control NAME COMMAND...: sends each COMMAND on the node's control
# port after cookie authentication and prints the replies. Bounded by
# NET_CONTROL_TIMEOUT seconds (default 10).
net_control() {
	local name=$1 cookie talk
	shift
	cookie=$(od -An -tx1 "${NET_DIR[$name]}/control_auth_cookie" | tr -d ' \n')
	# The inner shell sends its input to the port and prints what comes
	# back until tor closes the connection (after QUIT).
	# shellcheck disable=SC2016 # $1 is the inner shell's argument
	talk='exec 3<>"/dev/tcp/127.0.0.1/$1"; cat <&0 >&3 & cat <&3'
	{
		printf 'AUTHENTICATE %s\r\n' "$cookie"
		printf '%s\r\n' "$@"
		printf 'QUIT\r\n'
	} | timeout "${NET_CONTROL_TIMEOUT:-10}" bash -c "$talk" _ "${NET_CTRL[$name]}"
}

# net_stop_all: every node with a control port is asked to halt there,
# then SIGTERM goes to every process still running what we started, and
# SIGKILL to whatever still runs 5 s later. Idempotent.
#
# Why the control port first: under Sandbox 1 a tor's main thread can
# have SIGTERM blocked. Tor's seccomp filter refuses rt_sigprocmask
# (SIG_BLOCK) with EPERM, glibc's pthread_create then restores "the old
# mask" it never got, stack garbage, with SIG_SETMASK (seen with Debian's
# tor 0.4.9.11 and glibc 2.36 as with a library build: strace shows the
# EPERM, /proc/PID/task/*/status a random SigBlk). SIGNAL HALT needs no
# Unix signal.
net_stop_all() {
	local name left end
	[ ${#NET_PROCS[@]} -gt 0 ] || return 0
	for name in "${NET_PROCS[@]}"; do
		if [ -n "${NET_CTRL[$name]:-}" ] && [ -s "${NET_DIR[$name]}/control_auth_cookie" ] &&
			net_alive "$name"; then
			NET_CONTROL_TIMEOUT=3 net_control "$name" "SIGNAL HALT" >/dev/null 2>&1 || true
		fi
	done
	for name in "${NET_PROCS[@]}"; do
		net_alive "$name" && kill -TERM "${NET_PID[$name]}" 2>/dev/null
	done
	end=$((SECONDS + 5))
	while [ "$SECONDS" -le "$end" ]; do
		left=0
		for name in "${NET_PROCS[@]}"; do
			net_alive "$name" && left=1
		done
		[ "$left" = 0 ] && break
		sleep 0.1
	done
	for name in "${NET_PROCS[@]}"; do
		if net_alive "$name"; then
			net_log "$name (pid ${NET_PID[$name]}) still runs 5 s after SIGTERM: SIGKILL"
			kill -KILL "${NET_PID[$name]}" 2>/dev/null
		fi
	done
	for name in "${NET_PROCS[@]}"; do
		wait "${NET_PID[$name]}" 2>/dev/null || true
	done
	NET_PROCS=()
}

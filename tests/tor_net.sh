#!/bin/bash
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# The process bookkeeping of tests/tor/net.sh, the loopback Tor network
# that scripts/test.sh --tor runs: a process is alive from the moment
# net_spawn returns until it ends, and net_stop_all ends what it started.
# No tor runs here; the processes are sleep.
#
# Why: net_alive recognises a process by its PID and a mark on its
# command line. Between the fork and the exec, the child's command line
# is still the calling shell's, without the mark; an interop run on a
# fresh machine once read the HTTP target as dead in that window ("the
# HTTP target ... does not serve the token", with an empty log).
# shellcheck source=shtest.sh
source "$(dirname "$0")/shtest.sh"
top=${TOP_SRCDIR:?TOP_SRCDIR must name the source tree}
# shellcheck source=tor/net.sh
source "$top/tests/tor/net.sh"

net_init "$tmp/net" 60 || exit 99
trap 'net_stop_all; rm -rf "$tmp"' EXIT
mark="$tmp/net/mark-$$"

# A command that takes its time before the exec, as a slow machine's
# fork, a wrapper script or an interpreter's start-up may.
late_exec() {
	sleep 0.5
	exec -a "late-$mark" sleep 30
}
net_spawn late "$tmp/late.log" "late-$mark" late_exec
if net_alive late; then
	pass "a process is alive as soon as net_spawn returns, before a late exec"
else
	fail "a process is alive as soon as net_spawn returns, before a late exec" \
		"net_alive says it is not"
fi

net_spawn gone "$tmp/gone.log" "gone-$mark" false
if net_alive gone; then
	fail "a command that exits at once is not alive" "net_alive says it is"
else
	pass "a command that exits at once is not alive"
fi

# The sleep would run 30 s; net_stop_all must end it with SIGTERM, not
# wait for it.
pid=${NET_PID[late]}
started=$SECONDS
net_stop_all
if kill -0 "$pid" 2>/dev/null; then
	fail "net_stop_all ends what net_spawn started" "pid $pid still runs"
elif [ $((SECONDS - started)) -gt 10 ]; then
	fail "net_stop_all ends what net_spawn started" \
		"it took $((SECONDS - started)) s: the process was waited for, not stopped"
else
	pass "net_stop_all ends what net_spawn started"
fi

finish

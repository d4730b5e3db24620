#!/usr/bin/env bash
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# scripts/test.sh --wasm: the JavaScript package and its demo (sourced by
# test.sh after setup.sh). Installs the toolchain (the native build's
# packages too: js/build.sh configures that build for the core's list of
# sources) and the npm packages (from the lock files, so the same versions
# every time), builds js/dist/equix.wasm and runs, each with TAP output:
#   1. the Node suite, through tests/js.sh as make check runs it;
#   2. the same suite in headless Chromium (js/test/browser/run.js);
#   3. the gate's tests (gate/test): its modules, its replay stores (the
#      memory store's heap among them, hence --expose-gc, as its npm test
#      has), its page in Chromium, and end to end two instances sharing a
#      real Redis behind Debian's nginx and Caddy running gate/deploy's
#      configurations, with Chromium visiting through each (the page's
#      screenshots, gate-desktop.png and gate-phone.png, go to build/wasm);
#   4. the demo's tests (examples/web/test), on the gate's stores: two
#      server processes sharing a real Redis, and the page end to end in
#      Chromium;
#   5. js/build.sh in a clone configured in its own directory, as the top
#      README builds the library (js/test/build_in_tree.sh, about 100 s:
#      two autoreconf and configure runs and the core).
# Ends with "N passed, N failed, N skipped" over the five; fails if any
# suite fails or reports no tests.

# The counts of a TAP log: node --test's closing "# pass N" and the rest.
equix_wasm_counts() {
	local log=$1 key
	for key in pass fail skipped; do
		sed -n "s/^# $key \([0-9]*\)$/\1/p" "$log" | tail -n 1 | grep . || echo 0
	done
}

equix_wasm_suite() {
	local name=$1 log=$2
	shift 2
	local start=$SECONDS rc=0 p f s
	echo "== $name"
	"$@" >"$log" 2>&1 || rc=$?
	cat "$log"
	read -r p f s <<<"$(equix_wasm_counts "$log" | tr '\n' ' ')"
	echo "== $name: $p passed, $f failed, $s skipped, status $rc, $((SECONDS - start)) s"
	wasm_passed=$((wasm_passed + p))
	wasm_failed=$((wasm_failed + f))
	wasm_skipped=$((wasm_skipped + s))
	if [ "$rc" != 0 ] || [ "$((p + f))" = 0 ]; then
		wasm_status=1
		[ "$f" != 0 ] || wasm_failed=$((wasm_failed + 1))
	fi
}

equix_wasm_test() {
	local logs=$EQUIX_SRC/build/wasm
	wasm_passed=0 wasm_failed=0 wasm_skipped=0 wasm_status=0
	# js/build.sh configures a tree of the native build for the core's
	# source list and config.h (js/Makefile.inc): the native packages too.
	equix_install_packages
	equix_install_wasm_packages
	mkdir -p "$logs"
	(cd "$EQUIX_SRC/js" && ./build.sh)
	(cd "$EQUIX_SRC/js" && npm ci --no-audit --no-fund --loglevel=error)
	(cd "$EQUIX_SRC/gate" && npm ci --no-audit --no-fund --loglevel=error)
	(cd "$EQUIX_SRC/examples/web" && npm ci --no-audit --no-fund --loglevel=error)
	equix_wasm_suite "Node suite (tests/js.sh)" "$logs/node.log" \
		env TOP_SRCDIR="$EQUIX_SRC" sh "$EQUIX_SRC/tests/js.sh"
	equix_wasm_suite "Chromium suite (js/test/browser/run.js)" "$logs/browser.log" \
		node "$EQUIX_SRC/js/test/browser/run.js" --screenshot "$logs/browser.png"
	equix_wasm_suite "gate (gate/test)" "$logs/gate.log" \
		env GATE_SCREENSHOTS="$logs" sh -c 'cd "$1/gate" && node --expose-gc --test --test-reporter=tap test/*.test.js' sh "$EQUIX_SRC"
	equix_wasm_suite "demo (examples/web/test)" "$logs/demo.log" \
		sh -c 'cd "$1/examples/web" && node --expose-gc --test --test-reporter=tap test/*.test.js' sh "$EQUIX_SRC"
	equix_wasm_suite "js/build.sh after an in-tree build (js/test/build_in_tree.sh)" \
		"$logs/build_in_tree.log" sh "$EQUIX_SRC/js/test/build_in_tree.sh"
	echo "$wasm_passed passed, $wasm_failed failed, $wasm_skipped skipped"
	return "$wasm_status"
}

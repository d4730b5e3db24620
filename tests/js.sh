#!/bin/sh
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# The JavaScript package's Node suite (js/test/*.test.js: every vector
# file through the WebAssembly core, compiled and interpreted, and Tor's
# PoW client in workers), as part of make check where it can run: it needs
# Node.js 20 or later and the core, js/dist/equix.wasm, which js/build.sh
# builds (scripts/test.sh --wasm installs the toolchain, builds it and runs
# this suite and the browser one). Without either it reports itself
# skipped, saying which is missing. Node's results are counted into
# Check's summary line, its skipped tests as SKIP lines.
top=${TOP_SRCDIR:?TOP_SRCDIR must name the source tree}
if [ -n "${EQUIX_TEST_WRAPPER:-}" ] || [ -n "${TEST_RUNNER:-}" ]; then
	echo "SKIP: the package's suite runs in Node, not under the emulator or valgrind"
	exit 77
fi
if ! command -v node >/dev/null 2>&1; then
	echo "SKIP: node not found (the package's suite needs Node.js 20 or later)"
	exit 77
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 20 ]; then
	echo "SKIP: node $(node --version) is older than the package's Node 20"
	exit 77
fi
if [ ! -f "$top/js/dist/equix.wasm" ]; then
	echo "SKIP: js/dist/equix.wasm is not built (js/build.sh, or scripts/test.sh --wasm, builds it)"
	exit 77
fi
log=$(mktemp) || exit 99
trap 'rm -f "$log"' EXIT
(cd "$top/js" && node --test --test-reporter=tap test/*.test.js) >"$log" 2>&1
rc=$?
cat "$log"
# Node's TAP: "# pass N", "# fail N", "# skipped N", and each skipped
# test's line ends "# SKIP reason".
count() { sed -n "s/^# $1 \([0-9]*\)$/\1/p" "$log" | tail -n 1; }
passed=$(count pass)
failed=$(count fail)
cancelled=$(count cancelled)
sed -n 's/^ok [0-9]* - \(.*\) # SKIP\(.*\)$/SKIP: \1 (\2)/p' "$log"
checks=$((${passed:-0} + ${failed:-0} + ${cancelled:-0}))
if [ "$checks" = 0 ]; then
	echo "FAIL: the suite reported no tests"
	exit 1
fi
bad=$((${failed:-0} + ${cancelled:-0}))
echo "$(((checks - bad) * 100 / checks))%: Checks: $checks, Failures: $bad, Errors: 0"
[ "$rc" = 0 ] && [ "$bad" = 0 ]

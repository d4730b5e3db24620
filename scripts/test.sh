#!/usr/bin/env bash
# Builds everything with warnings as errors and runs the whole test suite
# (make check), then make distcheck (the release tarball builds and passes
# its tests on its own). Ends with one summary line over all Check suites.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

equix_setup "$EQUIX_SRC/build/test" --enable-werror
jobs=$(equix_jobs)
make -s -j"$jobs"

status=0
make -j"$jobs" check || status=$?
# Show every suite's report (the harness keeps them in .log files).
for log in tests/*.log; do
	[ "$log" = tests/test-suite.log ] && continue
	[ -f "$log" ] && sed -n '/^Running suite/,$p' "$log" | grep -v '^PASS\|^FAIL\|^SKIP\|^ERROR' || true
done
[ $status -eq 0 ] || { cat tests/test-suite.log 2>/dev/null || true; echo "make check failed"; exit $status; }

if [ "${EQUIX_SKIP_DISTCHECK:-0}" != 1 ]; then
	make -s -j"$jobs" distcheck DISTCHECK_CONFIGURE_FLAGS=--enable-werror >distcheck.log 2>&1 ||
		{ tail -50 distcheck.log; echo "make distcheck failed"; exit 1; }
	echo "make distcheck: passed"
fi

# One line over all suites: Check's own counts, plus the programs the
# harness skipped (a path this machine cannot run).
awk '/^[0-9]+%: Checks: /{gsub(",", ""); c += $3; f += $5; e += $7}
     END {printf "%d passed, %d failed", c - f - e, f + e}' tests/*.log
skipped=$(cat tests/*.trs 2>/dev/null | grep -c '^:test-result: SKIP' || true)
echo ", $skipped skipped"

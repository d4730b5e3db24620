#!/usr/bin/env bash
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# Builds everything with warnings as errors and runs the whole test suite
# (make check), then, natively, make doc (the API reference builds with
# every public name documented and no Doxygen warning) and make distcheck
# (the release tarball builds, installs, and passes its tests and an
# installed-client check on its own). Ends with one line:
# "N passed, N failed, N skipped".
#
#   scripts/test.sh            native build and tests, API reference,
#                              then distcheck
#   scripts/test.sh --aarch64  cross build for 64-bit ARM, tests under
#                              qemu-user (installs the cross toolchain)
#   scripts/test.sh --no-jit   native build without the HashX compiler
#                              (./configure --disable-jit), as on a CPU
#                              the JITs do not cover: the interpreter alone
#   scripts/test.sh --sanitizers  native build with AddressSanitizer and
#                              UndefinedBehaviorSanitizer; any report fails
#                              make check. Configured --enable-code-alias:
#                              the one stage that tests the opt-in aliased
#                              code buffers (every other builds the
#                              default, strict W^X)
#   scripts/test.sh --valgrind native build; the suite under valgrind
#                              memcheck (make check-valgrind): any memory
#                              error or definite leak fails the test. A
#                              sample: every program runs, but loops over
#                              many like items (vector lines, random
#                              iterations) run item 0 and every 20th, as
#                              their "SAMPLE:" lines say (the rule: above
#                              check-valgrind in tests/Makefile.am)
#   scripts/test.sh --instructions  native build; make bench-instructions:
#                              instructions per operation counted by
#                              callgrind against bench/instructions.baseline
#                              (more than 2% growth fails); no test suite
#   scripts/test.sh --tsan     native build with ThreadSanitizer; runs
#                              what starts threads: test_concurrency, the
#                              Check cases tagged "threads" of test_equix,
#                              test_pow, test_pow_faults and test_compiler,
#                              and cli.sh; names as in tests/Makefile.am
#                              (EQUIX_TSAN_TESTS overrides the list; Check
#                              programs still run only those cases); any
#                              report fails its test (TSAN_OPTIONS from
#                              tests/Makefile.am)
#   scripts/test.sh --abi      native build with debug information
#                              (CFLAGS='-g -Og'); make abi-check: the
#                              shared libraries' ABI against the dumps
#                              committed in tests/abi/ (doc/abi.md)
#   scripts/test.sh --abi-dump the same build; make abi-dump: writes those
#                              dumps anew (after a release's additions)
#   scripts/test.sh --fuzz     builds the libFuzzer harnesses with clang and
#                              runs each for EQUIX_FUZZ_SECONDS (default 20,
#                              a smoke run; make fuzz defaults to 600)
#   scripts/test.sh --wasm     the JavaScript package (js/): installs its
#                              toolchain (apt) and npm packages, builds
#                              js/dist/equix.wasm, runs the Node suite
#                              (tests/js.sh, as make check does), the same
#                              suite in headless Chromium, the gate's
#                              tests (gate: stores on Redis, ...), the
#                              demo's (examples/web: two servers sharing
#                              Redis, the page end to end), and
#                              js/build.sh in a clone configured in its
#                              own directory (js/test/build_in_tree.sh)
#   scripts/test.sh --tor      Tor itself on this library (scripts/tor.sh):
#                              Debian's tor source package with
#                              contrib/tor's series, its configure's
#                              refusals (a library below the version
#                              floor, the option without --enable-gpl),
#                              built against the
#                              library as this tree installs it, Tor's
#                              whole unit and slow suites, and the
#                              loopback network's interop matrix against
#                              Debian's own tor (tests/tor/interop.sh)
#   scripts/test.sh --package  builds the Debian packages (debian/) from a
#                              copy of the tree, runs lintian on them and
#                              builds and runs clients against them,
#                              unpacked into build/package/root/
#                              (scripts/package.sh)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

cross=
check_args=()
case "${1:-}" in
"") ;;
--aarch64) cross=aarch64 ;;
--no-jit) nojit=1 ;;
--sanitizers) sanitizers=1 ;;
--valgrind) valgrind=1 ;;
--instructions) instructions=1 ;;
--tsan) tsan=1 ;;
--fuzz) fuzz=1 ;;
--package) package=1 ;;
--wasm) wasm=1 ;;
--tor) tor=1 ;;
--abi) abi=check ;;
--abi-dump) abi=dump ;;
*) echo "usage: scripts/test.sh [--aarch64 | --no-jit | --sanitizers | --valgrind | --instructions | --tsan | --fuzz | --abi | --abi-dump | --package | --wasm | --tor]" >&2; exit 2 ;;
esac

# Counts over all test programs: a Check program contributes its checks,
# any other program (shell tests) counts as one test by its harness result.
# A program skipped as a whole (exit 77) counts as one skipped test; one
# that ran reports each test case it left out as a line "SKIP: NAME ...".
summarize() {
	local passed=0 failed=0 skipped=0 trs log result counts c f e
	for trs in tests/*.trs; do
		[ -f "$trs" ] || continue
		log=${trs%.trs}.log
		result=$(sed -n 's/^:test-result: //p' "$trs" | head -n 1)
		counts=$(sed -n 's/^[0-9]*%: Checks: \([0-9]*\), Failures: \([0-9]*\), Errors: \([0-9]*\).*/\1 \2 \3/p' "$log" | tail -n 1)
		if [ -n "$counts" ]; then
			read -r c f e <<<"$counts"
			passed=$((passed + c - f - e))
			failed=$((failed + f + e))
		elif [ "$result" = PASS ]; then
			passed=$((passed + 1))
		elif [ "$result" = SKIP ]; then
			skipped=$((skipped + 1))
		else
			failed=$((failed + 1))
		fi
		if [ "$result" != SKIP ]; then
			skipped=$((skipped + $(grep -c '^SKIP: ' "$log" || true)))
		fi
		# A program that crashed before Check reported still fails.
		if [ -n "$counts" ] && [ "$result" != PASS ] && [ "$f" = 0 ] && [ "$e" = 0 ]; then
			failed=$((failed + 1))
		fi
	done
	echo "$passed passed, $failed failed, $skipped skipped"
}

# The JavaScript package: no autotools build; each suite prints its own
# results, and the counts are summed from their summary lines.
if [ "${wasm:-0}" = 1 ]; then
	source "$EQUIX_SRC/scripts/wasm.sh"
	equix_wasm_test
	exit
fi

if [ "${tor:-0}" = 1 ]; then
	source "$EQUIX_SRC/scripts/tor.sh"
	equix_tor_test
	exit
fi

if [ "${package:-0}" = 1 ]; then
	source "$EQUIX_SRC/scripts/package.sh"
	equix_package_test
	exit
fi

# The ABI: only the libraries are built (no tests), then compared or
# dumped; no test counts.
if [ -n "${abi:-}" ]; then
	equix_install_abi_packages
	equix_setup "$EQUIX_SRC/build/abi" CFLAGS="-g -Og" --enable-werror \
		--disable-static --without-check
	make -s -j"$(equix_jobs)"
	exec make -s "abi-$abi"
fi

# Instruction counts: the libraries and the driver only (no tests: the
# suite runs in the other stages), then the comparison; its table is the
# output, its status the verdict. Valgrind also brings callgrind.h, which
# configure must see to build the driver.
if [ "${instructions:-0}" = 1 ]; then
	equix_install_valgrind_packages
	equix_setup "$EQUIX_SRC/build/instructions" --enable-werror
	make -s -j"$(equix_jobs)"
	exec make -s bench-instructions
fi

if [ "${fuzz:-0}" = 1 ]; then
	equix_install_fuzz_packages
	equix_setup "$EQUIX_SRC/build/fuzz" CC=clang --enable-fuzzing --enable-werror \
		--disable-shared --without-check
	make -s -j"$(equix_jobs)"
	exec make -s fuzz FUZZ_SECONDS="${EQUIX_FUZZ_SECONDS:-20}"
fi

check_target=check
if [ "${valgrind:-0}" = 1 ]; then
	equix_install_valgrind_packages
	equix_setup "$EQUIX_SRC/build/valgrind" --enable-werror
	check_target=check-valgrind
	EQUIX_SKIP_DISTCHECK=1
elif [ "${nojit:-0}" = 1 ]; then
	equix_setup "$EQUIX_SRC/build/nojit" --disable-jit --enable-werror
	EQUIX_SKIP_DISTCHECK=1
elif [ "${sanitizers:-0}" = 1 ]; then
	equix_setup "$EQUIX_SRC/build/sanitizers" --enable-sanitizers \
		--enable-code-alias --enable-werror
	EQUIX_SKIP_DISTCHECK=1
elif [ "${tsan:-0}" = 1 ]; then
	equix_install_tsan_packages
	equix_setup "$EQUIX_SRC/build/tsan" --enable-sanitizers=thread \
		--enable-werror
	# TSan can only find a race where threads run, and the whole suite
	# takes over ten minutes under it: only what starts threads runs
	# (the rest runs under --sanitizers), with room for TSan's slowdown.
	tsan_tests="test_concurrency test_equix test_pow"
	tsan_tests+=" test_pow_faults test_compiler cli.sh"
	check_args=(TESTS="${EQUIX_TSAN_TESTS:-$tsan_tests}")
	export CK_INCLUDE_TAGS=threads CK_TIMEOUT_MULTIPLIER=4
	EQUIX_SKIP_DISTCHECK=1
elif [ -n "$cross" ]; then
	equix_install_cross_packages
	export PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig
	equix_setup "$EQUIX_SRC/build/aarch64" --host=aarch64-linux-gnu --enable-werror
	EQUIX_SKIP_DISTCHECK=1
else
	equix_install_doc_packages
	equix_setup "$EQUIX_SRC/build/test" --enable-werror
	EQUIX_MAKE_DOC=1
fi
jobs=$(equix_jobs)
make -s -j"$jobs"

status=0
# A run of some tests only: no stale results of the others in the counts.
if [ ${#check_args[@]} -gt 0 ]; then
	rm -f tests/*.log tests/*.trs
fi
make -j"$jobs" "$check_target" "${check_args[@]}" || status=$?
# Every suite's own report (the harness keeps them in .log files), with
# what it left out and, under valgrind, what it sampled.
for log in tests/*.log; do
	[ "$log" = tests/test-suite.log ] && continue
	grep -E '^(SKIP|SAMPLE): ' "$log" || true
	sed -n '/^Running suite/,/^[0-9]*%: Checks/p' "$log"
done
if [ $status -ne 0 ]; then
	cat tests/test-suite.log 2>/dev/null || true
	echo "make check failed"
	summarize
	exit $status
fi

if [ "${EQUIX_MAKE_DOC:-0}" = 1 ]; then
	if make -s doc >doc.log 2>&1; then
		echo "make doc: passed (build/test/doc/api/index.html)"
	else
		cat doc.log
		echo "make doc failed"
		summarize
		exit 1
	fi
fi

if [ "${EQUIX_SKIP_DISTCHECK:-0}" != 1 ]; then
	if make -s -j"$jobs" distcheck DISTCHECK_CONFIGURE_FLAGS=--enable-werror >distcheck.log 2>&1; then
		echo "make distcheck: passed (log: build/test/distcheck.log)"
	else
		tail -n 50 distcheck.log
		echo "make distcheck failed"
		summarize
		exit 1
	fi
fi
summarize

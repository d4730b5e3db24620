#!/usr/bin/env bash
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# Shared set-up for build.sh and test.sh: install what is missing (Debian,
# as root), generate the build system, configure an out-of-tree build.
#
#   source scripts/setup.sh; equix_setup BUILD_DIR [CONFIGURE_ARGS...]
#
# Leaves the shell in BUILD_DIR. Safe to run again: each step is skipped
# when its result is already there.
set -euo pipefail

EQUIX_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Debian packages the build and the tests need: python3 parses the
# commands' --json lines in tests/cli.sh, zsh and fish load the
# completions in tests/completions.sh (each skipped where it is missing,
# so that CI, which has them, is where they are tested).
EQUIX_PACKAGES=(gcc make autoconf autoconf-archive automake libtool pkg-config libsodium-dev libjansson-dev check python3 zsh fish)

# Installs the Debian packages named as arguments that are missing (as
# root), after running the optional command in $EQUIX_APT_PREPARE.
equix_install() {
	local missing=() p
	if ! command -v dpkg-query >/dev/null 2>&1; then
		echo "setup: not a Debian system; assuming $* (or equivalents) are installed" >&2
		return 0
	fi
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		echo "setup: missing Debian packages: ${missing[*]}" >&2
		echo "setup: run as root, or install them with apt-get${EQUIX_APT_PREPARE:+ (after: $EQUIX_APT_PREPARE)}" >&2
		exit 1
	fi
	echo "setup: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	[ -z "${EQUIX_APT_PREPARE:-}" ] || eval "$EQUIX_APT_PREPARE"
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

equix_install_packages() {
	equix_install "${EQUIX_PACKAGES[@]}"
}

# The API reference (make doc), which test.sh builds natively, and the C++
# and CMake clients of installcheck, which its distcheck runs.
EQUIX_DOC_PACKAGES=(doxygen g++ cmake)

equix_install_doc_packages() {
	equix_install "${EQUIX_DOC_PACKAGES[@]}"
}

# The libFuzzer harnesses (test.sh --fuzz): clang and its runtime
# libraries (libFuzzer, ASan, UBSan).
EQUIX_FUZZ_PACKAGES=(clang libclang-rt-14-dev)

equix_install_fuzz_packages() {
	equix_install "${EQUIX_FUZZ_PACKAGES[@]}"
}

# The suite under valgrind memcheck (test.sh --valgrind).
EQUIX_VALGRIND_PACKAGES=(valgrind)

equix_install_valgrind_packages() {
	equix_install "${EQUIX_VALGRIND_PACKAGES[@]}"
}

# The ABI check (test.sh --abi, make abi-check): abi-dumper reads the
# libraries' debug information, abi-compliance-checker compares dumps.
EQUIX_ABI_PACKAGES=(abi-dumper abi-compliance-checker)

equix_install_abi_packages() {
	equix_install "${EQUIX_ABI_PACKAGES[@]}"
}

# The ThreadSanitizer build (test.sh --tsan): gcc's TSan runtime. Debian
# 12's gcc already depends on it; named so that a missing one is installed
# rather than failing configure's link check.
EQUIX_TSAN_PACKAGES=(libtsan2)

equix_install_tsan_packages() {
	equix_install "${EQUIX_TSAN_PACKAGES[@]}"
}

# The aarch64 cross build: Debian's cross compiler, the arm64 builds of the
# libraries (multiarch), and qemu-user to run the tests.
EQUIX_CROSS_PACKAGES=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
	libsodium-dev:arm64 libjansson-dev:arm64 check:arm64)

equix_install_cross_packages() {
	EQUIX_APT_PREPARE='dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64' \
		equix_install "${EQUIX_CROSS_PACKAGES[@]}"
}

# The JavaScript package (test.sh --wasm): js/build.sh's toolchain (clang
# and lld for wasm32 with wasi-libc and its builtins; dpkg-dev and the
# autotools to build libsodium from Debian's source package; the core's
# source list comes from a configured native build, EQUIX_PACKAGES, which
# scripts/wasm.sh installs first), wabt for a
# second validator of the JIT's modules, Chromium for the browser suites,
# Redis for the demo's shared replay store. Node.js 20 comes with the
# machine (Debian 12's nodejs is 18); npm packages come from the lock
# files.
EQUIX_WASM_PACKAGES=(clang-14 lld-14 llvm-14 wasi-libc libclang-rt-14-dev-wasm32
	dpkg-dev autoconf automake libtool make wabt chromium redis-server)

# The gate's end-to-end tests (gate/test/e2e.test.js) run Debian's nginx
# and Caddy in front of it, each started by the test in a directory of
# its own.
EQUIX_GATE_PACKAGES=(nginx caddy)

# Installs the gate's proxies without letting their postinst start the
# system's nginx and caddy (which would take ports 80 and 443 and run
# until the machine stops): invoke-rc.d asks /usr/sbin/policy-rc.d, and
# exit status 101 means "not now". A policy that was already there (as in
# many container images) is left as it was.
equix_install_gate_packages() {
	local policy=/usr/sbin/policy-rc.d placed=0 p missing=0
	for p in "${EQUIX_GATE_PACKAGES[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing=1
	done
	[ "$missing" = 1 ] || return 0
	if [ "$(id -u)" -eq 0 ] && [ ! -e "$policy" ]; then
		printf '#!/bin/sh\nexit 101\n' >"$policy"
		chmod +x "$policy"
		placed=1
	fi
	local rc=0
	equix_install "${EQUIX_GATE_PACKAGES[@]}" || rc=$?
	[ "$placed" = 0 ] || rm -f "$policy"
	return "$rc"
}

equix_install_wasm_packages() {
	equix_install "${EQUIX_WASM_PACKAGES[@]}"
	equix_install_gate_packages
	if ! command -v node >/dev/null 2>&1; then
		equix_install nodejs npm
	fi
	# The package uses Node 20's APIs (import.meta.resolve, the test
	# runner's reporters); say so rather than fail somewhere inside.
	if ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)'; then
		echo "scripts/test.sh --wasm: needs Node.js 20 or later, found $(node --version) (Debian 12's nodejs is 18)" >&2
		return 1
	fi
}

equix_setup() {
	local build_dir=$1
	shift
	equix_install_packages
	cd "$EQUIX_SRC"
	if [ ! -x configure ] || [ configure.ac -nt configure ]; then
		echo "setup: generating the build system (autoreconf)"
		autoreconf -fi >/dev/null
	fi
	mkdir -p "$build_dir"
	cd "$build_dir"
	# Reconfigure when the options or configure itself changed.
	local stamp="configure-args: $*"
	if [ ! -f Makefile ] || [ ! -f .configure-args ] ||
		[ "$(cat .configure-args)" != "$stamp" ] ||
		[ "$EQUIX_SRC/configure" -nt config.status ]; then
		"$EQUIX_SRC/configure" -q "$@"
		echo "$stamp" >.configure-args
	fi
}

equix_jobs() {
	nproc 2>/dev/null || echo 2
}

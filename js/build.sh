#!/bin/sh
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
#
# build.sh - builds dist/equix.wasm, the package's core: this repository's
# HashX generator and interpreter, Equi-X solver and verifier and the PoW
# v1 puzzle, compiled for wasm32-wasi with Debian's clang-14, lld-14 and
# wasi-libc, linked with libsodium (for BLAKE2b) built for wasm32 from
# Debian's own source package.
#
# Needs (Debian packages): clang-14 lld-14 llvm-14 wasi-libc
# libclang-rt-14-dev-wasm32, and for libsodium: dpkg-dev autoconf automake
# libtool make. README.md says why this toolchain and this BLAKE2b.
#
# Environment:
#   LIBSODIUM_SRC  an unpacked libsodium source tree to use instead of
#                  fetching Debian's with apt-get source (offline builds).
#   JOBS           make's parallelism for libsodium (default 2).
#   CFLAGS_OPT     optimization flags for the core (default -O2).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
build=$here/build
dist=$here/dist
CC=${CC:-clang-14}
AR=${AR:-llvm-ar-14}
RANLIB=${RANLIB:-llvm-ranlib-14}
NM=${NM:-llvm-nm-14}
JOBS=${JOBS:-2}
CFLAGS_OPT=${CFLAGS_OPT:--O2}

# WASI headers only: without -nostdlibinc clang would also search the
# host's /usr/include after /usr/include/wasm32-wasi, and a host header
# (sodium.h, for one) would silently stand in for a missing wasm one.
TARGET="--target=wasm32-wasi -nostdlibinc -isystem /usr/include/wasm32-wasi"

mkdir -p "$build" "$dist"

# ---- libsodium for wasm32 ------------------------------------------------
# Debian's source package, with Debian's patches applied, built by its own
# configure as a static library. Only BLAKE2b (crypto_generichash) and
# sodium_init are reached from the core; the linker's --gc-sections drops
# the rest. --enable-minimal keeps the build short.
sodium=$build/sodium
fetch_libsodium() {
	# apt-get source needs deb-src entries, which a default Debian
	# system lacks; rather than edit /etc/apt, use a private apt state
	# under build/apt whose only source is the system's own release.
	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:?}")
	apt=$build/apt
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/src"
	echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $codename main" \
		>"$apt/sources.list"
	set -- -o Dir::Etc::SourceList="$apt/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache"
	apt-get "$@" update >"$apt/update.log"
	# Fetches the .dsc and tarballs (checked against the signed index)
	# and unpacks them with Debian's patches.
	(cd "$apt/src" && apt-get "$@" source libsodium >"$apt/source.log" 2>&1)
	LIBSODIUM_SRC=$(find "$apt/src" -mindepth 1 -maxdepth 1 -type d \
		-name 'libsodium-*' | head -n 1)
	[ -n "$LIBSODIUM_SRC" ] || { echo "build.sh: apt-get source libsodium gave no tree" >&2; exit 1; }
}
if [ ! -f "$sodium/lib/libsodium.a" ]; then
	[ -n "${LIBSODIUM_SRC:-}" ] || fetch_libsodium
	echo "build.sh: libsodium from $LIBSODIUM_SRC"
	# Debian's tarball carries no configure script (debian/rules runs
	# autoreconf); make one the same way.
	[ -x "$LIBSODIUM_SRC/configure" ] ||
		(cd "$LIBSODIUM_SRC" && autoreconf -fi >/dev/null 2>&1)
	rm -rf "$build/sodium-obj"
	mkdir -p "$build/sodium-obj"
	# _WASI_EMULATED_SIGNAL: utils.c includes <signal.h> for its guarded
	# allocator (sodium_malloc), which the core never calls.
	(cd "$build/sodium-obj" &&
		CC=$CC AR=$AR RANLIB=$RANLIB NM=$NM \
		CFLAGS="$TARGET -D_WASI_EMULATED_SIGNAL -O2" \
		"$LIBSODIUM_SRC/configure" --host=wasm32-wasi --enable-minimal \
		--disable-ssp --disable-shared --without-pthreads \
		--prefix="$sodium" >configure.log 2>&1 &&
		make -j"$JOBS" -C src install >make.log 2>&1) || {
		echo "build.sh: libsodium failed, see $build/sodium-obj/*.log" >&2
		exit 1
	}
fi

# ---- Generated headers ---------------------------------------------------
# What configure would substitute, for the package's one configuration:
# standard HashX (32-byte output, salt "HashX v1", as Tor uses) and the
# release named in configure.ac.
gen=$build/include
mkdir -p "$gen"
version=$(sed -n 's/^AC_INIT(\[equix\], \[\([^]]*\)\].*/\1/p' "$top/configure.ac")
[ -n "$version" ] || { echo "build.sh: no version in configure.ac" >&2; exit 1; }
major=${version%%.*}
minor=${version#*.}
minor=${minor%%.*}
patch=${version##*.}
sed -e 's/@HASHX_SIZE@/32/' -e 's/@HASHX_SALT_STRING@/HashX v1/' \
	-e 's/@HASHX_SALT_IS_STANDARD@/1/' \
	"$top/include/hashx.h.in" >"$gen/hashx.h"
sed -e "s/@EQUIX_VERSION_MAJOR@/$major/" -e "s/@EQUIX_VERSION_MINOR@/$minor/" \
	-e "s/@EQUIX_VERSION_PATCH@/$patch/" -e "s/@PACKAGE_VERSION@/$version/" \
	"$top/include/equix_version.h.in" >"$gen/equix_version.h"
# config.h as configure would write it for a system without mmap, with the
# WebAssembly code generator (src/compiler/wasm.c, HASHX_JIT_WASM) as the
# compiler: no HAVE_MMAP/HAVE_MPROTECT (solver memory and code buffers
# come from malloc; a "code buffer" holds a module that js/src/jit.js
# compiles and installs in the function table).
cat >"$gen/config.h" <<EOF
/* Generated by js/build.sh for the wasm32 core. */
#define CONFIGURED_HASHX_SIZE 32
#define HASHX_SALT "HashX v1"
#define PACKAGE_VERSION "$version"
#define HASHX_JIT_WASM 1
EOF

# ---- The sources ---------------------------------------------------------
# The autotools build's own lists (src/*/Makefile.inc), so that a file
# added there is built here too: libhashx-core's sources with the
# WebAssembly generator in place of the x86-64, A64 and none.c ones,
# and libequix's. Of src/pow only the puzzle (challenge.c) and the result
# names are needed so far; the rest (threads, the service, the queue)
# stays native.
sources=$(
	grep -o 'src/hashx/[a-z0-9_]*\.c' "$top/src/hashx/Makefile.inc" |
		grep -v '/test_hooks\.c$'
	grep -o 'src/compiler/[a-z0-9_]*\.c' "$top/src/compiler/Makefile.inc" |
		grep -v -e '/x86_64' -e '/aarch64\.c$' -e '/none\.c$'
	grep -o 'src/equix/[a-z0-9_]*\.c' "$top/src/equix/Makefile.inc"
	echo src/pow/challenge.c src/pow/result.c src/pow/extension.c \
		src/pow/descriptor.c
)

# The warnings configure uses (WARN_CFLAGS), as errors: a warning that
# only this target shows is worth stopping for.
WARN="-Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes ${WERROR--Werror}"
CPPFLAGS="-I$gen -I$top/include -I$top/src/hashx -I$top/src/compiler -I$sodium/include"
obj=$build/obj
rm -rf "$obj"
mkdir -p "$obj"
objs=
# Every C file of js/src is part of the ABI the JavaScript calls.
for src in $sources $(cd "$top" && ls js/src/*.c); do
	o=$obj/$(echo "$src" | tr / _ | sed 's/\.c$/.o/')
	# shellcheck disable=SC2086
	$CC $TARGET -std=c11 $CFLAGS_OPT -fvisibility=hidden $WARN $CPPFLAGS \
		-c "$top/$src" -o "$o"
	objs="$objs $o"
done

# ---- Link ----------------------------------------------------------------
# A WASI reactor: no main, _initialize runs the C constructors and the
# exports (core.c's export_name attributes) are the only entry points.
# --stack-first puts the stack below the data, so that an overflow traps
# instead of writing over static data. compiler-rt's wasm32 builtins
# (clang adds them) supply __multi3 for the interpreter's 128-bit
# products. The function table is exported and growable: js/src/jit.js
# adds each compiled HashX module's function to it (wasm_host.h).
# shellcheck disable=SC2086
$CC $TARGET -mexec-model=reactor $objs "$sodium/lib/libsodium.a" \
	-Wl,--gc-sections -Wl,--stack-first -Wl,--export-table \
	-Wl,--growable-table -Wl,-z,stack-size=262144 \
	-Wl,--strip-debug -o "$dist/equix.wasm"
echo "build.sh: $dist/equix.wasm ($(wc -c <"$dist/equix.wasm") bytes," \
	"$(gzip -9c "$dist/equix.wasm" | wc -c) gzipped)"

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
# libtool make. README.md says why this toolchain and this BLAKE2b. The
# list of sources and config.h come from a configured tree of the native
# build (js/Makefile.inc), so configure's packages too (scripts/setup.sh's
# EQUIX_PACKAGES but Check: gcc, autoconf-archive, pkg-config,
# libsodium-dev, libjansson-dev), and git: in a checkout, that tree is
# configured from the checkout's tracked files (see below).
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
	LIBSODIUM_SRC=$("$top/scripts/apt-source.sh" libsodium "$build/apt")
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

# ---- The sources ---------------------------------------------------------
# In a git checkout the core is built from js/build/src: one symbolic link
# per tracked file (to the work tree's file, so uncommitted changes count)
# and autotools' output of its own. Not from the tree itself, which may be
# configured and built in its own directory, as the top README's "Using
# the library" does (./configure && make): automake's configure refuses
# to configure such a tree again from another directory ("source
# directory already configured"), and what that build wrote there would
# stand in for this one's (its include/equix_version.h, which
# include/equix.h's #include "..." finds beside itself before any -I
# path, and its wasm-core/ files, which make's VPATH search finds up to
# date). None of those is tracked. Outside a checkout (no file list to
# trust) the tree itself is the source, and must not be configured in
# its own directory.
if [ "$(git -C "$top" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$top" && pwd -P)" ]; then
	srcdir=$build/src
	mkdir -p "$srcdir"
	# The links are made anew (those of files no longer tracked go);
	# autotools' files, not links, stay. In Perl, which autoreconf needs
	# anyway: a process per link takes seconds.
	find "$srcdir" -type l -exec rm -f {} +
	(cd "$top" && git ls-files -z) | perl -0 -e '
		use File::Basename qw(dirname);
		use File::Path qw(make_path);
		my ($top, $dst) = @ARGV;
		while (my $f = <STDIN>) {
			chomp $f;
			next unless -e "$top/$f"; # deleted, not yet staged
			make_path(dirname("$dst/$f"));
			symlink("$top/$f", "$dst/$f") or die "build.sh: $dst/$f: $!\n";
		}' "$top" "$srcdir"
elif [ -f "$top/config.status" ]; then
	echo "build.sh: $top is configured in its own directory and is not a git checkout; run \"make distclean\" there first" >&2
	exit 1
else
	srcdir=$top
fi

# ---- The build description ----------------------------------------------
# The core's C files, its config.h and its flags come from the autotools
# build itself (js/Makefile.inc), not from lists of this script's: a tree
# configured here for the package's one configuration, standard HashX
# (32-byte output, salt "HashX v1", as Tor uses), whose "make wasm-core"
# writes the list (libhashx-core's and libequix's files less the
# native-only ones, plus the WebAssembly code generator,
# src/compiler/wasm.c), the config.h made from configure's (no mmap,
# HASHX_JIT_WASM) and the libraries' include paths and warnings. Its
# include/ holds hashx.h and equix_version.h as configure wrote them.
# Nothing is compiled there; make only writes those files, again whenever
# a Makefile.inc or configure.ac has changed (automake's rebuild rules).
# A tree configured from another source directory (an earlier build.sh's,
# from the tree itself) is configured again.
host=$build/host
if [ -f "$host/Makefile" ] &&
	[ "$(sed -n 's/^abs_top_srcdir = //p' "$host/Makefile")" != "$srcdir" ]; then
	rm -rf "$host"
fi
if [ ! -f "$host/Makefile" ]; then
	[ -x "$srcdir/configure" ] || (cd "$srcdir" && autoreconf -fi >/dev/null)
	mkdir -p "$host"
	(cd "$host" && "$srcdir/configure" -q --without-check \
		--with-hashx-size=32 --with-hashx-salt="HashX v1") || {
		rm -f "$host/Makefile"
		echo "build.sh: configure failed, see $host/config.log" >&2
		exit 1
	}
fi
make -s -C "$host" wasm-core
sources=$(cat "$host/wasm-core/sources")

# The include paths and warnings of the native build (wasm-core/cflags),
# the warnings as errors (a warning only this target shows is worth
# stopping for), and libsodium's wasm32 headers.
CORE_CFLAGS="$(tr '\n' ' ' <"$host/wasm-core/cflags") ${WERROR--Werror} -I$sodium/include"
obj=$build/obj
rm -rf "$obj"
mkdir -p "$obj"
objs=
# Every C file of js/src is part of the ABI the JavaScript calls.
for src in $sources $(cd "$srcdir" && ls js/src/*.c); do
	if [ ! -f "$srcdir/$src" ]; then
		echo "build.sh: $src is listed for the core but $srcdir has no such file (a new file must be tracked: git add it)" >&2
		exit 1
	fi
	o=$obj/$(echo "$src" | tr / _ | sed 's/\.c$/.o/')
	# shellcheck disable=SC2086
	$CC $TARGET -std=c11 $CFLAGS_OPT -fvisibility=hidden $CORE_CFLAGS \
		-c "$srcdir/$src" -o "$o"
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

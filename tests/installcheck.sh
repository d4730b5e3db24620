#!/bin/sh
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# Run by "make installcheck" (and so by distcheck): a client that includes
# hashx.h and links with nothing but "pkg-config --cflags --libs libhashx"
# builds and runs against the installed shared library and, fully static
# with "pkg-config --static", against the installed static library; both
# print the same hashes. The shared link asks for no libsodium (it is
# private to the libraries), and the installed archives define no global
# name outside the public API (doc/abi.md).
# Then the installed equix-cli solves and verifies a PoW proof.
# Then a C++ client of the four headers (-Wall -Wextra -Werror -pedantic)
# and a CMake client of the installed package config. Then "man 3 NAME"
# for each function the installed headers declare: NAME.3 (or, in the
# Debian package, NAME.3.gz) is libequix(3), or libhashwx(3) for hashwx_*.
# libhashwx: tevador's hashwx.h client built and run the same way, and
# a Tor equix.h client that adds EQUIX_V2 to its flags.
#   installcheck.sh SRCDIR PKGCONFIG_DIR LIBDIR CC [BINDIR [INCLUDEDIR
#                   [CMAKEDIR [MAN3DIR]]]]
set -eu
srcdir=$1 pcdir=$2 libdir=$3 cc=$4 bindir=${5:-} includedir=${6:-}
cmakedir=${7:-} man3dir=${8:-}
# The C++ and CMake clients' sources (a package test passes the tree's).
clients=${EQUIX_CLIENTS_DIR:-$srcdir/tests/clients}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PKG_CONFIG_PATH="$pcdir"
flags=$(pkg-config --cflags --libs libhashx)
echo "pkg-config --cflags --libs libhashx: $flags"

case " $flags " in *" -lsodium "*)
	echo "FAIL: a shared client of libhashx is linked with libsodium"; exit 1 ;;
esac
static_flags=$(pkg-config --static --cflags --libs libhashx)
echo "pkg-config --static --cflags --libs libhashx: $static_flags"

# Every global name an installed archive defines has its prefix.
archive_exports() {
	[ -f "$libdir/$1" ] || return 0
	bad=$(${NM:-nm} -g --defined-only "$libdir/$1" | awk 'NF == 3 {print $3}' |
		grep -v "^$2" || true)
	if [ -n "$bad" ]; then
		echo "FAIL: $libdir/$1 defines internal names:" $bad; exit 1
	fi
	echo "$1: only $2* names are global"
}
archive_exports libhashx.a hashx_
archive_exports libequix.a equix_

$cc -o "$tmp/shared" "$srcdir/examples/hashx-example.c" $flags
LD_LIBRARY_PATH="$libdir" "$tmp/shared" "installcheck" 3 >"$tmp/shared.out"
LD_LIBRARY_PATH="$libdir" ldd "$tmp/shared" | grep -q "$libdir/libhashx.so" || {
	echo "FAIL: the client did not load the installed libhashx.so"; exit 1; }

if [ -f "$libdir/libhashx.a" ]; then
	$cc -static -o "$tmp/static" "$srcdir/examples/hashx-example.c" \
		$static_flags
	"$tmp/static" "installcheck" 3 >"$tmp/static.out"
	cmp "$tmp/shared.out" "$tmp/static.out"
	echo "static client: same output"
fi
cat "$tmp/shared.out"

# libhashwx: a program written for tevador's hashwx.h (his README's
# example, tests/clients/hashwx_client.c), built with pkg-config alone,
# shared and static, prints the hash his library prints.
flags=$(pkg-config --cflags --libs libhashwx)
echo "pkg-config --cflags --libs libhashwx: $flags"
case " $flags " in *" -lsodium "*)
	echo "FAIL: a shared client of libhashwx is linked with libsodium"; exit 1 ;;
esac
static_flags=$(pkg-config --static --cflags --libs libhashwx)
echo "pkg-config --static --cflags --libs libhashwx: $static_flags"
archive_exports libhashwx.a hashwx_
# tevador's libhashwx (d771cbf), seed "a seed makes one hash function",
# input 123456789.
hashwx_want=2dae5f1b18bdd6db
$cc -o "$tmp/hashwx" "$clients/hashwx_client.c" $flags
LD_LIBRARY_PATH="$libdir" "$tmp/hashwx" >"$tmp/hashwx.out"
LD_LIBRARY_PATH="$libdir" ldd "$tmp/hashwx" | grep -q "$libdir/libhashwx.so" || {
	echo "FAIL: the HashWX client did not load the installed libhashwx.so"; exit 1; }
[ "$(cat "$tmp/hashwx.out")" = $hashwx_want ] || {
	echo "FAIL: tevador's hashwx.h client printed $(cat "$tmp/hashwx.out"), his library $hashwx_want"
	exit 1; }
if [ -f "$libdir/libhashwx.a" ]; then
	$cc -static -o "$tmp/hashwx-static" "$clients/hashwx_client.c" \
		$static_flags
	"$tmp/hashwx-static" >"$tmp/hashwx-static.out"
	cmp "$tmp/hashwx.out" "$tmp/hashwx-static.out"
	echo "static HashWX client: same output"
fi
echo "tevador's hashwx.h client: $(cat "$tmp/hashwx.out") (his library's hash)"

# The same for libequix.
flags=$(pkg-config --cflags --libs libequix)
echo "pkg-config --cflags --libs libequix: $flags"
case " $flags " in *" -lsodium "*)
	echo "FAIL: a shared client of libequix is linked with libsodium"; exit 1 ;;
esac
static_flags=$(pkg-config --static --cflags --libs libequix)
echo "pkg-config --static --cflags --libs libequix: $static_flags"
$cc -o "$tmp/equix" "$srcdir/examples/equix-example.c" $flags
LD_LIBRARY_PATH="$libdir" "$tmp/equix" installcheck >"$tmp/equix.out"
if [ -f "$libdir/libequix.a" ]; then
	$cc -static -o "$tmp/equix-static" "$srcdir/examples/equix-example.c" \
		$static_flags
	"$tmp/equix-static" installcheck >"$tmp/equix-static.out"
	cmp "$tmp/equix.out" "$tmp/equix-static.out"
	echo "static equix client: same output"
fi
cat "$tmp/equix.out"

# A program written for Tor's equix.h that adds EQUIX_V2 to its flags
# (tests/clients/tor_equix_v2_client.c) solves, verifies and prints the
# solutions tevador's equix_v2 solver finds for its challenge, in his
# order.
equixv2_want='7eef,b471,4838,eebd,454e,c2e0,cb20,f5e7
5984,5e82,8ee2,aa60,0ecb,1bb1,638d,c74b'
$cc -o "$tmp/tor-v2" "$clients/tor_equix_v2_client.c" $flags
LD_LIBRARY_PATH="$libdir" "$tmp/tor-v2" >"$tmp/tor-v2.out" || {
	cat "$tmp/tor-v2.out"; echo "FAIL: the Tor equix.h client with EQUIX_V2"
	exit 1; }
if [ "$(cat "$tmp/tor-v2.out")" = "$equixv2_want" ]; then
	echo "Tor's equix.h client with EQUIX_V2: tevador's v2 solutions, verified"
else
	cat "$tmp/tor-v2.out"
	echo "FAIL: Tor's equix.h client with EQUIX_V2: not tevador's v2 solutions"
	exit 1
fi

# The PoW layer is part of libequix: a client of equix_pow.h.
$cc -o "$tmp/pow" "$srcdir/examples/pow-example.c" $flags
LD_LIBRARY_PATH="$libdir" "$tmp/pow" 10 >"$tmp/pow.out"
if [ -f "$libdir/libequix.a" ]; then
	$cc -static -o "$tmp/pow-static" "$srcdir/examples/pow-example.c" \
		$static_flags
	"$tmp/pow-static" 10 >"$tmp/pow-static.out"
	cmp "$tmp/pow.out" "$tmp/pow-static.out"
	echo "static PoW client: same output"
fi
cat "$tmp/pow.out"

# The installed equix-cli, against the installed libequix: Tor's effort-10
# test vector, solved, then verified as a batch of one.
if [ -n "$bindir" ]; then
	cli="$bindir/equix-cli"
	LD_LIBRARY_PATH="$libdir" "$cli" --version
	id=1111111111111111111111111111111111111111111111111111111111111111
	seed=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
	LD_LIBRARY_PATH="$libdir" "$cli" pow solve --json --id $id \
		--seed $seed --effort 10 \
		--nonce 55555555555555555555555555555555 >"$tmp/proof.json"
	cat "$tmp/proof.json"
	grep -q '"solution":"128bbda5df2929c3be086de2aad34aed"' "$tmp/proof.json" || {
		echo "FAIL: equix-cli pow solve: wrong proof"; exit 1; }
	verdict=$(LD_LIBRARY_PATH="$libdir" "$cli" pow verify --id $id \
		--seed $seed --batch - <"$tmp/proof.json")
	echo "$verdict"
	[ "$verdict" = "line 1: valid" ] || {
		echo "FAIL: equix-cli pow verify: $verdict"; exit 1; }
fi

# C++: the headers' C signatures with the flag operators, strict flags.
if [ -n "$includedir" ]; then
	cxx=${CXX:-g++}
	if command -v "$cxx" >/dev/null 2>&1; then
		$cxx -std=c++11 -Wall -Wextra -Werror -pedantic \
			-o "$tmp/cxx" "$clients/cxx_client.cpp" \
			$(pkg-config --cflags --libs libequix libhashx libhashwx)
		LD_LIBRARY_PATH="$libdir" "$tmp/cxx"
	else
		echo "FAIL: no C++ compiler ($cxx; Debian package g++)"
		exit 1
	fi
fi

# CMake: find_package(equix CONFIG) from the installed config alone.
if [ -n "$cmakedir" ]; then
	if ! command -v cmake >/dev/null 2>&1; then
		echo "FAIL: no cmake (Debian package cmake)"
		exit 1
	fi
	cmake -S "$clients/cmake" -B "$tmp/cmake" \
		-Dequix_DIR="$cmakedir" -DCMAKE_C_COMPILER="${cc%% *}" \
		>"$tmp/cmake.log" 2>&1 || { cat "$tmp/cmake.log"; exit 1; }
	cmake --build "$tmp/cmake" >>"$tmp/cmake.log" 2>&1 || {
		cat "$tmp/cmake.log"; exit 1; }
	LD_LIBRARY_PATH="$libdir" "$tmp/cmake/client"
	# The built client runs with the library the config pointed at.
	LD_LIBRARY_PATH="$libdir" ldd "$tmp/cmake/client" |
		grep -q "$libdir/libequix.so" || {
		echo "FAIL: the CMake client did not load the installed libequix.so"
		exit 1; }
fi

# README.md's CMake example as a reader uses it: its CMakeLists.txt (the
# block after the "installcheck: CMakeLists.txt" marker), the client
# above as app.c, the package found through CMAKE_PREFIX_PATH (libdir's
# parent: the prefix), and the program run without LD_LIBRARY_PATH, as
# the README says CMake's build tree allows. Then its cc line with
# -Wl,-rpath, run the same way.
if [ -n "$cmakedir" ]; then
	readme=$srcdir/README.md
	{ if [ -f "$readme" ]; then cat "$readme"; else zcat "$readme.gz"; fi; } |
		awk '/^<!-- installcheck: CMakeLists.txt/ { m = 1; next }
		     m == 1 && /^```/ { m = 2; next }
		     m == 2 && /^```/ { exit }
		     m == 2 { print }' >"$tmp/CMakeLists.txt"
	[ -s "$tmp/CMakeLists.txt" ] || {
		echo "FAIL: no CMake example after the installcheck marker in $readme"
		exit 1; }
	mkdir "$tmp/readme"
	cp "$tmp/CMakeLists.txt" "$tmp/readme/CMakeLists.txt"
	cp "$clients/cmake/client.c" "$tmp/readme/app.c"
	cmake -S "$tmp/readme" -B "$tmp/readme/build" \
		-DCMAKE_PREFIX_PATH="${libdir%/lib*}" \
		-DCMAKE_C_COMPILER="${cc%% *}" >"$tmp/readme.log" 2>&1 &&
		cmake --build "$tmp/readme/build" >>"$tmp/readme.log" 2>&1 || {
		cat "$tmp/readme.log"; exit 1; }
	env -u LD_LIBRARY_PATH "$tmp/readme/build/app"
	env -u LD_LIBRARY_PATH ldd "$tmp/readme/build/app" |
		grep -q "$libdir/libequix.so" || {
		echo "FAIL: README's CMake example did not load $libdir/libequix.so"
		exit 1; }
	echo "README.md's CMake example: built and run"
	$cc -o "$tmp/rpath" "$clients/cmake/client.c" \
		$(pkg-config --cflags --libs libequix libhashx libhashwx) \
		-Wl,-rpath,"$libdir"
	env -u LD_LIBRARY_PATH "$tmp/rpath"
	echo "README.md's -Wl,-rpath: the program finds $libdir by itself"
fi

# The manual: each public function's page is libequix(3), or libhashwx(3)
# for hashwx_*, found by man.
if [ -n "$man3dir" ] && [ -n "$includedir" ]; then
	page=$(ls "$man3dir"/libequix.3* 2>/dev/null | head -n 1)
	[ -n "$page" ] || { echo "FAIL: no libequix.3 in $man3dir"; exit 1; }
	ext=${page#"$man3dir"/libequix.3}
	[ -f "$man3dir/libhashwx.3$ext" ] || {
		echo "FAIL: no libhashwx.3$ext in $man3dir"; exit 1; }
	names=$({ grep -hE '^[A-Z_]+_API ' "$includedir"/*.h |
		grep -o '[a-z_0-9]*('; grep -ho '^#define [a-z][a-z_0-9]*(*' \
		"$includedir"/*.h | sed 's/^#define //'; } | tr -d '(' | sort -u)
	for n in $names; do
		case $n in
		hashwx_*) page=$man3dir/libhashwx.3$ext ;;
		*) page=$man3dir/libequix.3$ext ;;
		esac
		target=$(realpath "$page")
		[ "$(realpath "$man3dir/$n.3$ext" 2>/dev/null)" = "$target" ] || {
			echo "FAIL: no $man3dir/$n.3$ext leading to ${page##*/}"
			exit 1; }
		if command -v man >/dev/null 2>&1; then
			found=$(MANPATH="${man3dir%/man3}" man -w 3 "$n") &&
				[ "$(realpath "$found")" = "$target" ] || {
				echo "FAIL: man -w 3 $n: $found"; exit 1; }
		fi
	done
	echo "man 3 NAME: libequix(3) or libhashwx(3) for each of the" \
		"$(echo "$names" | wc -l) functions of the headers"
fi

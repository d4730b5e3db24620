#!/usr/bin/env bash
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# scripts/test.sh --tor: Tor itself on this library. Sourced by test.sh,
# which calls equix_tor_test. In order, each step with its wall time:
#
#  1. the library as this tree installs it (default configure, make
#     install into build/tor/prefix);
#  2. Debian's tor source package (scripts/apt-source.sh), the version of
#     the tor binary package installed beside it, with contrib/tor's
#     series and its test-only patch applied;
#  3. what the series' configure refuses, doc/bad-input.md's build-tor-
#     rows, each a configure run that must stop with its row's message,
#     not a build: libhashx, then libequix, whose pkg-config file claims
#     a version below the floor (0.0.9; 0.1.0 is the first with
#     hashx_exec_sized), and --enable-system-equix without --enable-gpl
#     (no pow module);
#  4. Tor built with --enable-gpl --enable-system-equix against
#     build/tor/prefix (rpath, so nothing is installed system-wide);
#  5. proof that the binaries use the library: ldd resolves libequix and
#     libhashx to build/tor/prefix, the versioned symbols are imported,
#     and no Equi-X or HashX code but the bundled BLAKE2b is left in Tor;
#  6. Tor's whole unit suite (src/test/test) and slow suite
#     (src/test/test-slow): any failure, or any skipped test that the
#     unpatched build does not skip (tests/tor/stock-skips), fails;
#  7. the loopback network's interop matrix (tests/tor/interop.sh) with
#     Debian's own tor binary as the other peer.
#
# Ends with one line: "N passed, N failed, N skipped", Tor's tests and the
# matrix's rows together. A failed build, configure check or check of the
# binaries stops the stage at once; a failing suite or row is counted,
# the rest still run, and the stage fails at the end.
set -euo pipefail

# Tor's build dependencies (its Debian source package's, less the
# documentation's), Debian's tor binary package (the reference inside: the
# other side of the interop matrix), and what the network test drives.
EQUIX_TOR_PACKAGES=(libevent-dev libssl-dev zlib1g-dev liblzma-dev libzstd-dev
	libseccomp-dev libcap-dev dpkg-dev tor curl python3)

# step NAME COMMAND...: runs COMMAND, then prints its wall time.
equix_tor_step() {
	local name=$1 start=$SECONDS
	shift
	"$@"
	echo "tor: $name took $((SECONDS - start)) s"
}

# The library, configured as a user's plain build, installed under PREFIX.
equix_tor_library() {
	(equix_setup "$EQUIX_TOR_DIR/lib" --prefix="$EQUIX_TOR_DIR/prefix" \
		--disable-static --without-check --enable-werror &&
		make -s -j"$(equix_jobs)" && make -s install) >/dev/null
}

# The patched source tree, made anew when the source version or a patch
# changed (a stamp records both), else kept with its build.
equix_tor_source() {
	local version stamp src=$EQUIX_TOR_DIR/src tree p
	version=$(dpkg-query -W -f='${Version}' tor)
	stamp="tor $version; $(cat "$EQUIX_SRC"/contrib/tor/patches/*.patch \
		"$EQUIX_SRC"/contrib/tor/test-only/*.patch | sha256sum)"
	if [ -f "$src/.equix-stamp" ] && [ "$(cat "$src/.equix-stamp")" = "$stamp" ]; then
		echo "tor: source tree up to date ($src)"
		return
	fi
	tree=$("$EQUIX_SRC/scripts/apt-source.sh" "tor=$version" "$EQUIX_TOR_DIR/apt")
	rm -rf "$src" "$EQUIX_TOR_DIR/obj"
	cp -a "$tree" "$src"
	for p in $(cat "$EQUIX_SRC/contrib/tor/patches/series"); do
		patch -s -p1 -d "$src" <"$EQUIX_SRC/contrib/tor/patches/$p"
	done
	for p in $(cat "$EQUIX_SRC/contrib/tor/test-only/series"); do
		patch -s -p1 -d "$src" <"$EQUIX_SRC/contrib/tor/test-only/$p"
	done
	# The series changes configure.ac and the makefiles.
	(cd "$src" && autoreconf -fi >/dev/null 2>&1)
	echo "$stamp" >"$src/.equix-stamp"
	echo "tor: $version from Debian's source package, $(wc -l <"$EQUIX_SRC/contrib/tor/patches/series") patches and the test-only one applied"
}

# equix_tor_refused NAME EXPECTED PKG_CONFIG_PATH CONFIGURE_ARGS...: runs
# the patched tree's configure in build/tor/refused/NAME with
# CONFIGURE_ARGS, the libraries found through PKG_CONFIG_PATH; it must
# fail, and say each line of EXPECTED. No build: configure stops near its
# start, at the series' checks.
equix_tor_refused() {
	local name=$1 expected=$2 pcpath=$3 dir=$EQUIX_TOR_DIR/refused/$1 line
	shift 3
	rm -rf "$dir"
	mkdir -p "$dir"
	if (cd "$dir" && PKG_CONFIG_PATH=$pcpath "$EQUIX_TOR_DIR/src/configure" \
		--disable-asciidoc --disable-manpage --disable-html-manual "$@") \
		>"$dir/configure.log" 2>&1; then
		echo "tor: configure $* ($name) succeeded; it must stop, saying:"
		sed 's/^/    /' <<<"$expected"
		return 1
	fi
	while IFS= read -r line; do
		grep -qF -- "$line" "$dir/configure.log" && continue
		tail -n 15 "$dir/configure.log"
		echo "tor: configure $* ($name) failed, but without: $line"
		return 1
	done <<<"$expected"
	echo "tor: configure $* ($name) stops:"
	sed -n '/^configure: error: /,$p' "$dir/configure.log" | sed '/^$/d; s/^/    /'
}

# The version floor: the library as installed, its pkg-config files
# claiming 0.0.9, below 0.1.0 (the first release with hashx_exec_sized),
# LIB (libhashx or libequix) in its turn, the other as it is; configure
# must say EXPECTED, and pkg-config's own line.
equix_tor_too_old() {
	local lib=$1 expected=$2 other pc=$EQUIX_TOR_DIR/prefix/lib/pkgconfig fake
	fake=$EQUIX_TOR_DIR/refused/pc-$lib
	rm -rf "$fake"
	mkdir -p "$fake"
	other=libequix
	[ "$lib" = libhashx ] || other=libhashx
	cp "$pc/$other.pc" "$fake/"
	sed 's/^Version: .*/Version: 0.0.9/' "$pc/$lib.pc" >"$fake/$lib.pc"
	equix_tor_refused "$lib-0.0.9" "$expected
Package '$lib' has version '0.0.9', required version is '>= 0.1.0'" \
		"$fake" --enable-gpl --enable-system-equix
}

# The option without the pow module (no --enable-gpl): the real library
# is there, and configure must still refuse, saying EXPECTED, not link
# what nothing uses.
equix_tor_no_gpl() {
	equix_tor_refused no-gpl "$1" \
		"$EQUIX_TOR_DIR/prefix/lib/pkgconfig" --enable-system-equix
}

# doc/bad-input.md's build-tor- rows, "ID<tab>EXPECTED" a line: EXPECTED
# is the first code span of the outcome (the fourth cell).
equix_tor_doc_rows() {
	awk -F'|' '/^\| `build-tor-/ {
		id = $2; gsub(/[ `]/, "", id)
		if (match($5, /`[^`]*`/))
			print id "\t" substr($5, RSTART + 1, RLENGTH - 2)
	}' "$EQUIX_SRC/doc/bad-input.md"
}

# Walks those rows: each is a configure run that must stop with its
# line. A row with no check here, or a check with no row, fails.
equix_tor_refusals() {
	local id expected rows=0
	while IFS=$'\t' read -r id expected; do
		rows=$((rows + 1))
		case $id in
		build-tor-old-libhashx) equix_tor_too_old libhashx "$expected" ;;
		build-tor-old-libequix) equix_tor_too_old libequix "$expected" ;;
		build-tor-no-gpl) equix_tor_no_gpl "$expected" ;;
		*)
			echo "tor: doc/bad-input.md's row $id has no check here"
			return 1
			;;
		esac || return 1
	done < <(equix_tor_doc_rows)
	if [ "$rows" != 3 ]; then
		echo "tor: doc/bad-input.md has $rows build-tor- rows; this script checks 3"
		return 1
	fi
}

equix_tor_build() {
	local obj=$EQUIX_TOR_DIR/obj prefix=$EQUIX_TOR_DIR/prefix
	mkdir -p "$obj"
	cd "$obj"
	if [ ! -f Makefile ]; then
		PKG_CONFIG_PATH=$prefix/lib/pkgconfig "$EQUIX_TOR_DIR/src/configure" \
			--enable-gpl --enable-system-equix --disable-asciidoc \
			--disable-manpage --disable-html-manual \
			LDFLAGS="-Wl,-rpath,$prefix/lib" >configure.log 2>&1 ||
			{ tail -n 30 configure.log; echo "tor: configure failed"; return 1; }
	fi
	# What the suites and the network run, and no more (not the fuzzers
	# nor the benchmarks): test-slow starts test-process.
	make -j"$(equix_jobs)" src/app/tor src/tools/tor-gencert src/test/test \
		src/test/test-slow src/test/test-process >make.log 2>&1 ||
		{ grep -B5 -A5 -m 20 'error' make.log | tail -n 60; echo "tor: make failed"; return 1; }
	grep -q 'pow: yes' <(src/app/tor --list-modules) ||
		{ echo "tor: built without its pow module"; return 1; }
	cd "$EQUIX_SRC"
}

# Fails unless BINARY resolves LIBRARY to build/tor/prefix.
equix_tor_links() {
	local binary=$1 library=$2 path
	path=$(ldd "$binary" | awk -v l="$library" '$1 == l { print $3 }')
	if [ "$path" != "$EQUIX_TOR_DIR/prefix/lib/$library" ]; then
		echo "tor: $binary resolves $library to '${path:-nothing}', not $EQUIX_TOR_DIR/prefix/lib/$library"
		return 1
	fi
	echo "tor: $(basename "$binary") uses $path"
}

equix_tor_uses_library() {
	local obj=$EQUIX_TOR_DIR/obj symbols left s
	equix_tor_links "$obj/src/app/tor" libequix.so.1
	equix_tor_links "$obj/src/test/test" libequix.so.1
	equix_tor_links "$obj/src/test/test" libhashx.so.1
	symbols=$(nm -D --undefined-only "$obj/src/test/test")
	# Tor's HASHX_SIZE is 8: its calls must reach the sized entry point.
	for s in equix_solve@LIBEQUIX_1 equix_verify@LIBEQUIX_1 \
		hashx_make@LIBHASHX_1 hashx_exec_sized@LIBHASHX_1.1; do
		grep -qw "$s" <<<"$symbols" ||
			{ echo "tor: src/test/test does not import $s"; return 1; }
	done
	echo "tor: src/test/test imports equix_solve@LIBEQUIX_1 and hashx_exec_sized@LIBHASHX_1.1"
	# Every Equi-X or HashX function defined in Tor itself must be the
	# bundled BLAKE2b, which Tor keeps.
	left=$(nm --defined-only "$obj/src/test/test" "$obj/src/app/tor" |
		awk '$2 ~ /^[Tt]$/ && $3 ~ /^(equix|hashx)_/ && $3 !~ /^hashx_blake2b/ { print $3 }' |
		sort -u)
	if [ -n "$left" ]; then
		echo "tor: Equi-X or HashX code still compiled into Tor:" $left
		return 1
	fi
	echo "tor: no Equi-X or HashX code left in Tor but its BLAKE2b"
}

# Counts over the suites and the matrix, added to by each.
tor_passed=0
tor_failed=0
tor_skipped=0

# equix_tor_suite PROGRAM: runs one of Tor's tinytest programs whole,
# from the build directory as make check would, and counts its outcome: a
# failed test, or a skip outside tests/tor/stock-skips, adds to the failed
# count (the function itself returns 0, so the next step still runs).
equix_tor_suite() {
	local program=$1 log ok bad skipped names unexpected
	log=$EQUIX_TOR_DIR/$(basename "$program").log
	(cd "$EQUIX_TOR_DIR/obj" && "./$program" >"$log" 2>&1) || true
	# "N tests ok.  (K skipped)" or "F/N TESTS FAILED. (K skipped)"
	if ok=$(sed -n 's/^\([0-9]*\) tests ok\.  (\([0-9]*\) skipped)$/\1 \2/p' "$log") && [ -n "$ok" ]; then
		read -r ok skipped <<<"$ok"
		bad=0
	elif bad=$(sed -n 's|^\([0-9]*\)/\([0-9]*\) TESTS FAILED\. (\([0-9]*\) skipped)$|\1 \2 \3|p' "$log") && [ -n "$bad" ]; then
		read -r bad ok skipped <<<"$bad"
		ok=$((ok - bad))
		grep -F 'FAILED]' "$log" | head -n 40
	else
		tail -n 30 "$log"
		echo "tor: $program ended without its summary line (log: $log)"
		tor_failed=$((tor_failed + 1))
		return 0
	fi
	names=$(sed -n 's/^\([^ ]*\): \(\[forking\] \)\{0,1\}SKIPPED$/\1/p' "$log" | sort)
	unexpected=$(comm -23 <(echo "$names" | sed '/^$/d') \
		<(grep -v '^#' "$EQUIX_SRC/tests/tor/stock-skips" | sort))
	echo "tor: $program: $ok ok, $bad failed, $skipped skipped (log: $log)"
	tor_passed=$((tor_passed + ok))
	tor_failed=$((tor_failed + bad))
	tor_skipped=$((tor_skipped + skipped))
	# Each skip must be named, or an unexpected one could hide.
	if [ "$(echo "$names" | sed '/^$/d' | wc -l)" != "$skipped" ]; then
		echo "tor: $program skipped $skipped tests but its log names $(echo "$names" | sed '/^$/d' | wc -l)"
		tor_failed=$((tor_failed + 1))
	fi
	if [ -n "$unexpected" ]; then
		echo "tor: $program skipped what the unpatched build runs:" $unexpected
		tor_failed=$((tor_failed + $(wc -w <<<"$unexpected")))
	fi
}

# The interop matrix on a loopback network: its rows join the counts (a
# row it could not run on this machine, exit 77, as skipped).
equix_tor_network() {
	local log=$EQUIX_TOR_DIR/interop.log rc=0 rows held failed skipped
	"$EQUIX_SRC/tests/tor/interop.sh" --lib-tor "$EQUIX_TOR_DIR/obj/src/app/tor" \
		--work "$EQUIX_TOR_DIR/net" >"$log" 2>&1 || rc=$?
	cat "$log"
	rows=$(sed -n 's/^interop: rows: \([0-9]*\) held, \([0-9]*\) failed, \([0-9]*\) skipped;.*/\1 \2 \3/p' "$log")
	if [ -z "$rows" ]; then
		echo "tor: the interop matrix ended without its summary (exit $rc)"
		tor_failed=$((tor_failed + 1))
		return 0
	fi
	read -r held failed skipped <<<"$rows"
	tor_passed=$((tor_passed + held))
	tor_failed=$((tor_failed + failed))
	tor_skipped=$((tor_skipped + skipped))
	# Failed verifications fail the matrix even when every row held.
	case $rc in
	0 | 77) ;;
	*) [ "$failed" != 0 ] || tor_failed=$((tor_failed + 1)) ;;
	esac
}

equix_tor_test() {
	EQUIX_TOR_DIR=$EQUIX_SRC/build/tor
	equix_install "${EQUIX_TOR_PACKAGES[@]}"
	equix_tor_step "installing the library" equix_tor_library
	equix_tor_step "fetching and patching Debian's source" equix_tor_source
	equix_tor_step "configure: doc/bad-input.md's build-tor- rows" equix_tor_refusals
	equix_tor_step "building Tor" equix_tor_build
	equix_tor_step "checking the binaries" equix_tor_uses_library
	equix_tor_step "src/test/test" equix_tor_suite src/test/test
	equix_tor_step "src/test/test-slow" equix_tor_suite src/test/test-slow
	equix_tor_step "the interop matrix" equix_tor_network
	echo "$tor_passed passed, $tor_failed failed, $tor_skipped skipped"
	[ "$tor_failed" = 0 ]
}

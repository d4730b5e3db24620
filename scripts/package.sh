#!/usr/bin/env bash
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# scripts/test.sh --package: the Debian packages (debian/), built, checked
# and used without installing anything into the system. Sourced by
# scripts/test.sh, which defines summarize; equix_package_test:
#
#   1. installs what building them needs (Debian, as root);
#   2. copies the tree (tracked files and untracked ones git does not
#      ignore, so no build directory) to build/package/src/ and runs
#      dpkg-buildpackage -us -uc there; the build runs the whole suite in
#      dh_auto_test unless DEB_BUILD_OPTIONS has nocheck, and fails when
#      the libraries' symbols differ from debian/*.symbols;
#   3. runs lintian -EvIL +pedantic on the .changes: any E: or W: fails;
#   4. unpacks every .deb but the debug symbols into build/package/root/
#      (dpkg -x), then tests/installcheck.sh builds the packaged example
#      clients against it (pkg-config with PKG_CONFIG_SYSROOT_DIR, shared
#      and static) and runs them and the packaged equix-cli.
#
# EQUIX_UPDATE_SYMBOLS=1 builds without the symbols check and writes the
# built libraries' symbols to debian/*.symbols (see debian/README.source).
set -euo pipefail

# What dpkg-buildpackage, debhelper and lintian need, and the
# Build-Depends of debian/control.
EQUIX_PACKAGE_PACKAGES=(build-essential dpkg-dev debhelper fakeroot lintian
	libsodium-dev libjansson-dev check pkg-config cmake autoconf-archive)

equix_package_test() {
	local work="$EQUIX_SRC/build/package" version src changes deb p
	local passed=0 failed=0 skipped=0 counts c f s
	equix_install "${EQUIX_PACKAGE_PACKAGES[@]}"
	git -C "$EQUIX_SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1 || {
		echo "package: $EQUIX_SRC is not a git checkout (no file list to copy)" >&2
		return 1
	}
	version=$(cd "$EQUIX_SRC" && dpkg-parsechangelog -S Version)
	rm -rf "$work"
	src="$work/src/equix-$version"
	mkdir -p "$src" "$work/root"
	# Files deleted from the work tree but still in the index are left out.
	(cd "$EQUIX_SRC" && git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' p; do
			[ -e "$p" ] && printf '%s\0' "$p"
		done | tar -cf - --null -T - | tar -xf - -C "$src")

	echo "package: dpkg-buildpackage -us -uc in build/package/src/${DEB_BUILD_OPTIONS:+ (DEB_BUILD_OPTIONS=$DEB_BUILD_OPTIONS)}"
	if [ "${EQUIX_UPDATE_SYMBOLS:-0}" = 1 ]; then
		export DPKG_GENSYMBOLS_CHECK_LEVEL=0
	fi
	# The copy lies inside this checkout's build/: git must not find the
	# checkout from there (tests/licence.sh skips, as from a tarball).
	export GIT_CEILING_DIRECTORIES="$work/src"
	if ! (cd "$src" && dpkg-buildpackage -us -uc) >"$work/build.log" 2>&1; then
		tail -n 80 "$work/build.log"
		echo "package: dpkg-buildpackage failed (log: build/package/build.log)"
		(cd "$src" && summarize)
		return 1
	fi
	echo "package: built (log: build/package/build.log)"
	# The suite's results from dh_auto_test, counted as test.sh counts them.
	counts=$(cd "$src" && summarize)
	if [ "$counts" != "0 passed, 0 failed, 0 skipped" ]; then
		echo "package: dh_auto_test: $counts"
	else
		echo "package: dh_auto_test: not run (nocheck)"
	fi
	read -r c _ f _ s _ <<<"$counts"
	passed=$((passed + c)) failed=$((failed + f)) skipped=$((skipped + s))

	if [ "${EQUIX_UPDATE_SYMBOLS:-0}" = 1 ]; then
		for p in libhashx1 libhashwx1 libequix1; do
			# From the built library alone: the old file would
			# otherwise be merged in (symbols gone stay listed).
			rm -f "$src/debian/$p.symbols"
			(cd "$src" && dpkg-gensymbols -q -c0 -p"$p" -P"debian/$p" -O) |
				grep -v '#MISSING' >"$EQUIX_SRC/debian/$p.symbols"
			echo "package: wrote debian/$p.symbols"
		done
	fi

	changes=$(ls "$work"/src/*.changes)
	echo "package: lintian -EvIL +pedantic ${changes#"$work"/}"
	lintian -EvIL +pedantic "$changes" >"$work/lintian.log" 2>&1 || true
	grep -v '^N: ' "$work/lintian.log" | grep -v 'running with root privileges' || true
	if grep -q '^[EW]: ' "$work/lintian.log"; then
		echo "package: lintian: errors or warnings (FAIL)"
		failed=$((failed + 1))
	else
		echo "package: lintian: no errors or warnings"
		passed=$((passed + 1))
	fi

	for deb in "$work"/src/*.deb; do
		case $deb in *-dbgsym_*) continue ;; esac
		echo "package: ${deb##*/}:"
		dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print "  " $6 $7 $8}'
		dpkg -x "$deb" "$work/root"
	done

	# The packaged pkg-config files, read as if the scratch root were /.
	local root="$work/root" libdir
	libdir="$root/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)"
	if PKG_CONFIG_SYSROOT_DIR="$root" PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 \
		PKG_CONFIG_ALLOW_SYSTEM_LIBS=1 \
		EQUIX_CLIENTS_DIR="$EQUIX_SRC/tests/clients" \
		sh "$EQUIX_SRC/tests/installcheck.sh" \
		"$root/usr/share/doc/libequix-dev" "$libdir/pkgconfig" "$libdir" \
		"${CC:-cc}" "$root/usr/bin" "$root/usr/include" \
		"$libdir/cmake/equix" "$root/usr/share/man/man3" \
		>"$work/client.log" 2>&1; then
		cat "$work/client.log"
		echo "package: clients and equix-cli against the packages: passed"
		passed=$((passed + 1))
	else
		cat "$work/client.log"
		echo "package: clients and equix-cli against the packages: FAIL"
		failed=$((failed + 1))
	fi
	echo "$passed passed, $failed failed, $skipped skipped"
	[ "$failed" = 0 ]
}

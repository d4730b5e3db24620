#!/bin/sh
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# The JavaScript package's WebAssembly core is built from the native
# build's own description (js/Makefile.inc): make writes, in the build
# tree's wasm-core/, the core's C sources (libhashx-core's and libequix's,
# less an explicit native-only list, plus the WebAssembly code generator),
# that native-only list, and the core's config.h, made from configure's.
# js/build.sh compiles exactly those. This test fails when
#   - a C file of the libraries (src/*/*.c but the command-line tool's
#     src/cli) is in neither list, so a file cannot drop out of the
#     package unnoticed, or is in both;
#   - a listed file does not exist;
#   - a source of the core (the list, and js/src/*.c) names a macro of
#     configure's config.h that the core's config.h neither takes from
#     configure nor declares the host's only (a new configure check must be
#     given its answer for wasm32);
#   - a value taken from configure differs from configure's;
#   - an include path of the core's flags (wasm-core/cflags) names no
#     directory, or wasm-core/ is not the first (its config.h must be the
#     one the core finds).
top=${TOP_SRCDIR:?TOP_SRCDIR must name the source tree}
build=${TOP_BUILDDIR:?TOP_BUILDDIR must name the build tree}
dir=$build/wasm-core
for f in sources native-only config.h cflags; do
	if [ ! -f "$dir/$f" ]; then
		echo "FAIL: $dir/$f is missing (make writes it from js/Makefile.inc, the wasm core's build description)"
		exit 1
	fi
done
[ -s "$dir/sources" ] || { echo "FAIL: $dir/sources is empty"; exit 1; }
[ -f "$build/config.h" ] || { echo "FAIL: no $build/config.h"; exit 99; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
status=0
fail() {
	echo "FAIL: $*"
	status=1
}

LC_ALL=C sort "$dir/sources" >"$tmp/sources"
LC_ALL=C sort "$dir/native-only" >"$tmp/native"
while read -r f; do
	[ -f "$top/$f" ] || fail "$f is listed for the wasm core (wasm-core/sources) but does not exist"
done <"$tmp/sources"
while read -r f; do
	[ -f "$top/$f" ] || fail "$f is in the wasm core's native-only list (js/Makefile.inc) but does not exist"
done <"$tmp/native"
for f in $(LC_ALL=C comm -12 "$tmp/sources" "$tmp/native"); do
	fail "$f is both in the wasm core and in its native-only list (js/Makefile.inc)"
done
(cd "$top" && find src -name '*.c' ! -path 'src/cli/*' -type f) |
	LC_ALL=C sort >"$tmp/tree"
for f in $(cat "$tmp/sources" "$tmp/native" | LC_ALL=C sort | LC_ALL=C comm -23 "$tmp/tree" -); do
	fail "$f is neither in the wasm core's sources nor in its native-only list (js/Makefile.inc)"
done

# configure's macros: every "#define NAME" and "/* #undef NAME */" of its
# config.h. The core's config.h defines some ("#define NAME") and declares
# the host's ones it leaves out as "/* #undef NAME ...".
sed -n -e 's/^#define \([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' \
	-e 's|^/\* #undef \([A-Za-z_][A-Za-z0-9_]*\) \*/$|\1|p' "$build/config.h" |
	LC_ALL=C sort -u >"$tmp/macros"
sed -n -e 's/^#define \([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' \
	-e 's|^/\* #undef \([A-Za-z_][A-Za-z0-9_]*\) .*|\1|p' "$dir/config.h" |
	LC_ALL=C sort -u >"$tmp/answered"
# js/src's C files are the core's too; a release tarball has no js/.
js_sources=
[ ! -d "$top/js/src" ] || js_sources=$(cd "$top" && ls js/src/*.c)
for f in $(cat "$tmp/sources") $js_sources; do
	grep -ow '[A-Za-z_][A-Za-z0-9_]*' "$top/$f" | LC_ALL=C sort -u |
		LC_ALL=C comm -12 - "$tmp/macros" |
		LC_ALL=C comm -23 - "$tmp/answered" |
		while read -r m; do
			echo "FAIL: $f names configure's $m, which the wasm core's config.h (js/Makefile.inc) neither takes from configure nor declares the host's only"
		done
done >"$tmp/unanswered"
if [ -s "$tmp/unanswered" ]; then
	cat "$tmp/unanswered"
	status=1
fi
# A value taken from configure is configure's line, unchanged.
grep '^#define ' "$dir/config.h" | while IFS= read -r line; do
	name=$(echo "$line" | cut -d' ' -f2)
	grep -q "^#define $name " "$build/config.h" || continue
	grep -qxF "$line" "$build/config.h" ||
		echo "FAIL: wasm-core/config.h has \"$line\", configure's config.h another value"
done >"$tmp/values"
if [ -s "$tmp/values" ]; then
	cat "$tmp/values"
	status=1
fi
# The flags: every include path a directory, wasm-core/ first.
first=$(grep -m1 '^-I' "$dir/cflags")
[ "$first" = "-I$(cd "$dir" && pwd)" ] || [ "$first" = "-I$dir" ] ||
	fail "wasm-core/cflags: the first include path is ${first:-none}, not wasm-core/ (whose config.h the core must find first)"
for f in $(sed -n 's/^-I//p' "$dir/cflags"); do
	[ -d "$f" ] || fail "wasm-core/cflags: include path $f is no directory"
done

if [ "$status" = 0 ]; then
	echo "PASS: $(wc -l <"$tmp/sources") sources in the wasm core," \
		"$(wc -l <"$tmp/native") native-only, every library C file in one;" \
		"every configure macro the core names has its wasm32 answer," \
		"$(grep -c '^-I' "$dir/cflags") include paths"
fi
exit "$status"

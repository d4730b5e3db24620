#!/bin/sh
# Run by "make installcheck" (and so by distcheck): a client that includes
# hashx.h and links with nothing but "pkg-config --cflags --libs libhashx"
# builds and runs against the installed shared library and, fully static,
# against the installed static library; both print the same hashes.
#   installcheck.sh SRCDIR PKGCONFIG_DIR LIBDIR CC
set -eu
srcdir=$1 pcdir=$2 libdir=$3 cc=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PKG_CONFIG_PATH="$pcdir"
flags=$(pkg-config --cflags --libs libhashx)
echo "pkg-config --cflags --libs libhashx: $flags"

$cc -o "$tmp/shared" "$srcdir/examples/hashx-example.c" $flags
LD_LIBRARY_PATH="$libdir" "$tmp/shared" "installcheck" 3 >"$tmp/shared.out"
LD_LIBRARY_PATH="$libdir" ldd "$tmp/shared" | grep -q "$libdir/libhashx.so" || {
	echo "FAIL: the client did not load the installed libhashx.so"; exit 1; }

if [ -f "$libdir/libhashx.a" ]; then
	$cc -static -o "$tmp/static" "$srcdir/examples/hashx-example.c" $flags
	"$tmp/static" "installcheck" 3 >"$tmp/static.out"
	cmp "$tmp/shared.out" "$tmp/static.out"
	echo "static client: same output"
fi
cat "$tmp/shared.out"

# The same for libequix.
flags=$(pkg-config --cflags --libs libequix)
echo "pkg-config --cflags --libs libequix: $flags"
$cc -o "$tmp/equix" "$srcdir/examples/equix-example.c" $flags
LD_LIBRARY_PATH="$libdir" "$tmp/equix" installcheck >"$tmp/equix.out"
if [ -f "$libdir/libequix.a" ]; then
	$cc -static -o "$tmp/equix-static" "$srcdir/examples/equix-example.c" $flags
	"$tmp/equix-static" installcheck >"$tmp/equix-static.out"
	cmp "$tmp/equix.out" "$tmp/equix-static.out"
	echo "static equix client: same output"
fi
cat "$tmp/equix.out"

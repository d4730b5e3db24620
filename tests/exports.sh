#!/bin/sh
# The shared library must export the public API and nothing else: every
# defined dynamic symbol is one of the functions hashx.h declares.
lib=src/hashx/.libs/libhashx.so
if [ ! -f "$lib" ]; then
	echo "SKIP: no shared library was built"
	exit 77
fi
expected="hashx_alloc hashx_exec hashx_free hashx_make hashx_query_type hashx_rng_callback"
actual=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | sort | tr '\n' ' ' | sed 's/ $//')
echo "exported: $actual"
if [ "$actual" != "$expected" ]; then
	echo "FAIL: expected exactly: $expected"
	exit 1
fi

#!/bin/sh
# Each shared library must export its public API and nothing else: every
# defined dynamic symbol is one of the functions its header declares.
status=0
check() {
	lib=$1 expected=$2
	if [ ! -f "$lib" ]; then
		echo "SKIP: $lib was not built (no shared libraries)"
		exit 77
	fi
	actual=$(${NM:-nm} -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | sort | tr '\n' ' ' | sed 's/ $//')
	echo "$lib exports: $actual"
	if [ "$actual" != "$expected" ]; then
		echo "FAIL: expected exactly: $expected"
		status=1
	fi
}
check src/hashx/.libs/libhashx.so \
	"hashx_alloc hashx_exec hashx_free hashx_make hashx_query_type hashx_rng_callback"
check src/equix/.libs/libequix.so \
	"equix_alloc equix_free equix_solution_pack equix_solution_unpack equix_solve equix_verify"
exit $status

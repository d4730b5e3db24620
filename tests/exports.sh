#!/bin/sh
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
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
	"equix_alloc equix_free equix_pow_challenge_build equix_pow_effort_check equix_pow_effort_hash equix_pow_effort_retry equix_pow_extension_decode equix_pow_extension_encode equix_pow_nonce_add equix_pow_params_format equix_pow_params_parse equix_pow_result_string equix_pow_service_alloc equix_pow_service_free equix_pow_service_rotate equix_pow_service_set_min_effort equix_pow_service_stats equix_pow_service_verify equix_pow_solve equix_pow_solve_options_init equix_pow_solve_options_init_sized equix_pow_solve_sized equix_solution_pack equix_solution_unpack equix_solve equix_verify"
exit $status

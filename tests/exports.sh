#!/bin/sh
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# Each shared library must export its public API and nothing else: every
# defined dynamic symbol is one of the functions its header declares, and
# (with a linker that takes version scripts, EQUIX_LD_VERSION_SCRIPT=yes)
# each carries the version of the node that brought it in (doc/abi.md).
# The static archives that are installed (src/*/lib*-public.a) define no
# other global name either: libequix's carries no hashx_* name at all.
# Environment (set by tests/Makefile.am): TOP_BUILDDIR, where the
# libraries were built.
cd "${TOP_BUILDDIR:?TOP_BUILDDIR must name the top build directory}" || exit 99
status=0

# The expected exports, "name@@VERSION", sorted by name. When a name is
# added to a version script, it is added here too.
hashx_1="hashx_alloc hashx_exec hashx_free hashx_make hashx_query_type hashx_rng_callback"
hashwx_1="hashwx_alloc hashwx_exec hashwx_free hashwx_make hashwx_query_type"
equix_1="equix_alloc equix_free equix_pow_challenge_build
	equix_pow_effort_check equix_pow_effort_hash equix_pow_effort_retry
	equix_pow_extension_decode equix_pow_extension_encode
	equix_pow_nonce_add equix_pow_params_format equix_pow_params_parse
	equix_pow_result_string equix_pow_service_alloc equix_pow_service_free
	equix_pow_service_rotate equix_pow_service_set_min_effort
	equix_pow_service_stats equix_pow_service_verify equix_pow_solve
	equix_pow_solve_options_init equix_solution_pack equix_solution_unpack
	equix_solve equix_verify"
hashx_1_1="hashx_alloc_block hashx_exec_block hashx_exec_sized hashx_output_size hashx_salt hashx_version_string"
equix_1_1="equix_pow_solve_options_init_sized equix_pow_solve_sized equix_version_string"
equix_1_2="equix_pow_controller_alloc equix_pow_controller_free
	equix_pow_controller_tick equix_pow_effort_needs_republish
	equix_pow_effort_update equix_pow_queue_add equix_pow_queue_alloc
	equix_pow_queue_free equix_pow_queue_period equix_pow_queue_pop
	equix_pow_queue_recover
	equix_pow_queue_set_limits equix_pow_queue_set_suggested_effort
	equix_pow_queue_stats_get"

# versioned VERSION NAME...: "NAME@@VERSION" for each NAME.
versioned() {
	v=$1
	shift
	for n in "$@"; do printf '%s@@%s\n' "$n" "$v"; done
}
# sorted WORD...: the words sorted, on one line.
sorted() {
	printf '%s\n' "$@" | sort | tr '\n' ' ' | sed 's/ $//'
}

check() {
	lib=$1 expected=$2
	if [ ! -f "$lib" ]; then
		echo "SKIP: $lib was not built (no shared libraries)"
		exit 77
	fi
	# nm prints a versioned name as name@@VERSION (the default version)
	# or name@VERSION; the version nodes themselves are absolute (A).
	all=$(${NM:-nm} -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ {print $3}')
	if [ "${EQUIX_LD_VERSION_SCRIPT:-yes}" = yes ]; then
		actual=$(sorted $all)
	else
		actual=$(sorted $(printf '%s\n' $all | sed 's/@.*//'))
		expected=$(sorted $(printf '%s\n' $expected | sed 's/@.*//'))
	fi
	echo "$lib exports: $actual"
	if [ "$actual" != "$expected" ]; then
		echo "FAIL: expected exactly: $expected"
		status=1
	fi
}
check src/hashx/.libs/libhashx.so \
	"$(sorted $(versioned LIBHASHX_1 $hashx_1) $(versioned LIBHASHX_1.1 $hashx_1_1))"
check src/hashwx/.libs/libhashwx.so \
	"$(sorted $(versioned LIBHASHWX_1 $hashwx_1))"
check src/equix/.libs/libequix.so \
	"$(sorted $(versioned LIBEQUIX_1 $equix_1) $(versioned LIBEQUIX_1.1 $equix_1_1) \
		$(versioned LIBEQUIX_1.2 $equix_1_2))"

# The archives that make install installs (a build with static
# libraries): the same names, unversioned, and no other global.
check_archive() {
	archive=$1 expected=$2
	[ -f "$archive" ] || return 0
	actual=$(sorted $(${NM:-nm} -g --defined-only "$archive" |
		awk 'NF == 3 {print $3}'))
	echo "$archive defines: $actual"
	if [ "$actual" != "$expected" ]; then
		echo "FAIL: expected exactly: $expected"
		status=1
	fi
}
check_archive src/hashx/libhashx-public.a "$(sorted $hashx_1 $hashx_1_1)"
check_archive src/hashwx/libhashwx-public.a "$(sorted $hashwx_1)"
check_archive src/equix/libequix-public.a "$(sorted $equix_1 $equix_1_1 $equix_1_2)"
exit $status

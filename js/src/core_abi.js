// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The core's C ABI as the package calls it: each function the JavaScript
// calls in dist/equix.wasm, with its number of parameters. The
// declarations in core.h and pow_core.c are the ABI's home; this table is
// their copy on the JavaScript side, and test/core_abi.test.js fails when
// the two differ.
//
// Why it exists: a core built from another version of the sources (a
// dist/equix.wasm left from an earlier build) may lack a function, or
// take fewer arguments than the package passes. WebAssembly drops extra
// arguments silently: an ex_equix_alloc without its `v2` parameter would
// solve Equi-X v1 when v2 was asked for. ready() refuses such a core.

export const CORE_ABI = Object.freeze({
  ex_malloc: 1,
  ex_free: 1,
  ex_hashx_alloc: 2,
  ex_hashx_compiled: 1,
  ex_hashx_free: 1,
  ex_hashx_make: 3,
  ex_hashx_exec: 3,
  ex_hashx_exec_block: 4,
  ex_hashx_result_name: 1,
  ex_hashwx_alloc: 1,
  ex_hashwx_make: 2,
  ex_hashwx_exec: 2,
  ex_hashwx_compiled: 1,
  ex_hashwx_free: 1,
  ex_equix_alloc: 3,
  ex_equix_free: 1,
  ex_equix_solve: 5,
  ex_equix_verify: 4,
  ex_equix_max_sols: 0,
  ex_equix_result_name: 1,
  ex_pow_challenge_build: 5,
  ex_pow_effort_hash: 2,
  ex_pow_effort_check: 3,
  ex_pow_challenge_len: 0,
  ex_pow_id_len: 0,
  ex_pow_seed_len: 0,
  ex_pow_nonce_len: 0,
  ex_pow_nonce_add: 2,
  ex_pow_verify: 7,
  ex_pow_result_name: 1,
  ex_pow_extension_encode: 5,
  ex_pow_extension_decode: 6,
  ex_pow_params_format: 5,
  ex_pow_params_parse: 5,
  ex_pow_params_max_len: 0,
  ex_pow_extension_len: 0,
});

/**
 * What is wrong with `exports` (a core instance's exports) against
 * CORE_ABI: one line per function that is missing or takes another
 * number of parameters; empty when the core is this package's.
 */
export function coreMismatches(exports) {
  const wrong = [];
  for (const [name, params] of Object.entries(CORE_ABI)) {
    const f = exports[name];
    if (typeof f !== 'function') {
      wrong.push(`it has no ${name}`);
    } else if (f.length !== params) {
      wrong.push(`its ${name} takes ${f.length} arguments, this package passes ${params}`);
    }
  }
  return wrong;
}

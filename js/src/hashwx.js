// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// HashWX functions (Equi-X v2's hash): hashwx(seed) makes one in the core,
// HashWX.hash runs it. The same life as a HashX function (hashx.js): a
// context in the module's memory, freed by free() or at collection.

import {
  need, bytes, place, failure, optionsOf, u64Of, OwnedContext,
} from './core.js';

/** HASHWX_SEED_SIZE: a HashWX seed is exactly this many bytes. */
export const HASHWX_SEED_BYTES = 32;

/** A HashWX function, made from a seed (see hashwx()). */
class HashWX {
  #ctx;

  constructor(ctx) {
    this.#ctx = new OwnedContext(this, ctx, 'ex_hashwx_free', 'HashWX function');
  }

  /**
   * true when the HashWX-to-WebAssembly compiler runs this function;
   * false when it is interpreted (made with { compile: false }, or the
   * engine refused the module: jitStatus().refusal says why).
   */
  get compiled() {
    return need().ex_hashwx_compiled(this.#ctx.live()) === 1;
  }

  /**
   * The 64-bit hash of `nonce` (a BigInt, or a safe non-negative integer
   * Number, below 2^64), as a BigInt: hashwx_exec's result.
   */
  hash(nonce) {
    const x = u64Of(nonce, 'a HashWX nonce');
    // The core's i64 result arrives signed.
    return BigInt.asUintN(64, need().ex_hashwx_exec(this.#ctx.live(), x));
  }

  /** Returns the context's memory now rather than at collection. */
  free() {
    this.#ctx.free();
  }
}

/**
 * The HashWX function of `seed` (exactly HASHWX_SEED_BYTES bytes, else
 * FAIL_LENGTH). Every seed makes a function: HashWX has no failing seeds.
 * `options.compile: false`: always interpret (by default the function is
 * compiled to WebAssembly where the engine allows, and interpreted where
 * it does not).
 */
export function hashwx(seed, options) {
  const c = need();
  const compile = optionsOf(options, { compile: 'boolean' }, 'hashwx()').compile !== false;
  const b = bytes(seed, 'a HashWX seed', HASHWX_SEED_BYTES);
  const ctx = c.ex_hashwx_alloc(compile ? 1 : 0);
  if (ctx === 0) throw failure('equix: out of memory in the core', 'FAIL_NO_MEMORY');
  const [p] = place(b);
  c.ex_hashwx_make(ctx, p);
  return new HashWX(ctx);
}

// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// HashX functions: hashx(seed) makes one in the core, HashX.hash runs it.

import { need, heap, asBytes, withCopy, cString, failure, scratchBuffer, loaded } from './core.js';

// Contexts live in the module's memory: freed by free(), or when the
// JavaScript object is collected, whichever comes first.
const hashxContexts = new FinalizationRegistry((ctx) => {
  const c = loaded();
  if (c !== null) c.ex_hashx_free(ctx);
});

const U64_LIMIT = 1n << 64n;

/** A HashX function, made from a seed (see hashx()). */
class HashX {
  #ctx;
  #block;

  constructor(ctx, block) {
    this.#ctx = ctx;
    this.#block = block;
    hashxContexts.register(this, ctx, this);
  }

  /**
   * true when the HashX-to-WebAssembly compiler runs this function; false
   * when it is interpreted (made with { compile: false }, or the engine
   * refused the compiled module: jitStatus().refusal says why).
   */
  get compiled() {
    if (this.#ctx === 0) throw new Error('equix: this HashX function was freed');
    return need().ex_hashx_compiled(this.#ctx) === 1;
  }

  /** true when made with { block: true }: hash() takes bytes. */
  get block() {
    return this.#block;
  }

  /**
   * The 32-byte hash of `input`: a 64-bit counter (a BigInt, or a safe
   * non-negative integer Number) in counter mode, bytes in block mode.
   */
  hash(input) {
    const c = need();
    if (this.#ctx === 0) throw new Error('equix: this HashX function was freed');
    let r;
    if (this.#block) {
      r = withCopy(asBytes(input, 'input'),
        (p, n) => c.ex_hashx_exec_block(this.#ctx, p, n, scratchBuffer()));
    } else {
      const x = typeof input === 'number' && Number.isSafeInteger(input)
        ? BigInt(input) : input;
      if (typeof x !== 'bigint') {
        throw new TypeError('equix: a HashX input is a BigInt (or a safe integer Number)');
      }
      if (x < 0n || x >= U64_LIMIT) {
        throw new RangeError('equix: a HashX input is a 64-bit unsigned integer');
      }
      r = c.ex_hashx_exec(this.#ctx, x, scratchBuffer());
    }
    if (r !== 0) {
      const name = cString(c.ex_hashx_result_name(r));
      throw failure(`equix: hashx_exec: ${name}`, name);
    }
    return heap().slice(scratchBuffer(), scratchBuffer() + 32);
  }

  /** Returns the context's memory now rather than at collection. */
  free() {
    if (this.#ctx !== 0) {
      hashxContexts.unregister(this);
      need().ex_hashx_free(this.#ctx);
      this.#ctx = 0;
    }
  }
}

/**
 * The HashX function of `seed` (bytes). Throws an Error with code
 * 'FAIL_SEED' for the seeds from which no valid program can be generated
 * (hashx_make's HASHX_FAIL_SEED). `options.block`: block mode, where the
 * input is a byte string instead of a counter. `options.compile: false`:
 * always interpret (by default the program is compiled to WebAssembly
 * where the engine allows, and interpreted where it does not).
 */
export function hashx(seed, options = {}) {
  const c = need();
  const bytes = asBytes(seed, 'seed');
  const block = options.block === true;
  const compile = options.compile !== false;
  const ctx = c.ex_hashx_alloc(block ? 1 : 0, compile ? 1 : 0);
  if (ctx === 0) throw new Error('equix: out of memory');
  const r = withCopy(bytes, (p, n) => c.ex_hashx_make(ctx, p, n));
  if (r !== 0) {
    c.ex_hashx_free(ctx);
    const name = cString(c.ex_hashx_result_name(r));
    throw failure(`equix: hashx_make: ${name}`, name);
  }
  return new HashX(ctx, block);
}

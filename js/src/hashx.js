// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// HashX functions: hashx(seed) makes one in the core, HashX.hash runs it.

import {
  need, heap, bytes, withCopy, cString, failure, optionsOf, scratchBuffer, u64Of, OwnedContext,
} from './core.js';

/** A HashX function, made from a seed (see hashx()). Its context lives
 * as core.js's OwnedContext says. */
class HashX {
  #ctx;
  #block;

  constructor(ctx, block) {
    this.#ctx = new OwnedContext(this, ctx, 'ex_hashx_free', 'HashX function');
    this.#block = block;
  }

  /**
   * true when the HashX-to-WebAssembly compiler runs this function; false
   * when it is interpreted (made with { compile: false }, or the engine
   * refused the compiled module: jitStatus().refusal says why).
   */
  get compiled() {
    return need().ex_hashx_compiled(this.#ctx.live()) === 1;
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
    const ctx = this.#ctx.live();
    let r;
    if (this.#block) {
      r = withCopy(bytes(input, 'a block-mode HashX input'),
        (p, n) => c.ex_hashx_exec_block(ctx, p, n, scratchBuffer()));
    } else {
      r = c.ex_hashx_exec(ctx, u64Of(input, 'a HashX input'), scratchBuffer());
    }
    if (r !== 0) {
      const name = cString(c.ex_hashx_result_name(r));
      throw failure(`equix: hashx_exec: ${name}`, name);
    }
    return heap().slice(scratchBuffer(), scratchBuffer() + 32);
  }

  /** Returns the context's memory now rather than at collection. */
  free() {
    this.#ctx.free();
  }
}

/**
 * The HashX function of `seed` (bytes, at most limits.inputBytes). Throws
 * an Error with code 'FAIL_SEED' for the seeds from which no valid
 * program can be generated (hashx_make's HASHX_FAIL_SEED).
 * `options.block`: block mode, where the input is a byte string instead
 * of a counter. `options.compile: false`: always interpret (by default
 * the program is compiled to WebAssembly where the engine allows, and
 * interpreted where it does not).
 */
export function hashx(seed, options) {
  const c = need();
  const o = optionsOf(options, { block: 'boolean', compile: 'boolean' }, 'hashx()');
  const b = bytes(seed, 'a HashX seed');
  const block = o.block === true;
  const compile = o.compile !== false;
  const ctx = c.ex_hashx_alloc(block ? 1 : 0, compile ? 1 : 0);
  if (ctx === 0) throw failure('equix: out of memory in the core', 'FAIL_NO_MEMORY');
  let r;
  try {
    r = withCopy(b, (p, n) => c.ex_hashx_make(ctx, p, n));
  } catch (e) {
    c.ex_hashx_free(ctx);
    throw e;
  }
  if (r !== 0) {
    c.ex_hashx_free(ctx);
    const name = cString(c.ex_hashx_result_name(r));
    throw failure(`equix: hashx_make: ${name}`, name);
  }
  return new HashX(ctx, block);
}

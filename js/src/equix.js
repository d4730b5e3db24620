// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// Equi-X: solve a challenge, verify a solution, through the core's solver
// and verifier contexts.

import { need, heap, asBytes, withCopy, cString, failure, scratchBuffer } from './core.js';

// One context of each kind (solver or verifier, compiled HashX or
// interpreted), made on first use and kept: a solver's carries its 1.5 MiB
// of work memory, which each solve reuses.
const contexts = new Map();

function context(solve, options) {
  const compile = options.compile !== false;
  const key = `${solve}/${compile}`;
  let ctx = contexts.get(key);
  if (ctx === undefined) {
    ctx = need().ex_equix_alloc(solve ? 1 : 0, compile ? 1 : 0);
    if (ctx === 0) throw new Error('equix: out of memory for an Equi-X context');
    contexts.set(key, ctx);
  }
  return ctx;
}

export const SOLUTION_BYTES = 16;

export const equix = {
  /**
   * The solutions of `challenge` (bytes), each a Uint8Array(16) in wire
   * form, in the order the reference solver returns them. Throws an
   * Error with code 'FAIL_CHALLENGE' when the challenge has no HashX
   * function. `options.compile: false` interprets HashX (by default it
   * is compiled to WebAssembly where the engine allows).
   */
  solve(challenge, options = {}) {
    const c = need();
    const ctx = context(true, options);
    const max = c.ex_equix_max_sols();
    const out = scratchBuffer();
    const count = out + max * SOLUTION_BYTES;
    const r = withCopy(asBytes(challenge, 'challenge'),
      (p, n) => c.ex_equix_solve(ctx, p, n, out, count));
    if (r !== 0) {
      const name = cString(c.ex_equix_result_name(r));
      throw failure(`equix: equix_solve: ${name}`, name);
    }
    const h = heap();
    const n = new DataView(h.buffer).getUint32(count, true);
    const sols = [];
    for (let i = 0; i < n; i++) {
      sols.push(h.slice(out + i * SOLUTION_BYTES, out + (i + 1) * SOLUTION_BYTES));
    }
    return sols;
  },

  /**
   * 'OK' when `solution` (16 bytes, wire form) solves `challenge`, else
   * the name of equix_verify's result without its prefix ('FAIL_ORDER',
   * 'FAIL_PARTIAL_SUM', 'FAIL_FINAL_SUM', 'FAIL_CHALLENGE').
   */
  verify(challenge, solution, options = {}) {
    const c = need();
    const sol = asBytes(solution, 'solution');
    if (sol.length !== SOLUTION_BYTES) {
      throw new RangeError('equix: a solution is 16 bytes');
    }
    const ctx = context(false, options);
    const scratch = scratchBuffer();
    heap().set(sol, scratch);
    const r = withCopy(asBytes(challenge, 'challenge'),
      (p, n) => c.ex_equix_verify(ctx, p, n, scratch));
    return cString(c.ex_equix_result_name(r));
  },
};


// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// Equi-X v1 and v2: solve a challenge, verify a solution, through the
// core's solver and verifier contexts.

import {
  need, heap, bytes, withCopy, place, cString, failure, optionsOf, scratchBuffer,
} from './core.js';

// equix.solve()'s and verify()'s options and their types.
const EQUIX_OPTIONS = { compile: 'boolean', v2: 'boolean' };

// One context of each kind (solver or verifier, compiled hash or
// interpreted, Equi-X v1 or v2), made on first use and kept: a solver's
// carries its 1.5 MiB of work memory, which each solve reuses.
const contexts = new Map();

/**
 * The core's Equi-X context for a solver (`solve`) or a verifier, of the
 * kind `options` ({ compile, v2 }, checked, `what` naming the call) asks
 * for: compiled unless compile is false, v1 unless v2 is true.
 */
export function equixContext(solve, options, what) {
  const o = optionsOf(options, EQUIX_OPTIONS, what);
  const compile = o.compile !== false;
  const v2 = o.v2 === true;
  const key = `${solve}/${compile}/${v2}`;
  let ctx = contexts.get(key);
  if (ctx === undefined) {
    ctx = need().ex_equix_alloc(solve ? 1 : 0, compile ? 1 : 0, v2 ? 1 : 0);
    if (ctx === 0) throw failure('equix: out of memory in the core for an Equi-X context', 'FAIL_NO_MEMORY');
    contexts.set(key, ctx);
  }
  return ctx;
}

export const SOLUTION_BYTES = 16;

export const equix = {
  /**
   * The solutions of `challenge` (bytes, at most limits.inputBytes), each
   * a Uint8Array(16) in wire form, in the order the reference solver
   * returns them. Throws an Error with code 'FAIL_CHALLENGE' when the
   * challenge has no HashX function (Equi-X v1 only: every HashWX seed
   * makes a function). `options.v2: true` solves Equi-X v2 (HashWX for
   * HashX; the same solver and solution form). `options.compile: false`
   * interprets the hash (by default it is compiled to WebAssembly where
   * the engine allows).
   */
  solve(challenge, options) {
    const c = need();
    const ch = bytes(challenge, 'an Equi-X challenge');
    const ctx = equixContext(true, options, 'equix.solve()');
    const max = c.ex_equix_max_sols();
    const out = scratchBuffer();
    const count = out + max * SOLUTION_BYTES;
    const r = withCopy(ch, (p, n) => c.ex_equix_solve(ctx, p, n, out, count));
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
   * 'FAIL_PARTIAL_SUM', 'FAIL_FINAL_SUM', 'FAIL_CHALLENGE'): Equi-X v1,
   * or v2 with `options.v2: true` (a solution of one version fails the
   * other's check, but for chance).
   */
  verify(challenge, solution, options) {
    const c = need();
    const ch = bytes(challenge, 'an Equi-X challenge');
    const sol = bytes(solution, 'an Equi-X solution', SOLUTION_BYTES);
    const ctx = equixContext(false, options, 'equix.verify()');
    const [psol] = place(sol);
    const r = withCopy(ch, (p, n) => c.ex_equix_verify(ctx, p, n, psol));
    return cString(c.ex_equix_result_name(r));
  },
};


// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// Tor's PoW v1 puzzle: the challenge string and the effort check.

import { need, heap, scratchBuffer, fixed, effortOf } from './core.js';
import { SOLUTION_BYTES } from './equix.js';

export const pow = {
  /** P || ID || C || N || E, the string Equi-X solves (Uint8Array). */
  challenge({ id, seed, nonce, effort }) {
    const c = need();
    const len = c.ex_pow_challenge_len();
    const idb = fixed(id, c.ex_pow_id_len(), 'id');
    const seedb = fixed(seed, c.ex_pow_seed_len(), 'seed');
    const nonceb = fixed(nonce, c.ex_pow_nonce_len(), 'nonce');
    const e = effortOf(effort);
    const out = scratchBuffer();
    const pid = out + len;
    const pseed = pid + idb.length;
    const pnonce = pseed + seedb.length;
    const h = heap();
    h.set(idb, pid);
    h.set(seedb, pseed);
    h.set(nonceb, pnonce);
    c.ex_pow_challenge_build(out, pid, pseed, pnonce, e);
    return heap().slice(out, out + len);
  },

  /** R: the 32-bit big-endian BLAKE2b-32 of challenge || solution. */
  effortHash(challenge, solution) {
    const c = need();
    const ch = fixed(challenge, c.ex_pow_challenge_len(), 'challenge');
    const sol = fixed(solution, SOLUTION_BYTES, 'solution');
    const h = heap();
    const scratch = scratchBuffer();
    h.set(ch, scratch);
    h.set(sol, scratch + ch.length);
    return c.ex_pow_effort_hash(scratch, scratch + ch.length) >>> 0;
  },

  /** Whether R * effort fits in 32 bits: the solution meets the effort. */
  effortCheck(challenge, solution, effort) {
    const c = need();
    const ch = fixed(challenge, c.ex_pow_challenge_len(), 'challenge');
    const sol = fixed(solution, SOLUTION_BYTES, 'solution');
    const e = effortOf(effort);
    const h = heap();
    const scratch = scratchBuffer();
    h.set(ch, scratch);
    h.set(sol, scratch + ch.length);
    return c.ex_pow_effort_check(scratch, scratch + ch.length, e) === 1;
  },
};


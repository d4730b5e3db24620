// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// Tor's PoW v1: the puzzle (challenge string, effort check), the client's
// search over workers (pow_search.js), the stateless check of a proof, and
// the wire formats (INTRODUCE1 extension body, descriptor pow-params line),
// all through the library's own C code (core.c, pow_core.c).

import {
  need, heap, scratchBuffer, fixed, effortOf, asBytes, withCopy, cString, failure,
} from './core.js';
import { search, defaultWorkers } from './pow_search.js';
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

// ---- The proof, the wire formats, the search ---------------------------

const SEED_HEAD_BYTES = 4;

function powFailure(what, r) {
  const name = cString(need().ex_pow_result_name(r));
  return failure(`equix: ${what}: ${name}`, name);
}

// The proof's fields checked, as bytes: { nonce, effort, seedHead, solution }.
function proofFields(proof) {
  const c = need();
  return {
    nonce: fixed(proof.nonce, c.ex_pow_nonce_len(), 'nonce'),
    effort: effortOf(proof.effort),
    seedHead: fixed(proof.seedHead, SEED_HEAD_BYTES, 'seedHead'),
    solution: fixed(proof.solution, SOLUTION_BYTES, 'solution'),
  };
}

// Lays `parts` out one after another in the scratch buffer; returns their
// addresses in the same order.
function place(...parts) {
  const h = heap();
  let p = scratchBuffer();
  return parts.map((b) => {
    const at = p;
    h.set(b, at);
    p += (b.length + 7) & ~7;
    return at;
  });
}

let powVerifier = 0;

/** Tor's v1 search and the rest of the PoW layer. */
Object.assign(pow, {
  /**
   * Searches for a proof as Tor's client does: from `nonce` (16 bytes;
   * default random) upwards, the first nonce with a solution that meets
   * `effort`, the first such solution in the solver's order; over
   * `workers` workers (default: the machine's threads, at most 16),
   * always finding the proof one worker would. `signal` (AbortSignal)
   * cancels (the promise rejects with its reason); `onProgress({
   * attempts, seconds })` is called at most every 100 ms; `maxAttempts`
   * gives up (Error with code 'FAIL_LIMIT'). Resolves { nonce, effort,
   * seedHead, solution, attempts, seconds }.
   */
  async solve({ id, seed, effort, nonce, workers, signal, onProgress, maxAttempts = 0 }) {
    const c = need();
    signal?.throwIfAborted();
    const job = {
      id: Uint8Array.from(fixed(id, c.ex_pow_id_len(), 'id')),
      seed: Uint8Array.from(fixed(seed, c.ex_pow_seed_len(), 'seed')),
      nonce: nonce === undefined
        ? globalThis.crypto.getRandomValues(new Uint8Array(c.ex_pow_nonce_len()))
        : Uint8Array.from(fixed(nonce, c.ex_pow_nonce_len(), 'nonce')),
      effort: effortOf(effort),
    };
    const n = workers ?? (await defaultWorkers());
    if (!Number.isInteger(n) || n < 1 || n > 1024) {
      throw new RangeError('equix: workers is an integer from 1 to 1024');
    }
    if (!Number.isSafeInteger(maxAttempts) || maxAttempts < 0) {
      throw new RangeError('equix: maxAttempts is a non-negative integer');
    }
    const r = await search(job, { workers: n, signal, onProgress, maxAttempts });
    return {
      nonce: r.nonce,
      effort: job.effort,
      seedHead: job.seed.slice(0, SEED_HEAD_BYTES),
      solution: r.solution,
      attempts: r.attempts,
      seconds: r.seconds,
    };
  },

  /**
   * The service's checks that need no state, in its order: the seed head
   * names `seed`, the effort check, Equi-X verification. 'OK', or the
   * failure's name without the EQUIX_POW_ prefix ('FAIL_SEED_HEAD',
   * 'FAIL_EFFORT', 'FAIL_ORDER', 'FAIL_PARTIAL_SUM', ...). A service
   * adds its minimum effort and a replay store.
   */
  verify({ id, seed, nonce, effort, seedHead, solution }) {
    const c = need();
    const f = proofFields({ nonce, effort, seedHead, solution });
    const idb = fixed(id, c.ex_pow_id_len(), 'id');
    const seedb = fixed(seed, c.ex_pow_seed_len(), 'seed');
    if (powVerifier === 0) {
      powVerifier = c.ex_equix_alloc(0, 1);
      if (powVerifier === 0) throw new Error('equix: out of memory');
    }
    const [pid, pseed, pnonce, phead, psol] = place(idb, seedb, f.nonce, f.seedHead, f.solution);
    return cString(c.ex_pow_result_name(
      c.ex_pow_verify(powVerifier, pid, pseed, pnonce, f.effort, phead, psol)));
  },

  /** The 41-byte PROOF_OF_WORK extension body of a proof. */
  encodeExtension(proof) {
    const c = need();
    const f = proofFields(proof);
    const len = c.ex_pow_extension_len();
    const [pnonce, phead, psol, out] = place(f.nonce, f.seedHead, f.solution, new Uint8Array(len));
    const r = c.ex_pow_extension_encode(pnonce, f.effort, phead, psol, out);
    if (r !== 0) throw powFailure('encodeExtension', r);
    return heap().slice(out, out + len);
  },

  /**
   * The proof in an extension body: { nonce, effort, seedHead, solution }.
   * Throws an Error with code 'FAIL_LENGTH' or 'FAIL_VERSION'.
   */
  decodeExtension(bytes) {
    const c = need();
    const body = asBytes(bytes, 'extension body');
    const len = c.ex_pow_nonce_len();
    const [pnonce, peffort, phead, psol] = place(new Uint8Array(len),
      new Uint8Array(4), new Uint8Array(SEED_HEAD_BYTES), new Uint8Array(SOLUTION_BYTES));
    // The body may be any length (the C code says which is wrong), so
    // it gets its own copy rather than the scratch buffer.
    const r = withCopy(body, (pbody, n) =>
      c.ex_pow_extension_decode(pbody, n, pnonce, peffort, phead, psol));
    if (r !== 0) throw powFailure('decodeExtension', r);
    const h = heap();
    return {
      nonce: h.slice(pnonce, pnonce + len),
      effort: new DataView(h.buffer).getUint32(peffort, true),
      seedHead: h.slice(phead, phead + SEED_HEAD_BYTES),
      solution: h.slice(psol, psol + SOLUTION_BYTES),
    };
  },

  /**
   * The descriptor line "pow-params v1 SEED EFFORT EXPIRATION" as
   * { type: 'v1', seed: Uint8Array(32), suggestedEffort, expiration }
   * (expiration: seconds since 1970, UTC). Throws an Error whose code
   * names the fault ('FAIL_SYNTAX', 'FAIL_VERSION', 'FAIL_BASE64',
   * 'FAIL_NUMBER', 'FAIL_TIMESTAMP').
   */
  parseParams(line) {
    const c = need();
    if (typeof line !== 'string') throw new TypeError('equix: a pow-params line is a string');
    const text = new TextEncoder().encode(line);
    const seedLen = c.ex_pow_seed_len();
    const [pseed, peffort, pexp] = place(new Uint8Array(seedLen), new Uint8Array(4), new Uint8Array(8));
    const r = withCopy(text, (pline, n) => c.ex_pow_params_parse(pline, n, pseed, peffort, pexp));
    if (r !== 0) throw powFailure('parseParams', r);
    const h = heap();
    const v = new DataView(h.buffer);
    return {
      type: 'v1',
      seed: h.slice(pseed, pseed + seedLen),
      suggestedEffort: v.getUint32(peffort, true),
      expiration: Number(v.getBigInt64(pexp, true)),
    };
  },

  /** The pow-params line (no newline) of { seed, suggestedEffort, expiration }. */
  formatParams({ seed, suggestedEffort, expiration }) {
    const c = need();
    const seedb = fixed(seed, c.ex_pow_seed_len(), 'seed');
    const effort = effortOf(suggestedEffort);
    if (!Number.isSafeInteger(expiration)) {
      throw new RangeError('equix: expiration is whole seconds since 1970 (UTC)');
    }
    const size = c.ex_pow_params_max_len() + 1;
    const [pseed, out] = place(seedb, new Uint8Array(size));
    const r = c.ex_pow_params_format(pseed, effort, BigInt(expiration), out, size);
    if (r !== 0) throw powFailure('formatParams', r);
    return cString(out);
  },
});

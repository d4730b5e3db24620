// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// Tor's PoW v1: the puzzle (challenge string, effort check), the client's
// search over workers (pow_search.js), the stateless check of a proof, and
// the wire formats (INTRODUCE1 extension body, descriptor pow-params line),
// all through the library's own C code (core.c, pow_core.c).

import {
  need, heap, bytes, place, record, effortOf, withCopy, cString, failure, badArgument,
  limits,
} from './core.js';
import { search, defaultWorkers } from './pow_search.js';
import { SOLUTION_BYTES, equixContext } from './equix.js';

export const pow = {
  /** P || ID || C || N || E, the string Equi-X solves (Uint8Array). */
  challenge(params) {
    const c = need();
    const { id, seed, nonce, effort } = record(params, 'pow.challenge()');
    const len = c.ex_pow_challenge_len();
    const idb = bytes(id, 'id', c.ex_pow_id_len());
    const seedb = bytes(seed, 'seed', c.ex_pow_seed_len());
    const nonceb = bytes(nonce, 'nonce', c.ex_pow_nonce_len());
    const e = effortOf(effort);
    const [out, pid, pseed, pnonce] = place(new Uint8Array(len), idb, seedb, nonceb);
    c.ex_pow_challenge_build(out, pid, pseed, pnonce, e);
    return heap().slice(out, out + len);
  },

  /** R: the 32-bit big-endian BLAKE2b-32 of challenge || solution. */
  effortHash(challenge, solution) {
    const c = need();
    const ch = bytes(challenge, 'a PoW challenge', c.ex_pow_challenge_len());
    const sol = bytes(solution, 'a solution', SOLUTION_BYTES);
    const [pch, psol] = place(ch, sol);
    return c.ex_pow_effort_hash(pch, psol) >>> 0;
  },

  /** Whether R * effort fits in 32 bits: the solution meets the effort. */
  effortCheck(challenge, solution, effort) {
    const c = need();
    const ch = bytes(challenge, 'a PoW challenge', c.ex_pow_challenge_len());
    const sol = bytes(solution, 'a solution', SOLUTION_BYTES);
    const e = effortOf(effort);
    const [pch, psol] = place(ch, sol);
    return c.ex_pow_effort_check(pch, psol, e) === 1;
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
    nonce: bytes(proof.nonce, 'nonce', c.ex_pow_nonce_len()),
    effort: effortOf(proof.effort),
    seedHead: bytes(proof.seedHead, 'seedHead', SEED_HEAD_BYTES),
    solution: bytes(proof.solution, 'solution', SOLUTION_BYTES),
  };
}

/** Tor's v1 search and the rest of the PoW layer. */
Object.assign(pow, {
  /**
   * Searches for a proof as Tor's client does: from `nonce` (16 bytes;
   * default random) upwards, the first nonce with a solution that meets
   * `effort`, the first such solution in the solver's order; over
   * `workers` workers (default: the machine's threads, at most 16; at
   * most limits.workers), always finding the proof one worker would.
   * `signal` (AbortSignal) cancels (the promise rejects with its reason);
   * `onProgress({ attempts, seconds })` is called at most every 100 ms,
   * and if it throws, the search ends and the promise rejects with what
   * it threw; `maxAttempts` gives up (Error with code 'FAIL_LIMIT').
   * Resolves { nonce, effort, seedHead, solution, attempts, seconds }.
   */
  async solve(options) {
    const c = need();
    const {
      id, seed, effort, nonce, workers, signal, onProgress, maxAttempts = 0, v2 = false,
    } = record(options, 'pow.solve()');
    if (typeof v2 !== 'boolean') throw badArgument('pow.solve()\'s v2 must be a boolean');
    if (signal !== undefined && !(signal instanceof AbortSignal)) {
      throw badArgument('pow.solve()\'s signal must be an AbortSignal');
    }
    if (onProgress !== undefined && typeof onProgress !== 'function') {
      throw badArgument('pow.solve()\'s onProgress must be a function');
    }
    signal?.throwIfAborted();
    const job = {
      id: bytes(id, 'id', c.ex_pow_id_len()),
      seed: bytes(seed, 'seed', c.ex_pow_seed_len()),
      nonce: nonce === undefined
        ? globalThis.crypto.getRandomValues(new Uint8Array(c.ex_pow_nonce_len()))
        : bytes(nonce, 'nonce', c.ex_pow_nonce_len()),
      effort: effortOf(effort),
      v2,
    };
    const n = workers ?? (await defaultWorkers());
    if (!Number.isInteger(n) || n < 1 || n > limits.workers) {
      throw badArgument(`workers is an integer from 1 to limits.workers (${limits.workers})`, RangeError);
    }
    if (!Number.isSafeInteger(maxAttempts) || maxAttempts < 0) {
      throw badArgument('maxAttempts is a non-negative integer', RangeError);
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
   * adds its minimum effort and a replay store. `v2: true` checks an
   * Equi-X v2 proof (pow.solve's v2).
   */
  verify(proof) {
    const c = need();
    const {
      id, seed, nonce, effort, seedHead, solution, v2 = false,
    } = record(proof, 'pow.verify()');
    if (typeof v2 !== 'boolean') throw badArgument('pow.verify()\'s v2 must be a boolean');
    const f = proofFields({ nonce, effort, seedHead, solution });
    const idb = bytes(id, 'id', c.ex_pow_id_len());
    const seedb = bytes(seed, 'seed', c.ex_pow_seed_len());
    const verifier = equixContext(false, { v2 }, 'pow.verify()');
    const [pid, pseed, pnonce, phead, psol] = place(idb, seedb, f.nonce, f.seedHead, f.solution);
    return cString(c.ex_pow_result_name(
      c.ex_pow_verify(verifier, pid, pseed, pnonce, f.effort, phead, psol)));
  },

  /** The 41-byte PROOF_OF_WORK extension body of a proof. */
  encodeExtension(proof) {
    const c = need();
    const f = proofFields(record(proof, 'pow.encodeExtension()'));
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
  decodeExtension(extension) {
    const c = need();
    const body = bytes(extension, 'an extension body');
    const len = c.ex_pow_nonce_len();
    const [pnonce, peffort, phead, psol] = place(new Uint8Array(len),
      new Uint8Array(4), new Uint8Array(SEED_HEAD_BYTES), new Uint8Array(SOLUTION_BYTES));
    // The body may be of any length up to limits.inputBytes (the C code
    // says which is wrong), so it gets its own copy rather than the
    // scratch buffer.
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
    if (typeof line !== 'string') throw badArgument('a pow-params line is a string');
    // UTF-8 takes at least a byte per UTF-16 unit: a longer string is
    // refused before it is encoded.
    if (line.length > limits.inputBytes) {
      throw failure(`equix: a pow-params line of ${line.length} characters is more than limits.inputBytes (${limits.inputBytes})`,
        'FAIL_TOO_LARGE', RangeError);
    }
    const text = bytes(new TextEncoder().encode(line), 'a pow-params line');
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
  formatParams(params) {
    const c = need();
    const { seed, suggestedEffort, expiration } = record(params, 'pow.formatParams()');
    const seedb = bytes(seed, 'seed', c.ex_pow_seed_len());
    const effort = effortOf(suggestedEffort);
    if (!Number.isSafeInteger(expiration)) {
      throw badArgument('expiration is whole seconds since 1970 (UTC)', RangeError);
    }
    const size = c.ex_pow_params_max_len() + 1;
    const [pseed, out] = place(seedb, new Uint8Array(size));
    const r = c.ex_pow_params_format(pseed, effort, BigInt(expiration), out, size);
    if (r !== 0) throw powFailure('formatParams', r);
    return cString(out);
  },
});

// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The package's entry point: loads dist/equix.wasm (the C library built by
// build.sh) and wraps its C ABI (src/core.c) in the JavaScript API. All
// hashing, solving and checking happens in the C code; this file only
// moves bytes in and out of the module's memory.

import { wasiImports } from './wasi.js';

let core = null; // the instance's exports, once ready() has resolved
let loading = null; // ready()'s promise, so that concurrent calls share it
let scratch = 0; // a fixed buffer in the module's memory for small I/O
const SCRATCH_SIZE = 4096;

// Where the module's bytes come from when the caller gives none: the file
// next to this package's src/, read from disk in Node and fetched
// elsewhere (browsers, Deno).
async function defaultWasm() {
  const url = new URL('../dist/equix.wasm', import.meta.url);
  if (url.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    return readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`equix: fetching ${url}: ${response.status}`);
  return response.arrayBuffer();
}

/**
 * Loads and instantiates the core. Every other function needs it to have
 * resolved. `options.wasm` may give the module (bytes or a compiled
 * WebAssembly.Module) instead of the packaged file.
 */
export function ready(options = {}) {
  if (loading === null) {
    loading = (async () => {
      const source = options.wasm ?? (await defaultWasm());
      const module = source instanceof WebAssembly.Module
        ? source : await WebAssembly.compile(source);
      const wasi = wasiImports(module, () => core.memory);
      const instance = await WebAssembly.instantiate(module, wasi);
      core = instance.exports;
      core._initialize(); // a WASI reactor's constructors
      scratch = core.ex_malloc(SCRATCH_SIZE);
      if (scratch === 0) throw new Error('equix: no memory for the core');
    })();
    loading.catch(() => { loading = null; });
  }
  return loading;
}

function need() {
  if (core === null) throw new Error('equix: call and await ready() first');
  return core;
}

// A view of the module's memory; it must be taken again after any call
// that may allocate, since growing the memory detaches the old buffer.
function heap() {
  return new Uint8Array(need().memory.buffer);
}

function asBytes(value, what) {
  if (value instanceof Uint8Array) return value;
  if (ArrayBuffer.isView(value)) {
    return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  }
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  throw new TypeError(`equix: ${what} must be a Uint8Array, another ArrayBuffer view or an ArrayBuffer`);
}

// Copies `bytes` into the module (into a fresh allocation: the scratch
// buffer is for outputs), runs fn(pointer, length) and frees the copy.
function withCopy(bytes, fn) {
  const c = need();
  const p = c.ex_malloc(Math.max(bytes.length, 1));
  if (p === 0) throw new Error('equix: out of memory');
  try {
    heap().set(bytes, p);
    return fn(p, bytes.length);
  } finally {
    c.ex_free(p);
  }
}

function cString(p) {
  const h = heap();
  let end = p;
  while (h[end] !== 0) end++;
  return new TextDecoder().decode(h.subarray(p, end));
}

function failure(message, code) {
  const e = new Error(message);
  e.code = code;
  return e;
}

// Contexts live in the module's memory: freed by free(), or when the
// JavaScript object is collected, whichever comes first.
const hashxContexts = new FinalizationRegistry((ctx) => {
  if (core !== null) core.ex_hashx_free(ctx);
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

  /** false: this release only interprets (no WebAssembly compiler yet). */
  get compiled() {
    return false;
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
        (p, n) => c.ex_hashx_exec_block(this.#ctx, p, n, scratch));
    } else {
      const x = typeof input === 'number' && Number.isSafeInteger(input)
        ? BigInt(input) : input;
      if (typeof x !== 'bigint') {
        throw new TypeError('equix: a HashX input is a BigInt (or a safe integer Number)');
      }
      if (x < 0n || x >= U64_LIMIT) {
        throw new RangeError('equix: a HashX input is a 64-bit unsigned integer');
      }
      r = c.ex_hashx_exec(this.#ctx, x, scratch);
    }
    if (r !== 0) {
      const name = cString(c.ex_hashx_result_name(r));
      throw failure(`equix: hashx_exec: ${name}`, name);
    }
    return heap().slice(scratch, scratch + 32);
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
 * input is a byte string instead of a counter.
 */
export function hashx(seed, options = {}) {
  const c = need();
  const bytes = asBytes(seed, 'seed');
  const block = options.block === true;
  const ctx = c.ex_hashx_alloc(block ? 1 : 0);
  if (ctx === 0) throw new Error('equix: out of memory');
  const r = withCopy(bytes, (p, n) => c.ex_hashx_make(ctx, p, n));
  if (r !== 0) {
    c.ex_hashx_free(ctx);
    const name = cString(c.ex_hashx_result_name(r));
    throw failure(`equix: hashx_make: ${name}`, name);
  }
  return new HashX(ctx, block);
}

// One context of each kind, made on first use and kept: the solver's
// carries its 1.5 MiB of work memory, which each solve reuses.
let solver = 0;
let verifier = 0;

function solverContext() {
  if (solver === 0) {
    solver = need().ex_equix_alloc(1);
    if (solver === 0) throw new Error('equix: out of memory for the solver');
  }
  return solver;
}

function verifierContext() {
  if (verifier === 0) {
    verifier = need().ex_equix_alloc(0);
    if (verifier === 0) throw new Error('equix: out of memory');
  }
  return verifier;
}

const SOLUTION_BYTES = 16;

export const equix = {
  /**
   * The solutions of `challenge` (bytes), each a Uint8Array(16) in wire
   * form, in the order the reference solver returns them. Throws an
   * Error with code 'FAIL_CHALLENGE' when the challenge has no HashX
   * function.
   */
  solve(challenge) {
    const c = need();
    const ctx = solverContext();
    const max = c.ex_equix_max_sols();
    const out = scratch;
    const count = scratch + max * SOLUTION_BYTES;
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
  verify(challenge, solution) {
    const c = need();
    const sol = asBytes(solution, 'solution');
    if (sol.length !== SOLUTION_BYTES) {
      throw new RangeError('equix: a solution is 16 bytes');
    }
    const ctx = verifierContext();
    heap().set(sol, scratch);
    const r = withCopy(asBytes(challenge, 'challenge'),
      (p, n) => c.ex_equix_verify(ctx, p, n, scratch));
    return cString(c.ex_equix_result_name(r));
  },
};

function fixed(value, length, what) {
  const b = asBytes(value, what);
  if (b.length !== length) throw new RangeError(`equix: ${what} is ${length} bytes`);
  return b;
}

function effortOf(effort) {
  if (!Number.isInteger(effort) || effort < 0 || effort > 0xffffffff) {
    throw new RangeError('equix: an effort is an integer from 0 to 2^32 - 1');
  }
  return effort >>> 0;
}

// Tor's PoW v1 puzzle: the challenge string and the effort check. The
// search (pow.solve) and the service side come in a later release.
export const pow = {
  /** P || ID || C || N || E, the string Equi-X solves (Uint8Array). */
  challenge({ id, seed, nonce, effort }) {
    const c = need();
    const len = c.ex_pow_challenge_len();
    const idb = fixed(id, c.ex_pow_id_len(), 'id');
    const seedb = fixed(seed, c.ex_pow_seed_len(), 'seed');
    const nonceb = fixed(nonce, c.ex_pow_nonce_len(), 'nonce');
    const e = effortOf(effort);
    const out = scratch;
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
    h.set(ch, scratch);
    h.set(sol, scratch + ch.length);
    return c.ex_pow_effort_check(scratch, scratch + ch.length, e) === 1;
  },
};

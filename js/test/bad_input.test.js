// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The JavaScript package's rows of doc/bad-input.md (ids starting "js-"),
// walked as tests/test_bad_input.c walks the C functions' rows: each row's
// call is made here, by id, and what it gives (the thrown or rejected
// error's code, or "OK" when it succeeds, or the string it returns) must
// be the first code span of the row's outcome. A row without a case here,
// or a case without its one row, fails, so the table and the package
// cannot drift apart. The document is read from the repository (in a
// browser, fetched from where the runner serves it).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  ready, hashx, hashwx, equix, pow, toHex, fromHex,
} from '../src/index.js';
import { hex, torVectors } from './vectors.js';
import { docRows, walkRows } from './doc_rows.js';
import { lookalike } from './lookalike.js';
import { CORE_ABI } from '../src/core_abi.js';

await ready();

const DOC = new URL('../../doc/bad-input.md', import.meta.url);

async function readDoc() {
  if (DOC.protocol === 'file:') {
    const { readFileSync } = await import('node:fs');
    return readFileSync(DOC, 'utf8');
  }
  const response = await fetch(DOC);
  if (!response.ok) throw new Error(`fetching ${DOC}: ${response.status}`);
  return response.text();
}

const rows = docRows(await readDoc(), 'js-');

// ---- The rows' names ---------------------------------------------------

const MAX = 1 << 20; // limits.inputBytes, as the document says
const WORKERS = 64; // limits.workers
const seed = new TextEncoder().encode('This is a test\0');
const h = hashx(seed);
const hb = hashx(seed, { block: true });
const seed32 = new Uint8Array(32).map((_, i) => i);
const w = hashwx(seed32);
const v = torVectors()[0];
const p = {
  id: hex(v.id), seed: hex(v.seed), nonce: hex(v.nonce), effort: v.effort,
  seedHead: hex(v.seed).slice(0, 4), solution: hex(v.solution),
};

function posing() {
  const o = Object.create(Uint8Array.prototype);
  let reads = 0;
  Object.defineProperty(o, 'length', { get: () => (reads++ === 0 ? 16 : 5000) });
  return o;
}

function detached(n) {
  const u = new Uint8Array(n);
  structuredClone(u.buffer, { transfer: [u.buffer] });
  return u;
}

// ready() as the first call: on a copy of core.js not yet loaded (a
// module is one instance per URL).
let instances = 0;
async function firstReady(options) {
  instances++;
  const core = await import(`../src/core.js?first=${instances}`);
  return core.ready(options);
}

const EMPTY_MODULE = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

function throwing() {
  const e = new Error('the caller\'s callback failed');
  e.code = 'CALLER';
  throw e;
}

// ---- One case per row --------------------------------------------------

const cases = {
  'js-ready-options-null': () => ready(null),
  'js-ready-options-unknown': () => ready({ JIT: false }),
  'js-ready-other-options': () => ready({ jit: false }),
  'js-ready-same-options': () => ready({ jit: true, wideMultiply: true }),
  'js-ready-wasm-not-bytes': () => firstReady({ wasm: 42 }),
  'js-ready-wasm-not-wasm': () => firstReady({ wasm: new Uint8Array([1, 2, 3]) }),
  'js-ready-wasm-not-core': () => firstReady({ wasm: EMPTY_MODULE }),
  'js-ready-wasm-other-version': () => firstReady({ wasm: lookalike({ ...CORE_ABI, ex_equix_alloc: 2 }) }),
  'js-to-hex-string': () => toHex('00'),
  'js-to-hex-posing': () => toHex(posing()),
  'js-to-hex-detached': () => toHex(detached(4)),
  'js-to-hex-too-large': () => toHex(new Uint8Array(MAX + 1)),
  'js-from-hex-not-string': () => fromHex(42),
  'js-from-hex-odd': () => fromHex('abc'),
  'js-from-hex-prefix': () => fromHex('0x00'),
  'js-from-hex-too-long': () => fromHex('0'.repeat(2 * MAX + 2)),
  'js-from-hex-largest': () => fromHex('0'.repeat(2 * MAX)),
  'js-hashx-seed-string': () => hashx('seed'),
  'js-hashx-seed-null': () => hashx(null),
  'js-hashx-seed-posing': () => hashx(posing()),
  'js-hashx-seed-proxy': () => hashx(new Proxy(new Uint8Array(16), {})),
  'js-hashx-seed-detached': () => hashx(detached(16)),
  'js-hashx-seed-detached-buffer': () => hashx(detached(16).buffer),
  'js-hashx-seed-too-large': () => hashx(new Uint8Array(MAX + 1)),
  'js-hashx-seed-largest': () => hashx(new Uint8Array(MAX)).free(),
  'js-hashx-options-null': () => hashx(seed, null),
  'js-hashx-options-unknown': () => hashx(seed, { compiled: false }),
  'js-hashx-options-not-boolean': () => hashx(seed, { block: 1 }),
  'js-hash-freed': () => {
    const f = hashx(seed);
    f.free();
    return f.hash(0n);
  },
  'js-hash-compiled-freed': () => {
    const f = hashx(seed);
    f.free();
    return f.compiled;
  },
  'js-hash-counter-too-big': () => h.hash(2n ** 64n),
  'js-hash-counter-negative': () => h.hash(-1),
  'js-hash-counter-fraction': () => h.hash(1.5),
  'js-hash-counter-bytes': () => h.hash(seed),
  'js-hash-block-posing': () => hb.hash(posing()),
  'js-hash-block-detached': () => hb.hash(detached(8)),
  'js-hash-block-too-large': () => hb.hash(new Uint8Array(MAX + 1)),
  'js-hashwx-seed-short': () => hashwx(new Uint8Array(31)),
  'js-hashwx-seed-long': () => hashwx(new Uint8Array(33)),
  'js-hashwx-seed-string': () => hashwx('00'.repeat(32)),
  'js-hashwx-seed-detached': () => hashwx(detached(32)),
  'js-hashwx-options-unknown': () => hashwx(seed32, { block: true }),
  'js-hashwx-options-not-boolean': () => hashwx(seed32, { compile: 1 }),
  'js-hashwx-nonce-too-big': () => w.hash(2n ** 64n),
  'js-hashwx-nonce-negative': () => w.hash(-1n),
  'js-hashwx-nonce-unsafe': () => w.hash(2 ** 53),
  'js-hashwx-nonce-string': () => w.hash('1'),
  'js-hashwx-freed': () => {
    const f = hashwx(seed32);
    f.free();
    return f.hash(0n);
  },
  'js-hashwx-compiled-freed': () => {
    const f = hashwx(seed32);
    f.free();
    return f.compiled;
  },
  'js-equix-solve-too-large': () => equix.solve(new Uint8Array(MAX + 1)),
  'js-equix-solve-detached': () => equix.solve(detached(4)),
  'js-equix-solve-options-null': () => equix.solve(seed, null),
  'js-equix-solve-v2-not-boolean': () => equix.solve(seed, { v2: 1 }),
  'js-equix-verify-v2-unknown': () => equix.verify(seed, new Uint8Array(16), { v3: true }),
  'js-equix-verify-solution-short': () => equix.verify(seed, new Uint8Array(15)),
  'js-equix-verify-solution-posing': () => equix.verify(new Uint8Array(4), posing()),
  'js-equix-verify-solution-proxy': () => equix.verify(new Uint8Array(4), new Proxy(new Uint8Array(16), {})),
  'js-equix-verify-challenge-too-large': () => equix.verify(new Uint8Array(MAX + 1), new Uint8Array(16)),
  'js-pow-challenge-id-short': () => pow.challenge({ ...p, id: new Uint8Array(31) }),
  'js-pow-challenge-effort-negative': () => pow.challenge({ ...p, effort: -1 }),
  'js-pow-challenge-effort-too-big': () => pow.challenge({ ...p, effort: 2 ** 32 }),
  'js-pow-effort-check-detached': () => pow.effortCheck(detached(100), p.solution, 1),
  'js-pow-verify-null': () => pow.verify(null),
  'js-pow-verify-seed-head-posing': () => pow.verify({ ...p, seedHead: posing() }),
  'js-pow-verify-solution-detached': () => pow.verify({ ...p, solution: detached(16) }),
  'js-pow-verify-v2-not-boolean': () => pow.verify({ ...p, v2: 1 }),
  'js-pow-solve-v2-not-boolean': () => pow.solve({ ...p, v2: 'yes' }),
  'js-pow-solve-null': () => pow.solve(null),
  'js-pow-solve-workers-zero': () => pow.solve({ ...p, workers: 0 }),
  'js-pow-solve-workers-above-cap': () => pow.solve({ ...p, effort: 0, workers: WORKERS + 1 }),
  'js-pow-solve-on-progress-not-function': () => pow.solve({ ...p, onProgress: 'x' }),
  'js-pow-solve-on-progress-throws': () => pow.solve({ ...p, effort: 1000, workers: 2, onProgress: throwing }),
  'js-pow-solve-signal-not-signal': () => pow.solve({ ...p, signal: {} }),
  'js-pow-solve-limit': () => pow.solve({ ...p, effort: 2 ** 32 - 1, workers: 1, maxAttempts: 2 }),
  'js-pow-decode-extension-short': () => pow.decodeExtension(pow.encodeExtension(p).subarray(0, 40)),
  'js-pow-decode-extension-too-large': () => pow.decodeExtension(new Uint8Array(MAX + 1)),
  'js-pow-decode-extension-version': () => {
    const body = pow.encodeExtension(p);
    body[0] = 2;
    return pow.decodeExtension(body);
  },
  'js-pow-encode-extension-nonce-short': () => pow.encodeExtension({ ...p, nonce: new Uint8Array(15) }),
  'js-pow-parse-params-not-string': () => pow.parseParams(42),
  'js-pow-parse-params-too-long': () => pow.parseParams('x'.repeat(MAX + 1)),
  'js-pow-format-params-before-1970': () => pow.formatParams({ seed: p.seed, suggestedEffort: 1, expiration: -1 }),
  'js-pow-format-params-fraction': () => pow.formatParams({ seed: p.seed, suggestedEffort: 1, expiration: 0.5 }),
};

// What a call gives: its error's code, the string it returns, or "OK".
async function outcome(fn) {
  try {
    const r = await fn();
    return typeof r === 'string' ? r : 'OK';
  } catch (e) {
    return e?.code ?? `an error without a code (${e?.name}: ${e?.message})`;
  }
}

walkRows({ test, assert, rows, cases, prefix: 'js-', outcome });

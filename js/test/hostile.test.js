// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// Hostile callers, beyond doc/bad-input.md's one-call rows
// (bad_input.test.js): objects posing as byte arrays and detached
// buffers at every entry point that takes bytes, with the core checked
// intact afterwards; a progress callback that throws; and the memory the
// core keeps: per live HashX function, for functions the caller dropped,
// and for inputs above the documented limit.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import * as pkg from '../src/index.js';
import { loaded } from '../src/core.js';
import { hex, toHex, torVectors } from './vectors.js';

const { ready, hashx, equix, pow } = pkg;

await ready();

const inNode = typeof process !== 'undefined' && !!process.versions?.node;
const REFERENCE = '2b2f54567dcbea98fdb5d5e5ce9a65983c4a4e35ab1464b1efb61e83b7074bb2'; // "This is a test\0", input 0
const BLOCK_REFERENCE_INPUT = new Uint8Array([1, 2, 3]);
const MAX = 1 << 20; // limits.inputBytes, as index.d.ts documents it
const seed = new TextEncoder().encode('This is a test\0');
const v = torVectors()[0];
const p = {
  id: hex(v.id), seed: hex(v.seed), nonce: hex(v.nonce), effort: v.effort,
  seedHead: hex(v.seed).slice(0, 4), solution: hex(v.solution),
};

const memory = () => loaded().memory.buffer.byteLength;

// An object posing as a Uint8Array: its length reads `first`, then 5000.
function posing(first) {
  const o = Object.create(Uint8Array.prototype);
  let reads = 0;
  Object.defineProperty(o, 'length', { get: () => (reads++ === 0 ? first : 5000) });
  Object.defineProperty(o, 'byteLength', { get: () => (reads++ === 0 ? first : 5000) });
  return o;
}

function detached(n) {
  const u = new Uint8Array(n);
  structuredClone(u.buffer, { transfer: [u.buffer] });
  return u;
}

// Runs `script` as a module in a second Node process (from a file: a
// worker cannot start in a process given its code by --input-type -e).
// Resolves { error, stdout, stderr }.
async function runNode(script, flags, timeout) {
  const { execFile } = await import('node:child_process');
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'equix-hostile-'));
  const file = join(dir, 'script.mjs');
  writeFileSync(file, script);
  try {
    return await new Promise((resolve) => {
      execFile(process.execPath, [...flags, file], { timeout },
        (error, stdout, stderr) => resolve({ error, stdout, stderr }));
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Every entry point that takes bytes, with the size its argument must
// have (16 for the ones of any size): call(bytes) makes the call with
// that argument bad and the rest good.
const hb = hashx(seed, { block: true });
const challenge = pow.challenge(p);
const ENTRIES = [
  ['hashx: seed', 16, (b) => hashx(b)],
  ['HashX.hash: block input', 16, (b) => hb.hash(b)],
  ['equix.solve: challenge', 16, (b) => equix.solve(b)],
  ['equix.verify: challenge', 16, (b) => equix.verify(b, p.solution)],
  ['equix.verify: solution', 16, (b) => equix.verify(challenge, b)],
  ['pow.challenge: id', 32, (b) => pow.challenge({ ...p, id: b })],
  ['pow.challenge: seed', 32, (b) => pow.challenge({ ...p, seed: b })],
  ['pow.challenge: nonce', 16, (b) => pow.challenge({ ...p, nonce: b })],
  ['pow.effortHash: challenge', 100, (b) => pow.effortHash(b, p.solution)],
  ['pow.effortHash: solution', 16, (b) => pow.effortHash(challenge, b)],
  ['pow.effortCheck: challenge', 100, (b) => pow.effortCheck(b, p.solution, 1)],
  ['pow.effortCheck: solution', 16, (b) => pow.effortCheck(challenge, b, 1)],
  ['pow.verify: id', 32, (b) => pow.verify({ ...p, id: b })],
  ['pow.verify: seed', 32, (b) => pow.verify({ ...p, seed: b })],
  ['pow.verify: nonce', 16, (b) => pow.verify({ ...p, nonce: b })],
  ['pow.verify: seedHead', 4, (b) => pow.verify({ ...p, seedHead: b })],
  ['pow.verify: solution', 16, (b) => pow.verify({ ...p, solution: b })],
  ['pow.encodeExtension: nonce', 16, (b) => pow.encodeExtension({ ...p, nonce: b })],
  ['pow.encodeExtension: seedHead', 4, (b) => pow.encodeExtension({ ...p, seedHead: b })],
  ['pow.encodeExtension: solution', 16, (b) => pow.encodeExtension({ ...p, solution: b })],
  ['pow.decodeExtension: body', 41, (b) => pow.decodeExtension(b)],
  ['pow.formatParams: seed', 32, (b) => pow.formatParams({ seed: b, suggestedEffort: 1, expiration: 0 })],
  ['pow.solve: id', 32, (b) => pow.solve({ ...p, effort: 0, workers: 1, id: b })],
  ['pow.solve: seed', 32, (b) => pow.solve({ ...p, effort: 0, workers: 1, seed: b })],
  ['pow.solve: nonce', 16, (b) => pow.solve({ ...p, effort: 0, workers: 1, nonce: b })],
  ['toHex: bytes', 16, (b) => pkg.toHex(b)],
];

// The error's code, whether `call` throws or returns a promise that
// rejects; 'none' when it succeeds.
async function codeOf(call) {
  try {
    await call();
    return 'none';
  } catch (e) {
    return e?.code ?? `no code: ${e?.name}: ${e?.message}`;
  }
}

// The core still works: a HashX function made before, a good proof.
function checkIntact(made) {
  assert.equal(toHex(made.hash(0n)), REFERENCE, 'a HashX function made before');
  assert.equal(pow.verify(p), 'OK', 'a good proof');
  assert.equal(toHex(hashx(seed).hash(0n)), REFERENCE, 'a new HashX function');
}

test('objects posing as a Uint8Array, and Proxies of one, are refused at every entry point, and the core stays intact', async () => {
  const made = hashx(seed);
  const blockBefore = toHex(hb.hash(BLOCK_REFERENCE_INPUT));
  for (const [name, size, call] of ENTRIES) {
    assert.equal(await codeOf(() => call(posing(size))), 'FAIL_ARGUMENT', `${name}: a posing object`);
    assert.equal(await codeOf(() => call(new Proxy(new Uint8Array(size), {}))), 'FAIL_ARGUMENT', `${name}: a Proxy`);
  }
  checkIntact(made);
  assert.equal(toHex(hb.hash(BLOCK_REFERENCE_INPUT)), blockBefore);
  made.free();
});

test('a detached buffer is refused with FAIL_DETACHED at every entry point', async () => {
  const made = hashx(seed);
  for (const [name, size, call] of ENTRIES) {
    assert.equal(await codeOf(() => call(detached(size))), 'FAIL_DETACHED', `${name}: a view`);
    assert.equal(await codeOf(() => call(detached(size).buffer)), 'FAIL_DETACHED', `${name}: an ArrayBuffer`);
    const dv = new DataView(new ArrayBuffer(size));
    structuredClone(dv.buffer, { transfer: [dv.buffer] });
    assert.equal(await codeOf(() => call(dv)), 'FAIL_DETACHED', `${name}: a DataView`);
  }
  checkIntact(made);
  made.free();
});

test('limits: 1 MiB of input, 64 workers, as documented', () => {
  assert.deepEqual({ ...pkg.limits }, { inputBytes: MAX, workers: 64 });
  assert.ok(Object.isFrozen(pkg.limits));
});

test('an input above limits.inputBytes is refused before anything is copied into the core', async () => {
  const big = new Uint8Array(8 * MAX);
  const before = memory();
  for (const call of [
    () => hashx(big), () => hb.hash(big), () => equix.solve(big), () => equix.verify(big, p.solution),
    () => pow.decodeExtension(big),
  ]) {
    assert.equal(await codeOf(call), 'FAIL_TOO_LARGE');
  }
  assert.equal(memory(), before, 'the core\'s memory grew');
  // At the limit the input is taken.
  assert.equal(hb.hash(new Uint8Array(MAX)).length, 32);
});

test('a progress callback that throws rejects the search with its error, and the workers end', async () => {
  // In a browser the search's Web Workers are counted here (Node's
  // worker_threads cannot be seen from outside; the next test checks
  // that no worker keeps Node's process alive).
  const made = [];
  const Original = globalThis.Worker;
  if (!inNode && Original !== undefined) {
    globalThis.Worker = class extends Original {
      constructor(...args) {
        super(...args);
        this.ended = false;
        made.push(this);
      }

      terminate() {
        this.ended = true;
        super.terminate();
      }
    };
  }
  const error = new Error('from the callback');
  let calls = 0;
  let outcome;
  try {
    const search = pow.solve({ ...p, effort: 0xffffffff, workers: 2, onProgress() { calls++; throw error; } });
    let timer;
    const late = new Promise((resolve) => { timer = setTimeout(() => resolve('neither resolved nor rejected in 30 s'), 30_000); });
    outcome = await Promise.race([search.then(() => 'resolved', (e) => e), late]);
    clearTimeout(timer);
  } finally {
    globalThis.Worker = Original;
  }
  assert.equal(outcome, error);
  assert.equal(calls, 1, 'the callback was called again after it threw');
  if (!inNode) {
    assert.ok(made.length >= 1, 'no Web Worker was made');
    assert.ok(made.every((w) => w.ended), 'a worker was left running');
  }
});

test('Node: the process ends by itself after a search whose callback threw (no worker left)', async (t) => {
  if (!inNode) {
    t.skip('needs Node (a second process)');
    return;
  }
  const index = new URL('../src/index.js', import.meta.url).href;
  const script = `
    import { ready, pow } from ${JSON.stringify(index)};
    await ready();
    const z = (n, x) => new Uint8Array(n).fill(x);
    try {
      await pow.solve({ id: z(32, 1), seed: z(32, 2), nonce: z(16, 0), effort: 0xffffffff, workers: 2,
        onProgress() { const e = new Error('x'); e.code = 'CALLER'; throw e; } });
      console.log('resolved');
    } catch (e) {
      console.log('rejected', e.code);
    }`;
  const started = performance.now();
  const out = await runNode(script, [], 30_000);
  assert.equal(out.error, null, `the process failed: ${out.error?.message} ${out.stderr}`);
  assert.equal(out.stdout.trim(), 'rejected CALLER');
  assert.ok(performance.now() - started < 20_000, 'the process ended late');
});

// The core's memory, watched from a fresh process (the allocator here has
// whatever earlier tests left free). The core reserves a quarter of its
// memory ahead each time it grows (core.c), so what it may have grown is
// what is live, plus a quarter of where it ends.
const PER_FUNCTION = 40 * 1024; // a context is about 20 KiB
const memoryScript = (body) => `
  import { ready, hashx, jitStatus } from ${JSON.stringify(new URL('../src/index.js', import.meta.url).href)};
  import { loaded } from ${JSON.stringify(new URL('../src/core.js', import.meta.url).href)};
  await ready();
  const mem = () => loaded().memory.buffer.byteLength;
  const make = (text) => {
    try { return hashx(new TextEncoder().encode(text)); } catch (e) { if (e.code !== 'FAIL_SEED') throw e; return null; }
  };
  make('warm up').free();
  ${body}`;

test('Node: live compiled HashX functions keep about their contexts in the core, and the memory grows in few steps', async (t) => {
  if (!inNode) {
    t.skip('needs Node (a fresh core in a second process)');
    return;
  }
  // The code buffer is 66 KiB (the largest module a program can give),
  // the module about 9 KB, the context itself about 20 KiB. Growing the
  // memory in V8 costs in proportion to the modules importing it, so it
  // must grow geometrically, not a few pages per function.
  const N = 128;
  const out = await runNode(memoryScript(`
    const before = mem();
    let growths = 0;
    const live = [];
    for (let i = 0; live.length < ${N}; i++) {
      const size = mem();
      const f = make('live ' + i);
      if (f !== null) live.push(f);
      if (mem() !== size) growths++;
    }
    console.log(JSON.stringify({ grown: mem() - before, final: mem(), growths,
      compiled: live.every((f) => f.compiled) }));`), [], 60_000);
  assert.equal(out.error, null, `the process failed: ${out.error?.message} ${out.stderr}`);
  const r = JSON.parse(out.stdout);
  assert.ok(r.compiled, 'not compiled');
  assert.ok(r.grown <= N * PER_FUNCTION + r.final / 4,
    `${N} live functions grew the core's memory by ${r.grown} bytes, to ${r.final}`);
  assert.ok(r.growths <= 12, `the memory grew ${r.growths} times for ${N} functions`);
});

test('Node: functions dropped without free() are released when collected, and memory follows what is live', async (t) => {
  if (!inNode) {
    t.skip('needs Node with --expose-gc (a second process)');
    return;
  }
  // Five rounds of 50 functions made and dropped; between rounds the
  // collector runs and its finalizers get their turn.
  const out = await runNode(memoryScript(`
    const settle = async () => { for (let i = 0; i < 3; i++) { gc(); await new Promise((r) => setTimeout(r, 0)); } };
    const before = mem();
    const installed = [];
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 50; i++) make(round + ' ' + i);
      await settle();
      installed.push(jitStatus().installed);
    }
    console.log(JSON.stringify({ grown: mem() - before, final: mem(), installed }));`), ['--expose-gc'], 60_000);
  assert.equal(out.error, null, `the process failed: ${out.error?.message} ${out.stderr}`);
  const r = JSON.parse(out.stdout);
  assert.deepEqual(r.installed, [0, 0, 0, 0, 0], 'functions left in the core after collection');
  assert.ok(r.grown <= 50 * PER_FUNCTION + r.final / 4,
    `the core's memory grew by ${r.grown} bytes, to ${r.final}, for 50 live functions at most`);
});

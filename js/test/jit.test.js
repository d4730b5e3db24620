// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The HashX-to-WebAssembly compiler (src/compiler/wasm.c with
// src/jit.js) on its own: every module it makes is valid WebAssembly with
// the one import and export the host expects; compiled and interpreted
// HashX agree on 2,000 random seeds in both modes and forms; where the
// engine refuses to compile, the function runs interpreted, with the same
// outputs, and the package says why.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { ready, hashx, jitStatus } from '../src/index.js';
import { observeJitModules } from '../src/core.js';
import { toHex } from './vectors.js';
import { wabtMissing, wabtValidate } from './wabt.js';

await ready();

const SEEDS = 2000;

function randomBytes(n) {
  return globalThis.crypto.getRandomValues(new Uint8Array(n));
}

function randomU64() {
  const w = new DataView(randomBytes(8).buffer);
  return w.getBigUint64(0, true);
}

// Runs fn() and returns the modules the compiler made meanwhile.
function modulesOf(fn) {
  const seen = [];
  const previous = observeJitModules((bytes) => seen.push(bytes));
  try {
    fn();
  } finally {
    observeJitModules(previous);
  }
  return seen;
}

// Compiled and interpreted functions of `seed` in one mode; both must
// refuse a seed alike. Returns the number of hashes compared (0 for a
// refused seed).
function compare(seed, block) {
  let compiled;
  try {
    compiled = hashx(seed, { block });
  } catch (e) {
    assert.equal(e.code, 'FAIL_SEED', `seed ${toHex(seed)}: ${e.message}`);
    assert.throws(() => hashx(seed, { block, compile: false }), (x) => x.code === 'FAIL_SEED');
    return 0;
  }
  const interpreted = hashx(seed, { block, compile: false });
  assert.equal(compiled.compiled, true, `seed ${toHex(seed)}: ${jitStatus().refusal}`);
  assert.equal(interpreted.compiled, false);
  const inputs = block
    ? [new Uint8Array(0), randomBytes(1 + (seed[0] ?? 0)), randomBytes(256)]
    : [0n, 1n, randomU64(), randomU64(), 0xffffffffffffffffn];
  for (const x of inputs) {
    assert.equal(toHex(compiled.hash(x)), toHex(interpreted.hash(x)),
      `seed ${toHex(seed)}, input ${typeof x === 'bigint' ? x : toHex(x)}`);
  }
  compiled.free();
  interpreted.free();
  return inputs.length;
}

test(`compiled and interpreted HashX agree on ${SEEDS} random seeds`, () => {
  let hashes = 0;
  let refused = 0;
  for (let i = 0; i < SEEDS; i++) {
    const seed = randomBytes(i % 65);
    // every tenth seed in block mode: the register-file form
    const n = compare(seed, i % 10 === 9);
    if (n === 0) refused++;
    hashes += n;
  }
  assert.ok(hashes > 4 * (SEEDS - refused), `${hashes} hashes compared`);
  // About one seed in 400 has no program; far more would mean a bug.
  assert.ok(refused < SEEDS / 50, `${refused} seeds refused`);
});

test('every module is valid, imports the memory alone and exports one function', () => {
  const seeds = Array.from({ length: 20 }, (_, i) => randomBytes(8 + i));
  const modules = modulesOf(() => {
    for (const s of seeds) {
      try {
        hashx(s).free();
        hashx(s, { block: true }).free();
      } catch (e) {
        if (e.code !== 'FAIL_SEED') throw e;
      }
    }
  });
  assert.ok(modules.length >= 2 * 19, `${modules.length} modules`);
  for (const bytes of modules) {
    assert.equal(WebAssembly.validate(bytes), true);
    const m = new WebAssembly.Module(bytes);
    assert.deepEqual(WebAssembly.Module.imports(m),
      [{ module: 'env', name: 'memory', kind: 'memory' }]);
    assert.deepEqual(WebAssembly.Module.exports(m), [{ name: 'f', kind: 'function' }]);
  }
});

test('the modules pass wabt\'s wasm-validate, a second reader of the format', async (t) => {
  const missing = await wabtMissing();
  if (missing !== null) {
    t.skip(missing);
    return;
  }
  const modules = modulesOf(() => {
    for (let i = 0; i < 10; i++) {
      try {
        hashx(randomBytes(16), { block: i % 2 === 1 }).free();
      } catch (e) {
        if (e.code !== 'FAIL_SEED') throw e;
      }
    }
  });
  await wabtValidate(modules);
  assert.ok(modules.length >= 9);
});

test('where the engine refuses to compile, HashX runs interpreted and says why', () => {
  const seed = new TextEncoder().encode('This is a test\0');
  const want = toHex(hashx(seed, { compile: false }).hash(0n));
  const Original = WebAssembly.Module;
  // What a Content-Security-Policy without 'wasm-unsafe-eval' does: the
  // constructor throws.
  WebAssembly.Module = function refused() {
    throw new WebAssembly.CompileError('refused by the test (as a Content-Security-Policy would)');
  };
  let h;
  try {
    h = hashx(seed);
  } finally {
    WebAssembly.Module = Original;
  }
  assert.equal(h.compiled, false);
  assert.match(jitStatus().refusal, /CompileError: refused by the test/);
  assert.equal(toHex(h.hash(0n)), want);
  assert.equal(want, '2b2f54567dcbea98fdb5d5e5ce9a65983c4a4e35ab1464b1efb61e83b7074bb2');
  // Once the engine accepts again, so does the package.
  const again = hashx(seed);
  assert.equal(again.compiled, true);
  assert.equal(jitStatus().refusal, null);
  assert.equal(toHex(again.hash(0n)), want);
});

test('ready({ jit: false }) keeps every function interpreted', async (t) => {
  if (typeof process === 'undefined' || !process.versions?.node) {
    t.skip('needs a fresh process for a second ready() (Node)');
    return;
  }
  const { execFileSync } = await import('node:child_process');
  const index = new URL('../src/index.js', import.meta.url).href;
  const script = `
    import { ready, hashx, jitStatus } from ${JSON.stringify(index)};
    await ready({ jit: false });
    const h = hashx(new TextEncoder().encode('This is a test\\0'));
    console.log(JSON.stringify({ compiled: h.compiled, status: jitStatus(),
      hash: Buffer.from(h.hash(0n)).toString('hex') }));`;
  const out = JSON.parse(execFileSync(process.execPath,
    ['--input-type=module', '-e', script], { encoding: 'utf8' }));
  assert.equal(out.compiled, false);
  assert.equal(out.status.enabled, false);
  assert.match(out.status.refusal, /jit: false/);
  assert.equal(out.status.compiles, 0);
  assert.equal(out.hash, '2b2f54567dcbea98fdb5d5e5ce9a65983c4a4e35ab1464b1efb61e83b7074bb2');
});

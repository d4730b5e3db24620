// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// HashWX through the package's API (hashwx(seed).hash(nonce)): every
// line of tests/vectors/hashwx-v2.txt, recorded from tevador's reference,
// both interpreted and compiled to WebAssembly (src/compiler/hashwx_wasm.c,
// installed by js/src/jit.js), each hash equal to the recorded one. Where
// the host refuses run-time modules, the compiled half is skipped, saying
// why; where it accepts them, a function that still runs interpreted is a
// failure. What the API refuses is in doc/bad-input.md (bad_input.test.js).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { ready, jitStatus, hashwx } from '../src/index.js';
import { observeJitModules } from '../src/core.js';
import { hashwxVectors } from './vectors.js';
import { WASM_1_0, wabtMissing, wabtValidate } from './wabt.js';

await ready();

const VECTORS = hashwxVectors('hashwx-v2.txt');

const hex64 = (x) => x.toString(16).padStart(16, '0');

// Every line through its own function; returns the number of hashes
// checked.
function runCorpus(compile) {
  let hashes = 0;
  for (const v of VECTORS) {
    const where = `hashwx-v2.txt:${v.line}`;
    const f = hashwx(v.seed, { compile });
    try {
      if (compile) {
        assert.equal(f.compiled, true, `${where}: not compiled (${jitStatus().refusal})`);
      } else {
        assert.equal(f.compiled, false, `${where}: an interpreted function runs compiled`);
      }
      for (const c of v.cases) {
        const got = f.hash(c.nonce);
        assert.equal(typeof got, 'bigint');
        assert.equal(hex64(got), hex64(c.hash), `${where}, nonce ${hex64(c.nonce)}`);
        hashes++;
      }
    } finally {
      f.free();
    }
  }
  return hashes;
}

test('the HashWX corpus has its 3000 lines', () => {
  assert.equal(VECTORS.length, 3000);
});

test('HashWX interpreted in the core: every recorded hash', () => {
  const n = runCorpus(false);
  assert.ok(n >= 3 * VECTORS.length, `${n} hashes`);
});

test('HashWX compiled to WebAssembly: every recorded hash', (t) => {
  if (!jitStatus().enabled) {
    t.skip(`the host installs no modules (${jitStatus().refusal})`);
    return;
  }
  const before = jitStatus().compiles;
  const n = runCorpus(true);
  assert.ok(n >= 3 * VECTORS.length, `${n} hashes`);
  // hashwx_alloc makes the all-zero seed's function first, then the
  // seed's: two modules per function.
  assert.equal(jitStatus().compiles - before, 2 * VECTORS.length, 'one module per seed');
});

test('compiled and interpreted HashWX agree on nonces the corpus lacks', () => {
  const nonces = [0xffffffffffffffffn, 0x8000000000000000n, 0x7fffffffffffffffn, 0x100000000n];
  for (const v of VECTORS.slice(0, 200)) {
    const interpreted = hashwx(v.seed, { compile: false });
    const compiled = hashwx(v.seed);
    try {
      for (const x of nonces) {
        assert.equal(hex64(compiled.hash(x)), hex64(interpreted.hash(x)),
          `hashwx-v2.txt:${v.line}, nonce ${hex64(x)}`);
      }
      // A safe-integer Number is the same nonce as its BigInt.
      assert.equal(compiled.hash(462), compiled.hash(462n));
    } finally {
      interpreted.free();
      compiled.free();
    }
  }
});

// The modules of the first `count` lines' functions.
function someModules(count) {
  const seen = [];
  const previous = observeJitModules((bytes) => seen.push(bytes));
  try {
    for (const v of VECTORS.slice(0, count)) hashwx(v.seed).free();
  } finally {
    observeJitModules(previous);
  }
  // Each function's first module is the all-zero seed's (hashwx_alloc).
  return seen.filter((_, i) => i % 2 === 1);
}

test('a HashWX module imports the memory alone and exports its function', async (t) => {
  if (!jitStatus().enabled) {
    t.skip(`the host installs no modules (${jitStatus().refusal})`);
    return;
  }
  const seen = someModules(1);
  assert.equal(seen.length, 1);
  const m = new WebAssembly.Module(seen[0]);
  assert.deepEqual(WebAssembly.Module.imports(m), [{ module: 'env', name: 'memory', kind: 'memory' }]);
  assert.deepEqual(WebAssembly.Module.exports(m), [{ name: 'f', kind: 'function' }]);
  // Within the emitter's bound (CODE_CAPACITY in hashwx_wasm.c).
  assert.ok(seen[0].length < 27648, `${seen[0].length} bytes`);
});

// HashWX was designed for WebAssembly 1.0: wabt's validator, with every
// feature after 1.0 that it knows turned off, accepts the modules.
test('HashWX modules are WebAssembly 1.0 (wabt\'s wasm-validate, later features off)', async (t) => {
  const missing = await wabtMissing();
  if (missing !== null) {
    t.skip(missing);
    return;
  }
  if (!jitStatus().enabled) {
    t.skip(`the host installs no modules (${jitStatus().refusal})`);
    return;
  }
  const modules = someModules(10);
  await wabtValidate(modules, WASM_1_0);
  assert.equal(modules.length, 10);
});

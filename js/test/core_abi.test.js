// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The core's ABI (src/core_abi.js): its table is core.h's and
// pow_core.c's declarations, the packaged core matches it, and ready()
// refuses a core of another version (here a module made to look like the
// core, whose ex_equix_alloc takes one parameter fewer, as the core did
// before Equi-X v2) with FAIL_WASM, rather than let WebAssembly drop the
// extra argument and solve v1 when v2 was asked for.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { ready } from '../src/index.js';
import { need } from '../src/core.js';
import { CORE_ABI, coreMismatches } from '../src/core_abi.js';
import { lookalike } from './lookalike.js';

await ready();

const NODE = new URL(import.meta.url).protocol === 'file:';

// Each EXPORT("name") (core.h) or POW_EXPORT("name") (pow_core.c)
// declaration's name and number of parameters.
async function declared() {
  const { readFileSync } = await import('node:fs');
  const found = {};
  for (const [file, macro] of [['../src/core.h', 'EXPORT'], ['../src/pow_core.c', 'POW_EXPORT']]) {
    const text = readFileSync(new URL(file, import.meta.url), 'utf8');
    const re = new RegExp(`\\b${macro}\\("(\\w+)"\\)[^;{(]*\\(([^)]*)\\)\\s*;`, 'g');
    for (const [, name, params] of text.matchAll(re)) {
      const p = params.trim();
      found[name] = p === '' || p === 'void' ? 0 : p.split(',').length;
    }
  }
  return found;
}

test('CORE_ABI is the C declarations of core.h and pow_core.c', async (t) => {
  if (!NODE) {
    t.skip('reads the C sources (Node only)');
    return;
  }
  const c = await declared();
  assert.ok(Object.keys(c).length >= 30, `${Object.keys(c).length} declarations found`);
  assert.deepEqual({ ...CORE_ABI }, c);
});

test('the packaged core has every function of CORE_ABI, with its parameters', () => {
  assert.deepEqual(coreMismatches(need()), []);
});

test('coreMismatches names a missing function and one of another arity', () => {
  const exports = {};
  for (const [name, n] of Object.entries(CORE_ABI)) {
    exports[name] = new Function(...Array.from({ length: n }, (_, i) => `a${i}`), 'return 0;');
  }
  assert.deepEqual(coreMismatches(exports), []);
  delete exports.ex_hashwx_alloc;
  exports.ex_equix_alloc = (solve, compile) => solve + compile;
  assert.deepEqual(coreMismatches(exports), [
    'it has no ex_hashwx_alloc',
    'its ex_equix_alloc takes 2 arguments, this package passes 3',
  ]);
});

test('ready() refuses a core whose ex_equix_alloc lacks the v2 parameter: FAIL_WASM', async () => {
  // A copy of the loader of its own (the suite's core is already loaded).
  const { ready: readyCopy } = await import('../src/core.js?abi=1');
  const same = lookalike(CORE_ABI);
  const old = lookalike({ ...CORE_ABI, ex_equix_alloc: 2 });
  let error = null;
  try {
    await readyCopy({ wasm: old });
  } catch (e) {
    error = e;
  }
  assert.ok(error !== null, 'ready() accepted a core of another version');
  assert.equal(error.code, 'FAIL_WASM');
  assert.match(error.message, /ex_equix_alloc takes 2 arguments, this package passes 3/);
  // The same module with the right arity gets past the check (and loads:
  // its functions are stubs, but ready() calls only _initialize and
  // ex_malloc, which returns 0, so it fails for memory instead).
  const { ready: readyOther } = await import('../src/core.js?abi=2');
  await assert.rejects(readyOther({ wasm: same }), (e) => e.code === 'FAIL_NO_MEMORY');
});

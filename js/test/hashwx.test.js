// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// HashWX in the core, through its C entry points (js/src/core.c's
// ex_hashwx_*; the package's own HashWX API is not there yet): every line
// of tests/vectors/hashwx-v2.txt, recorded from tevador's reference, both
// interpreted and compiled to WebAssembly (src/compiler/hashwx_wasm.c,
// installed by js/src/jit.js), each hash equal to the recorded one. Where
// the host refuses run-time modules, the compiled half is skipped, saying
// why; where it accepts them, a context that still runs interpreted is a
// failure.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { ready, jitStatus } from '../src/index.js';
import { heap, need } from '../src/core.js';
import { hashwxVectors } from './vectors.js';

await ready();

const VECTORS = hashwxVectors('hashwx-v2.txt');
const SEED_SIZE = 32;

const hex64 = (x) => x.toString(16).padStart(16, '0');

// A context of the core: compile or not; freed by the caller.
function context(compile) {
  const core = need();
  const ctx = core.ex_hashwx_alloc(compile ? 1 : 0);
  assert.notEqual(ctx, 0, 'ex_hashwx_alloc: out of memory');
  return ctx;
}

// Makes `ctx` the function of `seed`; returns ex_hashwx_compiled's answer.
function make(ctx, seed) {
  const core = need();
  const at = core.ex_malloc(SEED_SIZE);
  assert.notEqual(at, 0, 'ex_malloc: out of memory');
  heap().set(seed, at);
  core.ex_hashwx_make(ctx, at);
  core.ex_free(at);
  return core.ex_hashwx_compiled(ctx);
}

// Every line through one context; returns the number of hashes checked.
function runCorpus(compile) {
  const core = need();
  const ctx = context(compile);
  let hashes = 0;
  try {
    for (const v of VECTORS) {
      const where = `hashwx-v2.txt:${v.line}`;
      const compiled = make(ctx, v.seed);
      if (compile) {
        assert.equal(compiled, 1, `${where}: not compiled (${jitStatus().refusal})`);
      } else {
        assert.equal(compiled, 0, `${where}: an interpreted context runs compiled`);
      }
      for (const c of v.cases) {
        const got = BigInt.asUintN(64, core.ex_hashwx_exec(ctx, c.nonce));
        assert.equal(hex64(got), hex64(c.hash), `${where}, nonce ${hex64(c.nonce)}`);
        hashes++;
      }
    }
  } finally {
    core.ex_hashwx_free(ctx);
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
  // hashwx_alloc makes the all-zero seed's function first.
  assert.equal(jitStatus().compiles - before, VECTORS.length + 1, 'one module per seed');
});

test('compiled and interpreted HashWX agree on nonces the corpus lacks', () => {
  const core = need();
  const interpreted = context(false);
  const compiled = context(true);
  const nonces = [0xffffffffffffffffn, 0x8000000000000000n, 0x7fffffffffffffffn, 0x100000000n];
  try {
    for (const v of VECTORS.slice(0, 200)) {
      make(interpreted, v.seed);
      make(compiled, v.seed);
      for (const x of nonces) {
        assert.equal(hex64(BigInt.asUintN(64, core.ex_hashwx_exec(compiled, x))),
          hex64(BigInt.asUintN(64, core.ex_hashwx_exec(interpreted, x))),
          `hashwx-v2.txt:${v.line}, nonce ${hex64(x)}`);
      }
    }
  } finally {
    core.ex_hashwx_free(interpreted);
    core.ex_hashwx_free(compiled);
  }
});

// The first few lines' modules, made by a compiling context.
async function someModules(count) {
  const { observeJitModules } = await import('../src/core.js');
  const seen = [];
  const ctx = context(true);
  const previous = observeJitModules((bytes) => seen.push(bytes));
  try {
    for (const v of VECTORS.slice(0, count)) make(ctx, v.seed);
  } finally {
    observeJitModules(previous);
    need().ex_hashwx_free(ctx);
  }
  return seen;
}

test('a HashWX module imports the memory alone and exports its function', async (t) => {
  if (!jitStatus().enabled) {
    t.skip(`the host installs no modules (${jitStatus().refusal})`);
    return;
  }
  const seen = await someModules(1);
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
  if (typeof process === 'undefined' || !process.versions?.node) {
    t.skip('needs Node (wabt is a program)');
    return;
  }
  const { execFileSync } = await import('node:child_process');
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  try {
    execFileSync('wasm-validate', ['--version'], { stdio: 'ignore' });
  } catch {
    t.skip('wasm-validate (Debian package wabt) is not installed');
    return;
  }
  if (!jitStatus().enabled) {
    t.skip(`the host installs no modules (${jitStatus().refusal})`);
    return;
  }
  const modules = await someModules(10);
  const mvp = ['--disable-mutable-globals', '--disable-saturating-float-to-int',
    '--disable-sign-extension', '--disable-simd', '--disable-multi-value',
    '--disable-bulk-memory', '--disable-reference-types'];
  const dir = mkdtempSync(join(tmpdir(), 'equix-hashwx-'));
  try {
    modules.forEach((bytes, i) => {
      const file = join(dir, `m${i}.wasm`);
      writeFileSync(file, bytes);
      execFileSync('wasm-validate', [...mvp, file]); // throws on a rejected module
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.equal(modules.length, 10);
});

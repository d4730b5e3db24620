// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// Every HashX vector of tests/vectors/ (counter mode: hashx.txt and
// hashx-named.txt; block mode: hashx-block.txt) through the wasm core,
// once compiled to WebAssembly (the whole-hash form in counter mode, the
// register-file form in block mode) and once interpreted: each seed's four
// outputs bit for bit, each failing seed refused with FAIL_SEED.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { ready, hashx } from '../src/index.js';
import { hashxVectors, hex, toHex } from './vectors.js';

await ready();

const WAYS = [['compiled', true], ['interpreted', false]];

function checkFile(name, block, compile) {
  const vs = hashxVectors(name);
  let seeds = 0;
  let failing = 0;
  let hashes = 0;
  for (const v of vs) {
    if (!v.ok) {
      assert.equal(v.status, 'fail-seed', `${name}:${v.line}: unknown status`);
      assert.throws(() => hashx(hex(v.seed), { block, compile }),
        (e) => e.code === 'FAIL_SEED', `${name}:${v.line}: seed not refused`);
      failing++;
      continue;
    }
    const h = hashx(hex(v.seed), { block, compile });
    assert.equal(h.compiled, compile, `${name}:${v.line}: compiled`);
    for (const c of v.cases) {
      const input = block ? hex(c.input) : BigInt(`0x${c.input}`);
      assert.equal(toHex(h.hash(input)), c.hash, `${name}:${v.line}: input ${c.input}`);
      hashes++;
    }
    h.free();
    seeds++;
  }
  return { seeds, failing, hashes };
}

for (const [way, compile] of WAYS) {
  test(`hashx-named.txt, ${way}: the hand-picked seeds, failing ones included`, () => {
    const n = checkFile('hashx-named.txt', false, compile);
    assert.equal(n.seeds + n.failing, 18);
    assert.ok(n.failing >= 4, 'the named file has its known failing seeds');
    assert.equal(n.hashes, 4 * n.seeds);
  });

  test(`hashx.txt, ${way}: 3000 pseudo-random seeds of 0-256 bytes`, () => {
    const n = checkFile('hashx.txt', false, compile);
    assert.equal(n.seeds + n.failing, 3000);
    assert.equal(n.hashes, 4 * n.seeds);
  });

  test(`hashx-block.txt, ${way}: block mode, inputs of 0-4096 bytes`, () => {
    const n = checkFile('hashx-block.txt', true, compile);
    assert.equal(n.seeds + n.failing, 200);
    assert.equal(n.hashes, 4 * n.seeds);
  });
}

test('inputs: Number and BigInt agree, out-of-range and wrong types refused', () => {
  const h = hashx(new TextEncoder().encode('This is a test\0'));
  assert.deepEqual(h.hash(0x5cc1), h.hash(0x5cc1n));
  assert.equal(toHex(h.hash(0xffffffffffffffffn)),
    '72f2937b0ca09e5eef1d91fbc3950f9e5361e24ad3ce5286862575f06ce81450');
  assert.throws(() => h.hash(1n << 64n), RangeError);
  assert.throws(() => h.hash(-1n), RangeError);
  assert.throws(() => h.hash(1.5), TypeError);
  assert.throws(() => h.hash('1'), TypeError);
  assert.throws(() => hashx('seed'), TypeError);
  h.free();
  assert.throws(() => h.hash(0n), /freed/);
});

test('a seed may be any ArrayBuffer view or an ArrayBuffer', () => {
  const bytes = new TextEncoder().encode('This is a test\0');
  const want = toHex(hashx(bytes).hash(0n));
  assert.equal(want, '2b2f54567dcbea98fdb5d5e5ce9a65983c4a4e35ab1464b1efb61e83b7074bb2');
  assert.equal(toHex(hashx(bytes.buffer).hash(0n)), want);
  assert.equal(toHex(hashx(new DataView(bytes.buffer)).hash(0n)), want);
  const padded = new Uint8Array(bytes.length + 3);
  padded.set(bytes, 3);
  assert.equal(toHex(hashx(padded.subarray(3)).hash(0n)), want);
});

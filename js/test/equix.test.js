// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The Equi-X vectors of tests/vectors/ through the wasm core: for each
// challenge the solver's solutions (their number, the indices and the
// order), each one verified, and the challenges without a HashX function
// refused by both the solver and the verifier. All of them, with HashX
// compiled to WebAssembly (the solver's stage 0 through the scatter form)
// and interpreted: the interpreter takes 45 to 190 ms a challenge
// (Zen 5 to Zen 1), the 418 in 20 to 80 s.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { ready, equix, jitStatus } from '../src/index.js';
import { equixVectors, hex, indices, wire } from './vectors.js';

await ready();

const WAYS = [['compiled', true], ['interpreted', false]];

function checkVector(name, v, compile) {
  const challenge = hex(v.challenge);
  const options = { compile };
  if (!v.ok) {
    assert.equal(v.status, 'fail-challenge', `${name}:${v.line}: unknown status`);
    assert.throws(() => equix.solve(challenge, options), (e) => e.code === 'FAIL_CHALLENGE',
      `${name}:${v.line}: solved a challenge without a HashX function`);
    // Any solution in tree order gets as far as making the function.
    assert.equal(equix.verify(challenge, wire([0, 1, 2, 3, 4, 5, 6, 7]), options), 'FAIL_CHALLENGE');
    return 0;
  }
  const sols = equix.solve(challenge, options);
  assert.deepEqual(sols.map(indices), v.sols, `${name}:${v.line}: solutions`);
  for (const s of sols) {
    assert.ok(s instanceof Uint8Array && s.length === 16);
    assert.equal(equix.verify(challenge, s, options), 'OK', `${name}:${v.line}: verify`);
  }
  return sols.length;
}

for (const [way, compile] of WAYS) {
  test(`equix-named.txt, ${way}: every challenge`, () => {
    const vs = equixVectors('equix-named.txt');
    assert.equal(vs.length, 18);
    let sols = 0;
    for (const v of vs) sols += checkVector('equix-named.txt', v, compile);
    assert.ok(sols > 0);
  });

  test(`equix.txt, ${way}: 400 pseudo-random challenges`, () => {
    const vs = equixVectors('equix.txt');
    assert.equal(vs.length, 400);
    const compiles = jitStatus().compiles;
    let sols = 0;
    for (const v of vs) sols += checkVector('equix.txt', v, compile);
    assert.equal(sols, vs.reduce((n, v) => n + v.sols.length, 0));
    // The solver compiles each challenge's program (its scatter form) or
    // none, as asked; verification never compiles (8 hashes).
    const solvable = vs.filter((v) => v.ok).length;
    const made = jitStatus().compiles - compiles;
    if (compile) assert.ok(made >= solvable, `${made} modules for ${solvable} challenges`);
    else assert.equal(made, 0);
  });
}

test('equix.txt: every listed solution verifies, straight from the file', () => {
  let n = 0;
  for (const v of equixVectors('equix.txt')) {
    for (const s of v.sols) {
      assert.equal(equix.verify(hex(v.challenge), wire(s)), 'OK', `equix.txt:${v.line}`);
      n++;
    }
  }
  assert.ok(n > 400);
});

test('verify names the failure as the C library does', () => {
  // equix-named.txt's first line: "This is a test\0" and its solution.
  const challenge = hex('546869732069732061207465737400');
  const good = [0x09da, 0x8f71, 0xb2a0, 0xd15a, 0x4a70, 0xab11, 0x4bd9, 0xe23c];
  assert.equal(equix.verify(challenge, wire(good)), 'OK');
  // The two halves swapped: no longer in tree order.
  const swapped = [...good.slice(4), ...good.slice(0, 4)];
  assert.equal(equix.verify(challenge, wire(swapped)), 'FAIL_ORDER');
  // Another challenge's solution: in order, but its first pair's sum
  // lacks its zero bits here (the native equix-cli verify says "partial
  // sum" for the same pair of arguments).
  const other = [0x0220, 0x3e13, 0x4ad4, 0xbbd6, 0x2e0f, 0x2fb5, 0xefd1, 0xf068];
  assert.equal(equix.verify(challenge, wire(other)), 'FAIL_PARTIAL_SUM');
  assert.throws(() => equix.verify(challenge, new Uint8Array(15)), RangeError);
});

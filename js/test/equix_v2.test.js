// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// Equi-X v2 through the package (equix.solve and verify with { v2: true }):
// tests/vectors/equix-v2.txt, recorded from the reference's equix_v2
// branch, 300 challenges of 0 to 80 bytes. Each challenge's solutions
// (their number, indices and order) with HashWX compiled to WebAssembly;
// interpreted, every SAMPLE-th challenge (the interpreted solve costs
// several times the compiled one, and the solver past the hash is the
// same code). Each solution verifies as v2 and fails as v1.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { ready, equix, jitStatus } from '../src/index.js';
import { equixV2Vectors, hex, indices, wire } from './vectors.js';

await ready();

const VECTORS = equixV2Vectors('equix-v2.txt');
const SAMPLE = 10;

// Checks one line's solutions; returns their number.
function checkLine(v, compile) {
  const where = `equix-v2.txt:${v.line}`;
  const challenge = hex(v.challenge);
  const sols = equix.solve(challenge, { v2: true, compile });
  assert.deepEqual(sols.map(indices), v.sols, `${where}: solutions`);
  for (const s of sols) {
    assert.equal(equix.verify(challenge, s, { v2: true, compile }), 'OK', `${where}: verify`);
  }
  return sols.length;
}

test('the Equi-X v2 corpus has its 300 challenges, of 0 to 80 bytes', () => {
  assert.equal(VECTORS.length, 300);
  const lengths = VECTORS.map((v) => v.challenge.length / 2);
  assert.equal(Math.min(...lengths), 0);
  assert.equal(Math.max(...lengths), 80);
});

test('equix-v2.txt, HashWX compiled: every challenge solved as the reference does', (t) => {
  if (!jitStatus().enabled) {
    t.skip(`the host installs no modules (${jitStatus().refusal})`);
    return;
  }
  const before = jitStatus().compiles;
  let n = 0;
  for (const v of VECTORS) n += checkLine(v, true);
  assert.equal(n, VECTORS.reduce((k, v) => k + v.sols.length, 0));
  assert.ok(jitStatus().compiles - before >= VECTORS.length, 'a module per challenge at least');
});

test(`equix-v2.txt, HashWX interpreted: every ${SAMPLE}th challenge`, () => {
  const before = jitStatus().compiles;
  let n = 0;
  let lines = 0;
  for (const v of VECTORS.filter((_, i) => i % SAMPLE === 0)) {
    n += checkLine(v, false);
    lines++;
  }
  assert.equal(lines, VECTORS.length / SAMPLE);
  assert.ok(n > 0);
  assert.equal(jitStatus().compiles, before, 'an interpreted context compiled');
});

test('every recorded v2 solution verifies as v2, straight from the file, and fails as v1', () => {
  let n = 0;
  for (const v of VECTORS) {
    const challenge = hex(v.challenge);
    for (const s of v.sols) {
      assert.equal(equix.verify(challenge, wire(s), { v2: true }), 'OK', `equix-v2.txt:${v.line}`);
      // Under v1 the same indices meet HashX's sums only by chance
      // (about one in 2^60): the order check passes, a sum fails.
      const v1 = equix.verify(challenge, wire(s));
      assert.ok(['FAIL_PARTIAL_SUM', 'FAIL_FINAL_SUM', 'FAIL_CHALLENGE'].includes(v1),
        `equix-v2.txt:${v.line}: as v1, ${v1}`);
      n++;
    }
  }
  assert.equal(n, VECTORS.reduce((k, v) => k + v.sols.length, 0));
  assert.ok(n > 500, `${n} solutions`);
});

test('a v2 solution with a broken sum or order fails as v2 does in C', () => {
  // A solution whose second index can grow by one and stay in order.
  const v = VECTORS.find((x) => x.sols.length > 0 && x.sols[0][1] < 0xffff);
  const challenge = hex(v.challenge);
  const good = v.sols[0];
  const swapped = [...good.slice(4), ...good.slice(0, 4)];
  assert.equal(equix.verify(challenge, wire(swapped), { v2: true }), 'FAIL_ORDER');
  const bumped = [...good];
  bumped[1] += 1;
  assert.equal(equix.verify(challenge, wire(bumped), { v2: true }), 'FAIL_PARTIAL_SUM');
  assert.throws(() => equix.solve(challenge, { v2: 1 }), (e) => e.code === 'FAIL_ARGUMENT');
  assert.throws(() => equix.verify(challenge, wire(good), { v3: true }), (e) => e.code === 'FAIL_ARGUMENT');
});

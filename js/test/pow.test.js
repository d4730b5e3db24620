// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// Tor's PoW v1 puzzle through the wasm core, on Tor's own vectors (read
// from tests/test_pow.c, where the C suite keeps them): the challenge
// string, the effort check, and the client's choice of proof: from the
// start nonce upwards, the first solution in the solver's order that
// meets the effort, found after exactly the recorded number of nonces.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { ready, equix, pow } from '../src/index.js';
import { hex, toHex, torVectors } from './vectors.js';

await ready();

const vectors = torVectors();

// The client's search order: the nonce as a 128-bit little-endian
// integer, plus one (equix_pow_nonce_add's rule).
function nextNonce(nonce) {
  const n = Uint8Array.from(nonce);
  for (let i = 0; i < n.length; i++) {
    n[i] = (n[i] + 1) & 0xff;
    if (n[i] !== 0) break;
  }
  return n;
}

test('the table is Tor\'s: 20 vectors, efforts 0 to 1000000', () => {
  assert.equal(vectors.length, 20);
  assert.deepEqual([...new Set(vectors.map((v) => v.effort))].sort((a, b) => a - b),
    [0, 1, 2, 10, 100, 1000, 1337, 10000, 31337, 100000, 1000000]);
});

test('challenge: P || ID || C || N || E', () => {
  const v = vectors[1];
  const c = pow.challenge({ id: hex(v.id), seed: hex(v.seed), nonce: hex(v.nonce), effort: 0x01020304 });
  assert.equal(c.length, 16 + 32 + 32 + 16 + 4);
  assert.equal(new TextDecoder().decode(c.subarray(0, 16)), 'Tor hs intro v1\0');
  assert.equal(toHex(c.subarray(16, 48)), v.id);
  assert.equal(toHex(c.subarray(48, 80)), v.seed);
  assert.equal(toHex(c.subarray(80, 96)), v.nonce);
  assert.equal(toHex(c.subarray(96)), '01020304');
  assert.throws(() => pow.challenge({ id: new Uint8Array(31), seed: hex(v.seed), nonce: hex(v.nonce), effort: 1 }), RangeError);
  assert.throws(() => pow.challenge({ id: hex(v.id), seed: hex(v.seed), nonce: hex(v.nonce), effort: 2 ** 32 }), RangeError);
});

test('every vector: the proof solves its challenge and meets its effort', () => {
  for (const [i, v] of vectors.entries()) {
    const c = pow.challenge({ id: hex(v.id), seed: hex(v.seed), nonce: hex(v.nonce), effort: v.effort });
    const s = hex(v.solution);
    assert.equal(equix.verify(c, s), 'OK', `vector ${i}`);
    assert.equal(pow.effortCheck(c, s, v.effort), true, `vector ${i}`);
    const r = pow.effortHash(c, s);
    assert.ok(BigInt(r) * BigInt(v.effort) <= 0xffffffffn, `vector ${i}: R * E fits`);
    // The check is R * E <= 2^32 - 1: an effort past 2^32 / R fails.
    if (r > 0) {
      const over = Math.floor(0xffffffff / r) + 1;
      if (over <= 0xffffffff) assert.equal(pow.effortCheck(c, s, over), false, `vector ${i}`);
    }
    // A solution byte changed: not the proof any more.
    const bad = Uint8Array.from(s);
    bad[0] ^= 1;
    assert.notEqual(equix.verify(c, bad), 'OK', `vector ${i}`);
  }
});

test('the vectors needing at most 4 nonces: the client\'s search finds Tor\'s proof', () => {
  let searched = 0;
  for (const [i, v] of vectors.entries()) {
    if (v.attempts > 4) continue; // the interpreter would take seconds
    let nonce = hex(v.start);
    let found = null;
    let attempts = 0;
    while (found === null) {
      attempts++;
      const c = pow.challenge({ id: hex(v.id), seed: hex(v.seed), nonce, effort: v.effort });
      let sols = [];
      try {
        sols = equix.solve(c);
      } catch (e) {
        if (e.code !== 'FAIL_CHALLENGE') throw e;
      }
      const s = sols.find((x) => pow.effortCheck(c, x, v.effort));
      if (s !== undefined) found = { nonce, solution: s };
      else nonce = nextNonce(nonce);
      assert.ok(attempts <= v.attempts, `vector ${i}: more nonces than Tor's client tried`);
    }
    assert.equal(toHex(found.nonce), v.nonce, `vector ${i}: nonce`);
    assert.equal(toHex(found.solution), v.solution, `vector ${i}: solution`);
    assert.equal(attempts, v.attempts, `vector ${i}: attempts`);
    searched++;
  }
  assert.equal(searched, 19, 'every vector but the one needing 131 nonces');
});

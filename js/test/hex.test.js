// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// toHex and fromHex, the package's hex helpers, against the suite's own
// hex reader and writer (vectors.js, which the vector files are read
// with) and the repository's vectors; and their refusals, each kind and
// code (doc/bad-input.md's rows check the codes alone). This file never
// calls ready(): under node --test it runs in a process of its own, so
// the helpers are shown to need no core.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { toHex, fromHex, limits, EquixError } from '../src/index.js';
import { hex, toHex as referenceHex, torVectors } from './vectors.js';

function randomBytes(n) {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i += 65536) globalThis.crypto.getRandomValues(out.subarray(i, i + 65536));
  return out;
}

test('toHex gives lowercase digits, as the reference writer does', () => {
  for (const n of [0, 1, 2, 15, 16, 100, 4097]) {
    const b = randomBytes(n);
    const text = toHex(b);
    assert.equal(text, referenceHex(b));
    assert.match(text, /^[0-9a-f]*$/);
    assert.deepEqual(fromHex(text), b, `round trip of ${n} bytes`);
  }
  assert.equal(toHex(new Uint8Array([0, 1, 0x7f, 0x80, 0xab, 0xff])), '00017f80abff');
});

test("fromHex reads Tor's vectors as the reference reader does, either case", () => {
  for (const v of torVectors()) {
    for (const field of [v.id, v.seed, v.nonce, v.solution]) {
      assert.deepEqual(fromHex(field), hex(field));
      assert.deepEqual(fromHex(field.toUpperCase()), hex(field));
      assert.equal(toHex(fromHex(field.toUpperCase())), field.toLowerCase());
    }
  }
  const empty = fromHex('');
  assert.ok(empty instanceof Uint8Array && empty.length === 0);
});

test('toHex takes every form of bytes the package takes', () => {
  const b = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]);
  assert.equal(toHex(b.buffer), '0102030405060708');
  assert.equal(toHex(new DataView(b.buffer, 2, 3)), '030405');
  assert.equal(toHex(b.subarray(6)), '0708');
  assert.equal(toHex(new Uint16Array(b.buffer, 0, 1)), '0102');
  assert.equal(toHex(new Uint8Array(limits.inputBytes)).length, 2 * limits.inputBytes);
});

function refusal(fn, code, Kind) {
  assert.throws(fn, (e) => {
    assert.equal(e.code, code, e.message);
    assert.ok(e instanceof Kind, `${e.name}, want ${Kind.name}`);
    assert.ok(e instanceof EquixError);
    return true;
  });
}

test('fromHex refuses what is not hex: FAIL_ARGUMENT, as Uint8Array.fromHex would', () => {
  for (const value of [42, null, undefined, new Uint8Array(2), new String('00')]) {
    refusal(() => fromHex(value), 'FAIL_ARGUMENT', TypeError);
  }
  // An odd count or a character that is no hex digit: a SyntaxError, the
  // kind the engine's own Uint8Array.fromHex throws.
  for (const text of ['0', 'abc', '0x00', ' 00', '00\n', '0g', 'zz', '\u0660\u0661', '+1']) {
    refusal(() => fromHex(text), 'FAIL_ARGUMENT', SyntaxError);
  }
  assert.throws(() => fromHex('00 011'), /" " at 2 is not a hex digit/);
});

test('hex of more than limits.inputBytes bytes: FAIL_TOO_LARGE', () => {
  const largest = '0'.repeat(2 * limits.inputBytes);
  assert.equal(fromHex(largest).length, limits.inputBytes);
  refusal(() => fromHex(`${largest}00`), 'FAIL_TOO_LARGE', RangeError);
  // Refused on its length, before its digits are read.
  refusal(() => fromHex(`${largest}zz`), 'FAIL_TOO_LARGE', RangeError);
  refusal(() => toHex(new Uint8Array(limits.inputBytes + 1)), 'FAIL_TOO_LARGE', RangeError);
});

test('toHex refuses what is not bytes, as the other calls do', () => {
  refusal(() => toHex('00'), 'FAIL_ARGUMENT', TypeError);
  refusal(() => toHex([1, 2]), 'FAIL_ARGUMENT', TypeError);
  refusal(() => toHex(Object.create(Uint8Array.prototype)), 'FAIL_ARGUMENT', TypeError);
  const gone = new Uint8Array(4);
  structuredClone(gone.buffer, { transfer: [gone.buffer] });
  refusal(() => toHex(gone), 'FAIL_DETACHED', TypeError);
});

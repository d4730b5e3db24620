// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { EffortController } from '../src/effort.js';
import { T0, clock } from './helpers.js';


// capacity 100/s, period 10 s: the effort rises from 500 verifications a
// period (HIGH, 50/s), the TARGET is 250 a period, it falls under 125.
const settings = (now) => ({ min: 16, max: 100000, capacity: 100, period: 10, now });

// `n` verifications in one period, then the clock at the next.
function period(controller, now, n) {
  for (let i = 0; i < n; i += 1) {
    controller.record();
    if (i === Math.floor(n / 2)) now.advance(5);
  }
  now.advance(n > 0 ? 5 : 10);
}

test('idle: the effort stays at min', () => {
  const now = clock();
  const c = new EffortController(settings(now));
  assert.equal(c.current(), 16);
  for (let i = 0; i < 50; i += 1) {
    period(c, now, i % 2 === 0 ? 0 : 100);
    assert.equal(c.current(), 16);
  }
  now.advance(86400 * 365);
  assert.equal(c.current(), 16);
});

test('under load past capacity the effort rises, by at most 4x a period', () => {
  const now = clock();
  const c = new EffortController(settings(now));
  period(c, now, 2000); // 200/s, twice the capacity: 8x TARGET, capped at 4x
  assert.equal(c.current(), 64);
  period(c, now, 750); // 75/s: 3x TARGET
  assert.equal(c.current(), 192);
  period(c, now, 500); // HIGH exactly: 2x
  assert.equal(c.current(), 384);
  period(c, now, 499); // just under HIGH: unchanged
  assert.equal(c.current(), 384);
});

test('the effort does not change before its period ends', () => {
  const now = clock();
  const c = new EffortController(settings(now));
  for (let i = 0; i < 5000; i += 1) c.record();
  now.advance(9.999);
  assert.equal(c.current(), 16);
  now.advance(0.001);
  assert.equal(c.current(), 64);
});

test('from min 0 a loaded period still raises the effort', () => {
  const now = clock();
  const c = new EffortController({ ...settings(now), min: 0 });
  assert.equal(c.current(), 0);
  period(c, now, 1000);
  assert.equal(c.current(), 1);
  period(c, now, 1000);
  assert.equal(c.current(), 4);
});

test('bounded by max under any load', () => {
  const now = clock();
  const c = new EffortController({ ...settings(now), max: 1000 });
  const seen = [];
  for (let i = 0; i < 10; i += 1) {
    period(c, now, 3000);
    seen.push(c.current());
  }
  assert.deepEqual(seen, [64, 256, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000]);
  const top = new EffortController({ min: 1, max: 2 ** 32 - 1, capacity: 1, period: 1, now });
  for (let i = 0; i < 30; i += 1) {
    for (let j = 0; j < 10; j += 1) top.record();
    now.advance(1);
  }
  assert.equal(top.current(), 2 ** 32 - 1);
});

test('a steady load between LOW and HIGH holds the effort', () => {
  const now = clock();
  const c = new EffortController(settings(now));
  period(c, now, 2000);
  assert.equal(c.current(), 64);
  for (const n of [250, 125, 499, 300]) {
    period(c, now, n);
    assert.equal(c.current(), 64, String(n));
  }
});

test('when the load stops the effort falls back by 2/3 a period, to min', () => {
  const now = clock();
  const c = new EffortController(settings(now));
  for (let i = 0; i < 5; i += 1) period(c, now, 2000);
  assert.equal(c.current(), 16384);
  const seen = [];
  for (let i = 0; i < 12; i += 1) {
    period(c, now, 124); // just under LOW
    seen.push(c.current());
  }
  assert.deepEqual(seen, [10922, 7281, 4854, 3236, 2157, 1438, 958, 638, 425, 283, 188, 125]);
  for (let i = 0; i < 10; i += 1) period(c, now, 0);
  assert.equal(c.current(), 16);
});

test('periods without any call count as idle ones', () => {
  const now = clock();
  const c = new EffortController(settings(now));
  for (let i = 0; i < 5; i += 1) period(c, now, 2000);
  assert.equal(c.current(), 16384);
  now.advance(30); // three idle periods
  assert.equal(c.current(), 4854);
  now.advance(86400);
  assert.equal(c.current(), 16);
});

test("accepts() takes this period's effort and the previous one's, and refuses below", () => {
  const now = clock();
  const c = new EffortController(settings(now));
  assert.equal(c.accepts(16), true);
  assert.equal(c.accepts(15), false);
  period(c, now, 2000);
  assert.equal(c.current(), 64);
  // Rising: a puzzle fetched in the previous period at 16 still counts.
  assert.equal(c.accepts(16), true);
  assert.equal(c.accepts(15), false);
  period(c, now, 2000);
  assert.equal(c.current(), 256);
  assert.equal(c.accepts(64), true);
  assert.equal(c.accepts(63), false);
  assert.equal(c.accepts(16), false);
  // Falling: the current, lower effort is enough.
  period(c, now, 0);
  assert.equal(c.current(), 170);
  assert.equal(c.accepts(170), true);
  assert.equal(c.accepts(169), false);
  // Not an effort.
  for (const bad of [undefined, null, '300', 300.5, -1, 2 ** 32, NaN, Infinity]) {
    assert.equal(c.accepts(bad), false, String(bad));
  }
  assert.equal(c.accepts(2 ** 32 - 1), true);
});

test('bad settings are refused', () => {
  for (const bad of [{ min: -1, max: 10, capacity: 1 }, { min: 11, max: 10, capacity: 1 },
    { min: 1, max: 2 ** 32, capacity: 1 }, { min: 1.5, max: 10, capacity: 1 }, { min: 1, max: 10 },
    { min: 1, max: 10, capacity: 0 }, { min: 1, max: 10, capacity: Infinity }, { min: 1, max: 10, capacity: '5' },
    { min: 1, max: 10, capacity: 1, period: 0 }, { min: 1, max: 10, capacity: 1, period: NaN }]) {
    assert.throws(() => new EffortController(bad), RangeError, JSON.stringify(bad));
  }
});

test('a clock that goes back does not end a period or break the controller', () => {
  const now = clock();
  const c = new EffortController(settings(now));
  for (let i = 0; i < 2000; i += 1) c.record();
  now.advance(-3600);
  assert.equal(c.current(), 16);
  now.advance(3610);
  assert.equal(c.current(), 64);
});

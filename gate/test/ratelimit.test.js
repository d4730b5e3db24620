// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { createClient } from '@redis/client';

import { MemoryLimiter, RedisLimiter } from '../src/ratelimit.js';
import {
  T0, clock, redisMissing, startRedis,
} from './helpers.js';


async function hits(limiter, key, n) {
  const out = [];
  for (let i = 0; i < n; i += 1) out.push(await limiter.hit(key));
  return out;
}

describe('MemoryLimiter', () => {
  test('the limit is reached: then refused, with the seconds left as retryAfter', async () => {
    const now = clock();
    const limiter = new MemoryLimiter({ limit: 3, windowSeconds: 60, now });
    assert.deepEqual(await hits(limiter, '203.0.113.0/24', 3), Array(3).fill({ allowed: true, retryAfter: 0 }));
    assert.deepEqual(await limiter.hit('203.0.113.0/24'), { allowed: false, retryAfter: 60 });
    now.advance(30.5);
    assert.deepEqual(await limiter.hit('203.0.113.0/24'), { allowed: false, retryAfter: 30 });
    now.advance(29.4);
    assert.deepEqual(await limiter.hit('203.0.113.0/24'), { allowed: false, retryAfter: 1 });
    // Another key has its own count.
    assert.deepEqual(await limiter.hit('198.51.100.0/24'), { allowed: true, retryAfter: 0 });
  });

  test('the window rolls: a full window later the key starts again from zero', async () => {
    const now = clock();
    const limiter = new MemoryLimiter({ limit: 2, windowSeconds: 10, now });
    await hits(limiter, 'k', 2);
    assert.equal((await limiter.hit('k')).allowed, false);
    now.advance(9.999);
    assert.equal((await limiter.hit('k')).allowed, false);
    now.advance(0.001);
    assert.deepEqual(await hits(limiter, 'k', 2), Array(2).fill({ allowed: true, retryAfter: 0 }));
    assert.deepEqual(await limiter.hit('k'), { allowed: false, retryAfter: 10 });
    // The window opens at the key's first hit, not on a shared grid.
    now.advance(25);
    await limiter.hit('k');
    now.advance(9);
    await limiter.hit('k');
    assert.deepEqual(await limiter.hit('k'), { allowed: false, retryAfter: 1 });
  });

  test('maxKeys holds under 10 x maxKeys distinct keys', async () => {
    const now = clock();
    const maxKeys = 1000;
    const limiter = new MemoryLimiter({ limit: 5, windowSeconds: 60, maxKeys, now });
    let largest = 0;
    for (let i = 0; i < 10 * maxKeys; i += 1) {
      assert.equal((await limiter.hit(`key ${i}`)).allowed, true);
      largest = Math.max(largest, limiter.size);
      if (i % 100 === 0) now.advance(0.01);
    }
    assert.equal(largest, maxKeys);
    assert.equal(limiter.size, maxKeys);
  });

  test('when full: the key hit least recently goes first; an active abuser stays limited through a flood', async () => {
    const now = clock();
    const maxKeys = 100;
    const limiter = new MemoryLimiter({ limit: 3, windowSeconds: 60, maxKeys, now });
    await hits(limiter, 'abuser', 4);
    await hits(limiter, 'idle', 3);
    for (let i = 0; i < 10 * maxKeys; i += 1) {
      await limiter.hit(`flood ${i}`);
      if (i % (maxKeys / 2) === 0) assert.equal((await limiter.hit('abuser')).allowed, false, `after ${i}`);
      assert.ok(limiter.size <= maxKeys);
    }
    // The idle key was pushed out: its count starts again (the documented cost).
    assert.equal((await limiter.hit('idle')).allowed, true);
  });

  test('bad keys and settings are refused', async () => {
    const limiter = new MemoryLimiter({ limit: 1, windowSeconds: 1 });
    for (const key of ['', undefined, null, 42, {}, 'x'.repeat(257)]) {
      await assert.rejects(limiter.hit(key), TypeError, String(key));
    }
    assert.equal(limiter.size, 0);
    for (const settings of [{ limit: 0, windowSeconds: 1 }, { limit: 1.5, windowSeconds: 1 }, { limit: 1 },
      { limit: 1, windowSeconds: 0 }, { limit: 1, windowSeconds: 86401 }, { limit: 1, windowSeconds: 1, maxKeys: 0 }]) {
      assert.throws(() => new MemoryLimiter(settings), RangeError, JSON.stringify(settings));
    }
  });

  test('close() forgets the counts', async () => {
    const limiter = new MemoryLimiter({ limit: 1, windowSeconds: 60 });
    await limiter.hit('k');
    await limiter.close();
    assert.equal(limiter.size, 0);
  });
});

const missing = redisMissing();

describe('RedisLimiter', { skip: missing ?? false }, () => {
  let redis;
  let client;
  let admin;
  before(async () => {
    redis = await startRedis();
    client = await createClient({ url: redis.url }).on('error', () => {}).connect();
    admin = await createClient({ url: redis.url }).on('error', () => {}).connect();
  });
  after(async () => {
    await client?.close().catch(() => {});
    await admin?.close().catch(() => {});
    await redis?.stop();
  });

  test('the limit is reached: then refused, with the seconds left as retryAfter', async () => {
    const limiter = new RedisLimiter(client, { limit: 3, windowSeconds: 60, prefix: 't1:' });
    assert.deepEqual(await hits(limiter, '203.0.113.0/24', 3), Array(3).fill({ allowed: true, retryAfter: 0 }));
    const refused = await limiter.hit('203.0.113.0/24');
    assert.equal(refused.allowed, false);
    assert.ok(refused.retryAfter >= 59 && refused.retryAfter <= 60, String(refused.retryAfter));
    assert.deepEqual(await limiter.hit('198.51.100.0/24'), { allowed: true, retryAfter: 0 });
  });

  test('the window rolls: after it the key starts again from zero', async () => {
    const limiter = new RedisLimiter(client, { limit: 2, windowSeconds: 1, prefix: 't2:' });
    await hits(limiter, 'k', 2);
    assert.deepEqual(await limiter.hit('k'), { allowed: false, retryAfter: 1 });
    await sleep(1100);
    assert.deepEqual(await hits(limiter, 'k', 2), Array(2).fill({ allowed: true, retryAfter: 0 }));
    assert.equal((await limiter.hit('k')).allowed, false);
  });

  test('the counter lives in Redis under the prefix, expiring with its window; instances share it', async () => {
    const one = new RedisLimiter(client, { limit: 2, windowSeconds: 30, prefix: 't3:' });
    const two = new RedisLimiter(admin, { limit: 2, windowSeconds: 30, prefix: 't3:' });
    await one.hit('2001:db8::/64');
    await two.hit('2001:db8::/64');
    assert.equal((await one.hit('2001:db8::/64')).allowed, false);
    assert.equal(await admin.get('t3:2001:db8::/64'), '3');
    const ttl = await admin.pTTL('t3:2001:db8::/64');
    assert.ok(ttl > 0 && ttl <= 30000, String(ttl));
  });

  test('a counter without an expiry gets one (it would otherwise never end)', async () => {
    await admin.set('t4:k', '100');
    const limiter = new RedisLimiter(client, { limit: 5, windowSeconds: 20, prefix: 't4:' });
    const refused = await limiter.hit('k');
    assert.equal(refused.allowed, false);
    assert.equal(refused.retryAfter, 20);
    const ttl = await admin.pTTL('t4:k');
    assert.ok(ttl > 0 && ttl <= 20000, String(ttl));
  });

  test('close() leaves the shared client open; bad keys are refused before Redis', async () => {
    const limiter = new RedisLimiter(client, { limit: 1, windowSeconds: 1, prefix: 't5:' });
    await limiter.close();
    assert.equal(await client.ping(), 'PONG');
    await assert.rejects(limiter.hit(''), TypeError);
    assert.deepEqual(await admin.keys('t5:*'), []);
    assert.throws(() => new RedisLimiter(client, { limit: 1, windowSeconds: 1, prefix: 5 }), TypeError);
  });

  test('a Redis that cannot be reached rejects hit()', async () => {
    const lone = await startRedis();
    const c = await createClient({ url: lone.url, disableOfflineQueue: true, socket: { reconnectStrategy: false } })
      .on('error', () => {}).connect();
    const limiter = new RedisLimiter(c, { limit: 1, windowSeconds: 1 });
    assert.deepEqual(await limiter.hit('k'), { allowed: true, retryAfter: 0 });
    await lone.stop();
    await assert.rejects(limiter.hit('k'));
    await c.close().catch(() => {});
  });
});

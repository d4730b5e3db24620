// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The replay stores: a seed's record is made once and kept for its TTL,
// then goes whether or not it is read again, a nonce is claimed once per
// record, and a claim against a record that is gone (or is another one
// now) is refused as 'gone'; in memory and in a real Redis (started here
// on loopback), where clients racing for one record or one nonce see
// exactly one outcome. (store_memory.test.js measures the memory store's
// heap.)

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';

import { createClient } from '@redis/client';

import { MemoryStore, RedisStore, connectRedis } from '../src/stores.js';
import { redisMissing, startRedis } from './helpers.js';

const N1 = 'ab'.repeat(16);
const N2 = 'cd'.repeat(16);

test('memory: a record is made once, its nonces claimed once each', async () => {
  const store = new MemoryStore();
  const salt = await store.issue('e1', 60);
  assert.match(salt, /^[0-9a-f]{32}$/);
  assert.equal(await store.issue('e1', 60), salt);
  assert.deepEqual(await store.salts(['e1', 'e0']), [salt, null]);
  assert.equal(await store.claim('e1', salt, N1), 'claimed');
  assert.equal(await store.claim('e1', salt, N1), 'replayed');
  assert.equal(await store.claim('e1', salt, N2), 'claimed');
  assert.equal(await store.claim('e1', `${salt}0`, N2), 'gone');
  assert.equal(await store.claim('e0', salt, N2), 'gone');
  assert.equal(store.size, 2);
});

test('memory: records are the process\'s own, and end with their TTL', async () => {
  let now = 1_000_000;
  const store = new MemoryStore({ now: () => now });
  const salt = await store.issue('e', 10);
  // Another process (or this one after a restart) makes its own salts.
  assert.notEqual(await new MemoryStore({ now: () => now }).issue('e', 10), salt);
  for (let i = 0; i < 100; i++) assert.equal(await store.claim('e', salt, i.toString(16).padStart(32, '0')), 'claimed');
  now += 9_999;
  assert.equal(await store.claim('e', salt, N1), 'claimed');
  assert.equal(store.size, 101);
  now += 1;
  assert.deepEqual(await store.salts(['e']), [null]);
  assert.equal(await store.claim('e', salt, N1), 'gone');
  assert.equal(store.size, 0);
  const next = await store.issue('e', 10);
  assert.notEqual(next, salt);
  assert.equal(await store.claim('e', salt, N1), 'gone');
  assert.equal(await store.claim('e', next, N1), 'claimed');
});

test('memory: records of many TTLs each end at their own time (the expiry order against a model)', async () => {
  // A small generator of its own, so that a failure can be run again.
  let x = 12345;
  const random = (n) => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x % n;
  };
  let now = 0;
  const store = new MemoryStore({ now: () => now });
  const model = new Map(); // name -> { salt, until, claims }
  for (let step = 0; step < 2000; step++) {
    now += random(3) * 1000;
    const name = `r${random(400)}`;
    const ttl = 1 + random(60);
    const live = model.get(name);
    const salt = await store.issue(name, ttl);
    if (live !== undefined && live.until > now) {
      assert.equal(salt, live.salt);
    } else {
      model.set(name, { salt, until: now + ttl * 1000, claims: 0 });
    }
    const record = model.get(name);
    assert.equal(await store.claim(name, salt, step.toString(16).padStart(32, '0')), 'claimed');
    record.claims += 1;
    if (step % 100 === 99) {
      const names = [...model.keys()];
      const want = names.map((n) => (model.get(n).until > now ? model.get(n).salt : null));
      assert.deepEqual(await store.salts(names), want, `at ${now} ms`);
      let held = 0;
      for (const r of model.values()) if (r.until > now) held += r.claims;
      assert.equal(store.size, held, `at ${now} ms`);
    }
  }
});

test('a bad name, TTL, salt or nonce is an error, not a claim', async () => {
  const store = new MemoryStore();
  const salt = await store.issue('e', 10);
  await assert.rejects(store.issue('', 10), TypeError);
  await assert.rejects(store.salts([7]), TypeError);
  for (const ttl of [0, -1, NaN, Infinity, '10']) await assert.rejects(store.issue('e', ttl), RangeError);
  await assert.rejects(store.claim('', salt, N1), TypeError);
  await assert.rejects(store.claim('e', '', N1), TypeError);
  for (const nonce of ['', N1.toUpperCase(), `${N1}00`, 'salt', 7]) await assert.rejects(store.claim('e', salt, nonce), TypeError);
  assert.equal(store.size, 0);
});

const missing = redisMissing();
let redis;
let admin;
let stores = [];

before(async () => {
  if (missing !== null) return;
  redis = await startRedis();
  // The last test stops this Redis: the client's complaints are expected.
  admin = await createClient({ url: redis.url }).on('error', () => {}).connect();
});

after(async () => {
  for (const s of stores) await s.close();
  await admin?.close().catch(() => {});
  await redis?.stop();
});

async function redisStore({ url = redis.url, ...options } = {}) {
  const store = await RedisStore.connect(url, options);
  stores.push(store);
  return store;
}

test('Redis: one record for every client, its nonces claimed once across them, kept for its TTL', { skip: missing ?? false }, async () => {
  const a = await redisStore();
  const b = await redisStore();
  const salt = await a.issue('t1', 90);
  assert.match(salt, /^[0-9a-f]{32}$/);
  assert.equal(await b.issue('t1', 5), salt);
  assert.deepEqual(await b.salts(['t1', 't0']), [salt, null]);
  assert.equal(await a.claim('t1', salt, N1), 'claimed');
  assert.equal(await b.claim('t1', salt, N1), 'replayed');
  assert.equal(await b.claim('t1', salt, N2), 'claimed');
  assert.equal(await a.claim('t1', `${salt}0`, N2), 'gone');
  // One key holds the record and its claims, with the first TTL asked.
  assert.deepEqual(await admin.keys('equix-gate:seed:t1*'), ['equix-gate:seed:t1']);
  const ttl = await admin.ttl('equix-gate:seed:t1');
  assert.ok(ttl > 85 && ttl <= 90, `TTL ${ttl}`);
});

test('Redis: of many clients racing, one makes the record and one claims the nonce', { skip: missing ?? false }, async () => {
  const clients = [await redisStore(), await redisStore()];
  const salts = await Promise.all(Array.from({ length: 20 }, (_, i) => clients[i % 2].issue('raced', 60)));
  assert.equal(new Set(salts).size, 1);
  const claims = await Promise.all(Array.from({ length: 40 }, (_, i) => clients[i % 2].claim('raced', salts[0], N1)));
  assert.equal(claims.filter((c) => c === 'claimed').length, 1);
  assert.equal(claims.filter((c) => c === 'replayed').length, 39);
});

test('Redis: a record deleted, or made under another Redis process, is gone, and replaced', { skip: missing ?? false }, async () => {
  const store = await redisStore();
  const salt = await store.issue('lost', 60);
  assert.equal(await store.claim('lost', salt, N1), 'claimed');
  await admin.del('equix-gate:seed:lost');
  assert.equal(await store.claim('lost', salt, N1), 'gone');
  // A claim never makes a record.
  assert.equal(await admin.exists('equix-gate:seed:lost'), 0);

  const again = await store.issue('lost', 60);
  assert.notEqual(again, salt);
  assert.equal(await store.claim('lost', again, N1), 'claimed');
  // What a snapshot loaded by a restarted Redis looks like: the run_id
  // it was made under is not this one's.
  await admin.hSet('equix-gate:seed:lost', 'run', '0'.repeat(40));
  assert.deepEqual(await store.salts(['lost']), [null]);
  assert.equal(await store.claim('lost', again, N2), 'gone');
  const third = await store.issue('lost', 60);
  assert.notEqual(third, again);
  assert.equal(await store.claim('lost', third, N1), 'claimed');
});

test('Redis: a record leaves Redis when its TTL runs out, read again or not', { skip: missing ?? false }, async () => {
  // Database 1 holds this record alone. DBSIZE counts the keys Redis
  // holds, expired or not, and expires none itself, as a read would.
  const store = await redisStore({ url: `${redis.url}/1` });
  const db1 = await createClient({ url: `${redis.url}/1` }).on('error', () => {}).connect();
  try {
    const salt = await store.issue('short', 1);
    assert.equal(await store.claim('short', salt, N1), 'claimed');
    assert.equal(await db1.dbSize(), 1);
    const deadline = Date.now() + 10_000;
    while ((await db1.dbSize()) !== 0 && Date.now() < deadline) await new Promise((ok) => setTimeout(ok, 100));
    assert.equal(await db1.dbSize(), 0, 'the record is still in Redis 10 s after its TTL of 1 s');
  } finally {
    await db1.close();
  }
});

test('Redis: a store attached to a shared client leaves it open at close; connect()\'s own client closes with it',
  { skip: missing ?? false }, async () => {
    const client = await connectRedis(redis.url);
    try {
      const shared = await RedisStore.attach(client, { prefix: 'shared:' });
      const salt = await shared.issue('r', 60);
      await shared.close();
      // The client still works (the rate limiter uses it too), and the
      // record is under the prefix asked for.
      assert.equal(await client.hGet('shared:r', 'salt'), salt);
    } finally {
      await client.close();
    }
    const own = await RedisStore.connect(redis.url);
    assert.deepEqual(await own.salts(['r']), [null]);
    await own.close();
    await assert.rejects(own.salts(['r']));
  });

test('Redis: an evicting maxmemory-policy gets one warning line at connect', { skip: missing ?? false }, async () => {
  const lines = [];
  await redisStore({ warn: (line) => lines.push(line) });
  assert.deepEqual(lines, []);
  await admin.configSet('maxmemory-policy', 'allkeys-lru');
  try {
    await redisStore({ warn: (line) => lines.push(line) });
  } finally {
    await admin.configSet('maxmemory-policy', 'noeviction');
  }
  assert.equal(lines.length, 1);
  assert.match(lines[0], /^redis: maxmemory-policy is allkeys-lru: an evicted seed ends early/);
});

test('Redis: an unreachable Redis is an error, never a claim', { skip: missing ?? false }, async () => {
  const store = await redisStore();
  const salt = await store.issue('before', 60);
  await redis.stop();
  await assert.rejects(store.claim('before', salt, N1));
  await assert.rejects(store.issue('after', 60));
  await assert.rejects(store.salts(['before']));
  stores = stores.filter((s) => s !== store);
  await store.close().catch(() => {});
});

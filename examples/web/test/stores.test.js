// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The replay stores: a key is claimed once per TTL, in memory and in a
// real Redis (started here on loopback), where two clients racing for one
// key see exactly one win.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';

import { MemoryStore, RedisStore } from '../stores.js';
import { redisMissing, startRedis } from './helpers.js';

test('memory: a key is claimed once, again only after its TTL', async () => {
  let now = 1_000_000;
  const store = new MemoryStore({ now: () => now });
  assert.equal(await store.claim('a', 10), true);
  assert.equal(await store.claim('a', 10), false);
  assert.equal(await store.claim('b', 10), true);
  now += 9_999;
  assert.equal(await store.claim('a', 10), false);
  now += 1;
  assert.equal(await store.claim('a', 10), true);
  assert.equal(await store.claim('a', 10), false);
});

test('memory: expired keys are dropped, so memory follows the last TTL', async () => {
  let now = 0;
  const store = new MemoryStore({ now: () => now });
  for (let i = 0; i < 100; i++) assert.equal(await store.claim(`k${i}`, 5), true);
  assert.equal(store.size, 100);
  now += 5_000;
  assert.equal(await store.claim('fresh', 5), true);
  assert.equal(store.size, 1);
});

test('a bad key or TTL is an error, not a claim', async () => {
  const store = new MemoryStore();
  await assert.rejects(store.claim('', 10), TypeError);
  await assert.rejects(store.claim(7, 10), TypeError);
  for (const ttl of [0, -1, NaN, Infinity, '10']) await assert.rejects(store.claim('k', ttl), RangeError);
});

const missing = redisMissing();
let redis;
let stores = [];

before(async () => {
  if (missing === null) redis = await startRedis();
});

after(async () => {
  for (const s of stores) await s.close();
  await redis?.stop();
});

async function redisStore() {
  const store = await RedisStore.connect(redis.url);
  stores.push(store);
  return store;
}

test('Redis: a key claimed by one client is refused to another, until its TTL', { skip: missing ?? false }, async () => {
  const a = await redisStore();
  const b = await redisStore();
  assert.equal(await a.claim('proof-1', 1), true);
  assert.equal(await b.claim('proof-1', 1), false);
  assert.equal(await a.claim('proof-1', 1), false);
  assert.equal(await b.claim('proof-2', 1), true);
  // Redis keeps a key for its whole second; give it a little more.
  await new Promise((ok) => setTimeout(ok, 2_100));
  assert.equal(await b.claim('proof-1', 1), true);
});

test('Redis: of many claims racing for one key, exactly one wins', { skip: missing ?? false }, async () => {
  const clients = [await redisStore(), await redisStore()];
  const claims = [];
  for (let i = 0; i < 40; i++) claims.push(clients[i % 2].claim('raced', 60));
  const won = (await Promise.all(claims)).filter((x) => x).length;
  assert.equal(won, 1);
});

test('Redis: an unreachable Redis is an error, never a claim', { skip: missing ?? false }, async () => {
  const store = await redisStore();
  assert.equal(await store.claim('before', 60), true);
  await redis.stop();
  await assert.rejects(store.claim('after', 60));
  stores = stores.filter((s) => s !== store);
  await store.close().catch(() => {});
});

// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// A replay store that may have forgotten what it knew must fail closed:
// every proof of a seed whose claims may be lost is refused, the used
// ones and the unused ones alike, and the server hands out a new seed.
// The ways a store forgets, each against real processes: Redis restarted
// empty, Redis restarted from a snapshot older than its last claims,
// FLUSHALL, the seed's record deleted (a Redis evicting it under
// maxmemory does the same), and a server on the memory store
// restarted with the same SECRET.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createClient } from '@redis/client';

import { redisMissing, solveFor, startRedis, startServerProcess, submit, submitOnceUp } from './helpers.js';

const missing = redisMissing();
const settings = () => ({ SECRET: randomBytes(32).toString('hex'), EFFORT: '8', SITE: 'forget.example' });
const running = [];

after(async () => {
  for (const stop of running.reverse()) await stop();
});

async function started(what) {
  const it = await what;
  running.push(() => it.stop());
  return it;
}

/** A used proof (accepted, then refused as replayed) and an unused one,
 * both for the server's current seed. */
async function usedAndUnused(url) {
  const used = await solveFor(url, { nonce: randomBytes(16) });
  const unused = await solveFor(url, { nonce: randomBytes(16) });
  assert.equal((await submit(url, { message: 'first', proof: used })).status, 200);
  assert.equal((await submit(url, { message: 'again', proof: used })).body.code, 'replayed');
  return { used, unused };
}

// Both proofs of the forgotten seed refused as of an unknown seed, the
// puzzle handed out now another, and a proof of it accepted once.
async function assertForgotten(url, { used, unused }) {
  const answers = {};
  for (const [what, proof] of [['used', used], ['unused', unused]]) {
    const r = await submit(url, { message: 'after', proof });
    answers[what] = `${r.status} ${r.body.code ?? 'accepted'}`;
  }
  assert.deepEqual(answers, { used: '403 unknown_seed', unused: '403 unknown_seed' });
  const fresh = await solveFor(url, { nonce: randomBytes(16) });
  assert.notEqual(fresh.seedHead, used.seedHead);
  assert.equal((await submit(url, { message: 'fresh', proof: fresh })).status, 200);
  assert.equal((await submit(url, { message: 'fresh', proof: fresh })).body.code, 'replayed');
}

test('Redis restarted empty: the seed\'s proofs are refused, by the server that ran through it and by a new one',
  { skip: missing ?? false }, async () => {
    let redis = await startRedis();
    running.push(() => redis.stop());
    const env = { ...settings(), REDIS_URL: redis.url };
    const a = await started(startServerProcess(env));
    const proofs = await usedAndUnused(a.url);
    await redis.stop('SIGKILL');
    redis = await startRedis({ port: redis.port });
    const b = await started(startServerProcess(env));
    const r = await submitOnceUp(a.url, { message: 'after', proof: proofs.used });
    assert.equal(r.status, 403, `the used proof at the first server: ${JSON.stringify(r.body)}`);
    await assertForgotten(b.url, proofs);
    await assertForgotten(a.url, proofs);
  });

test('Redis restarted from a snapshot older than a claim: that seed\'s proofs are refused',
  { skip: missing ?? false }, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'equix-demo-redis-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    let redis = await startRedis({ dir });
    running.push(() => redis.stop());
    const a = await started(startServerProcess({ ...settings(), REDIS_URL: redis.url }));
    const before = await usedAndUnused(a.url);
    const client = await createClient({ url: redis.url }).connect();
    try {
      assert.equal(await client.sendCommand(['SAVE']), 'OK');
    } finally {
      await client.close();
    }
    // Claimed after the snapshot: what a restart from it forgets.
    const late = await solveFor(a.url, { nonce: randomBytes(16) });
    assert.equal((await submit(a.url, { message: 'late', proof: late })).status, 200);
    await redis.stop('SIGKILL');
    redis = await startRedis({ port: redis.port, dir });
    const r = await submitOnceUp(a.url, { message: 'late again', proof: late });
    assert.equal(r.status, 403, `the proof claimed after the snapshot: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.code, 'unknown_seed');
    await assertForgotten(a.url, before);
  });

test('Redis flushed: the seeds\' proofs are refused', { skip: missing ?? false }, async () => {
  const redis = await startRedis();
  running.push(() => redis.stop());
  const a = await started(startServerProcess({ ...settings(), REDIS_URL: redis.url }));
  const proofs = await usedAndUnused(a.url);
  const client = await createClient({ url: redis.url }).connect();
  try {
    await client.flushAll();
  } finally {
    await client.close();
  }
  await assertForgotten(a.url, proofs);
});

test('the seed\'s record deleted: that seed\'s proofs are refused', { skip: missing ?? false }, async () => {
  const redis = await startRedis();
  running.push(() => redis.stop());
  const a = await started(startServerProcess({ ...settings(), REDIS_URL: redis.url }));
  const proofs = await usedAndUnused(a.url);
  const client = await createClient({ url: redis.url }).connect();
  let records;
  try {
    records = await client.keys('equix-demo:seed:*');
    for (const key of records) await client.del(key);
  } finally {
    await client.close();
  }
  await assertForgotten(a.url, proofs);
  assert.ok(records.length > 0, 'the seeds\' records are equix-demo:seed:<epoch>');
});

test('memory store, a fixed SECRET: after a restart the old seed\'s proofs are refused', async () => {
  const env = settings();
  const first = await started(startServerProcess(env));
  const proofs = await usedAndUnused(first.url);
  await first.stop();
  const second = await started(startServerProcess(env));
  await assertForgotten(second.url, proofs);
});

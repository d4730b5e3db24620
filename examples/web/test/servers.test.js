// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The server's checks. Two server.js processes sharing a real Redis (a
// site behind a load balancer): a seed either hands out is good at both,
// a proof one accepts the other refuses. Then, on one process with the
// memory store: every kind of bad submission gets its refusal, and seeds
// are accepted for their lifetime and the next one, not after.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';

import { startServer, settingsFrom } from '../server.js';
import { MemoryStore } from 'equix-gate/stores';
import { redisMissing, solveFor, startRedis, startServerProcess, submit } from './helpers.js';

const missing = redisMissing();
const shared = { SECRET: randomBytes(32).toString('hex'), EFFORT: '8', SITE: 'test.example' };
let redis;
let servers = [];

before(async () => {
  if (missing !== null) return;
  redis = await startRedis();
  servers = await Promise.all([0, 1].map(() => startServerProcess({ ...shared, REDIS_URL: redis.url })));
});

after(async () => {
  for (const s of servers) await s.stop();
  await redis?.stop();
});

test('two processes on one Redis: one puzzle, and a proof is good once across both', { skip: missing ?? false }, async () => {
  const [a, b] = servers.map((s) => s.url);
  const [ca, cb] = await Promise.all([a, b].map(async (u) => (await fetch(`${u}/challenge`)).json()));
  assert.deepEqual(ca, cb);
  assert.equal(ca.effort, 8);

  const proof = await solveFor(a);
  assert.deepEqual(await submit(a, { message: 'first', proof }), { status: 200, body: { ok: true, received: 5 } });
  const replayed = await submit(b, { message: 'again', proof });
  assert.equal(replayed.status, 409);
  assert.equal(replayed.body.code, 'replayed');
  assert.equal((await submit(a, { message: 'again', proof })).body.code, 'replayed');

  // Another nonce is another proof, good at either.
  const other = await solveFor(b, { nonce: randomBytes(16) });
  assert.notEqual(other.nonce, proof.nonce);
  assert.equal((await submit(b, { message: 'second', proof: other })).status, 200);
  assert.equal((await submit(a, { message: 'second', proof: other })).body.code, 'replayed');
});

test('two processes: with Redis gone, a valid proof is a server error, never accepted', { skip: missing ?? false }, async () => {
  const [a] = servers.map((s) => s.url);
  const proof = await solveFor(a, { nonce: randomBytes(16) });
  await redis.stop();
  const r = await submit(a, { message: 'no store', proof });
  assert.equal(r.status, 500);
  assert.deepEqual(r.body, { ok: false, code: 'internal', error: 'the server failed' });
  // One short line for the failed request, not a stack trace.
  const lines = servers[0].log().split('\n').filter((line) => line.startsWith('server: POST /submit: '));
  assert.equal(lines.length, 1, servers[0].log());
  assert.ok(lines[0].length <= 330, lines[0]);
  assert.doesNotMatch(servers[0].log(), /^ {4}at /m);
});

// ---- One process, in this one, with the memory store and a clock --------

const EFFORT = 8;
const LIFETIME = 600;
let clock = Date.UTC(2026, 11, 6, 12, 0, 0);
let local;

before(async () => {
  const settings = settingsFrom({ PORT: '0', EFFORT: String(EFFORT), SEED_LIFETIME: String(LIFETIME), SITE: 'unit' });
  local = await startServer(settings, { store: new MemoryStore({ now: () => clock }), now: () => clock });
});

after(async () => local?.close());

test('a good proof is accepted once, then refused as replayed', async () => {
  const proof = await solveFor(local.url);
  assert.equal((await submit(local.url, { message: 'hi', proof })).status, 200);
  const r = await submit(local.url, { message: 'hi', proof });
  assert.equal(r.status, 409);
  assert.equal(r.body.code, 'replayed');
});

test('each bad submission gets its status and code, and costs no store entry', async () => {
  const proof = await solveFor(local.url, { nonce: randomBytes(16) });
  const flip = (h) => (h[0] === '0' ? '1' : '0') + h.slice(1);
  const cases = [
    ['not JSON', 'nope', 400, 'bad_request'],
    ['JSON, not an object', '[1]', 400, 'bad_request'],
    ['no message', { proof }, 400, 'bad_request'],
    ['empty message', { message: '  ', proof }, 400, 'bad_request'],
    ['message too long', { message: 'x'.repeat(1001), proof }, 400, 'bad_request'],
    ['no proof', { message: 'm' }, 400, 'bad_request'],
    ['short nonce', { message: 'm', proof: { ...proof, nonce: proof.nonce.slice(2) } }, 400, 'bad_request'],
    ['uppercase hex', { message: 'm', proof: { ...proof, solution: proof.solution.toUpperCase() } }, 400, 'bad_request'],
    ['seed head not hex', { message: 'm', proof: { ...proof, seedHead: 'zzzzzzzz' } }, 400, 'bad_request'],
    ['effort a string', { message: 'm', proof: { ...proof, effort: '8' } }, 400, 'bad_request'],
    ['effort over 32 bits', { message: 'm', proof: { ...proof, effort: 2 ** 32 } }, 400, 'bad_request'],
    ['effort below the site\'s', { message: 'm', proof: { ...proof, effort: EFFORT - 1 } }, 403, 'effort_too_low'],
    ['unknown seed', { message: 'm', proof: { ...proof, seedHead: flip(proof.seedHead) } }, 403, 'unknown_seed'],
    ['solution changed', { message: 'm', proof: { ...proof, solution: flip(proof.solution) } }, 403, 'invalid_proof'],
    ['nonce changed', { message: 'm', proof: { ...proof, nonce: flip(proof.nonce) } }, 403, 'invalid_proof'],
    ['higher effort claimed', { message: 'm', proof: { ...proof, effort: 2 ** 31 } }, 403, 'invalid_proof'],
  ];
  for (const [what, body, status, code] of cases) {
    const r = await submit(local.url, body);
    assert.equal(r.status, status, what);
    assert.equal(r.body.ok, false, what);
    assert.equal(r.body.code, code, what);
    assert.equal(typeof r.body.error, 'string', what);
  }
  // None of those used the proof up.
  assert.equal((await submit(local.url, { message: 'now', proof })).status, 200);
});

test('requests outside the API: methods, sizes and paths are refused', async () => {
  const big = await fetch(`${local.url}/submit`, { method: 'POST', body: 'x'.repeat(17 * 1024) }).catch((e) => e);
  // The server answers 413 and closes; a client may see either.
  if (!(big instanceof Error)) assert.equal(big.status, 413);
  assert.equal((await fetch(`${local.url}/submit`)).status, 405);
  assert.equal((await fetch(`${local.url}/challenge`, { method: 'POST' })).status, 405);
  for (const path of ['/server.js', '/equix/package.json', '/equix/src/../package.json', '/equix/src/%2e%2e/build.sh',
    '/equix/dist/../build.sh', '/public/app.js', '/nothing']) {
    const r = await fetch(`${local.url}${path}`);
    assert.equal(r.status, 404, path);
  }
  const page = await fetch(`${local.url}/`);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-security-policy'), /script-src 'self' 'wasm-unsafe-eval'/);
  const wasm = await fetch(`${local.url}/equix/dist/equix.wasm`);
  assert.equal(wasm.headers.get('content-type'), 'application/wasm');
  assert.equal((await fetch(`${local.url}/equix/src/pow_worker.js`)).status, 200);
});

test('a seed is accepted while handed out and one lifetime more, then not', async () => {
  const proof = await solveFor(local.url, { nonce: randomBytes(16) });
  const challenge = await (await fetch(`${local.url}/challenge`)).json();
  assert.equal(challenge.expiration % LIFETIME, 0);
  assert.match(challenge.params, /^pow-params v1 \S+ 8 \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  clock = challenge.expiration * 1000; // the next seed is handed out now
  const next = await (await fetch(`${local.url}/challenge`)).json();
  assert.notEqual(next.seed, challenge.seed);
  const late = await solveFor(local.url, { nonce: randomBytes(16) });
  clock += LIFETIME * 1000; // and now the one after it
  assert.equal((await submit(local.url, { message: 'late', proof: late })).status, 200);
  const r = await submit(local.url, { message: 'too late', proof });
  assert.equal(r.status, 403);
  assert.equal(r.body.code, 'unknown_seed');
});

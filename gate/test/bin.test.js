// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The forward-auth service, bin/equix-gate.js, as a separate process:
// each bad setting is one line on stderr and exit status 2 (the secret
// never shown), an unreachable Redis stops it with a line rather than a
// silent wait, a good start prints its listening line, serves the gate
// (a pass earned through it opens P/auth), and SIGTERM ends it with
// status 0. Then config.js's reading of good values.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

import { configFrom } from '../src/config.js';
import { freePort, started, stopper } from './helpers.js';
import { PREFIX, earnPass, pageDir } from './serve.js';

const BIN = fileURLToPath(new URL('../bin/equix-gate.js', import.meta.url));
const SECRET = randomBytes(32).toString('hex');
const GOOD = { SITE: 'bin.example', SECRET, LISTEN: '127.0.0.1:0', EFFORT_MIN: '4', PAGE_DIR: pageDir() };

function spawnBin(env) {
  const child = spawn(process.execPath, [BIN], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  return child;
}

/** Runs the service to its end, killed after 15 s if it has not
 * stopped by itself (status null then): { status, stdout, stderr }. */
function run(env) {
  const child = spawnBin(env);
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => { stdout += chunk; });
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  return new Promise((ok) => child.on('close', (status) => {
    clearTimeout(timer);
    ok({ status, stdout, stderr });
  }));
}

test('each bad setting: one line on stderr naming it, exit status 2', async () => {
  const { SITE, SECRET: _secret, ...noSiteNoSecret } = GOOD;
  const cases = [
    [{ ...noSiteNoSecret, SECRET }, 'SITE'],
    [{ ...noSiteNoSecret, SITE }, 'SECRET'],
    [{ ...GOOD, SECRET: SECRET.slice(2) }, 'SECRET'],
    [{ ...GOOD, SECRET: `${SECRET.slice(2)}zz` }, 'SECRET'],
    [{ ...GOOD, SITE: 'a site' }, 'SITE'],
    [{ ...GOOD, LISTEN: '8484' }, 'LISTEN'],
    [{ ...GOOD, LISTEN: '127.0.0.1:65536' }, 'LISTEN'],
    [{ ...GOOD, LISTEN: '[zz]:80' }, 'LISTEN'],
    [{ ...GOOD, V2: 'yes' }, 'V2'],
    [{ ...GOOD, EFFORT_MIN: '0' }, 'EFFORT_MIN'],
    [{ ...GOOD, EFFORT_MIN: '1e3' }, 'EFFORT_MIN'],
    [{ ...GOOD, EFFORT_MAX: '3' }, 'EFFORT_MAX'],
    [{ ...GOOD, CAPACITY: '-1' }, 'CAPACITY'],
    [{ ...GOOD, SEED_LIFETIME: '5' }, 'SEED_LIFETIME'],
    [{ ...GOOD, PASS_LIFETIME: 'forever' }, 'PASS_LIFETIME'],
    [{ ...GOOD, PASS_BIND_ADDRESS: 'true' }, 'PASS_BIND_ADDRESS'],
    [{ ...GOOD, COOKIE_SECURE: 'maybe' }, 'COOKIE_SECURE'],
    [{ ...GOOD, RATE_LIMIT: '0' }, 'RATE_LIMIT'],
    [{ ...GOOD, RATE_WINDOW: '86401' }, 'RATE_WINDOW'],
    [{ ...GOOD, REDIS_URL: 'http://user:pw@127.0.0.1/' }, 'REDIS_URL'],
    [{ ...GOOD, TRUST_PROXY: '10.0.0.1,everyone' }, 'TRUST_PROXY'],
    [{ ...GOOD, PAGE_DIR: '/nonexistent/equix-gate-page' }, 'PAGE_DIR'],
    [{ ...GOOD, PAGE_DIR: BIN }, 'PAGE_DIR'],
  ];
  for (const [env, name] of cases) {
    const r = await run(env);
    assert.equal(r.status, 2, `${name}: ${r.stderr}`);
    assert.equal(r.stdout, '', name);
    const lines = r.stderr.split('\n').filter((line) => line !== '');
    assert.equal(lines.length, 1, `${name}: ${r.stderr}`);
    assert.ok(lines[0].startsWith(`equix-gate: ${name} `), `${name}: ${lines[0]}`);
    assert.ok(lines[0].length < 200, lines[0]);
    for (const secret of [SECRET, SECRET.slice(2), 'pw@']) assert.ok(!lines[0].includes(secret), `${name} shows a secret`);
  }
});

// Before connectRedis tried the first connection once, the service waited
// here without end, printing a line a retry: run() kills it at 15 s.
test('an unreachable Redis stops the service with its reason, exit status 1', async () => {
  const r = await run({ ...GOOD, REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr.trim().split('\n').pop(), /^equix-gate: .*ECONNREFUSED/);
  assert.equal(r.stdout, '');
});

test('a good start: the listening line, the gate served, a pass opening P/auth; SIGTERM exits 0', async () => {
  const child = spawnBin(GOOD);
  const exited = new Promise((ok) => child.once('exit', (status, signal) => ok({ status, signal })));
  try {
    const m = await started(child, /^equix-gate: listening on (http:\/\/127\.0\.0\.1:\d+) \(site bin\.example, Equi-X v2, effort 4 to 100000, memory store\)\n/, 'equix-gate');
    const url = m[1];
    assert.deepEqual(await (await fetch(`${url}${PREFIX}/healthz`)).json(), { ok: true });
    assert.equal((await fetch(`${url}/elsewhere`)).status, 404);
    assert.equal((await fetch(`${url}${PREFIX}/auth`)).status, 401);
    const cookie = await earnPass(url);
    assert.equal((await fetch(`${url}${PREFIX}/auth`, { headers: { cookie } })).status, 204);
    child.kill('SIGTERM');
    assert.deepEqual(await exited, { status: 0, signal: null });
  } finally {
    await stopper(child)('SIGKILL');
  }
});

test('config: good values read as meant; empty counts as unset', () => {
  const c = configFrom({
    SITE: 'example.com', SECRET: 'Ab'.repeat(32), LISTEN: '[::1]:0', V2: '0', EFFORT_MIN: '100', EFFORT_MAX: '',
    CAPACITY: '50', SEED_LIFETIME: '600', PASS_LIFETIME: '3600', PASS_BIND_ADDRESS: '1', COOKIE_SECURE: '1',
    RATE_LIMIT: '5', RATE_WINDOW: '10', REDIS_URL: 'rediss://:pw@redis.internal:6380/2', TRUST_PROXY: '10.0.0.1, fd00::/8',
    PAGE_DIR: GOOD.PAGE_DIR,
  });
  assert.deepEqual(c, {
    host: '::1',
    port: 0,
    gate: {
      site: 'example.com',
      secret: Buffer.from('ab'.repeat(32), 'hex'),
      v2: false,
      effort: { min: 100, max: 100000, capacity: 50 },
      seedLifetime: 600,
      pass: { lifetime: 3600, bindAddress: true, secure: true },
      rateLimit: { limit: 5, windowSeconds: 10 },
      redisUrl: 'rediss://:pw@redis.internal:6380/2',
      trustProxy: ['10.0.0.1', 'fd00::/8'],
      pageDir: GOOD.PAGE_DIR,
    },
  });
  const d = configFrom({ SITE: 's', SECRET, TRUST_PROXY: 'none', COOKIE_SECURE: '0', REDIS_URL: '' });
  assert.equal(d.host, '127.0.0.1');
  assert.equal(d.port, 8484);
  assert.equal(d.gate.trustProxy, false);
  assert.equal(d.gate.pass.secure, false);
  assert.equal(d.gate.redisUrl, undefined);
  assert.equal(configFrom({ SITE: 's', SECRET }).gate.trustProxy, true);
  assert.equal(configFrom({ SITE: 's', SECRET, EFFORT_MIN: '200000' }).gate.effort.max, 200000);
});

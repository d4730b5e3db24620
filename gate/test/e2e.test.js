// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The gate end to end, as a site runs it: a real Redis, two gate
// instances sharing it (node bin/equix-gate.js, one SITE and SECRET), a
// site behind them that counts its requests, and Debian's nginx and
// Caddy running gate/deploy/nginx.conf and gate/deploy/Caddyfile with
// only their addresses changed (e2e/processes.js), everything on
// loopback. Headless Chromium goes through each proxy as a visitor does;
// the rest is plain HTTP. A missing Redis, proxy or Chromium skips the
// tests that need it, saying which Debian package is missing. Traefik is
// not a Debian package: its configuration is not tested here.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { pow, ready } from 'equix';

import { createPass } from '../src/pass.js';
import { CHROMIUM, launchChromium } from '../../js/test/browser/chromium.js';
import {
  missing, residentKiB, startCaddy, startGate, startNginx, startRedis, startUpstream,
} from './e2e/processes.js';

const noRedis = missing('redis-server', ['--version'], 'redis-server');
const noNginx = noRedis ?? missing('nginx', ['-v'], 'nginx');
const noCaddy = noRedis ?? missing('caddy', ['version'], 'caddy');
const noChromium = existsSync(CHROMIUM) ? null : `${CHROMIUM} is not installed (Debian package chromium)`;

const SECRET = randomBytes(32);
const RATE_LIMIT = 40;
const PASS_LIFETIME = 3600;
// Resident memory a gate may reach under the load test (it starts near
// 85 MiB, the core and V8), and how much it may grow over the test (about
// 20 MiB measured: V8's heap growing under load). Keeping 20 KiB or more
// for each of the 3000 requests, as a table of every address seen would,
// goes past the second.
const RSS_BOUND_MIB = 200;
const RSS_GROWTH_MIB = 64;

let dir;
let redis;
let gates = [];
let upstream;
let nginx;
let caddy;
let browser;

before(async () => {
  if (noRedis !== null) return;
  dir = await mkdtemp(join(tmpdir(), 'equix-gate-e2e-'));
  redis = await startRedis({ dir });
  const env = {
    SITE: 'e2e.example', SECRET: SECRET.toString('hex'), REDIS_URL: redis.url,
    EFFORT_MIN: '4', EFFORT_MAX: '8', RATE_LIMIT: String(RATE_LIMIT), RATE_WINDOW: '60',
    PASS_LIFETIME: String(PASS_LIFETIME),
  };
  gates = await Promise.all([startGate(env), startGate(env)]);
  upstream = await startUpstream();
  const ports = { gates: gates.map((g) => g.port), site: upstream.port };
  if (noNginx === null) {
    await mkdir(join(dir, 'nginx'));
    nginx = await startNginx(join(dir, 'nginx'), ports);
  }
  if (noCaddy === null) {
    await mkdir(join(dir, 'caddy'));
    caddy = await startCaddy(join(dir, 'caddy'), ports);
  }
  if (noChromium === null) browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await Promise.all([nginx?.stop(), caddy?.stop(), upstream?.stop(), ...gates.map((g) => g.stop())]);
  await redis?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

// A visitor in a fresh browser context (no cookie yet) asks for a page
// of the site through `proxy`: sent to the gate's page, solves, and
// lands on the page with a pass.
async function visit(proxy, path) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const problems = [];
    page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
    page.on('pageerror', (e) => problems.push(e.message));
    const seen = [];
    page.on('framenavigated', (f) => { if (f === page.mainFrame()) seen.push(new URL(f.url()).pathname); });
    const before = upstream.requests.length;
    await page.goto(`${proxy.url}${path}`);
    await page.waitForURL(`${proxy.url}${path}`, { timeout: 30_000 });
    assert.equal(await page.textContent('#site'), `protected page ${path}`);
    assert.ok(seen.includes('/.equix-gate/'), `went through the gate's page: ${seen}`);
    // The site saw the visitor once: after the pass, never before.
    assert.deepEqual(upstream.requests.slice(before), [`GET ${path}`]);
    const pass = (await context.cookies()).find((c) => c.name === 'equix_pass');
    assert.ok(pass, 'a pass cookie was set');
    assert.equal(pass.httpOnly, true);
    assert.equal(pass.sameSite, 'Lax');
    assert.deepEqual(problems, []);
    // Later requests pass on the cookie alone: no page, no puzzle.
    const again = await page.goto(`${proxy.url}/second`);
    assert.equal(again.url(), `${proxy.url}/second`);
    assert.equal(await page.textContent('#site'), 'protected page /second');
    return pass;
  } finally {
    await context.close();
  }
}

test('nginx: a browser is sent to the page, solves, gets a pass and lands on the site', {
  skip: noNginx ?? noChromium ?? false, timeout: 60_000,
}, async () => {
  await visit(nginx, '/protected?a=1&b=two');
});

test('Caddy: the same visit through forward_auth', { skip: noCaddy ?? noChromium ?? false, timeout: 60_000 }, async () => {
  await visit(caddy, '/protected?c=3&d=four');
});

const hex = (bytes) => Buffer.from(bytes).toString('hex');

// A proof for gate `url`'s current puzzle, solved in Node.
async function solveAt(url) {
  await ready();
  const c = await (await fetch(`${url}/.equix-gate/challenge`)).json();
  const proof = await pow.solve({
    id: Buffer.from(c.id, 'hex'), seed: Buffer.from(c.seed, 'hex'), effort: c.effort, v2: c.v2, workers: 1,
  });
  return {
    nonce: hex(proof.nonce), seedHead: hex(proof.seedHead), solution: hex(proof.solution), effort: proof.effort,
  };
}

async function verifyAt(url, proof) {
  const r = await fetch(`${url}/.equix-gate/verify`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ proof }),
  });
  return { status: r.status, body: await r.json(), cookie: r.headers.get('set-cookie') };
}

test('a proof accepted by one gate is refused by the other (shared replay store)', { skip: noRedis ?? false, timeout: 30_000 }, async () => {
  const proof = await solveAt(gates[0].url);
  const first = await verifyAt(gates[0].url, proof);
  assert.equal(first.status, 200);
  assert.equal(first.body.ok, true);
  assert.match(first.cookie, /^equix_pass=[^;]+;/);
  const replay = await verifyAt(gates[1].url, proof);
  assert.equal(replay.status, 409);
  assert.equal(replay.body.code, 'replayed');
  assert.equal(replay.cookie, null);
  // And at the gate that accepted it.
  assert.equal((await verifyAt(gates[0].url, proof)).body.code, 'replayed');
});

// Passes made with the test's own secret: the real format, so a refusal
// is the check's doing, not a parse error.
function passes() {
  const host = '127.0.0.1';
  const good = createPass({ secret: SECRET, lifetimeSeconds: PASS_LIFETIME }).issue({ host, address: '127.0.0.1' }).value;
  const lastYear = () => Date.now() - 366 * 86400 * 1000;
  const expired = createPass({ secret: SECRET, lifetimeSeconds: PASS_LIFETIME, now: lastYear }).issue({ host, address: '127.0.0.1' }).value;
  const forged = createPass({ secret: randomBytes(32), lifetimeSeconds: PASS_LIFETIME }).issue({ host, address: '127.0.0.1' }).value;
  const tampered = good.replace(/~(\d+)~/, (all, expiry) => `~${Number(expiry) + 86400}~`);
  const otherHost = createPass({ secret: SECRET, lifetimeSeconds: PASS_LIFETIME }).issue({ host: 'other.example', address: '127.0.0.1' }).value;
  return { good, bad: { expired, forged, tampered, otherHost, garbage: 'x'.repeat(600) } };
}

// What each proxy does without a good pass: a browser's GET goes to the
// page, anything else gets a refusal; none of it reaches the site.
for (const [name, proxy, skip] of [['nginx', () => nginx, () => noNginx], ['Caddy', () => caddy, () => noCaddy]]) {
  test(`${name}: no, expired, forged, tampered or other-host pass never reaches the site; a good one does`, {
    skip: skip() ?? false, timeout: 30_000,
  }, async () => {
    const { url } = proxy();
    const { good, bad } = passes();
    const before = upstream.requests.length;
    const requests = [[undefined, 'GET'], [undefined, 'POST'], [undefined, 'HEAD'], [undefined, 'DELETE'],
      ...Object.values(bad).map((v) => [v, 'GET'])];
    for (const [value, method] of requests) {
      const headers = { accept: 'text/html' };
      if (value !== undefined) headers.cookie = `equix_pass=${value}`;
      const r = await fetch(`${url}/secret?k=v`, { method, headers, redirect: 'manual' });
      await r.arrayBuffer();
      assert.ok([302, 401].includes(r.status), `${method} ${value?.slice(0, 20)}: ${r.status}`);
      if (r.status === 302) assert.match(r.headers.get('location'), /\/\.equix-gate\/\?to=(\/|%2F)secret/);
    }
    assert.deepEqual(upstream.requests.slice(before), []);
    const r = await fetch(`${url}/secret?k=v`, { headers: { cookie: `equix_pass=${good}` }, redirect: 'manual' });
    assert.equal(r.status, 200);
    assert.match(await r.text(), /<p id="site">protected page \/secret\?k=v<\/p>$/);
    assert.deepEqual(upstream.requests.slice(before), ['GET /secret?k=v']);
  });
}

test('the gate\'s /auth itself: 204 for a good pass, 401 for each bad one (both instances)', { skip: noRedis ?? false, timeout: 30_000 }, async () => {
  const { good, bad } = passes();
  for (const gate of gates) {
    const ask = (value) => fetch(`${gate.url}/.equix-gate/auth`, {
      headers: { cookie: `equix_pass=${value}`, 'x-forwarded-uri': '/secret', 'x-forwarded-host': '127.0.0.1' },
    });
    assert.equal((await ask(good)).status, 204);
    for (const [name, value] of Object.entries(bad)) assert.equal((await ask(value)).status, 401, name);
  }
});

test('/challenge flooded from one address: refused with 429 and Retry-After past the limit, across both gates', {
  skip: noRedis ?? false, timeout: 30_000,
}, async () => {
  // An address of its own (the gates trust their loopback peer's
  // X-Forwarded-For, as they trust the proxy's), so the other tests'
  // puzzles do not count.
  const statuses = [];
  for (let i = 0; i < RATE_LIMIT + 10; i++) {
    const r = await fetch(`${gates[i % 2].url}/.equix-gate/challenge`, { headers: { 'x-forwarded-for': '198.51.100.7' } });
    const body = await r.json();
    statuses.push(r.status);
    if (r.status === 429) {
      assert.equal(body.code, 'rate_limited');
      const wait = Number(r.headers.get('retry-after'));
      assert.ok(Number.isInteger(wait) && wait >= 1 && wait <= 60, `Retry-After ${wait}`);
    }
  }
  assert.deepEqual(statuses, [...Array(RATE_LIMIT).fill(200), ...Array(10).fill(429)]);
  // Another address class is not held back by it.
  const other = await fetch(`${gates[0].url}/.equix-gate/challenge`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
  assert.equal(other.status, 200);
});

test(`a gate's memory stays under ${RSS_BOUND_MIB} MiB under a bounded load`, { skip: noRedis ?? false, timeout: 60_000 }, async () => {
  const gate = gates[0];
  const REQUESTS = 3000;
  const CONCURRENCY = 16;
  // Each request from an address class of its own (a flood from many
  // addresses fills the limiter's table; documentation addresses, only
  // ever a header here), of three kinds: puzzles, forged passes at
  // /auth, and bad proofs at /verify.
  const one = async (i) => {
    const xff = `2001:db8:${i.toString(16)}::1`;
    let r;
    if (i % 3 === 0) {
      r = await fetch(`${gate.url}/.equix-gate/challenge`, { headers: { 'x-forwarded-for': xff } });
    } else if (i % 3 === 1) {
      r = await fetch(`${gate.url}/.equix-gate/auth`, { headers: { cookie: `equix_pass=1~${i}~x~~${'A'.repeat(43)}`, 'x-forwarded-uri': `/p${i}` } });
    } else {
      r = await fetch(`${gate.url}/.equix-gate/verify`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': xff },
        body: JSON.stringify({ proof: { nonce: randomBytes(16).toString('hex'), seedHead: '00000000', solution: randomBytes(16).toString('hex'), effort: 8 } }),
      });
    }
    await r.arrayBuffer();
    return r.status;
  };
  const counts = {};
  let next = 0;
  const startKiB = await residentKiB(gate.pid);
  let peakKiB = startKiB;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < REQUESTS) {
      const status = await one(next++);
      counts[status] = (counts[status] ?? 0) + 1;
      if (next % 250 === 0) peakKiB = Math.max(peakKiB, await residentKiB(gate.pid));
    }
  }));
  peakKiB = Math.max(peakKiB, await residentKiB(gate.pid));
  // Every request answered with a defined status, none an error.
  assert.equal(Object.values(counts).reduce((a, b) => a + b, 0), REQUESTS);
  assert.equal(counts[500], undefined, JSON.stringify(counts));
  assert.equal(counts[200], REQUESTS / 3, JSON.stringify(counts));
  assert.equal(counts[401], REQUESTS / 3, JSON.stringify(counts));
  assert.ok(peakKiB < RSS_BOUND_MIB * 1024, `peak ${peakKiB} KiB (started at ${startKiB} KiB)`);
  assert.ok(peakKiB - startKiB < RSS_GROWTH_MIB * 1024, `grew from ${startKiB} to ${peakKiB} KiB`);
  console.log(`e2e load: ${REQUESTS} requests, statuses ${JSON.stringify(counts)}, gate RSS ${startKiB} -> peak ${peakKiB} KiB`);
});

// Last: it spends the whole budget of 127.0.0.1, the address every
// visit through a proxy comes from.
test('through the proxies, a client\'s own X-Forwarded-For does not escape the limit', {
  skip: noNginx ?? noCaddy ?? false, timeout: 30_000,
}, async () => {
  const statuses = [];
  for (let i = 0; i < RATE_LIMIT + 5; i++) {
    const proxy = i % 2 === 0 ? nginx : caddy;
    const r = await fetch(`${proxy.url}/.equix-gate/challenge`, { headers: { 'x-forwarded-for': `203.0.113.${i}` } });
    await r.arrayBuffer();
    statuses.push(r.status);
  }
  // The earlier tests' puzzles from 127.0.0.1 count too: the refusals
  // start at the limit or before, and once started, never stop.
  const first = statuses.indexOf(429);
  assert.ok(first >= 0 && first <= RATE_LIMIT, statuses.join(' '));
  assert.deepEqual(statuses.slice(first), Array(statuses.length - first).fill(429));
  assert.deepEqual(statuses.slice(0, first), Array(first).fill(200));
});

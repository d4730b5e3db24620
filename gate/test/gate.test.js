// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The gate's endpoints (src/gate.js) over real HTTP, with the memory
// store and a test clock: each endpoint's answers and refusals, the pass
// cookie's attributes, forward auth (204, 401, 302), `to` kept to this
// site's paths, the page's files, the adaptive effort, seeds expiring,
// a store failing (500, never an acceptance), and two gates on one real
// Redis (skipped without redis-server). Proofs are solved for real, at
// effort 4 so that the suite stays quick.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';

import { createGate, safeTarget } from '../src/gate.js';
import { MemoryStore } from '../src/stores.js';
import { redisMissing, startRedis } from './helpers.js';
import {
  PAGE_HTML, PREFIX, earnPass, getChallenge, listen, pageDir, postVerify, solve,
} from './serve.js';

const EFFORT = 4;
const LIFETIME = 600;
const SECRET = randomBytes(32);
const clock = { now: Date.UTC(2026, 11, 6, 12, 0, 0) };
const PAGE = pageDir();
const lines = [];
const running = [];

/** A gate behind a node:http server whose other paths are the app's
 * ('app' in plain text): { gate, url }. */
async function serve(options = {}) {
  const gate = await createGate({
    site: 'test.example',
    secret: SECRET,
    effort: { min: EFFORT, max: 1000, capacity: 1000 },
    seedLifetime: LIFETIME,
    pageDir: PAGE,
    now: () => clock.now,
    log: (line) => lines.push(line),
    ...options,
  });
  const server = await listen((req, res) => {
    gate.handle(req, res).then((handled) => {
      if (!handled) res.end('app');
    });
  });
  running.push(async () => {
    await server.close();
    await gate.close();
  });
  return { gate, url: server.url };
}

let main;

before(async () => {
  main = await serve();
});

after(async () => {
  for (const stop of running.reverse()) await stop();
});

const flip = (h) => (h[0] === '0' ? '1' : '0') + h.slice(1);

function assertSecurityHeaders(r, what) {
  assert.match(r.headers.get('content-security-policy'), /^default-src 'none'; script-src 'self' 'wasm-unsafe-eval';/, what);
  assert.match(r.headers.get('content-security-policy'), /frame-ancestors 'none'$/, what);
  assert.equal(r.headers.get('x-content-type-options'), 'nosniff', what);
  assert.equal(r.headers.get('referrer-policy'), 'no-referrer', what);
}

/** GET `target` byte for byte (fetch would normalise it). */
function rawGet(url, target, headers = {}) {
  const { hostname, port } = new URL(url);
  return new Promise((ok, fail) => {
    const req = request({ host: hostname, port, path: target, method: 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => { body += chunk; });
      res.on('end', () => ok({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

test('challenge: the puzzle as hex, the effort handed out, the seed\'s end; and the page\'s headers', async () => {
  const r = await fetch(`${main.url}${PREFIX}/challenge`);
  assert.equal(r.status, 200);
  assertSecurityHeaders(r, 'challenge');
  assert.equal(r.headers.get('cache-control'), 'no-store');
  const c = await r.json();
  assert.deepEqual(Object.keys(c).sort(), ['effort', 'expiration', 'id', 'seed', 'v2']);
  assert.equal(c.v2, true);
  assert.match(c.id, /^[0-9a-f]{64}$/);
  assert.match(c.seed, /^[0-9a-f]{64}$/);
  assert.equal(c.effort, EFFORT);
  assert.equal(c.expiration % LIFETIME, 0);
  assert.ok(c.expiration > clock.now / 1000 && c.expiration <= clock.now / 1000 + LIFETIME);
  // The same puzzle until the seed changes.
  assert.deepEqual(await getChallenge(main.url), c);
});

test('verify: a good proof earns the pass cookie, once; the same proof again is refused as replayed', async () => {
  const proof = await solve(await getChallenge(main.url));
  const r = await postVerify(main.url, { proof });
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { ok: true });
  assertSecurityHeaders({ headers: r.headers }, 'verify');
  // Plain http and no proxy saying https: no Secure (the browser would drop it).
  assert.match(r.cookie, /^equix_pass=1~[0-9]+~127\.0\.0\.1~~[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Lax; Path=\/; Max-Age=86400$/);
  const again = await postVerify(main.url, { proof });
  assert.equal(again.status, 409);
  assert.equal(again.body.code, 'replayed');
  assert.equal(again.cookie, null);
});

test('verify: the cookie is Secure behind a proxy saying https, or when told; not when told not', async () => {
  const https = { 'x-forwarded-proto': 'https' };
  assert.match(await cookieOf(main.url, https), /; Secure$/);
  // From a peer that is no trusted proxy, the header is not believed.
  const untrusting = await serve({ trustProxy: false });
  assert.doesNotMatch(await cookieOf(untrusting.url, https), /Secure/);
  const always = await serve({ pass: { secure: true } });
  assert.match(await cookieOf(always.url), /; Secure$/);
  const never = await serve({ pass: { secure: false, cookie: 'other', lifetime: 60 } });
  const cookie = await cookieOf(never.url, https);
  assert.doesNotMatch(cookie, /Secure/);
  assert.match(cookie, /^other=.*; Max-Age=60$/);
});

async function cookieOf(url, headers = {}) {
  const r = await postVerify(url, { proof: await solve(await getChallenge(url)) }, headers);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.cookie;
}

test('verify: each bad body gets its status and code, and none uses the proof up', async () => {
  const proof = await solve(await getChallenge(main.url), { nonce: randomBytes(16) });
  const cases = [
    ['not JSON', 'nope', 400, 'bad_request'],
    ['JSON, not an object', '[1]', 400, 'bad_request'],
    ['null', 'null', 400, 'bad_request'],
    ['no proof', {}, 400, 'bad_request'],
    ['proof not an object', { proof: 'x' }, 400, 'bad_request'],
    ['short nonce', { proof: { ...proof, nonce: proof.nonce.slice(2) } }, 400, 'bad_request'],
    ['uppercase hex', { proof: { ...proof, solution: proof.solution.toUpperCase() } }, 400, 'bad_request'],
    ['seed head not hex', { proof: { ...proof, seedHead: 'zzzzzzzz' } }, 400, 'bad_request'],
    ['effort a string', { proof: { ...proof, effort: '4' } }, 400, 'bad_request'],
    ['effort a fraction', { proof: { ...proof, effort: 4.5 } }, 400, 'bad_request'],
    ['effort over 32 bits', { proof: { ...proof, effort: 2 ** 32 } }, 400, 'bad_request'],
    ['effort below the site\'s', { proof: { ...proof, effort: EFFORT - 1 } }, 403, 'effort_too_low'],
    ['unknown seed', { proof: { ...proof, seedHead: flip(proof.seedHead) } }, 403, 'unknown_seed'],
    ['solution changed', { proof: { ...proof, solution: flip(proof.solution) } }, 403, 'invalid_proof'],
    ['nonce changed', { proof: { ...proof, nonce: flip(proof.nonce) } }, 403, 'invalid_proof'],
    ['higher effort claimed', { proof: { ...proof, effort: 2 ** 31 } }, 403, 'invalid_proof'],
  ];
  for (const [what, body, status, code] of cases) {
    const r = await postVerify(main.url, body);
    assert.equal(r.status, status, what);
    assert.equal(r.body.ok, false, what);
    assert.equal(r.body.code, code, what);
    assert.equal(typeof r.body.error, 'string', what);
    assert.equal(r.cookie, null, what);
  }
  assert.equal((await postVerify(main.url, { proof })).status, 200);
});

test('verify: a body over 16 KiB is 413; a wrong method is 405 with Allow', async () => {
  const big = await postVerify(main.url, `{"proof":"${'x'.repeat(17 * 1024)}"}`).catch((e) => e);
  // The gate answers 413 and closes; a client may see either.
  if (!(big instanceof Error)) assert.equal(big.body.code, 'too_large');
  const told = await fetch(`${main.url}${PREFIX}/verify`, {
    method: 'POST', headers: { 'content-length': String(1 << 20) }, body: 'x',
  }).catch((e) => e);
  if (!(told instanceof Error)) assert.equal(told.status, 413);
  const get = await fetch(`${main.url}${PREFIX}/verify`);
  assert.equal(get.status, 405);
  assert.equal(get.headers.get('allow'), 'POST');
  const post = await fetch(`${main.url}${PREFIX}/challenge`, { method: 'POST' });
  assert.equal(post.status, 405);
  assert.equal(post.headers.get('allow'), 'GET, HEAD');
});

test('Equi-X v1: a v1 gate hands out v1 puzzles and refuses a v2 proof of its seed', async () => {
  const v1 = await serve({ v2: false });
  const c = await getChallenge(v1.url);
  assert.equal(c.v2, false);
  const wrong = await solve(c, { v2: true, nonce: randomBytes(16) });
  const r = await postVerify(v1.url, { proof: wrong });
  assert.equal(r.status, 403);
  assert.equal(r.body.code, 'invalid_proof');
  assert.equal((await postVerify(v1.url, { proof: await solve(c) })).status, 200);
});

test('challenge: rate-limited per address class, with Retry-After; another class is not', async () => {
  const limited = await serve({ rateLimit: { limit: 2, windowSeconds: 30 } });
  // Loopback is a trusted proxy by default: X-Forwarded-For names the client.
  const from = (address) => ({ 'x-forwarded-for': address });
  for (const address of ['203.0.113.7', '203.0.113.200']) {
    assert.equal((await fetch(`${limited.url}${PREFIX}/challenge`, { headers: from(address) })).status, 200);
  }
  const r = await fetch(`${limited.url}${PREFIX}/challenge`, { headers: from('203.0.113.9') });
  assert.equal(r.status, 429);
  assert.equal(r.headers.get('retry-after'), '30');
  const body = await r.json();
  assert.equal(body.ok, false);
  assert.equal(body.code, 'rate_limited');
  assert.equal((await fetch(`${limited.url}${PREFIX}/challenge`, { headers: from('198.51.100.1') })).status, 200);
  clock.now += 30_000;
  assert.equal((await fetch(`${limited.url}${PREFIX}/challenge`, { headers: from('203.0.113.9') })).status, 200);
});

test('auth: 401 without a pass, 302 to the page with ?redirect=1, 204 with one', async () => {
  const auth = (headers = {}, query = '') => fetch(`${main.url}${PREFIX}/auth${query}`, { headers, redirect: 'manual' });
  const none = await auth({ 'x-forwarded-uri': '/private?a=1' });
  assert.equal(none.status, 401);
  assert.deepEqual((await none.json()).code, 'pass_required');
  const redirect = await auth({ 'x-forwarded-uri': '/private?a=1' }, '?redirect=1');
  assert.equal(redirect.status, 302);
  assert.equal(redirect.headers.get('location'), `${PREFIX}/?to=%2Fprivate%3Fa%3D1`);
  const cookie = await earnPass(main.url);
  const ok = await auth({ cookie, 'x-forwarded-uri': '/private' });
  assert.equal(ok.status, 204);
  assert.equal(await ok.text(), '');
  // The gate's own endpoints pass without one: the page must load.
  for (const uri of [`${PREFIX}/challenge`, `${PREFIX}/?to=%2Fa`, `${PREFIX}/equix/src/index.js`]) {
    assert.equal((await auth({ 'x-forwarded-uri': uri })).status, 204, uri);
  }
  // Not what a proxy normalises into another path: those need a pass.
  for (const uri of [`${PREFIX}x/`, `${PREFIX}/../private`, `${PREFIX}/%2e%2e/private`, `${PREFIX}/equix/src/../../x`,
    `${PREFIX}//private`, `${PREFIX}/./private`]) {
    assert.equal((await auth({ 'x-forwarded-uri': uri })).status, 401, uri);
  }
});

test('auth: a pass is refused for another host, when forged, and once expired', async () => {
  const cookie = await earnPass(main.url);
  const auth = (headers) => fetch(`${main.url}${PREFIX}/auth`, { headers: { cookie, ...headers } });
  assert.equal((await auth({ 'x-forwarded-host': 'other.example' })).status, 401);
  const [name, value] = cookie.split('=');
  const forged = `${name}=${value.slice(0, -1)}${value.endsWith('A') ? 'B' : 'A'}`;
  assert.equal((await fetch(`${main.url}${PREFIX}/auth`, { headers: { cookie: forged } })).status, 401);
  assert.equal((await auth({})).status, 204);
  clock.now += 86400 * 1000;
  assert.equal((await auth({})).status, 401);
});

test('check(): the pass\'s verdict, with X-Forwarded-Host believed from trusted proxies only', async () => {
  const untrusting = await serve({ trustProxy: false });
  const cookie = await earnPass(untrusting.url);
  const req = (headers, remoteAddress = '127.0.0.1') => ({ headers: { host: '127.0.0.1:1', ...headers }, socket: { remoteAddress } });
  assert.equal(await untrusting.gate.check(req({})), 'missing');
  assert.equal(await untrusting.gate.check(req({ cookie })), 'ok');
  assert.equal(await untrusting.gate.check(req({ cookie, 'x-forwarded-host': 'other.example' })), 'ok');
  assert.equal(await untrusting.gate.check(req({ cookie, host: 'other.example' })), 'other_host');
  assert.equal(await untrusting.gate.check(req({ cookie: 'equix_pass=nonsense' })), 'malformed');
  // A stale cookie beside a good one (set for a parent domain, say).
  assert.equal(await untrusting.gate.check(req({ cookie: `equix_pass=nonsense; ${cookie}` })), 'ok');
  assert.equal(await main.gate.check(req({ cookie, 'x-forwarded-host': 'other.example' })), 'other_host');
  assert.equal(await main.gate.check(req({ cookie, 'x-forwarded-host': 'other.example' }, '192.0.2.1')), 'ok');
});

test('`to`: open-redirect attempts are clamped to /', async () => {
  const long = `/${'a'.repeat(2048)}`;
  for (const to of ['//evil.example', 'https://evil.example', '/\\evil', '/\t/evil.example', 'evil', '',
    `${PREFIX}/`, long]) {
    const what = JSON.stringify(to.slice(0, 40));
    assert.equal(safeTarget(to), '/', what);
    const auth = await fetch(`${main.url}${PREFIX}/auth?redirect=1`, { headers: { 'x-forwarded-uri': to }, redirect: 'manual' });
    if (!to.startsWith(PREFIX)) assert.equal(auth.headers.get('location'), `${PREFIX}/?to=%2F`, what);
    // The page's own address: one this long is refused whole (400).
    if (to === long) continue;
    const r = await fetch(`${main.url}${PREFIX}/?to=${encodeURIComponent(to)}`, { redirect: 'manual' });
    assert.equal(r.status, 302, what);
    assert.equal(r.headers.get('location'), `${PREFIX}/?to=%2F`, what);
  }
  for (const to of ['/', '/a/b?c=d#e', '/.equix-gatex']) {
    assert.equal(safeTarget(to), to);
    const r = await fetch(`${main.url}${PREFIX}/?to=${encodeURIComponent(to)}`, { redirect: 'manual' });
    assert.equal(r.status, 200, to);
  }
});

test('the page and its files: types, headers, ETags; nothing else of either directory', async () => {
  const page = await fetch(`${main.url}${PREFIX}/`);
  assert.equal(page.status, 200);
  assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
  assertSecurityHeaders(page, 'page');
  assert.equal(await page.text(), PAGE_HTML);
  const bare = await fetch(`${main.url}${PREFIX}?to=%2Fx`, { redirect: 'manual' });
  assert.equal(bare.status, 302);
  assert.equal(bare.headers.get('location'), `${PREFIX}/?to=%2Fx`);
  const types = {
    '/gate.js': 'text/javascript; charset=utf-8',
    '/gate.css': 'text/css; charset=utf-8',
    '/equix/src/index.js': 'text/javascript; charset=utf-8',
    '/equix/src/pow_worker.js': 'text/javascript; charset=utf-8',
    '/equix/dist/equix.wasm': 'application/wasm',
  };
  for (const [path, type] of Object.entries(types)) {
    const r = await fetch(`${main.url}${PREFIX}${path}`);
    assert.equal(r.status, 200, path);
    assert.equal(r.headers.get('content-type'), type, path);
    assertSecurityHeaders(r, path);
    const etag = r.headers.get('etag');
    assert.match(etag, /^"[A-Za-z0-9_-]{27}"$/, path);
    const again = await fetch(`${main.url}${PREFIX}${path}`, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304, path);
  }
  const wasm = Buffer.from(await (await fetch(`${main.url}${PREFIX}/equix/dist/equix.wasm`)).arrayBuffer());
  assert.deepEqual([...wasm.subarray(0, 4)], [0x00, 0x61, 0x73, 0x6d]);
  for (const path of ['/index.html', '/equix/src/core.c', '/equix/src/README.md', '/equix/package.json',
    '/equix/src/../package.json', '/equix/src/%2e%2e/build.sh', '/equix/dist/../build.sh', '/equix/src/nothing.js',
    '/gate.js/', '/nothing', '/Gate.js']) {
    const r = await rawGet(main.url, `${PREFIX}${path}`);
    assert.equal(r.status, 404, path);
    assert.equal(JSON.parse(r.body).code, 'not_found', path);
  }
  assert.equal((await fetch(`${main.url}${PREFIX}/healthz`)).status, 200);
  assert.deepEqual(await (await fetch(`${main.url}${PREFIX}/healthz`)).json(), { ok: true });
});

test('paths outside the prefix are the app\'s; a target too long under it is 400', async () => {
  for (const target of ['/', '/x', `${PREFIX}x`, '/.EQUIX-GATE/', '*', 'http://x/.equix-gate/']) {
    const r = await rawGet(main.url, target);
    assert.equal(r.body, 'app', target);
  }
  const long = await rawGet(main.url, `${PREFIX}/challenge?${'q'.repeat(3000)}`);
  assert.equal(long.status, 400);
  assert.equal(JSON.parse(long.body).code, 'bad_target');
});

test('effort: raised under load, the previous period\'s still accepted, then refused', async () => {
  const period = 10_000;
  const busy = await serve({ effort: { min: EFFORT, max: 1000, capacity: 1 } });
  // Over half the capacity: 6 verifications in a period of 10 s.
  const load = async () => {
    const c = await getChallenge(busy.url);
    for (let i = 0; i < 6; i++) {
      assert.equal((await postVerify(busy.url, { proof: await solve(c, { nonce: randomBytes(16) }) })).status, 200);
    }
    return c;
  };
  const first = await load();
  assert.equal(first.effort, EFFORT);
  const old = await solve(first, { nonce: randomBytes(16) });
  const late = await solve(first, { nonce: randomBytes(16) });
  clock.now += period;
  const raised = await load();
  assert.ok(raised.effort > EFFORT, `effort ${raised.effort}`);
  assert.equal((await postVerify(busy.url, { proof: old })).status, 200);
  clock.now += period;
  assert.ok((await getChallenge(busy.url)).effort > raised.effort);
  const r = await postVerify(busy.url, { proof: late });
  assert.equal(r.status, 403);
  assert.equal(r.body.code, 'effort_too_low');
});

test('seeds: a proof is accepted while its seed is handed out and one lifetime more, then not', async () => {
  const c = await getChallenge(main.url);
  const proof = await solve(c, { nonce: randomBytes(16) });
  const late = await solve(c, { nonce: randomBytes(16) });
  clock.now = c.expiration * 1000; // the next seed is handed out now
  assert.notEqual((await getChallenge(main.url)).seed, c.seed);
  assert.equal((await postVerify(main.url, { proof: late })).status, 200);
  clock.now += LIFETIME * 1000;
  const r = await postVerify(main.url, { proof });
  assert.equal(r.status, 403);
  assert.equal(r.body.code, 'unknown_seed');
});

test('a failing store is a 500 and one log line, never a pass', async () => {
  const store = new MemoryStore({ now: () => clock.now });
  store.claim = async () => { throw new Error('the store is down\nand says so at length'); };
  const broken = await serve({ store });
  const proof = await solve(await getChallenge(broken.url));
  const before = lines.length;
  const r = await postVerify(broken.url, { proof });
  assert.equal(r.status, 500);
  assert.deepEqual(r.body, { ok: false, code: 'internal', error: 'the gate failed' });
  assert.equal(r.cookie, null);
  assert.deepEqual(lines.slice(before), [`equix-gate: POST ${PREFIX}/verify: the store is down and says so at length`]);
});

test('bad options are refused at creation', async () => {
  const good = { site: 's', secret: SECRET, pageDir: PAGE };
  const bad = [
    [{ ...good, site: '' }, TypeError],
    [{ ...good, secret: SECRET.subarray(1) }, TypeError],
    [{ ...good, secret: SECRET.toString('hex') }, TypeError],
    [{ ...good, v2: 1 }, TypeError],
    [{ ...good, prefix: '/gate/' }, TypeError],
    [{ ...good, prefix: 'gate' }, TypeError],
    [{ ...good, pass: { cookie: 'a b' } }, TypeError],
    [{ ...good, pass: { secure: 'yes' } }, TypeError],
    [{ ...good, store: {} }, TypeError],
    [{ ...good, trustProxy: 'everyone' }, TypeError],
    [{ ...good, effort: { min: 10, max: 5 } }, RangeError],
    [{ ...good, rateLimit: { limit: 0 } }, RangeError],
  ];
  for (const [options, type] of bad) await assert.rejects(createGate(options), type, JSON.stringify(options));
});

// ---- Two gates on one Redis ----------------------------------------------

const missing = redisMissing();
let redis;

before(async () => {
  if (missing === null) redis = await startRedis();
});

after(async () => redis?.stop());

test('Redis: two gates hand out one puzzle, accept a proof once across both, share the rate limit',
  { skip: missing ?? false }, async () => {
    const options = { redisUrl: redis.url, rateLimit: { limit: 3, windowSeconds: 60 }, site: 'shared.example' };
    const a = await serve(options);
    const b = await serve(options);
    const ca = await getChallenge(a.url);
    assert.deepEqual(await getChallenge(b.url), ca);
    const proof = await solve(ca);
    assert.equal((await postVerify(a.url, { proof })).status, 200);
    assert.equal((await postVerify(b.url, { proof })).body.code, 'replayed');
    // Three puzzles for 127.0.0.0/24 in all: the fourth is refused at either.
    assert.equal((await fetch(`${b.url}${PREFIX}/challenge`)).status, 200);
    assert.equal((await fetch(`${a.url}${PREFIX}/challenge`)).status, 429);
  });

test('Redis gone: puzzles and proofs are 500s, never a pass', { skip: missing ?? false }, async () => {
  const g = await serve({ redisUrl: redis.url, site: 'gone.example' });
  const proof = await solve(await getChallenge(g.url));
  await redis.stop();
  const r = await postVerify(g.url, { proof });
  assert.equal(r.status, 500);
  assert.equal(r.body.code, 'internal');
  assert.equal(r.cookie, null);
  assert.equal((await fetch(`${g.url}${PREFIX}/challenge`)).status, 500);
});

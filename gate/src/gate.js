// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The gate: a visitor without a pass gets the challenge page, solves an
// Equi-X proof of work in the browser, and a verified proof earns a
// signed, expiring pass cookie (pass.js); later requests pass on the
// cookie alone, with no store read. createGate() gives the endpoints
// under one prefix P (default /.equix-gate), a node:http / Express /
// Connect middleware and a Fastify plugin that protect an app, and the
// forward-auth answer a reverse proxy asks for (P/auth):
//
//   GET  P/auth        204 with a good pass; else 401, or with ?redirect=1
//                      a 302 to the page (for proxies that hand the auth
//                      answer to the client). The proxy passes the
//                      original request's URI in X-Forwarded-Uri and its
//                      host in X-Forwarded-Host (or Host). A URI naming
//                      one of the endpoints below always passes: the
//                      page must load without a pass.
//   GET  P/?to=/path   the challenge page; a `to` that is not a path of
//                      this site (safeTarget) is a 302 to P/?to=%2F
//   GET  P/challenge   { v2, id, seed, effort, expiration }, rate-limited
//                      per address class (429, Retry-After)
//   POST P/verify      { proof: { nonce, seedHead, solution, effort } }:
//                      proof.js's checkProof, then the pass cookie
//   GET  P/gate.js, P/gate.css         the page's files (pageDir)
//   GET  P/equix/src/*.js, P/equix/dist/equix.wasm   the equix package
//   GET  P/healthz     { ok: true }
//
// Every answer of these endpoints carries the page's Content-Security-
// Policy and is JSON when it is not a file: { ok:false, code, error } for
// a refusal, so the page (and a client program) can act on the code:
// 400 bad_request (a body or host that is not what it must be),
// 400 bad_target (a request target over 2048 characters), 405 method,
// 404 not_found, 413 too_large, 403 effort_too_low, 403 unknown_seed
// (fetch a new puzzle), 403 invalid_proof, 409 replayed, 429
// rate_limited, 401 pass_required (P/auth, and the middleware for a
// request that is no page navigation). A failure of the store or the
// rate limiter (Redis down) is 500 internal, never an acceptance.
//
// Which host a pass is for, and whether the visitor came over https,
// are read from X-Forwarded-Host and X-Forwarded-Proto only when the
// peer is a trusted proxy (trustProxy, as address.js believes
// X-Forwarded-For); otherwise from Host and the connection itself.

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { ready } from 'equix';

import { addressClass, canonical, clientAddress, trustedPeers } from './address.js';
import { EffortController } from './effort.js';
import { createPass, normalizeHost } from './pass.js';
import { MemoryLimiter, RedisLimiter } from './ratelimit.js';
import { Seeds } from './seeds.js';
import { MemoryStore, RedisStore, connectRedis } from './stores.js';
import {
  Refusal, TYPES, checkProof, jsonOf, oneLine, proofFields, readBody,
} from './proof.js';

export { Seeds } from './seeds.js';
export { MemoryStore, RedisStore, connectRedis, openStore } from './stores.js';

/** createGate's defaults (bin/equix-gate.js's environment has the same). */
export const DEFAULTS = Object.freeze({
  v2: true,
  effort: Object.freeze({ min: 16, max: 100000, capacity: 200 }),
  seedLifetime: 3600,
  pass: Object.freeze({ lifetime: 86400, cookie: 'equix_pass', bindAddress: false, secure: 'auto' }),
  rateLimit: Object.freeze({ limit: 30, windowSeconds: 60 }),
  trustProxy: true,
  prefix: '/.equix-gate',
});

const PAGE = new URL('../page/', import.meta.url);
// The equix package's directory, found as Node finds it (node_modules/equix).
const PACKAGE = new URL('..', import.meta.resolve('equix'));
const PACKAGE_MODULE = /^\/equix\/src\/([a-z0-9_]+\.js)$/;

// The page's policy: its own scripts, styles and workers only, and
// 'wasm-unsafe-eval', without which the browser compiles no WebAssembly
// at all, the package's core included (ready() rejects with FAIL_WASM,
// and the page says so; js/test/browser/csp.html checks both). On
// every answer of the gate's endpoints: workers take theirs from their
// script's response.
const SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
    + "connect-src 'self'; worker-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; "
    + "frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

const MAX_TARGET = 2048; // longer request targets are refused (gate paths) or not kept (`to`)
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,64}$/; // an RFC 6265 token
const PREFIX = /^(?:\/[A-Za-z0-9._~-]+)+$/;

/**
 * `to` if it is a path of this site, else '/': it must start with one
 * '/' (not '//' nor '/\', which browsers read as another host), hold no
 * backslash or control character (browsers drop tabs and newlines, so
 * '/\t/evil' would become '//evil'), be at most MAX_TARGET characters,
 * and not lead back into the gate under `prefix` (a loop). The page's
 * script checks the same before it follows `to`.
 */
export function safeTarget(to, prefix = DEFAULTS.prefix) {
  if (typeof to !== 'string' || to.length > MAX_TARGET) return '/';
  if (!/^\/(?![/\\])/.test(to) || /[\\\x00-\x1f\x7f]/.test(to)) return '/';
  const path = to.split(/[?#]/, 1)[0];
  if (path === prefix || path.startsWith(`${prefix}/`)) return '/';
  return to;
}

/** Whether a refused request gets the page (a 302) rather than a 401:
 * a GET or HEAD whose Accept names text/html, as a browser's navigation
 * does; fetch() and API clients get JSON they can read. */
export function wantsPage(req) {
  const accept = String(req.headers.accept ?? '');
  return (req.method === 'GET' || req.method === 'HEAD') && /\btext\/html\b/i.test(accept);
}

/**
 * Creates a gate; resolves once the equix core is ready and, with
 * `redisUrl`, once its Redis is connected and checked. Options (DEFAULTS
 * has the defaults):
 *   site, secret        required: the site's name (hashed into the
 *                       puzzles' service ID) and its 32-byte secret
 *                       (seeds; passes, with a key derived from it)
 *   v2                  Equi-X v2 puzzles (false: Tor's v1)
 *   effort              { min, max, capacity }: effort.js
 *   seedLifetime        seconds a seed is handed out (seeds.js)
 *   pass                { lifetime, cookie, bindAddress, secure }: the
 *                       cookie's seconds and name, pass.js's bindAddress,
 *                       Secure: 'auto' (over https), true or false
 *   rateLimit           { limit, windowSeconds }: puzzles per address class
 *   store, redisUrl     the replay store (stores.js): `store` as given,
 *                       else a RedisStore on `redisUrl`, which also holds
 *                       the rate limits, else memory
 *   trustProxy          address.js's: whose X-Forwarded-* to believe
 *   prefix              where the endpoints are
 *   pageDir             the page's directory (a path or a file: URL)
 *   now, log            the clock (milliseconds) and where a server
 *                       failure's one line goes (console.error)
 * close() closes what the gate opened: a `store` passed in stays the
 * caller's.
 */
export async function createGate(options = {}) {
  const o = settingsOf(options);
  // What checks its settings comes first: a mistake opens no connection.
  const effort = new EffortController({ ...o.effort, now: o.now });
  const pass = createPass({ secret: o.secret, lifetimeSeconds: o.pass.lifetime, bindAddress: o.pass.bindAddress, now: o.now });
  await ready();
  const parts = await openParts(o);
  const id = createHash('sha256').update(`equix-gate site ${o.site}`).digest();
  const seeds = new Seeds(o.secret, o.seedLifetime, parts.store, id, { now: o.now });
  const gate = {
    o,
    id,
    seeds,
    effort,
    pass,
    trusted: trustedPeers(o.trustProxy),
    assets: new Map(), // assetFile's cache: file URL -> promise of { body, etag }
    // What proof.js's checkProof asks of a site. Only a proof that
    // reached Equi-X's check cost work (effort.js): a wrong seed head or
    // effort is not counted.
    site: {
      id,
      seeds,
      store: parts.store,
      v2: o.v2,
      accepts: (e) => effort.accepts(e),
      effort: () => effort.current(),
      verified: (result) => {
        if (result !== 'FAIL_SEED_HEAD' && result !== 'FAIL_EFFORT') effort.record();
      },
    },
    ...parts,
  };
  const handle = (req, res) => handleRequest(gate, req, res);
  const check = async (req) => checkPass(gate, req);
  const guard = (req, res) => guardRequest(gate, req, res);
  return {
    handle,
    check,
    middleware: () => middlewareOf(guard),
    fastify: fastifyPluginOf(guard),
    close: once(() => closeParts(parts)),
  };
}

// The options with their defaults, checked: a mistake is a TypeError or
// RangeError at startup, not a gate that misbehaves later.
function settingsOf(options) {
  const o = {
    ...DEFAULTS,
    ...options,
    effort: { ...DEFAULTS.effort, ...options.effort },
    pass: { ...DEFAULTS.pass, ...options.pass },
    rateLimit: { ...DEFAULTS.rateLimit, ...options.rateLimit },
    now: options.now ?? Date.now,
    log: options.log ?? ((line) => console.error(line)),
    pageDir: options.pageDir === undefined ? PAGE : directoryUrl(options.pageDir),
  };
  if (typeof o.site !== 'string' || o.site === '') throw new TypeError('gate: site must be a non-empty string');
  if (!(o.secret instanceof Uint8Array) || o.secret.length !== 32) throw new TypeError('gate: secret must be 32 bytes');
  if (typeof o.v2 !== 'boolean') throw new TypeError('gate: v2 must be true or false');
  if (!Number.isInteger(o.seedLifetime) || o.seedLifetime < 1) throw new RangeError('gate: seedLifetime must be a positive integer');
  if (!COOKIE_NAME.test(o.pass.cookie)) throw new TypeError('gate: pass.cookie must be a cookie name (letters, digits, -_ and the like)');
  if (!['auto', true, false].includes(o.pass.secure)) throw new TypeError('gate: pass.secure must be "auto", true or false');
  if (typeof o.prefix !== 'string' || !PREFIX.test(o.prefix)) {
    throw new TypeError('gate: prefix must be a path such as /.equix-gate (no trailing slash)');
  }
  if (o.store !== undefined && !['issue', 'salts', 'claim', 'close'].every((f) => typeof o.store[f] === 'function')) {
    throw new TypeError('gate: store must be a replay store (stores.js)');
  }
  if (o.redisUrl !== undefined && typeof o.redisUrl !== 'string') throw new TypeError('gate: redisUrl must be a string');
  if (typeof o.now !== 'function' || typeof o.log !== 'function') throw new TypeError('gate: now and log must be functions');
  trustedPeers(o.trustProxy); // throws a TypeError for a bad setting
  return o;
}

// A directory (a path, or a file: URL) as a URL that names its files.
function directoryUrl(dir) {
  const url = dir instanceof URL ? new URL(dir) : pathToFileURL(resolve(String(dir)));
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

// The store and the rate limiter: on one Redis client when there is a
// redisUrl (shared by every instance of the site), else in memory.
async function openParts(o) {
  const client = o.redisUrl === undefined ? null : await connectRedis(o.redisUrl);
  try {
    const store = o.store ?? (client ? await RedisStore.attach(client) : new MemoryStore({ now: o.now }));
    const limiter = client
      ? new RedisLimiter(client, o.rateLimit)
      : new MemoryLimiter({ ...o.rateLimit, now: o.now });
    return { client, store, limiter, ownsStore: o.store === undefined };
  } catch (e) {
    await client?.close();
    throw e;
  }
}

async function closeParts({ client, store, limiter, ownsStore }) {
  await limiter.close();
  if (ownsStore) await store.close();
  await client?.close();
}

function once(f) {
  let done = null;
  return () => {
    done ??= f();
    return done;
  };
}

// ---- Requests -------------------------------------------------------------

/** Serves the gate's endpoints: resolves true when the request was one
 * of them (and has its answer), false for any other path. Never
 * rejects: a failure is a 500 and one log line. */
async function handleRequest(gate, req, res) {
  const target = targetOf(req);
  const rest = underPrefix(gate.o.prefix, target);
  if (rest === null) return false;
  try {
    await route(gate, req, res, rest, target);
  } catch (e) {
    if (e instanceof Refusal) sendJson(res, e.status, { ok: false, code: e.code, error: e.message }, e.headers);
    else fail(gate, req, res, e);
  }
  return true;
}

// The request's target as the client sent it: Express's originalUrl when
// a router has cut req.url.
function targetOf(req) {
  return String(req.originalUrl ?? req.url ?? '');
}

// The part of `target`'s path after the prefix ('' for the prefix
// itself, '/...' below it), or null when it is not under it. Compared as
// sent, never %-decoded: the gate serves fixed names only.
function underPrefix(prefix, target) {
  const path = target.split('?', 1)[0];
  if (path === prefix || path.startsWith(`${prefix}/`)) return path.slice(prefix.length);
  return null;
}

function queryOf(target) {
  const i = target.indexOf('?');
  return new URLSearchParams(i < 0 ? '' : target.slice(i + 1));
}

async function route(gate, req, res, rest, target) {
  if (target.length > MAX_TARGET) throw new Refusal(400, 'bad_target', `the request target is over ${MAX_TARGET} characters`);
  const method = rest === '/verify' ? 'POST' : 'GET';
  if (req.method !== method && !(method === 'GET' && req.method === 'HEAD')) {
    throw new Refusal(405, 'method', `${gate.o.prefix}${rest} takes ${method}`, { allow: method === 'GET' ? 'GET, HEAD' : 'POST' });
  }
  const query = queryOf(target);
  if (rest === '') sendRedirect(res, `${gate.o.prefix}/${query.size > 0 ? `?${query}` : ''}`);
  else if (rest === '/') await sendPage(gate, req, res, query);
  else if (rest === '/auth') await sendAuth(gate, req, res, query);
  else if (rest === '/challenge') sendJson(res, 200, await challenge(gate, req));
  else if (rest === '/verify') await verify(gate, req, res);
  else if (rest === '/healthz') sendJson(res, 200, { ok: true });
  else await sendAsset(gate, req, res, assetOf(gate, rest));
}

async function sendPage(gate, req, res, query) {
  const to = query.get('to');
  if (to !== null && safeTarget(to, gate.o.prefix) !== to) {
    sendRedirect(res, `${gate.o.prefix}/?to=%2F`);
    return;
  }
  await sendAsset(gate, req, res, [gate.o.pageDir, 'index.html']);
}

async function sendAuth(gate, req, res, query) {
  const uri = String(req.headers['x-forwarded-uri'] ?? '/');
  // The gate's own endpoints are never gated: the page must load to be
  // passed. Only their exact names: a proxy forwards the URI as the
  // client sent it but routes on its normalised path, so a prefix test
  // would let /.equix-gate/../private through.
  if (isEndpoint(underPrefix(gate.o.prefix, uri)) || await checkPass(gate, req) === 'ok') {
    res.writeHead(204, { ...SECURITY_HEADERS, 'cache-control': 'no-store' });
    res.end();
  } else if (query.get('redirect') === '1') {
    sendRedirect(res, pageLocation(gate, uri));
  } else {
    refusePass(res);
  }
}

const ENDPOINTS = new Set(['', '/', '/auth', '/challenge', '/verify', '/healthz', '/gate.js', '/gate.css', '/equix/dist/equix.wasm']);

// Whether `rest` (underPrefix's) is one of the names route() answers.
function isEndpoint(rest) {
  return rest !== null && (ENDPOINTS.has(rest) || PACKAGE_MODULE.test(rest));
}

// The page's address, sending the visitor on to `to` once passed.
function pageLocation(gate, to) {
  return `${gate.o.prefix}/?to=${encodeURIComponent(safeTarget(to, gate.o.prefix))}`;
}

function refusePass(res) {
  sendJson(res, 401, { ok: false, code: 'pass_required', error: 'this site needs a pass: solve its puzzle first' });
}

async function challenge(gate, req) {
  const { allowed, retryAfter } = await gate.limiter.hit(addressClass(clientAddress(req, { trusted: gate.trusted })));
  if (!allowed) {
    throw new Refusal(429, 'rate_limited', `too many puzzles from your network: try again in ${retryAfter} s`,
      { 'retry-after': String(retryAfter) });
  }
  const { seed, expiration } = await gate.seeds.current();
  return {
    v2: gate.o.v2,
    id: gate.id.toString('hex'),
    seed: seed.toString('hex'),
    effort: gate.effort.current(),
    expiration,
  };
}

/** The proof of a request body ({ proof: {...} }), or a Refusal. */
function parseProof(text) {
  const body = jsonOf(text);
  return proofFields(typeof body === 'object' && body !== null ? body.proof : undefined);
}

async function verify(gate, req, res) {
  const proof = parseProof(await readBody(req));
  const host = hostOf(gate, req);
  if (host === null) throw new Refusal(400, 'bad_request', 'the request names no valid host');
  await checkProof(gate.site, proof);
  const { value, maxAge } = gate.pass.issue({ host, address: clientAddress(req, { trusted: gate.trusted }) });
  const secure = gate.o.pass.secure === 'auto' ? overHttps(gate, req) : gate.o.pass.secure;
  const cookie = `${gate.o.pass.cookie}=${value}; HttpOnly; SameSite=Lax; Path=/; Max-Age=${maxAge}${secure ? '; Secure' : ''}`;
  sendJson(res, 200, { ok: true }, { 'set-cookie': cookie });
}

// ---- The pass ---------------------------------------------------------------

/** The pass cookie of `req`: 'ok', 'missing', or pass.js's reason
 * ('malformed', 'forged', 'expired', 'other_host', 'other_address').
 * With several cookies of the name (one set for a parent domain, say),
 * one good one is enough. */
function checkPass(gate, req) {
  const values = cookiesNamed(req.headers.cookie, gate.o.pass.cookie);
  if (values.length === 0) return 'missing';
  const about = { host: hostOf(gate, req), address: clientAddress(req, { trusted: gate.trusted }) };
  const reasons = values.map((value) => gate.pass.check(value, about));
  return reasons.includes('ok') ? 'ok' : reasons[0];
}

function cookiesNamed(header, name) {
  if (typeof header !== 'string') return [];
  const values = [];
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === name) values.push(pair.slice(eq + 1).trim());
  }
  return values;
}

// Whether the peer is a proxy the owner trusts (trustProxy): only then
// are its X-Forwarded-Host and X-Forwarded-Proto believed.
function fromTrustedProxy(gate, req) {
  const peer = canonical(req.socket?.remoteAddress);
  return peer !== null && gate.trusted(peer);
}

// The last value of a header a proxy may have appended to: the one the
// nearest proxy wrote.
function lastValue(header) {
  const text = Array.isArray(header) ? header.join(',') : String(header ?? '');
  return text.split(',').pop().trim();
}

/** The host the request is for (normalized as passes bind it), or null:
 * X-Forwarded-Host from a trusted proxy (forward auth: the request is
 * the proxy's, the host the visitor's), else Host. */
function hostOf(gate, req) {
  const forwarded = fromTrustedProxy(gate, req) ? lastValue(req.headers['x-forwarded-host']) : '';
  return normalizeHost(forwarded !== '' ? forwarded : req.headers.host);
}

// Whether the visitor's connection is https: TLS to the gate itself, or
// X-Forwarded-Proto https from a trusted proxy. (Secure on a cookie only
// ever narrows where the browser sends it.)
function overHttps(gate, req) {
  if (req.socket?.encrypted) return true;
  return fromTrustedProxy(gate, req) && lastValue(req.headers['x-forwarded-proto']).toLowerCase() === 'https';
}

// ---- Protecting an app --------------------------------------------------------

/** Resolves true when the app may answer `req` (a good pass), false
 * when the gate has answered: one of its endpoints, a 302 to the page
 * for a browser's navigation, else 401 `pass_required`. */
async function guardRequest(gate, req, res) {
  if (await handleRequest(gate, req, res)) return false;
  try {
    if (await checkPass(gate, req) === 'ok') return true;
    if (wantsPage(req)) sendRedirect(res, pageLocation(gate, targetOf(req)));
    else refusePass(res);
  } catch (e) {
    fail(gate, req, res, e);
  }
  return false;
}

function middlewareOf(guard) {
  return (req, res, next) => {
    guard(req, res).then((pass) => {
      if (pass) next();
    });
  };
}

// A Fastify plugin adding an onRequest hook to the whole app (the
// skip-override symbol is what the fastify-plugin package sets: without
// it the hook would cover only the plugin's own routes). The gate
// answers on the raw response and takes it from Fastify (hijack).
function fastifyPluginOf(guard) {
  const plugin = async (fastify) => {
    fastify.addHook('onRequest', async (request, reply) => {
      if (!(await guard(request.raw, reply.raw))) reply.hijack();
    });
  };
  plugin[Symbol.for('skip-override')] = true;
  plugin[Symbol.for('fastify.display-name')] = 'equix-gate';
  return plugin;
}

// ---- Answers --------------------------------------------------------------------

function sendJson(res, status, value, headers = {}) {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(value));
}

function sendRedirect(res, location) {
  res.writeHead(302, { ...SECURITY_HEADERS, location, 'cache-control': 'no-store' });
  res.end();
}

// [directory URL, file name] of an asset path below the prefix, or a 404.
function assetOf(gate, rest) {
  if (rest === '/gate.js' || rest === '/gate.css') return [gate.o.pageDir, rest.slice(1)];
  if (rest === '/equix/dist/equix.wasm') return [PACKAGE, 'dist/equix.wasm'];
  const module = PACKAGE_MODULE.exec(rest);
  if (module !== null) return [PACKAGE, `src/${module[1]}`];
  throw new Refusal(404, 'not_found', 'no such file here');
}

// A file's bytes and ETag, read and hashed once per gate, as every
// visitor's page load would otherwise read and hash the 150 KB core
// again. Only files that exist stay cached (a name that fails is
// dropped), and assetOf names the page's three and the package's: the
// cache is as small as that. A file changed on disk is served anew after
// a restart.
async function assetFile(gate, dir, name) {
  const url = new URL(name, dir).href;
  let file = gate.assets.get(url);
  if (file === undefined) {
    file = readFile(new URL(url)).then((body) => ({
      body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    }));
    gate.assets.set(url, file);
    file.catch(() => gate.assets.delete(url)); // a missing file is looked for again
  }
  try {
    return await file;
  } catch (e) {
    if (e?.code === 'ENOENT' || e?.code === 'EISDIR') throw new Refusal(404, 'not_found', 'no such file here');
    throw e;
  }
}

// A file, with an ETag of its bytes, so a browser that has it gets a 304.
async function sendAsset(gate, req, res, [dir, name]) {
  const { body, etag } = await assetFile(gate, dir, name);
  const headers = { ...SECURITY_HEADERS, 'content-type': TYPES[name.split('.').pop()], etag, 'cache-control': 'no-cache' };
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, 'content-length': body.length });
  res.end(body);
}

// The gate failing (its Redis down, say): not the client's fault, and
// never an acceptance. One short line, whatever the request.
function fail(gate, req, res, e) {
  gate.o.log(`equix-gate: ${oneLine(req.method, 10)} ${oneLine(targetOf(req), 100)}: ${oneLine(e?.message ?? e, 200)}`);
  if (!res.headersSent) sendJson(res, 500, { ok: false, code: 'internal', error: 'the gate failed' });
  else res.destroy();
}

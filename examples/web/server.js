// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The demo's server: the page (public/), the equix package for it
// (/equix/), puzzles (GET /challenge) and the form (POST /submit), which
// is accepted only with a proof of work that passes Tor's v1 checks and
// has not been used before.
//
//   node server.js
//
// Environment: PORT (8080; 0 picks a free one), HOST (127.0.0.1),
// EFFORT (the effort a proof must reach, 300), SEED_LIFETIME (seconds a
// seed is handed out, 3600; proofs for it are accepted for one lifetime
// more), SITE (the name hashed into the puzzle's 32-byte service ID,
// "localhost"), SECRET (64 hex digits, the key the seeds are derived
// with; random when unset) and REDIS_URL (the shared replay store; memory
// when unset). Several processes behind a load balancer need the same
// SITE, SECRET and REDIS_URL: then a seed one hands out is good at every
// other, and a proof one accepts is refused by all. A seed lives only as
// long as its record in the replay store: when the store loses it, the
// seed's proofs are refused and a new seed is handed out. The seeds and
// the replay stores are the gate's (../../gate, the equix-gate package:
// src/seeds.js, src/stores.js); the demo keeps its own HMAC label and
// Redis key prefix, so its seeds and records are what they were.

import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';

import { pow, ready } from 'equix';

import { Seeds } from 'equix-gate/seeds';
import { openStore } from 'equix-gate/stores';
import {
  Refusal, TYPES, checkProof, jsonOf, oneLine, proofFields, readBody,
} from 'equix-gate/proof';

const PUBLIC = new URL('./public/', import.meta.url);
// The package's own directory, found as Node finds it (node_modules/equix).
const PACKAGE = new URL('..', import.meta.resolve('equix'));

// What the page may load: its own three files, and the package's modules
// and core (index.js imports the rest of src/; pow_worker.js runs in the
// workers). Nothing else of either directory is served.
const FILES = new Map([
  ['/', [PUBLIC, 'index.html']],
  ['/app.js', [PUBLIC, 'app.js']],
  ['/style.css', [PUBLIC, 'style.css']],
  ['/equix/dist/equix.wasm', [PACKAGE, 'dist/equix.wasm']],
]);
const PACKAGE_MODULE = /^\/equix\/src\/([a-z_]+\.js)$/;

// The page's policy, on every response (workers take theirs from their
// script's response). 'wasm-unsafe-eval': without it the browser
// compiles no WebAssembly at all, the package's core included (ready()
// rejects with FAIL_WASM; js/test/browser/csp.html checks it).
const SECURITY_HEADERS = {
  'content-security-policy': "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data:; "
    + "worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

const MAX_MESSAGE = 1000;
const MAX_TARGET = 1024;

/** The settings server.js reads from its environment. */
export function settingsFrom(env) {
  const integer = (name, fallback, min, max) => {
    const text = env[name] ?? String(fallback);
    const value = Number(text);
    if (!/^[0-9]+$/.test(text) || value < min || value > max) {
      throw new Error(`${name} must be an integer from ${min} to ${max}, not "${text}"`);
    }
    return value;
  };
  if (env.SECRET !== undefined && !/^[0-9a-fA-F]{64}$/.test(env.SECRET)) {
    throw new Error('SECRET must be 64 hex digits');
  }
  return {
    host: env.HOST ?? '127.0.0.1',
    port: integer('PORT', 8080, 0, 65535),
    effort: integer('EFFORT', 300, 1, 2 ** 32 - 1),
    seedLifetime: integer('SEED_LIFETIME', 3600, 10, 7 * 86400),
    site: env.SITE ?? 'localhost',
    secret: env.SECRET !== undefined ? Buffer.from(env.SECRET, 'hex') : randomBytes(32),
  };
}

/** The form's fields from a request body, or a Refusal. */
function parseSubmission(text) {
  const body = jsonOf(text);
  if (typeof body !== 'object' || body === null) throw new Refusal(400, 'bad_request', 'the body is not a JSON object');
  const { message, proof } = body;
  if (typeof message !== 'string' || message.trim() === '' || message.length > MAX_MESSAGE) {
    throw new Refusal(400, 'bad_request', `the message must be 1 to ${MAX_MESSAGE} characters`);
  }
  return { message, proof: proofFields(proof) };
}

function sendJson(res, status, value) {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(value));
}

async function challengeOf(service) {
  const { seed, expiration } = await service.seeds.current();
  return {
    id: service.id.toString('hex'),
    seed: seed.toString('hex'),
    effort: service.effort,
    expiration,
    // The same puzzle as Tor's descriptor line, for clients that read it.
    params: pow.formatParams({ seed, suggestedEffort: service.effort, expiration }),
  };
}

async function sendFile(res, [dir, name]) {
  const body = await readFile(new URL(name, dir));
  res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': TYPES[name.split('.').pop()] });
  res.end(body);
}

/** The path of a request target, %-decoded, or a Refusal: only the
 * origin form (a path, then maybe a query) is taken, as browsers send. */
function pathOf(target) {
  const bad = (why) => new Refusal(400, 'bad_target', why);
  if (target.length > MAX_TARGET) throw bad(`the request target is over ${MAX_TARGET} characters`);
  const path = target.split('?', 1)[0];
  if (!path.startsWith('/') || path.startsWith('//')) throw bad('the request target must be a path, as /challenge');
  try {
    return decodeURIComponent(path);
  } catch {
    throw bad('the path has a % escape that does not decode to UTF-8');
  }
}

async function route(service, req, res) {
  const pathname = pathOf(req.url);
  if (pathname === '/challenge' || pathname === '/submit') {
    const method = pathname === '/challenge' ? 'GET' : 'POST';
    if (req.method !== method) throw new Refusal(405, 'method', `${pathname} takes ${method}`);
    if (method === 'GET') {
      sendJson(res, 200, await challengeOf(service));
      return;
    }
    const { message, proof } = parseSubmission(await readBody(req));
    await checkProof(service.site, proof);
    sendJson(res, 200, { ok: true, received: message.length });
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') throw new Refusal(405, 'method', 'files take GET');
  const file = FILES.get(pathname);
  const module = PACKAGE_MODULE.exec(pathname);
  if (file !== undefined) await sendFile(res, file);
  else if (module !== null) await sendFile(res, [PACKAGE, `src/${module[1]}`]);
  else throw new Refusal(404, 'not_found', `no ${pathname} here`);
}

async function handle(service, req, res) {
  try {
    await route(service, req, res);
  } catch (e) {
    const refusal = e instanceof Refusal ? e
      : e?.code === 'ENOENT' ? new Refusal(404, 'not_found', 'no such file')
        : null;
    if (refusal === null) {
      // The store failing (Redis down) is not the client's fault, and
      // never an acceptance. One short line, whatever the request.
      console.error(`server: ${req.method} ${oneLine(req.url, 100)}: ${oneLine(String(e?.message ?? e), 200)}`);
      if (!res.headersSent) sendJson(res, 500, { ok: false, code: 'internal', error: 'the server failed' });
      else res.destroy();
      return;
    }
    sendJson(res, refusal.status, { ok: false, code: refusal.code, error: refusal.message });
  }
}

/** Starts a server; resolves to { url, close() } once it listens. */
export async function startServer(settings, { store, now } = {}) {
  await ready();
  const id = createHash('sha256').update(`equix-demo site ${settings.site}`).digest();
  const replays = store ?? (await openStore(process.env, { prefix: 'equix-demo:seed:' }));
  const seeds = new Seeds(settings.secret, settings.seedLifetime, replays, id, { label: 'equix-demo', now });
  const service = {
    id,
    effort: settings.effort,
    seeds,
    store: replays,
    // What the gate's checkProof asks of a site: a fixed effort, Tor's
    // v1 puzzle.
    site: {
      id, seeds, store: replays, v2: false, accepts: (e) => e >= settings.effort, effort: () => settings.effort,
    },
  };
  const server = createServer((req, res) => { handle(service, req, res); });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(settings.port, settings.host, ok);
  });
  const { address, port } = server.address();
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    async close() {
      // Browsers keep connections open for more requests: end those too.
      const closed = new Promise((ok) => server.close(ok));
      server.closeAllConnections();
      await closed;
      await service.store.close();
    },
  };
}

async function main() {
  let settings;
  try {
    settings = settingsFrom(process.env);
  } catch (e) {
    console.error(`server.js: ${e.message}`);
    process.exit(2);
  }
  if (process.env.SECRET === undefined) {
    console.error('server.js: no SECRET: seeds are this process\'s own (several processes need one SECRET)');
  }
  const running = await startServer(settings);
  console.log(`listening on ${running.url} (effort ${settings.effort}, ${process.env.REDIS_URL ? 'Redis' : 'memory'} replay store)`);
  const stop = async () => {
    await running.close();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e) => {
    console.error(`server.js: ${e.message}`);
    process.exit(1);
  });
}

// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// A stand-in for the gate's page endpoints, for the page's own tests
// (page.test.js): it serves gate/page and the equix package under
// /.equix-gate/ with the gate's Content-Security-Policy, hands out one
// v2 puzzle, checks proofs with pow.verify and sets a cookie. What it
// answers can be bent per test (`script`), to show the page a rate limit
// or a stale puzzle, which the real gate gives only under load or after
// a seed lifetime. The gate itself is tested end to end in e2e.test.js.

import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';

import { pow, ready } from 'equix';

const PAGE = new URL('../../page/', import.meta.url);
const PACKAGE = new URL('../../../js/', import.meta.url);
const P = '/.equix-gate';
// The design's policy for every page response (gate-design.md).
export const CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
  + "connect-src 'self'; worker-src 'self'; img-src 'self' data:; base-uri 'none'; "
  + "form-action 'self'; frame-ancestors 'none'";
const TYPES = { html: 'text/html; charset=utf-8', js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', wasm: 'application/wasm' };

function fileOf(path) {
  if (path === `${P}/`) return new URL('index.html', PAGE);
  if (path === `${P}/gate.js` || path === `${P}/gate.css`) return new URL(path.slice(P.length + 1), PAGE);
  if (path === `${P}/equix/dist/equix.wasm`) return new URL('dist/equix.wasm', PACKAGE);
  const m = /^\/\.equix-gate\/equix\/src\/([a-z_]+\.js)$/.exec(path);
  return m ? new URL(`src/${m[1]}`, PACKAGE) : null;
}

function send(res, status, type, body, headers = {}, csp = CSP) {
  res.writeHead(status, {
    'content-type': type, 'content-security-policy': csp, 'x-content-type-options': 'nosniff',
    'cache-control': 'no-store', ...headers,
  }).end(body);
}

async function body(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Starts the stand-in on 127.0.0.1. `script` may hold `challenge` and
 * `verify`: functions (count) -> null (answer normally) or { status,
 * body, headers } (answer that instead); `csp` replaces the policy. Resolves to { url, counts,
 * close() }; counts.challenge and counts.verify count the requests.
 */
export async function startStandIn({ effort = 4, script = {}, csp = CSP } = {}) {
  await ready();
  const id = randomBytes(32);
  const seed = randomBytes(32);
  const counts = { challenge: 0, verify: 0 };
  const server = createServer(async (req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    const json = (status, value, headers) => send(res, status, 'application/json', JSON.stringify(value), headers, csp);
    if (path === `${P}/challenge`) {
      counts.challenge += 1;
      const bent = script.challenge?.(counts.challenge);
      if (bent) return json(bent.status, bent.body, bent.headers);
      return json(200, { v2: true, id: id.toString('hex'), seed: seed.toString('hex'), effort, expiration: 0 });
    }
    if (path === `${P}/verify` && req.method === 'POST') {
      const sent = JSON.parse(await body(req)).proof;
      counts.verify += 1;
      const bent = script.verify?.(counts.verify);
      if (bent) return json(bent.status, bent.body, bent.headers);
      const proof = {
        nonce: Buffer.from(sent.nonce, 'hex'), seedHead: Buffer.from(sent.seedHead, 'hex'),
        solution: Buffer.from(sent.solution, 'hex'), effort: sent.effort,
      };
      const result = pow.verify({ ...proof, id, seed, v2: true });
      if (result !== 'OK' || sent.effort < effort) return json(403, { ok: false, code: 'invalid_proof' });
      return json(200, { ok: true }, { 'set-cookie': 'equix_pass=standin; Path=/; HttpOnly; SameSite=Lax' });
    }
    const file = fileOf(path);
    if (file !== null) return send(res, 200, TYPES[file.pathname.split('.').pop()], await readFile(file), {}, csp);
    return send(res, 200, 'text/html; charset=utf-8', `<!doctype html><title>site</title><p id="site">site page ${path}</p>`);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    counts,
    close: () => new Promise((ok) => { server.close(ok); server.closeAllConnections(); }),
  };
}

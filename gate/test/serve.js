// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// What the gate's endpoint and middleware tests share: a page directory
// of their own (the real page is gate/page/, tested end to end
// elsewhere), a node:http server on loopback, proofs solved with the
// package at a small effort, and requests sent as a client sends them.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { pow, ready } from 'equix';

export const PREFIX = '/.equix-gate';
export const PAGE_HTML = '<!doctype html><title>test page</title>';

/** A directory with a tiny index.html, gate.js and gate.css, removed
 * when the test file's process exits. */
export function pageDir() {
  const dir = mkdtempSync(join(tmpdir(), 'equix-gate-page-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'index.html'), PAGE_HTML);
  writeFileSync(join(dir, 'gate.js'), '// test script\n');
  writeFileSync(join(dir, 'gate.css'), '/* test style */\n');
  return dir;
}

/** `listener` on a loopback port: resolves to { url, close() }. */
export async function listen(listener) {
  const server = createServer(listener);
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    async close() {
      const closed = new Promise((ok) => server.close(ok));
      server.closeAllConnections();
      await closed;
    },
  };
}

const hex = (bytes) => Buffer.from(bytes).toString('hex');

/** A proof for the puzzle `challenge` (a GET P/challenge answer), solved
 * in Node at its effort (or `effort`), as hex fields for P/verify. */
export async function solve(challenge, { nonce, effort = challenge.effort, v2 = challenge.v2 } = {}) {
  await ready();
  const proof = await pow.solve({
    id: Buffer.from(challenge.id, 'hex'),
    seed: Buffer.from(challenge.seed, 'hex'),
    effort,
    nonce,
    v2,
    workers: 1,
  });
  return {
    nonce: hex(proof.nonce), effort: proof.effort, seedHead: hex(proof.seedHead), solution: hex(proof.solution),
  };
}

/** GET P/challenge at `url`: the answer's JSON. */
export async function getChallenge(url, headers = {}) {
  const r = await fetch(`${url}${PREFIX}/challenge`, { headers });
  if (r.status !== 200) throw new Error(`challenge: ${r.status} ${await r.text()}`);
  return r.json();
}

/** POST P/verify; resolves to { status, body, cookie (Set-Cookie or null), headers }. */
export async function postVerify(url, body, headers = {}) {
  const r = await fetch(`${url}${PREFIX}/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: r.status, body: await r.json(), cookie: r.headers.get('set-cookie'), headers: r.headers };
}

/** A pass from the gate at `url`: the Cookie header's `name=value`. */
export async function earnPass(url, headers = {}) {
  const proof = await solve(await getChallenge(url, headers));
  const r = await postVerify(url, { proof }, headers);
  if (r.status !== 200) throw new Error(`verify: ${r.status} ${JSON.stringify(r.body)}`);
  return r.cookie.split(';', 1)[0];
}

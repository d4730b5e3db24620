// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// What the demo's tests share: a real Redis on loopback (the gate's
// helper), server.js as a separate process, proofs solved with the
// package, and the requests a client sends.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { pow, ready } from 'equix';

// The Redis and child-process helpers are the gate's (the replay stores
// live there): one home for how a test starts a Redis.
import { started, stopper } from '../../../gate/test/helpers.js';

export { redisMissing, startRedis } from '../../../gate/test/helpers.js';

const DEMO = fileURLToPath(new URL('..', import.meta.url));

/** `node server.js` with `env`; resolves once it listens. */
export async function startServerProcess(env) {
  const child = spawn(process.execPath, ['server.js'], {
    cwd: DEMO,
    env: { PATH: process.env.PATH, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  let log = '';
  child.stderr.on('data', (chunk) => { log += chunk; });
  const m = await started(child, /listening on (http:\/\/\S+)/, 'server.js');
  return { url: m[1], stop: stopper(child), log: () => log };
}

/** POST /submit as `submit` does, again while the server answers 500
 * (its Redis client reconnecting after Redis came back), for up to 15 s. */
export async function submitOnceUp(url, body) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const r = await submit(url, body);
    if (r.status !== 500 || Date.now() > deadline) return r;
    await new Promise((ok) => setTimeout(ok, 100));
  }
}

const hex = (bytes) => Buffer.from(bytes).toString('hex');

/** A proof for the server at `url`'s current puzzle, solved in Node. */
export async function solveFor(url, { nonce } = {}) {
  await ready();
  const challenge = await (await fetch(`${url}/challenge`)).json();
  const proof = await pow.solve({
    id: Buffer.from(challenge.id, 'hex'),
    seed: Buffer.from(challenge.seed, 'hex'),
    effort: challenge.effort,
    nonce,
    workers: 1,
  });
  return {
    nonce: hex(proof.nonce), effort: proof.effort, seedHead: hex(proof.seedHead), solution: hex(proof.solution),
  };
}

/** POST /submit; resolves to { status, body }. */
export async function submit(url, body, init = {}) {
  const response = await fetch(`${url}/submit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
  return { status: response.status, body: await response.json() };
}

// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// What the demo's tests share: a real Redis on loopback, server.js as a
// separate process, proofs solved with the package, and the requests a
// client sends.

import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

import { pow, ready } from 'equix';

const DEMO = fileURLToPath(new URL('..', import.meta.url));

/** Why the Redis tests cannot run here, or null when they can. */
export function redisMissing() {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return probe.error ? 'redis-server is not installed (Debian package redis-server)' : null;
}

function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

// Resolves with the child once a line of its output matches `ready`.
function started(child, ready, what) {
  return new Promise((ok, fail) => {
    let seen = '';
    const timer = setTimeout(() => fail(new Error(`${what} did not start: ${seen}`)), 20_000);
    const look = (chunk) => {
      seen += chunk;
      const m = ready.exec(seen);
      if (m) {
        clearTimeout(timer);
        ok(m);
      }
    };
    child.stdout.on('data', look);
    child.stderr.on('data', (chunk) => { seen += chunk; });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`${what} exited with ${code}: ${seen}`));
    });
  });
}

function stopper(child) {
  return (signal = 'SIGTERM') => new Promise((ok) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      ok();
      return;
    }
    child.once('exit', () => ok());
    child.kill(signal);
  });
}

/** A Redis of its own on a free loopback port (or `port`, to start one
 * again where another was), keeping nothing on disk unless told to
 * SAVE: then in `dir`, which a Redis started there again loads. */
export async function startRedis({ port, dir = DEMO } = {}) {
  const at = port ?? await freePort();
  const child = spawn('redis-server', ['--port', String(at), '--bind', '127.0.0.1',
    '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  await started(child, /Ready to accept connections/, 'redis-server');
  return { url: `redis://127.0.0.1:${at}`, port: at, stop: stopper(child) };
}

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

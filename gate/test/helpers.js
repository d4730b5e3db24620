// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// What the gate's tests share: a real Redis of their own on loopback (as
// the demo's tests start one, examples/web/test/helpers.js).

import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Why the Redis tests cannot run here, or null when they can. */
export function redisMissing() {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return probe.error ? 'redis-server is not installed (Debian package redis-server)' : null;
}

export function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

// Resolves once a line of the child's output matches `ready`.
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

/** A Redis of its own on a free loopback port, keeping nothing on disk,
 * its working directory a new temporary one that stop() removes. */
export async function startRedis() {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'equix-gate-redis-'));
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1',
    '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  const stop = stopper(child);
  try {
    await started(child, /Ready to accept connections/, 'redis-server');
  } catch (e) {
    await stop('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: async (signal) => {
      await stop(signal);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// What the gate's tests share (and the web demo's, which imports the
// Redis ones from here): a real Redis of their own on loopback, and
// child processes waited for until they print their ready line.

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

/** A free TCP port on loopback (free when asked: a test binds it soon). */
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

/** Resolves with the match once the child's output (stdout or stderr:
 * a gate and Redis print on the first, other servers on the second)
 * matches `ready`; fails with what it printed if it exits first or
 * takes over 20 s. */
export function started(child, ready, what) {
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
    child.stderr.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`${what} exited with ${code}: ${seen}`));
    });
  });
}

/** A function that sends the child `signal` (SIGTERM unless told) and
 * resolves once it has exited (at once if it had). */
export function stopper(child) {
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
 * SAVE: then in `dir`, which a Redis started there again loads. Without
 * `dir`, its working directory is a new temporary one that stop()
 * removes. */
export async function startRedis({ port, dir } = {}) {
  const at = port ?? await freePort();
  const own = dir === undefined ? await mkdtemp(join(tmpdir(), 'equix-gate-redis-')) : null;
  const child = spawn('redis-server', ['--port', String(at), '--bind', '127.0.0.1',
    '--save', '', '--appendonly', 'no', '--dir', own ?? dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  const kill = stopper(child);
  const stop = async (signal) => {
    await kill(signal);
    if (own !== null) await rm(own, { recursive: true, force: true });
  };
  try {
    await started(child, /Ready to accept connections/, 'redis-server');
  } catch (e) {
    await stop('SIGKILL');
    throw e;
  }
  return { url: `redis://127.0.0.1:${at}`, port: at, stop };
}

/** A moment for tests with a clock of their own (2026-12-07 12:00 UTC). */
export const T0 = Date.UTC(2026, 11, 7, 12, 0, 0);

/** A clock for the modules' `now` option: milliseconds, from `start`,
 * moved only by now.advance(seconds). */
export function clock(start = T0) {
  let t = start;
  const now = () => t;
  now.advance = (seconds) => { t += seconds * 1000; };
  return now;
}

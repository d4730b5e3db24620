// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// pow.solve: Tor's v1 client search spread over workers (Web Workers in
// browsers, worker_threads in Node), finding the proof one worker would:
// the lowest winning offset from the start nonce, as src/pow/solve.c's
// threads decide it. This thread hands out offsets one at a time, in
// order, to whichever worker is free (a nonce costs tens of milliseconds,
// a message a fraction of one, so finer sharing costs nothing and needs
// no shared memory, which browsers give only to cross-origin-isolated
// pages). Once offset k has won, no offset above k is handed out; the
// search ends when every offset below k has been answered, with the
// lowest win among them or k.

import { coreModule } from './core.js';

const WORKER_URL = new URL('./pow_worker.js', import.meta.url);

function isNode() {
  return typeof process !== 'undefined' && !!process.versions?.node &&
    typeof WorkerGlobalScope === 'undefined';
}

/** The default number of workers: the machine's threads, at most 16. */
export async function defaultWorkers() {
  if (isNode()) {
    const os = await import('node:os');
    return Math.min(16, os.availableParallelism?.() ?? os.cpus().length);
  }
  return Math.min(16, globalThis.navigator?.hardwareConcurrency || 1);
}

// A worker behind one interface: send(message), onmessage, terminate().
async function spawn(onMessage, onError) {
  if (isNode()) {
    const { Worker } = await import('node:worker_threads');
    const w = new Worker(WORKER_URL);
    w.on('message', onMessage);
    w.on('error', onError);
    return { send: (m) => w.postMessage(m), terminate: () => w.terminate() };
  }
  // Written out in full, not through WORKER_URL: this is the form that
  // bundlers (Vite, webpack 5) recognize, to emit the worker's module
  // with its imports and rewrite the address.
  const w = new Worker(new URL('./pow_worker.js', import.meta.url), { type: 'module' });
  w.onmessage = (e) => onMessage(e.data);
  w.onerror = (e) => onError(new Error(e.message ?? 'worker failed'));
  return { send: (m) => w.postMessage(m), terminate: () => w.terminate() };
}

function abortReason(signal) {
  return signal.reason ?? new DOMException('The search was aborted', 'AbortError');
}

/**
 * Runs the search for `job` ({ id, seed, nonce, effort }, bytes already
 * checked) on `workers` workers. Resolves { offset, nonce, solution,
 * attempts, seconds }.
 */
export function search(job, { workers, signal, onProgress, maxAttempts }) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const pool = [];
    let next = 0; // the next offset to hand out
    let best = Infinity; // the lowest winning offset so far
    let winner = null;
    let answered = 0; // offsets answered
    const pending = new Set(); // offsets handed out, not yet answered
    let lastProgress = 0;
    let finished = false;

    const finish = (error, value) => {
      if (finished) return;
      finished = true;
      signal?.removeEventListener('abort', onAbort);
      for (const w of pool) w.terminate();
      if (error) reject(error);
      else resolve(value);
    };
    const onAbort = () => finish(abortReason(signal));
    signal?.addEventListener('abort', onAbort);

    const done = () => [...pending].every((k) => k > best);
    const give = (w) => {
      if (best !== Infinity || (maxAttempts > 0 && next >= maxAttempts)) return;
      pending.add(next);
      w.send({ type: 'try', offset: next++ });
    };
    const progress = (force) => {
      const now = performance.now();
      if (!onProgress || (!force && now - lastProgress < 100)) return;
      lastProgress = now;
      onProgress({ attempts: answered, seconds: (now - t0) / 1000 });
    };

    const onMessage = (w) => (m) => {
      if (finished) return;
      if (m.type === 'error') {
        const e = new Error(`equix: a PoW worker failed: ${m.message}`);
        if (m.code) e.code = m.code;
        finish(e);
        return;
      }
      if (m.type === 'ready') {
        give(w);
        return;
      }
      pending.delete(m.offset);
      answered++;
      if (m.solution !== null && m.offset < best) {
        best = m.offset;
        winner = m;
      }
      progress(false);
      if (best !== Infinity && done()) {
        progress(true);
        finish(null, { ...winner, attempts: answered, seconds: (performance.now() - t0) / 1000 });
        return;
      }
      if (best === Infinity && maxAttempts > 0 && next >= maxAttempts && pending.size === 0) {
        const e = new Error(`equix: no proof in ${maxAttempts} attempts`);
        e.code = 'FAIL_LIMIT';
        finish(e);
        return;
      }
      give(w);
    };

    (async () => {
      const module = coreModule();
      for (let i = 0; i < workers && !finished; i++) {
        const w = await spawn((m) => onMessage(w)(m), (e) => finish(e));
        if (finished) {
          w.terminate();
          break;
        }
        pool.push(w);
        w.send({ type: 'start', module, job });
      }
    })().catch((e) => finish(e));
  });
}

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

import { coreModule, failure } from './core.js';
import { EquixError } from './errors.js';

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

// `code`: a worker's own EquixError's (pow_worker.js sends it only for
// those), else FAIL_WORKER.
function workerFailure(message, code = 'FAIL_WORKER') {
  return failure(`equix: a PoW worker failed: ${message}`, code);
}

// A worker behind one interface: send(message), onmessage, terminate().
// onError hears of a worker that failed or ended before it was told to:
// the search cannot go on without its answers.
async function spawn(onMessage, onError) {
  if (isNode()) {
    const { Worker } = await import('node:worker_threads');
    const w = new Worker(WORKER_URL);
    w.on('message', onMessage);
    w.on('error', (e) => onError(workerFailure(e?.message ?? String(e))));
    w.on('exit', (code) => onError(workerFailure(`it exited (status ${code})`)));
    return { send: (m) => w.postMessage(m), terminate: () => w.terminate() };
  }
  // Written out in full, not through WORKER_URL: this is the form that
  // bundlers (Vite, webpack 5) recognize, to emit the worker's module
  // with its imports and rewrite the address.
  const w = new Worker(new URL('./pow_worker.js', import.meta.url), { type: 'module' });
  w.onmessage = (e) => onMessage(e.data);
  w.onerror = (e) => onError(workerFailure(e.message ?? 'an error without a message'));
  w.onmessageerror = () => onError(workerFailure('a message could not be read'));
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

    // Ends the search once, with every worker; settle() then resolves or
    // rejects (with whatever was thrown, even a falsy value).
    const end = (settle) => {
      if (finished) return;
      finished = true;
      signal?.removeEventListener('abort', onAbort);
      for (const w of pool) w.terminate();
      settle();
    };
    const fail = (error) => end(() => reject(error));
    const succeed = (value) => end(() => resolve(value));
    const onAbort = () => fail(abortReason(signal));
    signal?.addEventListener('abort', onAbort);

    const done = () => [...pending].every((k) => k > best);
    const give = (w) => {
      if (best !== Infinity || (maxAttempts > 0 && next >= maxAttempts)) return;
      pending.add(next);
      w.send({ type: 'try', offset: next++ });
    };
    // The caller's callback: what it throws ends the search (the caller
    // wrote it to run here, in the message handler, where nothing else
    // would catch it) and is what the promise rejects with.
    const progress = (force) => {
      const now = performance.now();
      if (!onProgress || (!force && now - lastProgress < 100)) return true;
      lastProgress = now;
      try {
        onProgress({ attempts: answered, seconds: (now - t0) / 1000 });
        return true;
      } catch (e) {
        fail(e);
        return false;
      }
    };

    const handle = (w, m) => {
      if (finished) return;
      if (m.type === 'error') {
        fail(workerFailure(m.message, m.code));
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
      if (!progress(false)) return;
      if (best !== Infinity && done()) {
        if (!progress(true)) return;
        succeed({ ...winner, attempts: answered, seconds: (performance.now() - t0) / 1000 });
        return;
      }
      if (best === Infinity && maxAttempts > 0 && next >= maxAttempts && pending.size === 0) {
        fail(failure(`equix: no proof in ${maxAttempts} attempts`, 'FAIL_LIMIT'));
        return;
      }
      give(w);
    };
    // Whatever goes wrong in handling a message ends the search, never
    // the process (an exception here would be uncaught). The caller's
    // callback's errors do not come here (progress() catches them): one
    // that does is the package's fault.
    const onMessage = (w, m) => {
      try {
        handle(w, m);
      } catch (e) {
        fail(asFailure(e, 'FAIL_INTERNAL', 'equix: internal: the search failed'));
      }
    };

    (async () => {
      const module = coreModule();
      for (let i = 0; i < workers && !finished; i++) {
        const w = await spawn((m) => onMessage(w, m), (e) => fail(e));
        if (finished) {
          w.terminate();
          break;
        }
        pool.push(w);
        w.send({ type: 'start', module, job });
      }
    })().catch((e) => fail(asFailure(e, 'FAIL_WORKER', 'equix: a PoW worker could not start')));
  });
}

// `e` if it is the package's error, else an EquixError with `code` that
// has it as its cause (the engine's, when a worker cannot be made).
function asFailure(e, code, what) {
  if (e instanceof EquixError) return e;
  const wrapped = failure(`${what}: ${e?.message ?? e}`, code);
  wrapped.cause = e;
  return wrapped;
}

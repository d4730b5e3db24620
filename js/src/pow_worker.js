// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// One worker of pow.solve's search (pow_search.js), the same file for Web
// Workers and Node's worker_threads. It loads the core from the compiled
// Module the search sends, then, for each offset it is given, tries that
// nonce (start + offset): Equi-X solve (v1, or v2 when the job says so),
// and the first solution in the solver's order that passes the effort
// check wins. It answers every
// offset with its outcome, win or not, so that the search can tell when
// every lower offset is done.

import { ready, equix, pow, EquixError } from './index.js';
import { need, heap, place } from './core.js';

// nonce + offset, by the library's rule (equix_pow_nonce_add). `start`
// is the search's own copy, checked by pow.solve.
function nonceAt(start, offset) {
  const c = need();
  const [p] = place(start);
  c.ex_pow_nonce_add(p, BigInt(offset));
  return heap().slice(p, p + start.length);
}

function attempt(job, offset) {
  const nonce = nonceAt(job.nonce, offset);
  const challenge = pow.challenge({ id: job.id, seed: job.seed, nonce, effort: job.effort });
  let solutions = [];
  try {
    solutions = equix.solve(challenge, { v2: job.v2 });
  } catch (e) {
    if (e.code !== 'FAIL_CHALLENGE') throw e; // no HashX function: no solution
  }
  for (const s of solutions) {
    if (pow.effortCheck(challenge, s, job.effort)) return { offset, nonce, solution: s };
  }
  return { offset, nonce: null, solution: null };
}

async function channel() {
  if (typeof WorkerGlobalScope !== 'undefined' && globalThis instanceof WorkerGlobalScope) {
    return {
      post: (m) => globalThis.postMessage(m),
      listen: (fn) => { globalThis.onmessage = (e) => fn(e.data); },
    };
  }
  const { parentPort } = await import('node:worker_threads');
  return { post: (m) => parentPort.postMessage(m), listen: (fn) => parentPort.on('message', fn) };
}

// Not a top-level await: bundlers build workers as classic scripts by
// default (Vite's worker.format is 'iife'), which cannot have one. A Web
// Worker's channel is ready at once, so the handler is in place before
// the first message is delivered; Node's port queues messages until then.
let job = null;
channel().then((port) => port.listen(async (m) => {
  try {
    if (m.type === 'start') {
      await ready({ wasm: m.module });
      job = m.job;
      port.post({ type: 'ready' });
    } else if (m.type === 'try') {
      port.post({ type: 'result', ...attempt(job, m.offset) });
    }
  } catch (e) {
    // The code of the package's own errors only: the search rejects with
    // FAIL_WORKER for anything else.
    const code = e instanceof EquixError ? e.code : undefined;
    port.post({ type: 'error', message: String(e?.message ?? e), code });
  }
}));

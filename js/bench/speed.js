// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The package's speed, measured the same way in Node and in a browser
// (no Node API here): Equi-X solve and verify, v1 (HashX) and v2
// (HashWX), with the hash compiled to WebAssembly and interpreted, and
// Tor's PoW v1 search. table.js runs it
// in both, beside the native library, for README.md's speed table.
//
// Solve: the challenges base .. base + n - 1 (4-byte little-endian
// counters, as equix-bench does), mean time per challenge. Verify: every
// solution found, repeated to at least 20,000 checks, mean per check.
// PoW: fixed IDs, seeds and first nonces, so that every implementation
// tries exactly the same nonces (the search is deterministic and
// bit-exact): the time per search and per nonce.

import { ready, equix, pow } from '../src/index.js';

function challenge(i) {
  const c = new Uint8Array(4);
  new DataView(c.buffer).setUint32(0, i, true);
  return c;
}

function now() {
  return performance.now();
}

// `how`: equix.solve's and verify's options ({ compile, v2 }).
function solveAll(n, base, how) {
  const found = [];
  const t0 = now();
  for (let i = 0; i < n; i++) {
    let sols = [];
    try {
      sols = equix.solve(challenge(base + i), how);
    } catch (e) {
      if (e.code !== 'FAIL_CHALLENGE') throw e;
    }
    for (const s of sols) found.push([challenge(base + i), s]);
  }
  return { ms: (now() - t0) / n, found };
}

function verifyAll(found, how) {
  const rounds = Math.max(1, Math.ceil(20000 / found.length));
  const t0 = now();
  for (let r = 0; r < rounds; r++) {
    for (const [c, s] of found) {
      if (equix.verify(c, s, how) !== 'OK') throw new Error('a solution failed to verify');
    }
  }
  return ((now() - t0) * 1000) / (rounds * found.length);
}

/** The PoW searches' fixed inputs: run k of `runs`. */
export function powCase(k) {
  const id = new Uint8Array(32).fill(0x11 + k);
  const seed = new Uint8Array(32).fill(0x22 + k);
  const nonce = new Uint8Array(16).fill(0x33 + k);
  return { id, seed, nonce };
}

const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

/**
 * Runs the measurements; `options`: solves (per mode, default 100),
 * interpretedSolves (20), powEffort (1000), powRuns (4), workers (list of
 * worker counts, default [1]). Returns the figures as an object.
 */
export async function measure(options = {}) {
  const solves = options.solves ?? 100;
  const interpretedSolves = options.interpretedSolves ?? 20;
  const powEffort = options.powEffort ?? 1000;
  const powRuns = options.powRuns ?? 4;
  const workers = options.workers ?? [1];
  await ready();
  const result = { solves, interpretedSolves, pow: [] };
  for (const v2 of [false, true]) {
    // Warm-up: the engine compiles the core and tiers it up.
    solveAll(5, 1000000, { v2 });
    solveAll(2, 1000000, { compile: false, v2 });
    const jit = solveAll(solves, 0, { v2 });
    const interp = solveAll(interpretedSolves, 0, { compile: false, v2 });
    result[v2 ? 'v2' : 'v1'] = {
      solutionsPerChallenge: jit.found.length / solves,
      solveMs: { compiled: jit.ms, interpreted: interp.ms },
      // v1's equix.verify hashes 8 inputs: interpreted either way
      // (compiling costs more than the 8 hashes), as the C library's
      // TRY_COMPILE does.
      verifyUs: {
        tryCompile: verifyAll(jit.found, { v2 }),
        interpreted: verifyAll(jit.found, { compile: false, v2 }),
      },
    };
  }
  if (typeof pow.solve === 'function') {
    for (const w of workers) {
      let attempts = 0;
      let seconds = 0;
      const proofs = [];
      for (let k = 0; k < powRuns; k++) {
        const t0 = now();
        const proof = await pow.solve({ ...powCase(k), effort: powEffort, workers: w });
        seconds += (now() - t0) / 1000;
        attempts += proof.attempts;
        proofs.push(hex(proof.nonce) + ':' + hex(proof.solution));
      }
      result.pow.push({ workers: w, effort: powEffort, runs: powRuns, attempts, seconds, proofs });
    }
  }
  return result;
}

// Run directly in Node: print the figures.
if (typeof process !== 'undefined' && process.argv?.[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  const n = Number(process.argv[2] ?? 100);
  console.log(JSON.stringify(await measure({ solves: n }), null, 2));
}

// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// Equi-X solve and verify through the wasm core, in Node: the figures of
// README.md's speed table. Solves the challenges 0..N-1 (4-byte
// little-endian counters, as equix-bench and equix-cli bench do) and
// verifies every solution found, reporting the mean time of each.
//   node bench/speed.js [N]     (default 200)

import { ready, equix } from '../src/index.js';

const n = Number(process.argv[2] ?? 200);
await ready();

function challenge(i) {
  const c = new Uint8Array(4);
  new DataView(c.buffer).setUint32(0, i, true);
  return c;
}

// Warm-up: the engine tiers the module up over the first calls.
for (let i = 0; i < 10; i++) equix.solve(challenge(1000000 + i));

const found = [];
let t0 = process.hrtime.bigint();
for (let i = 0; i < n; i++) {
  let sols = [];
  try {
    sols = equix.solve(challenge(i));
  } catch (e) {
    if (e.code !== 'FAIL_CHALLENGE') throw e;
  }
  for (const s of sols) found.push([challenge(i), s]);
}
const solveNs = Number(process.hrtime.bigint() - t0) / n;

const rounds = Math.max(1, Math.ceil(20000 / found.length));
t0 = process.hrtime.bigint();
for (let r = 0; r < rounds; r++) {
  for (const [c, s] of found) {
    if (equix.verify(c, s) !== 'OK') throw new Error('a solution failed to verify');
  }
}
const verifyNs = Number(process.hrtime.bigint() - t0) / (rounds * found.length);

console.log(`challenges ${n}, solutions ${found.length} (${(found.length / n).toFixed(3)} per challenge)`);
console.log(`solve  ${(solveNs / 1e6).toFixed(2)} ms per challenge`);
console.log(`verify ${(verifyNs / 1e3).toFixed(1)} us per solution`);

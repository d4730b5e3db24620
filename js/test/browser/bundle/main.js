// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The bundled page's script: the core (an asset the bundler emits), a
// compiled HashX function, and pow.solve, whose workers the bundler must
// build from the package's new Worker(new URL(...)) form. Sets
// window.__equixBundle for run.js.

import { ready, hashx, pow } from 'equix';

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const id = new Uint8Array(32);
const seed = new Uint8Array(32).fill(7);
let result;
try {
  await ready();
  const h = hashx(new TextEncoder().encode('This is a test\0'));
  const proof = await pow.solve({ id, seed, nonce: new Uint8Array(16), effort: 50, workers: 2 });
  const one = await pow.solve({ id, seed, nonce: new Uint8Array(16), effort: 50, workers: 1 });
  result = {
    hash: hex(h.hash(0n)),
    compiled: h.compiled,
    proof: hex(proof.nonce) + hex(proof.solution),
    oneWorker: hex(one.nonce) + hex(one.solution),
    verify: pow.verify({ id, seed, ...proof }),
  };
} catch (e) {
  result = { error: `${e.name}: ${e.message}` };
}
document.getElementById('result').textContent = JSON.stringify(result, null, 2);
window.__equixBundle = result;

// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// csp.html's script: the package under the Content-Security-Policy that
// run.js serves the page with. Sets window.__equixCsp to what happened:
// whether ready() resolved (or its error), whether a HashX function was
// compiled, what jitStatus() says, and a hash from the compiled and the
// interpreted function, which run.js compares with the reference.

import { ready, hashx, jitStatus } from '../../src/index.js';

const seed = new TextEncoder().encode('This is a test\0');
const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
let result;
try {
  await ready();
  const h = hashx(seed);
  result = {
    ready: true,
    compiled: h.compiled,
    status: jitStatus(),
    hash: hex(h.hash(0n)),
    interpreted: hex(hashx(seed, { compile: false }).hash(0n)),
  };
} catch (e) {
  result = { ready: false, error: `${e.name}: ${e.message}`, code: e.code ?? null };
}
document.getElementById('result').textContent = JSON.stringify(result, null, 2);
window.__equixCsp = result;

// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// index.d.ts as a TypeScript user's build reads it: tsc --noEmit over
// test/types/ (usage.ts, which imports the package by its name). It
// compiles only when the declarations are valid, a handler can narrow
// an error to EquixError and then on its `code`, and each misspelled
// code or result marked `@ts-expect-error` there is refused, which an
// open union (`| string`) would let through. TypeScript is a
// devDependency (npm ci installs it; without it the test is skipped,
// saying so); the test needs Node to run it.

import { test } from 'node:test';
import assert from 'node:assert/strict';

const inNode = new URL(import.meta.url).protocol === 'file:';

test('tsc --noEmit -p test/types: the types narrow, misspelled codes do not compile', async (t) => {
  if (!inNode) {
    t.skip('needs Node (runs tsc)');
    return;
  }
  const { execFile } = await import('node:child_process');
  const { existsSync } = await import('node:fs');
  const { fileURLToPath } = await import('node:url');
  const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
  if (!existsSync(tsc)) {
    // As a wabt or a Chromium the machine lacks: said, not failed (make
    // check runs this suite without npm's installs; scripts/test.sh
    // --wasm installs them first).
    t.skip('typescript is not installed (npm ci in js/ installs the devDependencies)');
    return;
  }
  const js = fileURLToPath(new URL('../', import.meta.url));
  const r = await new Promise((resolve) => {
    execFile(process.execPath, [tsc, '--noEmit', '-p', 'test/types'], { cwd: js, timeout: 120_000 },
      (error, stdout, stderr) => resolve({ status: error === null ? 0 : error.code, out: stdout + stderr }));
  });
  assert.equal(r.status, 0, `tsc:\n${r.out}`);
  assert.equal(r.out, '');
});

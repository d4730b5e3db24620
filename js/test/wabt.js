// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// wabt's wasm-validate, a second reader of the WebAssembly format beside
// the engine's, for the tests of the modules the compilers make
// (jit.test.js, hashwx.test.js). A program: Node only.

/** Why wasm-validate cannot run here, or null when it can. */
export async function wabtMissing() {
  if (typeof process === 'undefined' || !process.versions?.node) return 'needs Node (wabt is a program)';
  const { execFileSync } = await import('node:child_process');
  try {
    execFileSync('wasm-validate', ['--version'], { stdio: 'ignore' });
  } catch {
    return 'wasm-validate (Debian package wabt) is not installed';
  }
  return null;
}

/** wasm-validate's options that turn off every feature after
 * WebAssembly 1.0 it knows. */
export const WASM_1_0 = ['--disable-mutable-globals', '--disable-saturating-float-to-int',
  '--disable-sign-extension', '--disable-simd', '--disable-multi-value',
  '--disable-bulk-memory', '--disable-reference-types'];

/** Runs wasm-validate with `flags` on each of `modules` (bytes); throws,
 * with its message, at the first it rejects. */
export async function wabtValidate(modules, flags = []) {
  const { execFileSync } = await import('node:child_process');
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'equix-wabt-'));
  try {
    modules.forEach((bytes, i) => {
      const file = join(dir, `m${i}.wasm`);
      writeFileSync(file, bytes);
      execFileSync('wasm-validate', [...flags, file]);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// A TypeScript user of the package, checked by tsc --noEmit and never
// run (../types.test.js). What must compile is written plainly; what
// must not is marked `// @ts-expect-error`, and tsc fails on a marker
// whose next line compiles: were a union of codes or results open
// (`| string`), a misspelled name would compile, and so would fail here.

import {
  ready, hashx, hashwx, equix, pow, toHex, fromHex, EquixError,
} from 'equix';
import type { EquixErrorCode, VerifyResult, PowResult } from 'equix';

// A handler narrows an unknown error to the package's, then its code.
export function explain(e: unknown): string {
  if (!(e instanceof EquixError)) return 'not the package\'s error';
  switch (e.code) {
    case 'FAIL_SEED':
      return 'no HashX program for this seed';
    case 'FAIL_TOO_LARGE':
    case 'FAIL_LENGTH': {
      const size: 'FAIL_TOO_LARGE' | 'FAIL_LENGTH' = e.code;
      return `bytes of the wrong size (${size})`;
    }
    // @ts-expect-error: no such code (FAIL_SEED misspelled)
    case 'FAIL_SEEED':
      return 'never';
    default: {
      const code: EquixErrorCode = e.code;
      return code;
    }
  }
}

export async function use(challenge: Uint8Array, solution: Uint8Array): Promise<void> {
  await ready();
  try {
    hashx(challenge);
  } catch (e) {
    // An argument check's error is both kinds at once.
    if (e instanceof TypeError && e instanceof EquixError) {
      const code: EquixErrorCode = e.code;
      void code;
    }
  }
  const verdict: VerifyResult = equix.verify(challenge, solution);
  // @ts-expect-error: equix.verify has no such answer (FAIL_ORDER misspelled)
  if (verdict === 'FAIL_ORDRE') return;
  const proof = pow.decodeExtension(challenge);
  const result: PowResult = pow.verify({ ...proof, id: challenge, seed: challenge });
  // @ts-expect-error: pow.verify has no such answer (FAIL_SEED_HEAD misspelled)
  if (result === 'FAIL_SEED_HAED') return;
  const text: string = toHex(solution);
  const back: Uint8Array = fromHex(text);
  // @ts-expect-error: fromHex takes a string, not bytes
  fromHex(back);
  const made = new EquixError('equix: made by a test', 'FAIL_ARGUMENT');
  void made;
  // @ts-expect-error: an EquixError's code is one of EquixErrorCode's
  void new EquixError('equix: made by a test', 'FAIL_ANYTHING');
}

// Equi-X v2: HashWX's 64-bit output is a bigint, and v2 is an option of
// the Equi-X and PoW calls.
export async function useV2(seed: Uint8Array, challenge: Uint8Array): Promise<bigint> {
  await ready();
  const f = hashwx(seed, { compile: false });
  const out: bigint = f.hash(462n) ^ f.hash(463);
  // @ts-expect-error: a HashWX hash is a bigint, not bytes
  const wrong: Uint8Array = f.hash(0n);
  void wrong;
  // @ts-expect-error: HashWX has no block mode
  hashwx(seed, { block: true });
  f.free();
  const sols: Uint8Array[] = equix.solve(challenge, { v2: true });
  const verdict: VerifyResult = equix.verify(challenge, sols[0], { v2: true });
  void verdict;
  const proof = await pow.solve({ id: seed, seed, effort: 8, v2: true });
  const result: PowResult = pow.verify({ ...proof, id: seed, seed, v2: true });
  void result;
  return out;
}

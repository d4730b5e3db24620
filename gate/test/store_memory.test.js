// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The memory store's heap follows the live seeds: the claims of an epoch
// that is no longer accepted are dropped whether or not anyone asks about
// that epoch again. A server asks only about the current and the
// previous epoch (src/seeds.js), so a store that drops a record only
// when asked for it keeps every past epoch's claims for as long as the
// process runs (issue 44). Here a store gets what a server gives it, on a
// test clock: 2,000 claims in each of 200 epochs, each claim after the
// lookup of the current and previous epochs' salts. The heap is measured
// after full collections (node --expose-gc, as package.json's test
// script and scripts/wasm.sh run the gate's suite), and `size`, which
// visits every record, is never read.
//
// The bound is doc/bad-input.md's row gate-memory-store-past-epochs
// (section "The gate's replay store"), walked here as
// js/test/bad_input.test.js walks the package's rows: every gate- row has
// its case here and every case its one row, and a case gives the first
// code span of its row's outcome.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { MemoryStore } from '../src/stores.js';
import { docRows, walkRows } from '../../js/test/doc_rows.js';

const MiB = 1024 * 1024;
const LIFETIME = 3600; // seconds, the default SEED_LIFETIME
const PREFIX = '0123456789abcdef:3600:'; // Seeds' site:lifetime: form
const EPOCHS = 200;
const CLAIMS = 2000; // per epoch: 400,000 in all, 4,000 live at a time
const BOUND = 2 * MiB; // the leak grew the heap by 26 MiB; the live claims take about 0.3

function heapUsed() {
  // Twice: what the first collection frees can hold more (weak maps).
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
}

const nonce = (epoch, i) => epoch.toString(16).padStart(8, '0') + i.toString(16).padStart(24, '0');

// One epoch as a server lives it: the seed handed out (its record made,
// kept until the end of the next epoch), then each proof looked up among
// the current and previous seeds and its nonce claimed.
async function serveEpoch(store, clock, epoch) {
  clock.now = epoch * LIFETIME * 1000 + 1;
  const acceptedFor = (epoch + 2) * LIFETIME - clock.now / 1000;
  const salt = await store.issue(PREFIX + epoch, acceptedFor);
  for (let i = 0; i < CLAIMS; i++) {
    const [current] = await store.salts([PREFIX + epoch, PREFIX + (epoch - 1)]);
    assert.equal(current, salt);
    assert.equal(await store.claim(PREFIX + epoch, salt, nonce(epoch, i)), 'claimed');
  }
  return salt;
}

/** The heap's growth over EPOCHS epochs after two to settle, in bytes;
 * the store still refuses the live epochs' replays and knows no
 * past one. */
async function growthOverEpochs() {
  if (typeof globalThis.gc !== 'function') {
    throw new Error('the heap is measured after collections: run node with --expose-gc (npm test does)');
  }
  const clock = { now: 0 };
  const store = new MemoryStore({ now: () => clock.now });
  const first = 1000;
  let epoch = first;
  let salt = null;
  for (; epoch < first + 2; epoch++) salt = await serveEpoch(store, clock, epoch);
  const before = heapUsed();
  for (; epoch < first + 2 + EPOCHS; epoch++) salt = await serveEpoch(store, clock, epoch);
  const growth = heapUsed() - before;
  const last = epoch - 1;
  assert.equal(await store.claim(PREFIX + last, salt, nonce(last, 0)), 'replayed');
  assert.deepEqual(await store.salts([PREFIX + first]), [null]);
  return growth;
}

// ---- doc/bad-input.md's gate- rows ------------------------------------

const DOC = new URL('../../doc/bad-input.md', import.meta.url);

const rows = docRows(readFileSync(DOC, 'utf8'), 'gate-');

// Each case gets the test's context, for a diagnostic line with what it
// measured.
const cases = {
  'gate-memory-store-past-epochs': async (t) => {
    const growth = await growthOverEpochs();
    const mib = (growth / MiB).toFixed(2);
    t.diagnostic(`heap growth over ${EPOCHS} epochs of ${CLAIMS} claims: ${mib} MiB`);
    return growth < BOUND ? `heap growth under ${BOUND / MiB} MiB` : `heap growth ${mib} MiB`;
  },
};

walkRows({ test, assert, rows, cases, prefix: 'gate-', outcome: (run, t) => run(t) });

// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The demo end to end in Debian's headless Chromium, as a visitor uses
// it: the page loads under the server's Content-Security-Policy, a
// message is written and sent, the workers solve while the progress bar
// moves, the server accepts; the same proof sent again is refused. No
// console error is allowed (a CSP violation would show there).
//
// DEMO_SCREENSHOT=FILE saves the page at the end.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';

import { startServer, settingsFrom } from '../server.js';
import { MemoryStore } from 'equix-gate/stores';
// The repository's one way to start Chromium (Debian's, headless, no
// background connections), shared with the package's browser suite.
import { CHROMIUM, launchChromium } from '../../../js/test/browser/chromium.js';

const missing = existsSync(CHROMIUM) ? null : `${CHROMIUM} is not installed (Debian package chromium)`;
const EFFORT = 100;
let server;
let browser;

before(async () => {
  if (missing !== null) return;
  server = await startServer(settingsFrom({ PORT: '0', EFFORT: String(EFFORT) }), { store: new MemoryStore() });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test('the page: solve, send, accepted; the same proof again, refused', { skip: missing ?? false, timeout: 120_000 }, async () => {
  const page = await browser.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  const submissions = [];
  page.on('response', (r) => { if (r.url().endsWith('/submit')) submissions.push(r.status()); });

  await page.goto(server.url);
  await page.waitForSelector('#send:not([disabled])');
  assert.match(await page.textContent('#engine'), /HashX compiled for each puzzle/);

  await page.fill('#message', 'Hello from the test');
  await page.click('#send');
  // The work section shows while the workers search.
  await page.waitForSelector('#work:not([hidden])');
  await page.waitForFunction(() => /accepted/.test(document.getElementById('status').textContent)
    || /Refused|wrong/.test(document.getElementById('status').textContent), null, { timeout: 100_000 });
  assert.equal(await page.textContent('#status'), 'Thank you: your message was accepted.');
  assert.equal(await page.getAttribute('#status', 'class'), 'ok');
  assert.equal(await page.evaluate(() => document.getElementById('progress').value), 1);
  assert.match(await page.textContent('#progress-text'), /^Solved: \d+ nonces in \d+\.\d s\.$/);
  assert.equal(await page.inputValue('#message'), '');

  await page.click('#replay-box summary');
  await page.click('#replay');
  await page.waitForFunction(() => document.getElementById('replay-status').textContent.startsWith('Refused'));
  assert.equal(await page.textContent('#replay-status'), 'Refused, as it should be: this proof has been used already');
  assert.deepEqual(submissions, [200, 409]);

  if (process.env.DEMO_SCREENSHOT) await page.screenshot({ path: process.env.DEMO_SCREENSHOT, fullPage: true });
  // The one error: Chromium's own line for the refused replay.
  assert.deepEqual(problems, ['Failed to load resource: the server responded with a status of 409 (Conflict)']);
});

test('the page: Cancel stops the search and nothing is sent', { skip: missing ?? false, timeout: 60_000 }, async () => {
  // An effort no test machine reaches in time: the search must be cut.
  const hard = await startServer(settingsFrom({ PORT: '0', EFFORT: String(2 ** 30) }), { store: new MemoryStore() });
  try {
    const page = await browser.newPage();
    let sent = 0;
    page.on('request', (r) => { if (r.url().endsWith('/submit')) sent++; });
    await page.goto(hard.url);
    await page.waitForSelector('#send:not([disabled])');
    await page.fill('#message', 'never sent');
    await page.click('#send');
    await page.waitForFunction(() => /nonces tried/.test(document.getElementById('progress-text').textContent));
    await page.click('#cancel');
    await page.waitForFunction(() => document.getElementById('status').textContent === 'Cancelled.');
    assert.equal(await page.isEnabled('#send'), true);
    assert.equal(await page.isHidden('#cancel'), true);
    assert.equal(sent, 0);
    assert.equal(await page.inputValue('#message'), 'never sent');
  } finally {
    await hard.close();
  }
});

// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The challenge page in Debian's headless Chromium, against a stand-in
// for the gate (e2e/standin.js) that can be told to refuse: the page
// solves and goes on to `to` (and never off the site), says why it
// stops when the server rate-limits it, fetches a new puzzle once by
// itself when the old one went stale, says so when WebAssembly cannot
// run, and has a message without JavaScript. No console error is allowed
// where none is expected (a CSP violation would show there). The same
// page through real proxies and the real gate: e2e.test.js.
//
// GATE_SCREENSHOTS=DIR saves the page while it solves at desktop
// (gate-desktop.png, 1280x800) and phone (gate-phone.png, 390x844) sizes.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { CSP, startStandIn } from './e2e/standin.js';
import { withTerms } from './png_terms.js';
import { CHROMIUM, launchChromium } from '../../js/test/browser/chromium.js';

const missing = existsSync(CHROMIUM) ? null : `${CHROMIUM} is not installed (Debian package chromium)`;
const skip = missing ?? false;
let browser;

before(async () => { if (missing === null) browser = await launchChromium(); });
after(async () => { await browser?.close(); });

// A page that records console errors and the gate's requests.
async function open(context = browser) {
  const page = await context.newPage();
  const problems = [];
  const requests = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  return { page, problems, requests };
}

async function withStandIn(options, body) {
  const server = await startStandIn(options);
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

const statusText = (page) => page.textContent('#status');

test('solves, gets the cookie and goes on to `to`', { skip, timeout: 60_000 }, () => withStandIn({}, async (server) => {
  const { page, problems, requests } = await open();
  await page.goto(`${server.url}/.equix-gate/?to=${encodeURIComponent('/after?x=1#top')}`);
  await page.waitForURL(`${server.url}/after?x=1#top`, { timeout: 30_000 });
  assert.equal(await page.textContent('#site'), 'site page /after');
  const cookies = await page.context().cookies();
  assert.ok(cookies.some((c) => c.name === 'equix_pass' && c.value === 'standin'));
  assert.deepEqual(server.counts, { challenge: 1, verify: 1 });
  assert.ok(requests.includes('/.equix-gate/equix/dist/equix.wasm'));
  assert.deepEqual(problems, []);
  await page.close();
}));

test('a `to` off the site, or back into the gate, goes to / instead', { skip, timeout: 60_000 }, () => withStandIn({}, async (server) => {
  // Encoded as the gate writes it, and raw as nginx's $request_uri is.
  const queries = [`to=${encodeURIComponent('/\\evil.example/x')}`, 'to=//evil.example/x',
    `to=${encodeURIComponent('/.equix-gate/?to=/x')}`];
  for (const query of queries) {
    const { page, problems } = await open();
    await page.goto(`${server.url}/.equix-gate/?${query}`);
    await page.waitForURL(`${server.url}/`, { timeout: 30_000 });
    assert.equal(await page.textContent('#site'), 'site page /', query);
    assert.deepEqual(problems, []);
    await page.close();
  }
}));

test('the page is labelled for assistive technology', { skip, timeout: 30_000 }, () => withStandIn({ effort: 2 ** 30 }, async (server) => {
  const { page } = await open();
  await page.goto(`${server.url}/.equix-gate/?to=/x`);
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Checking your browser');
  const bar = page.getByRole('progressbar', { name: 'Puzzle progress' });
  assert.equal(await bar.count(), 1);
  assert.equal(await page.getAttribute('#status', 'role'), 'status');
  assert.equal(await page.getAttribute('#status', 'aria-live'), 'polite');
  await page.waitForFunction(() => /attempts in/.test(document.getElementById('progress-text').textContent));
  assert.match(await statusText(page), /^Solving the puzzle/);
  assert.equal(await page.isHidden('#retry'), true);
  await page.close();
}));

// Pictures of the page as a visitor sees it mid-search: an effort of
// hundreds so the bar has moved, and the answer held back so the page
// stays put even if the search ends first.
const shots = process.env.GATE_SCREENSHOTS;
test('screenshots at desktop and phone sizes', { skip: missing ?? (shots ? false : 'GATE_SCREENSHOTS is not set'), timeout: 60_000 }, () => withStandIn({ effort: 600 }, async (server) => {
  const { page, problems } = await open();
  await page.route('**/verify', () => {});
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${server.url}/.equix-gate/?to=/x`);
  await page.waitForFunction(() => document.getElementById('progress').value >= 0.1, null, { timeout: 50_000 });
  mkdirSync(shots, { recursive: true });
  writeFileSync(join(shots, 'gate-desktop.png'), withTerms(await page.screenshot()));
  await page.setViewportSize({ width: 390, height: 844 });
  writeFileSync(join(shots, 'gate-phone.png'), withTerms(await page.screenshot()));
  assert.deepEqual(problems, []);
  await page.close();
}));

test('rate limited: says how long to wait; the retry button is shown and focused', { skip, timeout: 30_000 }, () => withStandIn({
  script: { challenge: () => ({ status: 429, body: { ok: false, code: 'rate_limited' }, headers: { 'retry-after': '42' } }) },
}, async (server) => {
  const { page, problems } = await open();
  await page.goto(`${server.url}/.equix-gate/?to=/x`);
  await page.waitForSelector('#retry:not([hidden])');
  assert.equal(await statusText(page), 'Too many puzzles were asked for from your network. Wait 42 seconds, then try again.');
  assert.equal(await page.getAttribute('#status', 'class'), 'status bad');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'retry');
  assert.equal(server.counts.verify, 0);
  // Chromium's own line for the 429, and nothing else.
  assert.deepEqual(problems, ['Failed to load resource: the server responded with a status of 429 (Too Many Requests)']);
  await page.close();
}));

test('a stale puzzle (unknown_seed) is fetched again once by itself', { skip, timeout: 60_000 }, () => withStandIn({
  script: { verify: (n) => (n === 1 ? { status: 403, body: { ok: false, code: 'unknown_seed' } } : null) },
}, async (server) => {
  const { page } = await open();
  await page.goto(`${server.url}/.equix-gate/?to=/y`);
  await page.waitForURL(`${server.url}/y`, { timeout: 30_000 });
  assert.deepEqual(server.counts, { challenge: 2, verify: 2 });
  await page.close();
}));

test('stale twice: the page stops and the retry button starts again', { skip, timeout: 60_000 }, () => withStandIn({
  script: { verify: (n) => (n <= 2 ? { status: 403, body: { ok: false, code: 'unknown_seed' } } : null) },
}, async (server) => {
  const { page } = await open();
  await page.goto(`${server.url}/.equix-gate/?to=/z`);
  await page.waitForSelector('#retry:not([hidden])', { timeout: 30_000 });
  assert.equal(await statusText(page), 'The site did not accept the answer (unknown_seed). Try again.');
  assert.deepEqual(server.counts, { challenge: 2, verify: 2 });
  await page.keyboard.press('Enter'); // the focused retry button
  await page.waitForURL(`${server.url}/z`, { timeout: 30_000 });
  assert.deepEqual(server.counts, { challenge: 3, verify: 3 });
  await page.close();
}));

test('no WebAssembly: says so, and sends nothing', { skip, timeout: 30_000 }, () => withStandIn({}, async (server) => {
  const { page, requests } = await open();
  await page.addInitScript(() => { delete globalThis.WebAssembly; });
  await page.goto(`${server.url}/.equix-gate/?to=/x`);
  await page.waitForFunction(() => /WebAssembly/.test(document.getElementById('status').textContent));
  assert.match(await statusText(page), /^Your browser cannot run WebAssembly here/);
  assert.equal(requests.filter((p) => p.endsWith('/challenge')).length, 0);
  await page.close();
}));

test('WebAssembly refused by the policy (ready() rejects FAIL_WASM): says so', { skip, timeout: 30_000 }, () => withStandIn({
  csp: CSP.replace(" 'wasm-unsafe-eval'", ''),
}, async (server) => {
  const { page } = await open();
  await page.goto(`${server.url}/.equix-gate/?to=/x`);
  await page.waitForFunction(() => /WebAssembly/.test(document.getElementById('status').textContent));
  assert.match(await statusText(page), /^Your browser cannot run WebAssembly here/);
  assert.equal(server.counts.challenge, 0);
  await page.close();
}));

test('without JavaScript: the noscript message shows', { skip, timeout: 30_000 }, () => withStandIn({}, async (server) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto(`${server.url}/.equix-gate/?to=/x`);
    assert.match(await page.locator('body').innerText(), /This check needs JavaScript and WebAssembly/);
  } finally {
    await context.close();
  }
}));

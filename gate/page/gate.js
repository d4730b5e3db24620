// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The challenge page's script. It fetches a puzzle (GET ./challenge),
// solves it with the equix package in Web Workers while the progress bar
// moves, sends the proof (POST ./verify), and once the gate has set the
// pass cookie goes on to the page the visitor asked for (?to=/path).
// Every sentence it shows comes from index.html's #messages list.
//
// The URLs are relative to this module, not to the page, so the page
// works whatever prefix the gate is mounted under.

const $ = (id) => document.getElementById(id);
const progress = $('progress');
const progressText = $('progress-text');
const status = $('status');
const retry = $('retry');

const CHALLENGE = new URL('./challenge', import.meta.url);
const VERIFY = new URL('./verify', import.meta.url);
const PACKAGE = new URL('./equix/src/index.js', import.meta.url).href;
const GATE_PATH = new URL('./', import.meta.url).pathname; // /.equix-gate/

/** The sentence `key` of index.html with its {placeholders} filled in. */
function text(key, values = {}) {
  const template = document.querySelector(`#messages [data-key="${key}"]`)?.textContent ?? key;
  return template.replace(/\{(\w+)\}/g, (all, name) => (name in values ? String(values[name]) : all));
}

function say(key, values, tone = '') {
  status.textContent = text(key, values);
  status.className = `status ${tone}`.trim();
}

// A failure the visitor can do something about: the message, and the
// retry button, visible and focused so a keyboard or screen-reader user
// lands on it.
function fail(key, values) {
  say(key, values, 'bad');
  retry.hidden = false;
  retry.focus();
}

/** Where to go once passed: `to` when it is a path of this site (one
 * leading slash, no backslash that a browser would read as a second
 * slash), else the site's root. `to` comes in two forms: percent-encoded
 * (?to=%2Fa%3Fb%3D1, as the gate's own redirects write it), or raw, the
 * rest of the query as it stands (?to=/a?b=1&c=2: nginx's $request_uri,
 * which nginx cannot encode), told apart by its first character. The
 * gate checks the same; this is the page's own guard against being sent
 * elsewhere, or back to the gate (a loop). */
function destination(search, origin) {
  const raw = /^\?to=(\/.*)$/s.exec(search);
  const to = raw !== null ? raw[1] : new URLSearchParams(search).get('to') ?? '/';
  if (!/^\/(?![/\\])/.test(to) || /[\\\x00-\x1f\x7f]/.test(to)) return '/';
  const url = new URL(to, origin);
  if (url.origin !== origin || url.pathname.startsWith(GATE_PATH)) return '/';
  return url.pathname + url.search + url.hash;
}

// A whole number as the page's language writes it (12,345 in English).
const numbers = new Intl.NumberFormat(document.documentElement.lang || undefined, { maximumFractionDigits: 0 });
const count = (n) => numbers.format(Math.round(n));

// A nonce yields two Equi-X solutions on average and each passes the
// effort check with probability 1/effort: about effort/2 nonces in all.
// The bar shows the share of that expectation, short of full until done
// (a search may take longer than expected; that is luck, not a fault).
function showProgress(attempts, seconds, effort) {
  const expected = Math.max(1, effort / 2);
  progress.value = Math.min(0.97, attempts / expected);
  const values = { tried: count(attempts), seconds: seconds.toFixed(1), expected: count(expected) };
  if (seconds > 0) values.rate = count(attempts / seconds);
  progressText.textContent = text(seconds > 0 ? 'progress-rate' : 'progress', values);
}

// An answer's JSON, or a refusal made from its status when it has none
// (a proxy's own error page, say).
async function json(response) {
  try {
    return await response.json();
  } catch {
    return { ok: false, code: `http_${response.status}` };
  }
}

// Thrown for an answer that stops this attempt: its code, and for a
// rate limit the seconds to wait.
class Stop extends Error {
  constructor(code, retryAfter) {
    super(code);
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

async function fetchChallenge() {
  const response = await fetch(CHALLENGE, { cache: 'no-store', credentials: 'same-origin' });
  const body = await json(response);
  if (response.status === 429) {
    const seconds = Number.parseInt(response.headers.get('retry-after') ?? '', 10);
    throw new Stop('rate_limited', Number.isFinite(seconds) ? seconds : 60);
  }
  if (!response.ok || typeof body.seed !== 'string') throw new Stop(body.code ?? `http_${response.status}`);
  return body;
}

async function sendProof(proof, { toHex }) {
  const response = await fetch(VERIFY, {
    method: 'POST',
    cache: 'no-store',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      proof: {
        nonce: toHex(proof.nonce),
        seedHead: toHex(proof.seedHead),
        solution: toHex(proof.solution),
        effort: proof.effort,
      },
    }),
  });
  const body = await json(response);
  if (!body.ok) throw new Stop(body.code ?? `http_${response.status}`);
}

async function solveOnce(equix) {
  say('fetching');
  const challenge = await fetchChallenge();
  progress.value = 0;
  showProgress(0, 0, challenge.effort);
  say('solving');
  const proof = await equix.pow.solve({
    id: equix.fromHex(challenge.id),
    seed: equix.fromHex(challenge.seed),
    effort: challenge.effort,
    v2: challenge.v2 !== false,
    onProgress: ({ attempts, seconds }) => showProgress(attempts, seconds, challenge.effort),
  });
  progress.value = 1;
  say('sending');
  await sendProof(proof, equix);
}

// A puzzle that went stale while it was solved (its seed changed, or
// the effort rose under load) is fetched again once without asking.
const STALE = new Set(['unknown_seed', 'effort_too_low']);

async function pass(equix) {
  retry.hidden = true;
  try {
    try {
      await solveOnce(equix);
    } catch (e) {
      if (!(e instanceof Stop) || !STALE.has(e.code)) throw e;
      say('again');
      await solveOnce(equix);
    }
    say('done', {}, 'ok');
    location.replace(destination(location.search, location.origin));
  } catch (e) {
    if (e instanceof Stop && e.code === 'rate_limited') fail('rate-limited', { seconds: e.retryAfter });
    else if (e instanceof Stop) fail('refused', { reason: e.code });
    else if (e?.code === 'FAIL_WASM') fail('no-wasm');
    else fail('failed', { reason: e?.code ?? e?.message ?? String(e) });
  }
}

async function start() {
  say('loading');
  if (typeof WebAssembly !== 'object') {
    fail('no-wasm');
    retry.hidden = true; // nothing a retry could change
    return;
  }
  let equix;
  try {
    equix = await import(PACKAGE);
    await equix.ready();
  } catch (e) {
    if (e?.code === 'FAIL_WASM') {
      fail('no-wasm');
      retry.hidden = true;
    } else {
      fail('failed', { reason: e?.code ?? e?.message ?? String(e) });
      retry.onclick = () => location.reload();
    }
    return;
  }
  retry.onclick = () => pass(equix);
  await pass(equix);
}

start();

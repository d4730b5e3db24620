// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The demo page's script. On "Send": fetch a puzzle (GET /challenge),
// solve it with pow.solve in Web Workers while a progress bar moves, then
// send the message with the proof (POST /submit) and show what the server
// said. The last proof can be sent again, to see it refused.

import {
  ready, pow, jitStatus, toHex, fromHex,
} from '/equix/src/index.js';

const $ = (id) => document.getElementById(id);
const form = $('form');
const message = $('message');
const send = $('send');
const cancel = $('cancel');
const work = $('work');
const progress = $('progress');
const progressText = $('progress-text');
const status = $('status');
const replayBox = $('replay-box');
const replayStatus = $('replay-status');

let controller = null; // the running search's, for Cancel
let lastSubmission = null; // the body last sent, for the replay button

function say(element, text, tone) {
  element.textContent = text;
  element.className = tone ?? '';
}

// A nonce yields two Equi-X solutions on average, and each passes the
// effort check with probability 1/effort: about effort/2 nonces in all.
// The bar shows the share of that expectation, short of full until done
// (a search may take longer than expected; it is luck, not a fault).
function showProgress(attempts, seconds, effort) {
  const expected = Math.max(1, effort / 2);
  progress.value = Math.min(0.97, attempts / expected);
  const rate = seconds > 0 ? ` (${Math.round(attempts / seconds)} per second)` : '';
  progressText.textContent = `${attempts} nonces tried in ${seconds.toFixed(1)} s${rate}; about ${Math.round(expected)} expected`;
}

async function getJson(response) {
  try {
    return await response.json();
  } catch {
    return { ok: false, error: `the server answered ${response.status}` };
  }
}

async function submit(body) {
  const response = await fetch('/submit', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return getJson(response);
}

async function solveAndSend(text) {
  say(status, 'Fetching a puzzle…');
  const challenge = await getJson(await fetch('/challenge', { cache: 'no-store' }));
  if (challenge.ok === false) {
    say(status, `No puzzle to solve: ${challenge.error}`, 'bad');
    return;
  }
  controller = new AbortController();
  work.hidden = false;
  cancel.hidden = false;
  showProgress(0, 0, challenge.effort);
  say(status, 'Solving the puzzle…');
  const proof = await pow.solve({
    id: fromHex(challenge.id),
    seed: fromHex(challenge.seed),
    effort: challenge.effort,
    signal: controller.signal,
    onProgress: ({ attempts, seconds }) => showProgress(attempts, seconds, challenge.effort),
  });
  progress.value = 1;
  progressText.textContent = `Solved: ${proof.attempts} nonces in ${proof.seconds.toFixed(1)} s.`;
  cancel.hidden = true;
  say(status, 'Sending…');
  const body = {
    message: text,
    proof: {
      nonce: toHex(proof.nonce),
      effort: proof.effort,
      seedHead: toHex(proof.seedHead),
      solution: toHex(proof.solution),
    },
  };
  const answer = await submit(body);
  if (answer.ok) {
    say(status, 'Thank you: your message was accepted.', 'ok');
    lastSubmission = body;
    replayBox.hidden = false;
    say(replayStatus, '');
    message.value = '';
  } else {
    say(status, `Refused: ${answer.error}`, 'bad');
  }
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const text = message.value.trim();
  if (text === '') {
    say(status, 'Write a message first.', 'bad');
    message.focus();
    return;
  }
  send.disabled = true;
  try {
    await solveAndSend(text);
  } catch (e) {
    const aborted = controller?.signal.aborted;
    say(status, aborted ? 'Cancelled.' : `Something went wrong: ${e.message}`, 'bad');
  } finally {
    controller = null;
    cancel.hidden = true;
    send.disabled = false;
  }
});

cancel.addEventListener('click', () => controller?.abort(new Error('cancelled')));

$('replay').addEventListener('click', async () => {
  if (lastSubmission === null) return;
  say(replayStatus, 'Sending the same proof again…');
  const answer = await submit(lastSubmission);
  if (answer.ok) say(replayStatus, 'Accepted again: the replay store is not working.', 'bad');
  else say(replayStatus, `Refused, as it should be: ${answer.error}`, 'ok');
});

try {
  await ready();
  const jit = jitStatus();
  $('engine').textContent = jit.enabled
    ? 'Puzzle solver: Equi-X in WebAssembly, HashX compiled for each puzzle.'
    : `Puzzle solver: Equi-X in WebAssembly, HashX interpreted (${jit.refusal}).`;
  send.disabled = false;
} catch (e) {
  $('engine').textContent = `The puzzle solver cannot run in this browser: ${e.message}`;
  $('engine').className = 'bad';
}

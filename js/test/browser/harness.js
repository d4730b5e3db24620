// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The page side of the browser suite (index.html): imports each test file
// named in the query string (?files=a.test.js,b.test.js, paths relative
// to js/test/), one after another as node --test runs a file's tests in
// order, lets the node:test shim run its tests, and shows each result on
// the page and to run.js, which drives the page (window.__equixReport and
// window.__equixFinished, present when the runner exposes them).

import { beginFile, endFile } from './node-test.js';

const params = new URLSearchParams(location.search);
const files = (params.get('files') ?? '').split(',').filter((f) => f !== '');
const list = document.getElementById('results');
const summaryLine = document.getElementById('summary');
const current = document.getElementById('current');
const counts = { tests: 0, suites: 0, pass: 0, fail: 0, skipped: 0, todo: 0 };
const started = performance.now();

function send(event) {
  // The runner's exposed function returns a promise; without a runner
  // (the page opened by hand with run.js --serve) results are only shown.
  return window.__equixReport?.(event);
}

function describeError(e) {
  if (e instanceof Error) {
    return {
      name: e.name,
      message: e.message,
      stack: e.stack ?? '',
      code: e.code,
      // AssertionError's own fields, as Node's reporter shows them.
      operator: e.operator,
    };
  }
  return { name: typeof e, message: String(e), stack: '' };
}

function show(result) {
  const li = document.createElement('li');
  li.className = result.status;
  const badge = document.createElement('span');
  badge.className = 'badge';
  badge.textContent = { pass: 'ok', fail: 'not ok', skip: 'skip', todo: 'todo' }[result.status];
  const name = document.createElement('span');
  name.className = 'name';
  name.textContent = `${result.file}: ${result.name}`;
  const time = document.createElement('span');
  time.className = 'time';
  time.textContent = `${Math.round(result.duration)} ms`;
  li.append(badge, name, time);
  if (result.reason !== null && result.reason !== '') {
    const why = document.createElement('div');
    why.className = 'reason';
    why.textContent = result.reason;
    li.append(why);
  }
  if (result.error) {
    const pre = document.createElement('pre');
    pre.textContent = result.error.stack || result.error.message;
    li.append(pre);
  }
  list.append(li);
}

function showSummary(done) {
  const parts = [`${counts.pass} passed`, `${counts.fail} failed`, `${counts.skipped} skipped`];
  if (counts.todo > 0) parts.push(`${counts.todo} todo`);
  summaryLine.textContent = `${parts.join(', ')}${done ? ` in ${((performance.now() - started) / 1000).toFixed(1)} s` : ''}`;
  summaryLine.className = counts.fail > 0 ? 'fail' : done ? 'pass' : 'running';
}

async function record(result) {
  if (result.suite) counts.suites++;
  else {
    counts.tests++;
    if (result.status === 'pass') counts.pass++;
    else if (result.status === 'fail') counts.fail++;
    else if (result.status === 'skip') counts.skipped++;
    else counts.todo++;
  }
  show(result);
  showSummary(false);
  await send({ type: 'test', ...result });
}

function resultOf(file, test) {
  let status = 'pass';
  if (test.skipReason !== null) status = 'skip';
  else if (test.todoReason !== null) status = 'todo';
  else if (test.error !== null) status = 'fail';
  return {
    file,
    name: test.fullName,
    suite: test.isSuite === true,
    status,
    reason: test.skipReason ?? test.todoReason,
    error: test.error === null ? null : describeError(test.error),
    duration: test.duration,
    diagnostics: test.diagnostics,
  };
}

async function runFile(file) {
  current.textContent = `running ${file}…`;
  await send({ type: 'file', file });
  const pending = [];
  beginFile((test) => pending.push(record(resultOf(file, test))));
  try {
    await import(new URL(`../${file}`, import.meta.url).href);
    await endFile();
  } catch (e) {
    // A file that fails to load (or whose top-level code throws) is a
    // failure of its own, as node --test counts it.
    pending.push(record({
      file,
      name: '(loading the file)',
      suite: false,
      status: 'fail',
      reason: null,
      error: describeError(e),
      duration: 0,
      diagnostics: [],
    }));
  }
  await Promise.all(pending);
}

for (const file of files) await runFile(file);
current.textContent = files.length === 0 ? 'no test files given (?files=…)' : `${files.length} files`;
showSummary(true);
const summary = { ...counts, files, duration: performance.now() - started };
window.__equixDone = summary;
await window.__equixFinished?.(summary);

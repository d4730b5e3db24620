// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// Request targets a browser never sends, sent as they are (fetch() would
// normalise them): each is a 400 in JSON, and none costs the server's
// log more than one short line, so that they cannot be used to flood it.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';

import { startServerProcess } from './helpers.js';

let server;

before(async () => {
  server = await startServerProcess({ SECRET: randomBytes(32).toString('hex'), EFFORT: '8' });
});

after(async () => server?.stop());

/** GET `target`, byte for byte; resolves to { status, body }. */
function get(target) {
  const { hostname, port } = new URL(server.url);
  return new Promise((ok, fail) => {
    const req = request({ host: hostname, port, path: target, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => { body += chunk; });
      res.on('end', () => ok({ status: res.statusCode, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

test('malformed request targets: 400, at most one short log line each', async () => {
  const targets = [
    '//[', // no path: an authority, and not a valid one
    '//x/challenge',
    'http://x',
    'http://x/challenge',
    '*',
    '/%',
    '/%zz',
    '/%E0%A4%A', // a UTF-8 sequence cut short
    '/%C0%AF', // an overlong '/'
    `/${'a'.repeat(4000)}`,
    `/challenge?${'q'.repeat(4000)}`,
  ];
  for (const target of targets) {
    const logBefore = server.log();
    const r = await get(target);
    const what = target.length > 40 ? `${target.slice(0, 20)}... (${target.length} characters)` : target;
    assert.equal(r.status, 400, `${what}: ${r.body.slice(0, 200)}`);
    const body = JSON.parse(r.body);
    assert.equal(body.ok, false, what);
    assert.equal(body.code, 'bad_target', what);
    assert.ok(body.error.length < 200, `${what}: a short error`);
    const logged = server.log().slice(logBefore.length);
    assert.ok(logged.split('\n').filter((line) => line !== '').length <= 1, `${what} logged: ${logged.slice(0, 500)}`);
    assert.ok(logged.length <= 200, `${what} logged ${logged.length} characters`);
  }
});

test('well-formed targets still work: a query string, an escape that decodes', async () => {
  assert.equal((await get('/challenge?x=1')).status, 200);
  assert.equal((await get('/app%2Ejs')).status, 200);
  assert.equal((await get('/%61pp.js')).status, 200);
  assert.equal((await get('/nothing%20here')).status, 404);
  assert.equal((await get('/equix/src/%2e%2e/build.sh')).status, 404);
});

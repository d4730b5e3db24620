// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The gate protecting an app, as a site owner mounts it: node:http with
// gate.middleware(), Express with app.use(gate.middleware()), Fastify
// with app.register(gate.fastify). For each: a browser's navigation
// without a pass is sent to the page (302), a fetch() or a POST gets 401
// `pass_required`, the gate's own endpoints answer through the app, and
// with the cookie a verify set, the route's own body comes back.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';

import express from 'express';
import Fastify from 'fastify';

import { createGate } from '../src/gate.js';
import { PREFIX, earnPass, listen, pageDir } from './serve.js';

const PAGE = pageDir();
const SECRET = randomBytes(32);
const closing = [];

after(async () => {
  for (const close of closing.reverse()) await close();
});

async function newGate() {
  const gate = await createGate({ site: 'app.example', secret: SECRET, effort: { min: 4, max: 100, capacity: 1000 }, pageDir: PAGE });
  closing.push(() => gate.close());
  return gate;
}

const apps = {
  async 'node:http'(gate) {
    const guard = gate.middleware();
    const server = await listen((req, res) => guard(req, res, () => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`secret of ${req.method} ${req.url}`);
    }));
    closing.push(() => server.close());
    return server.url;
  },
  async express(gate) {
    const app = express();
    app.use(gate.middleware());
    app.all('/{*rest}', (req, res) => res.type('text/plain').send(`secret of ${req.method} ${req.url}`));
    const server = await new Promise((ok) => {
      const s = app.listen(0, '127.0.0.1', () => ok(s));
    });
    closing.push(() => new Promise((ok) => {
      server.closeAllConnections();
      server.close(ok);
    }));
    return `http://127.0.0.1:${server.address().port}`;
  },
  async fastify(gate) {
    const app = Fastify();
    await app.register(gate.fastify);
    app.all('/*', async (request, reply) => reply.type('text/plain').send(`secret of ${request.method} ${request.url}`));
    await app.listen({ port: 0, host: '127.0.0.1' });
    closing.push(() => app.close());
    return `http://127.0.0.1:${app.server.address().port}`;
  },
};

for (const [name, mount] of Object.entries(apps)) {
  test(`${name}: no pass -> 302 for a page, 401 otherwise; with a verified pass -> the route`, async () => {
    const url = await mount(await newGate());
    const browser = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
    const nav = await fetch(`${url}/private/page?x=1`, { headers: browser, redirect: 'manual' });
    assert.equal(nav.status, 302);
    assert.equal(nav.headers.get('location'), `${PREFIX}/?to=%2Fprivate%2Fpage%3Fx%3D1`);
    for (const [method, headers] of [['GET', {}], ['GET', { accept: 'application/json' }], ['POST', browser]]) {
      const r = await fetch(`${url}/private/api`, { method, headers, redirect: 'manual' });
      assert.equal(r.status, 401, `${method} ${JSON.stringify(headers)}`);
      assert.deepEqual((await r.json()).code, 'pass_required');
    }
    // The gate's endpoints answer through the app, without a pass.
    const page = await fetch(`${url}${PREFIX}/?to=%2Fprivate%2Fpage`, { headers: browser });
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-security-policy'), /'wasm-unsafe-eval'/);

    const cookie = await earnPass(url);
    const ok = await fetch(`${url}/private/page?x=1`, { headers: { ...browser, cookie }, redirect: 'manual' });
    assert.equal(ok.status, 200);
    assert.equal(await ok.text(), 'secret of GET /private/page?x=1');
    const post = await fetch(`${url}/private/api`, { method: 'POST', headers: { cookie }, body: 'data' });
    assert.equal(await post.text(), 'secret of POST /private/api');
    // The same pass with another MAC is no pass.
    const forged = await fetch(`${url}/private/api`, { headers: { cookie: cookie.replace(/~[^~]*$/, '~'.padEnd(44, 'A')) } });
    assert.equal(forged.status, 401);
  });
}

test('Express: mounted under a path, the gate still sees the whole target', async () => {
  const gate = await newGate();
  const app = express();
  app.use('/members', gate.middleware(), (req, res) => res.send('members'));
  const server = await new Promise((ok) => {
    const s = app.listen(0, '127.0.0.1', () => ok(s));
  });
  closing.push(() => new Promise((ok) => {
    server.closeAllConnections();
    server.close(ok);
  }));
  const url = `http://127.0.0.1:${server.address().port}`;
  const r = await fetch(`${url}/members/list`, { headers: { accept: 'text/html' }, redirect: 'manual' });
  assert.equal(r.status, 302);
  assert.equal(r.headers.get('location'), `${PREFIX}/?to=%2Fmembers%2Flist`);
});

// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';

import { addressClass, canonical, clientAddress, trustedPeers } from '../src/address.js';

const req = (peer, forwarded) => ({
  socket: { remoteAddress: peer },
  headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
});

test('IPv4: the address, and its /24 as the class', () => {
  assert.equal(clientAddress(req('203.0.113.7'), { trustProxy: false }), '203.0.113.7');
  assert.equal(addressClass('203.0.113.7'), '203.0.113.0/24');
  assert.equal(addressClass('203.0.113.255'), addressClass('203.0.113.0'));
  assert.notEqual(addressClass('203.0.113.7'), addressClass('203.0.114.7'));
});

test('IPv6: the address lowercased, and its /64 as the class', () => {
  assert.equal(clientAddress(req('2001:DB8:1:2::99'), { trustProxy: false }), '2001:db8:1:2::99');
  assert.equal(addressClass('2001:db8:1:2:aaaa:bbbb:cccc:dddd'), '2001:db8:1:2::/64');
  assert.equal(addressClass('2001:db8:1:2::1'), addressClass('2001:0db8:0001:0002:ffff::'));
  assert.notEqual(addressClass('2001:db8:1:2::1'), addressClass('2001:db8:1:3::1'));
  assert.equal(addressClass('2001:db8::1'), '2001:db8:0:0::/64');
  assert.equal(addressClass('fe80::1%eth0'), 'fe80:0:0:0::/64');
});

test('v4-mapped IPv6 is the IPv4 address, in the IPv4 class', () => {
  assert.equal(clientAddress(req('::ffff:198.51.100.9'), { trustProxy: false }), '198.51.100.9');
  assert.equal(canonical('::ffff:c633:6409'), '198.51.100.9');
  assert.equal(canonical('0:0:0:0:0:FFFF:198.51.100.9'), '198.51.100.9');
  assert.equal(addressClass('::ffff:198.51.100.9'), '198.51.100.0/24');
  // Not mapped: another prefix before ffff, or the IPv4-compatible form.
  assert.equal(canonical('1::ffff:198.51.100.9'), '1::ffff:198.51.100.9');
  assert.equal(addressClass('::198.51.100.9'), '0:0:0:0::/64');
});

test('a real dual-stack server sees a v4-mapped peer, and clientAddress gives the IPv4', async (t) => {
  let seen;
  const server = createServer((request, response) => {
    seen = { raw: request.socket.remoteAddress, client: clientAddress(request, { trustProxy: false }) };
    response.end();
  });
  try {
    await new Promise((ok, fail) => server.once('error', fail).listen(0, '::', ok));
  } catch (e) {
    t.skip(`cannot listen on :: (${e.code}): no IPv6 here`);
    return;
  }
  try {
    await (await fetch(`http://127.0.0.1:${server.address().port}/`)).arrayBuffer();
  } finally {
    server.close();
  }
  assert.equal(seen.raw, '::ffff:127.0.0.1');
  assert.equal(seen.client, '127.0.0.1');
});

test('X-Forwarded-For is read from a trusted peer: its last hop is the client', () => {
  const r = req('127.0.0.1', '198.51.100.9');
  assert.equal(clientAddress(r, { trustProxy: true }), '198.51.100.9');
  assert.equal(clientAddress(req('::1', '2001:db8::5'), { trustProxy: true }), '2001:db8::5');
  assert.equal(clientAddress(req('::ffff:127.0.0.1', '198.51.100.9'), { trustProxy: true }), '198.51.100.9');
  assert.equal(clientAddress(req('10.0.0.5', '198.51.100.9'), { trustProxy: ['10.0.0.5'] }), '198.51.100.9');
  assert.equal(clientAddress(req('10.1.2.3', '198.51.100.9'), { trustProxy: ['10.1.0.0/16'] }), '198.51.100.9');
  // Forms some proxies write: a port, brackets.
  assert.equal(clientAddress(req('127.0.0.1', '198.51.100.9:4711'), { trustProxy: true }), '198.51.100.9');
  assert.equal(clientAddress(req('127.0.0.1', '[2001:db8::5]:443'), { trustProxy: true }), '2001:db8::5');
});

test('X-Forwarded-For from an untrusted peer is ignored: a client cannot pick its own address', () => {
  const spoof = '198.51.100.9';
  assert.equal(clientAddress(req('203.0.113.7', spoof), { trustProxy: false }), '203.0.113.7');
  assert.equal(clientAddress(req('203.0.113.7', spoof), { trustProxy: true }), '203.0.113.7');
  assert.equal(clientAddress(req('203.0.113.7', spoof), { trustProxy: ['10.0.0.5'] }), '203.0.113.7');
  // Loopback is trusted only when asked.
  assert.equal(clientAddress(req('127.0.0.1', spoof), { trustProxy: false }), '127.0.0.1');
  assert.equal(clientAddress(req('127.0.0.1', spoof), { trustProxy: ['10.0.0.5'] }), '127.0.0.1');
  assert.equal(clientAddress(req('127.0.0.1', spoof), {}), '127.0.0.1');
});

test('multiple hops: the walk goes left only through trusted proxies', () => {
  // The client wrote the first two hops itself; nginx on loopback added
  // the address it saw last.
  const r = req('127.0.0.1', '10.9.9.9, 127.0.0.1, 203.0.113.7');
  assert.equal(clientAddress(r, { trustProxy: true }), '203.0.113.7');
  // A CDN (192.0.2.0/24) before our proxy: its hop is trusted, the one
  // before it is the client; the hop before that is the client's own.
  const chain = req('10.0.0.5', '6.6.6.6, 203.0.113.7, 192.0.2.44');
  assert.equal(clientAddress(chain, { trustProxy: ['10.0.0.5', '192.0.2.0/24'] }), '203.0.113.7');
  assert.equal(clientAddress(chain, { trustProxy: ['10.0.0.5'] }), '192.0.2.44');
  // Two headers are read as one list, as Node joins them.
  const two = { socket: { remoteAddress: '127.0.0.1' }, headers: { 'x-forwarded-for': ['6.6.6.6', '203.0.113.7'] } };
  assert.equal(clientAddress(two, { trustProxy: true }), '203.0.113.7');
  // Every hop trusted: the leftmost one is as far as the header goes.
  assert.equal(clientAddress(req('127.0.0.1', '127.0.0.2, 127.0.0.3'), { trustProxy: true }), '127.0.0.2');
});

test('a garbage header ends the walk at the last trusted address', () => {
  for (const header of ['', 'nonsense', '1.2.3', '999.1.1.1', '198.51.100.9, <script>', ',,,', 'unknown',
    '198.51.100.9;rm', `${'1,'.repeat(3000)}1`]) {
    assert.equal(clientAddress(req('127.0.0.1', header), { trustProxy: true }), '127.0.0.1', header.slice(0, 40));
  }
  // A good hop, then garbage left of a trusted one.
  assert.equal(clientAddress(req('127.0.0.1', 'garbage, 127.0.0.5'), { trustProxy: true }), '127.0.0.5');
  assert.equal(clientAddress(req('127.0.0.1', 42), { trustProxy: true }), '127.0.0.1');
});

test('a request without a peer address gives "", in a class of its own', () => {
  assert.equal(clientAddress({ socket: {}, headers: {} }, { trustProxy: true }), '');
  assert.equal(clientAddress({ headers: {} }, { trustProxy: false }), '');
  assert.equal(addressClass(''), 'other:');
  assert.notEqual(addressClass('nonsense'), addressClass('0.0.0.0'));
});

test('trustProxy: a bad setting is a TypeError, a good list is checked once', () => {
  for (const bad of ['yes', 1, ['not an address'], ['10.0.0.0/33'], ['::/129'], [null]]) {
    assert.throws(() => trustedPeers(bad), TypeError, String(bad));
  }
  const trusted = trustedPeers(['10.0.0.0/8', '2001:db8::/32', '192.0.2.1']);
  assert.equal(trusted('10.200.1.1'), true);
  assert.equal(trusted('11.0.0.1'), false);
  assert.equal(trusted('2001:db8:ffff::1'), true);
  assert.equal(trusted('2001:db9::1'), false);
  assert.equal(trusted('192.0.2.1'), true);
  assert.equal(trusted('192.0.2.2'), false);
  const loopback = trustedPeers(true);
  assert.equal(loopback('127.8.9.10'), true);
  assert.equal(loopback('::1'), true);
  assert.equal(loopback('::2'), false);
  assert.equal(loopback('128.0.0.1'), false);
});

// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause

import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';

import { MAX_VALUE, createPass, normalizeHost } from '../src/pass.js';
import { T0, clock } from './helpers.js';

const SECRET = Buffer.from('11'.repeat(32), 'hex');
const DAY = 86400;

const request = { host: 'example.com', address: '203.0.113.7' };

test('issue then check: ok, with the lifetime as Max-Age', () => {
  const passes = createPass({ secret: SECRET, lifetimeSeconds: DAY, now: clock() });
  const { value, maxAge } = passes.issue(request);
  assert.equal(maxAge, DAY);
  assert.equal(typeof value, 'string');
  assert.ok(value.length <= MAX_VALUE);
  assert.match(value, /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]+$/, 'only cookie-octets (RFC 6265)');
  assert.equal(passes.check(value, request), 'ok');
  // The expiry is in the value: now + lifetime, in whole seconds.
  assert.equal(value.split('~')[1], String(T0 / 1000 + DAY));
});

test('another gate with the same secret accepts the pass; one with another secret calls it forged', () => {
  const now = clock();
  const { value } = createPass({ secret: SECRET, lifetimeSeconds: DAY, now }).issue(request);
  assert.equal(createPass({ secret: Buffer.from(SECRET), lifetimeSeconds: 60, now }).check(value, request), 'ok');
  const other = Buffer.from(SECRET);
  other[31] ^= 1;
  assert.equal(createPass({ secret: other, lifetimeSeconds: DAY, now }).check(value, request), 'forged');
});

test('a forged MAC is refused, including one made with the raw secret instead of the derived key', () => {
  const passes = createPass({ secret: SECRET, lifetimeSeconds: DAY, now: clock() });
  const { value } = passes.issue(request);
  const body = value.slice(0, value.lastIndexOf('~'));
  const withRaw = createHmac('sha256', SECRET).update(body).digest('base64url');
  assert.equal(passes.check(`${body}~${withRaw}`, request), 'forged');
  assert.equal(passes.check(`${body}~${'A'.repeat(43)}`, request), 'forged');
  // A longer expiry with the old MAC.
  const later = body.replace(/^1~[0-9]+/, `1~${T0 / 1000 + 100 * DAY}`);
  assert.equal(passes.check(`${later}~${value.slice(value.lastIndexOf('~') + 1)}`, request), 'forged');
});

// Every character of every field changed to another: the version and the
// separators' changes make a value of another shape, the rest a value whose
// MAC does not match.
test('a changed character in any field is refused: malformed or forged, never ok', () => {
  const passes = createPass({ secret: SECRET, lifetimeSeconds: DAY, bindAddress: true, now: clock() });
  const { value } = passes.issue(request);
  const fields = value.split('~');
  assert.equal(fields.length, 5);
  let start = 0;
  const seen = { version: new Set(), expiry: new Set(), host: new Set(), class: new Set(), mac: new Set() };
  for (const [i, name] of Object.keys(seen).entries()) {
    for (let j = start; j < start + fields[i].length; j += 1) {
      for (const replacement of ['0', '9', 'a', 'Z', '_', '-', '.', '~']) {
        if (value[j] === replacement) continue;
        const changed = value.slice(0, j) + replacement + value.slice(j + 1);
        const verdict = passes.check(changed, request);
        assert.ok(verdict === 'malformed' || verdict === 'forged', `${name}[${j - start}] -> ${replacement}: ${verdict}`);
        seen[name].add(verdict);
      }
    }
    start += fields[i].length + 1;
  }
  assert.deepEqual([...seen.version], ['malformed']);
  for (const name of ['expiry', 'host', 'class', 'mac']) assert.ok(seen[name].has('forged'), name);
  // A flipped bit in a byte of each field (not only the characters above).
  start = 0;
  for (const field of fields) {
    for (let j = start; j < start + field.length; j += 1) {
      const flipped = value.slice(0, j) + String.fromCharCode(value.charCodeAt(j) ^ 1) + value.slice(j + 1);
      assert.notEqual(passes.check(flipped, request), 'ok', `byte ${j}`);
    }
    start += field.length + 1;
  }
});

test('an expired pass is refused, with an injected clock; the last good second is good', () => {
  const now = clock();
  const passes = createPass({ secret: SECRET, lifetimeSeconds: 3600, now });
  const { value } = passes.issue(request);
  now.advance(3599);
  assert.equal(passes.check(value, request), 'ok');
  now.advance(1);
  assert.equal(passes.check(value, request), 'expired');
  now.advance(10 * DAY);
  assert.equal(passes.check(value, request), 'expired');
});

test('a pass for another host is refused', () => {
  const passes = createPass({ secret: SECRET, lifetimeSeconds: DAY, now: clock() });
  const { value } = passes.issue(request);
  assert.equal(passes.check(value, { ...request, host: 'evil.example' }), 'other_host');
  assert.equal(passes.check(value, { ...request, host: 'sub.example.com' }), 'other_host');
  assert.equal(passes.check(value, { ...request, host: undefined }), 'other_host');
  assert.equal(passes.check(value, { ...request, host: 'exa mple.com' }), 'other_host');
  assert.equal(passes.check(value), 'other_host');
});

test('host normalization: case and port do not matter', () => {
  const passes = createPass({ secret: SECRET, lifetimeSeconds: DAY, now: clock() });
  const { value } = passes.issue({ host: 'Example.COM:8443' });
  for (const host of ['example.com', 'EXAMPLE.com', 'example.com:443', 'example.com:80']) {
    assert.equal(passes.check(value, { host }), 'ok', host);
  }
  assert.equal(value.split('~')[2], 'example.com');
  const v6 = passes.issue({ host: '[2001:DB8::1]:8080' }).value;
  assert.equal(passes.check(v6, { host: '[2001:db8::1]' }), 'ok');
  assert.equal(normalizeHost('[::1]:80'), '[::1]');
  assert.equal(normalizeHost('LocalHost'), 'localhost');
  for (const bad of ['', ':80', 'a b', 'a/b', 'a~b', '[::1', '[::1]x', 'x'.repeat(254), undefined, 42, 'a..b']) {
    assert.equal(normalizeHost(bad), null, String(bad));
  }
  assert.throws(() => passes.issue({ host: 'a b' }), TypeError);
  assert.throws(() => passes.issue({}), TypeError);
});

test('bindAddress: good from the same address class, refused from another', () => {
  const passes = createPass({ secret: SECRET, lifetimeSeconds: DAY, bindAddress: true, now: clock() });
  const { value } = passes.issue(request);
  assert.equal(passes.check(value, { ...request, address: '203.0.113.200' }), 'ok');
  assert.equal(passes.check(value, { ...request, address: '::ffff:203.0.113.9' }), 'ok');
  assert.equal(passes.check(value, { ...request, address: '203.0.114.7' }), 'other_address');
  assert.equal(passes.check(value, { ...request, address: '2001:db8::1' }), 'other_address');
  assert.equal(passes.check(value, { host: request.host }), 'other_address');
  const v6 = passes.issue({ host: 'example.com', address: '2001:db8:1:2::5' }).value;
  assert.equal(passes.check(v6, { host: 'example.com', address: '2001:db8:1:2:ffff::1' }), 'ok');
  assert.equal(passes.check(v6, { host: 'example.com', address: '2001:db8:1:3::5' }), 'other_address');
  // Without bindAddress, the address is not part of the pass.
  const free = createPass({ secret: SECRET, lifetimeSeconds: DAY, now: clock() });
  const unbound = free.issue(request).value;
  assert.equal(free.check(unbound, { ...request, address: '2001:db8::1' }), 'ok');
  // A pass made without binding is refused by a gate that binds.
  assert.equal(passes.check(unbound, request), 'other_address');
});

test('too long, garbage, empty and non-string values are malformed', () => {
  const passes = createPass({ secret: SECRET, lifetimeSeconds: DAY, now: clock() });
  const { value } = passes.issue(request);
  const values = ['', ' ', 'garbage', '~~~~', '1~~~~', `${value}~`, `${value}x`, ` ${value}`,
    value.replace('~', '~~'), 'x'.repeat(MAX_VALUE + 1), `${value}${'A'.repeat(MAX_VALUE)}`,
    undefined, null, 42, {}, [value], Buffer.from(value)];
  for (const bad of values) {
    assert.equal(passes.check(bad, request), 'malformed', String(bad).slice(0, 40));
  }
});

test('a bad setting is refused at creation', () => {
  assert.throws(() => createPass({ secret: Buffer.alloc(31), lifetimeSeconds: 60 }), TypeError);
  assert.throws(() => createPass({ secret: 'x'.repeat(32), lifetimeSeconds: 60 }), TypeError);
  assert.throws(() => createPass({ secret: SECRET, lifetimeSeconds: 0 }), RangeError);
  assert.throws(() => createPass({ secret: SECRET, lifetimeSeconds: 1.5 }), RangeError);
  assert.throws(() => createPass({ secret: SECRET }), RangeError);
  assert.throws(() => createPass({ secret: SECRET, lifetimeSeconds: 60, bindAddress: 'yes' }), TypeError);
});

// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The pass: what a visitor gets for a verified proof of work, a cookie
// value the gate can check on later requests without any store. It says
// which host it is for, until when, and (with bindAddress) from which
// address class it may be used, under an HMAC only the gate can make:
//
//   1~<expiry>~<host>~<class>~<mac>
//
// 1        the format's version
// expiry   when it stops being good, whole seconds since 1970
// host     the site's host name, lowercased, without a port
// class    base64url of the address class (address.js), or empty when
//          passes are not bound to addresses
// mac      base64url HMAC-SHA-256 of everything before it, with a key
//          derived from the gate's secret for passes only: a seed (also
//          derived from the secret) is never a MAC of a pass, nor the
//          other way round
//
// '~' appears in no host name and in no base64url text, so the fields
// split one way only. A pass is a bearer token until it expires: it cannot
// be revoked except by changing the secret (which ends every pass).

import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

import { addressClass } from './address.js';

// Longer values are refused before anything else: a host name is at most
// 253 characters, so a real pass is under 400.
export const MAX_VALUE = 512;

const VALUE = /^1~([0-9]{1,12})~([^~]{1,255})~([A-Za-z0-9_-]{0,200})~([A-Za-z0-9_-]{43})$/;
const HOST_NAME = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?$/;
const HOST_V6 = /^\[[0-9a-f:.]+\]$/;
const MAX_LIFETIME = 10 * 366 * 86400;

/**
 * The host a request is for, as passes bind it: lowercased, without its
 * port ('Example.COM:8443' -> 'example.com', '[::1]:80' -> '[::1]'); null
 * when it is not a host name or an IP literal of at most 253 characters.
 */
export function normalizeHost(host) {
  if (typeof host !== 'string' || host.length > 260) return null;
  let h = host.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    if (end < 0 || !/^(?::[0-9]{1,5})?$/.test(h.slice(end + 1))) return null;
    h = h.slice(0, end + 1);
    return HOST_V6.test(h) ? h : null;
  }
  h = h.replace(/:[0-9]{1,5}$/, '');
  return h.length >= 1 && h.length <= 253 && HOST_NAME.test(h) ? h : null;
}

/**
 * Passes for one gate. `secret` is its 32-byte secret (the same on every
 * instance of a site), `lifetimeSeconds` how long a pass is good,
 * `bindAddress` whether a pass is good only from the address class it was
 * issued to (safer against a stolen cookie, but a visitor whose address
 * changes class, a phone between networks, must solve again), `now` the
 * clock in milliseconds (for tests).
 */
export function createPass({ secret, lifetimeSeconds, bindAddress = false, now = Date.now } = {}) {
  if (!(secret instanceof Uint8Array) || secret.length !== 32) throw new TypeError('pass: the secret must be 32 bytes');
  if (!Number.isInteger(lifetimeSeconds) || lifetimeSeconds < 1 || lifetimeSeconds > MAX_LIFETIME) {
    throw new RangeError(`pass: the lifetime must be a whole number of seconds from 1 to ${MAX_LIFETIME}`);
  }
  if (typeof bindAddress !== 'boolean') throw new TypeError('pass: bindAddress must be true or false');
  const key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'equix-gate pass mac v1', 32));
  const mac = (text) => createHmac('sha256', key).update(text).digest('base64url');
  const classField = (address) => (bindAddress ? Buffer.from(addressClass(address)).toString('base64url') : '');
  const seconds = () => Math.floor(now() / 1000);

  /** A pass for `host`, issued to `address`: { value, maxAge }. Throws a
   * TypeError for a host normalizeHost refuses (refuse the request
   * before). */
  function issue({ host, address } = {}) {
    const h = normalizeHost(host);
    if (h === null) throw new TypeError('pass: not a host name');
    const body = `1~${seconds() + lifetimeSeconds}~${h}~${classField(address)}`;
    return { value: `${body}~${mac(body)}`, maxAge: lifetimeSeconds };
  }

  /** Whether `value` is a good pass for a request to `host` from
   * `address`: 'ok', or why not, checked in this order: 'malformed' (not
   * a pass's shape), 'forged' (not made with this secret, or changed),
   * 'expired', 'other_host', 'other_address' (with bindAddress only). */
  function check(value, { host, address } = {}) {
    if (typeof value !== 'string' || value.length > MAX_VALUE) return 'malformed';
    const m = VALUE.exec(value);
    if (m === null) return 'malformed';
    const body = value.slice(0, value.length - 44);
    if (!timingSafeEqual(Buffer.from(mac(body)), Buffer.from(m[4]))) return 'forged';
    if (seconds() >= Number(m[1])) return 'expired';
    if (normalizeHost(host) !== m[2]) return 'other_host';
    if (bindAddress && classField(address) !== m[3]) return 'other_address';
    return 'ok';
  }

  return { issue, check };
}

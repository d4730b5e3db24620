// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// Who is asking: the client's address from a request, believing the
// X-Forwarded-For header only from proxies the site owner trusts, and the
// address's class, the unit the gate rate-limits and binds passes to.

import { BlockList, isIP, isIPv4 } from 'node:net';

// Longer X-Forwarded-For headers are not read: no honest chain of
// proxies is this long, and splitting a huge header costs time.
const MAX_FORWARDED = 4096;

/**
 * The client's address as a string (v4-mapped IPv6 as plain IPv4; '' when
 * the socket has none, e.g. after it closed).
 *
 * `trustProxy` says whose X-Forwarded-For is believed: `false` nobody's,
 * `true` loopback peers' (a proxy on the same machine), or a list of
 * addresses and subnets ('10.0.0.5', '10.1.0.0/16', 'fd00::/8'). When the
 * peer is trusted, the header is read from its end, the hop the peer
 * added first: while that hop is a trusted proxy too, the hop before it is
 * read. The first untrusted hop is the client. Hops further left were
 * written by the client itself and are never believed. A hop that is not
 * an address ends the walk at the last trusted address: a broken proxy
 * puts its clients in its own class, never in a class of their choosing.
 * A server passes `trusted`, trustedPeers' predicate made once at its
 * start, instead of the setting, which is then not read again per
 * request.
 */
export function clientAddress(req, { trustProxy, trusted = trustedPeers(trustProxy) } = {}) {
  let address = canonical(req.socket?.remoteAddress) ?? '';
  if (address === '' || !trusted(address)) return address;
  const hops = forwardedHops(req.headers?.['x-forwarded-for']);
  while (hops.length > 0) {
    const hop = canonical(hops.pop());
    if (hop === null) break;
    address = hop;
    if (!trusted(address)) break;
  }
  return address;
}

// The header's hops, left to right; none when it is absent or too long.
function forwardedHops(header) {
  const text = Array.isArray(header) ? header.join(',') : header;
  if (typeof text !== 'string' || text.length > MAX_FORWARDED) return [];
  return text.split(',').map((hop) => hop.trim());
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * A predicate telling whether an address (as clientAddress returns it) is
 * a trusted proxy, for a `trustProxy` setting. Throws a TypeError for a
 * setting that is none of false, true, or a list of addresses and
 * subnets: call it once at startup, which also checks the configuration,
 * and keep the predicate; the list is read when it is called.
 */
export function trustedPeers(trustProxy) {
  if (trustProxy === false || trustProxy === undefined) return () => false;
  if (trustProxy === true) return (address) => LOOPBACK.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6');
  if (!Array.isArray(trustProxy)) throw new TypeError('trustProxy must be false, true or a list of addresses');
  const list = new BlockList();
  for (const entry of trustProxy) addTrusted(list, entry);
  return (address) => list.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6');
}

function addTrusted(list, entry) {
  const m = typeof entry === 'string' ? /^([^/]+)(?:\/([0-9]{1,3}))?$/.exec(entry.trim()) : null;
  const address = m && canonical(m[1]);
  const type = address && (isIPv4(address) ? 'ipv4' : 'ipv6');
  const bits = m?.[2] === undefined ? null : Number(m[2]);
  if (!address || (bits !== null && bits > (type === 'ipv4' ? 32 : 128))) {
    throw new TypeError(`trustProxy: "${entry}" is not an address or a subnet (address/bits)`);
  }
  if (bits === null) list.addAddress(address, type);
  else list.addSubnet(address, bits, type);
}

/**
 * An address in the form the gate compares: IPv4 dotted, IPv6 as given
 * (lowercased, without a zone), v4-mapped IPv6 as IPv4; also accepts the
 * forms proxies write in X-Forwarded-For ('1.2.3.4:5678', '[::1]',
 * '[::1]:443'). null for anything that is not an address.
 */
export function canonical(text) {
  if (typeof text !== 'string' || text.length > 100) return null;
  let s = text.trim().toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::[0-9]{1,5})?$/.exec(s);
  if (bracketed) s = bracketed[1];
  else if (/^[0-9.]+:[0-9]{1,5}$/.test(s)) s = s.slice(0, s.indexOf(':'));
  s = s.replace(/%[0-9a-z._-]+$/, '');
  const version = isIP(s);
  if (version === 4) return s;
  if (version !== 6) return null;
  const g = groups(s);
  if (g.slice(0, 5).every((n) => n === 0) && g[5] === 0xffff) {
    return [g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255].join('.');
  }
  return s;
}

/**
 * The class of an address, the unit the gate counts and binds passes to:
 * an IPv4 address's /24 ('203.0.113.0/24'), an IPv6 address's /64
 * ('2001:db8:0:1::/64'), a v4-mapped address as its IPv4. One customer
 * usually holds a whole /64 (and can change addresses inside it at will),
 * and a /24 is the smallest block routed on the Internet, so limiting per
 * address would let one party multiply its budget for free. Anything that
 * is not an address is its own class, 'other:' and its text, so that bad
 * input is still counted, never merged with a real class.
 */
export function addressClass(address) {
  const a = canonical(address);
  if (a === null) return `other:${String(address).slice(0, 64)}`;
  if (isIPv4(a)) return `${a.split('.').slice(0, 3).join('.')}.0/24`;
  const g = groups(a).slice(0, 4).map((n) => n.toString(16));
  return `${g.join(':')}::/64`;
}

// The eight 16-bit groups of a valid IPv6 address (an IPv4 tail counts as
// two).
function groups(v6) {
  let s = v6;
  const tail = /([0-9]+\.[0-9]+\.[0-9]+\.[0-9]+)$/.exec(s);
  if (tail) {
    const b = tail[1].split('.').map(Number);
    s = `${s.slice(0, tail.index)}${((b[0] << 8) | b[1]).toString(16)}:${((b[2] << 8) | b[3]).toString(16)}`;
  }
  const [head, rest] = s.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = rest === undefined || rest === '' ? [] : rest.split(':');
  const zeros = rest === undefined ? [] : new Array(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((h) => parseInt(h, 16));
}

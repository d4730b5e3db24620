// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The forward-auth service's settings (bin/equix-gate.js), read from its
// environment: where to listen, and createGate's options. Every setting
// is checked here, at startup, so that a typo stops the service with one
// line naming the variable, not a gate that runs with a default its
// owner did not mean. A variable set to the empty string counts as unset
// (what a systemd EnvironmentFile's `NAME=` gives). The defaults are
// createGate's (gate.js, DEFAULTS), listed here for the reader:
//
//   LISTEN            HOST:PORT or [IPv6]:PORT, default 127.0.0.1:8484
//                     (port 0: a free one, printed once listening)
//   SITE              required: the site's name, hashed into the puzzles'
//                     service ID, so proofs for one site are worthless at
//                     another
//   SECRET            required: 64 hex digits, the key of the seeds and
//                     (derived) of the passes; every instance of a site
//                     needs the same, so there is no random default
//   V2                1 (Equi-X v2, the default) or 0 (Tor's v1 puzzle)
//   EFFORT_MIN        16         the effort handed out when idle
//   EFFORT_MAX        100000     the most it rises to under load (EFFORT_MIN
//                                when that is higher)
//   CAPACITY          200        verifications a second this process can
//                                afford (effort.js says how it is used)
//   SEED_LIFETIME     3600       seconds a seed is handed out
//   PASS_LIFETIME     86400      seconds a pass is good
//   PASS_BIND_ADDRESS 0          1: a pass is good only from the address
//                                class (IPv4 /24, IPv6 /64) it was issued to
//   COOKIE_SECURE     auto       auto (Secure when the request came over
//                                https), 1 always, 0 never
//   RATE_LIMIT        30         puzzles per address class per window
//   RATE_WINDOW       60         the window, seconds
//   REDIS_URL         (memory)   redis:// or rediss://, shared by every
//                                instance: seeds, replays and rate limits
//   TRUST_PROXY       loopback   whose X-Forwarded-* to believe: loopback,
//                                none, or addresses and subnets separated
//                                by commas
//   PAGE_DIR          (gate/page) a directory with the page's index.html,
//                                gate.js and gate.css

import { statSync } from 'node:fs';
import { isIP } from 'node:net';

import { trustedPeers } from './address.js';
import { DEFAULTS } from './gate.js';

const U32 = 2 ** 32 - 1;

// A bad setting: its message is the one line the service prints.
export class SettingError extends Error {}

/** { host, port, gate } from `env`: where to listen and createGate's
 * options; throws a SettingError for the first bad variable. */
export function configFrom(env) {
  const get = (name) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const integer = (name, fallback, min, max) => {
    const text = get(name) ?? String(fallback);
    const value = Number(text);
    if (!/^[0-9]{1,16}$/.test(text) || value < min || value > max) {
      throw new SettingError(`${name} must be an integer from ${min} to ${max}, not "${shown(text)}"`);
    }
    return value;
  };
  const flag = (name, fallback) => {
    const text = get(name) ?? fallback;
    if (text !== '0' && text !== '1') throw new SettingError(`${name} must be 0 or 1, not "${shown(text)}"`);
    return text === '1';
  };
  const effortMin = integer('EFFORT_MIN', DEFAULTS.effort.min, 1, U32);
  const effortMax = integer('EFFORT_MAX', Math.max(DEFAULTS.effort.max, effortMin), effortMin, U32);
  return {
    ...listenOf(get('LISTEN') ?? '127.0.0.1:8484'),
    gate: {
      site: siteOf(get('SITE')),
      secret: secretOf(get('SECRET')),
      v2: flag('V2', DEFAULTS.v2 ? '1' : '0'),
      effort: { min: effortMin, max: effortMax, capacity: integer('CAPACITY', DEFAULTS.effort.capacity, 1, 1_000_000) },
      seedLifetime: integer('SEED_LIFETIME', DEFAULTS.seedLifetime, 10, 7 * 86400),
      pass: {
        lifetime: integer('PASS_LIFETIME', DEFAULTS.pass.lifetime, 60, 366 * 86400),
        bindAddress: flag('PASS_BIND_ADDRESS', DEFAULTS.pass.bindAddress ? '1' : '0'),
        secure: secureOf(get('COOKIE_SECURE') ?? 'auto'),
      },
      rateLimit: {
        limit: integer('RATE_LIMIT', DEFAULTS.rateLimit.limit, 1, 1_000_000),
        windowSeconds: integer('RATE_WINDOW', DEFAULTS.rateLimit.windowSeconds, 1, 86400),
      },
      redisUrl: redisUrlOf(get('REDIS_URL')),
      trustProxy: trustProxyOf(get('TRUST_PROXY') ?? 'loopback'),
      pageDir: pageDirOf(get('PAGE_DIR')),
    },
  };
}

// A value as an error line shows it: short, one line, printable.
function shown(text) {
  const line = text.replace(/[^\x20-\x7e]/g, '?');
  return line.length > 40 ? `${line.slice(0, 40)}...` : line;
}

function listenOf(text) {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+)):([0-9]{1,5})$/.exec(text);
  const host = m && (m[1] ?? m[2]);
  const port = m && Number(m[3]);
  if (m === null || port > 65535 || (m[1] !== undefined && isIP(host) !== 6)) {
    throw new SettingError(`LISTEN must be HOST:PORT or [IPv6]:PORT, not "${shown(text)}"`);
  }
  return { host, port };
}

// Printable ASCII without spaces: what a host name (or any label an
// owner picks for the site) needs, and nothing a log line would mangle.
function siteOf(text) {
  if (text === undefined) throw new SettingError('SITE is required: the site\'s name, as example.com');
  if (!/^[\x21-\x7e]{1,253}$/.test(text)) {
    throw new SettingError('SITE must be 1 to 253 printable ASCII characters without spaces');
  }
  return text;
}

function secretOf(text) {
  if (text === undefined || !/^[0-9a-fA-F]{64}$/.test(text)) {
    // Never the value: it is a secret, even when mistyped.
    throw new SettingError('SECRET must be 64 hex digits (openssl rand -hex 32), the same on every instance');
  }
  return Buffer.from(text, 'hex');
}

function secureOf(text) {
  if (text === 'auto') return 'auto';
  if (text === '1' || text === '0') return text === '1';
  throw new SettingError(`COOKIE_SECURE must be auto, 1 or 0, not "${shown(text)}"`);
}

function redisUrlOf(text) {
  if (text === undefined) return undefined;
  // Only the scheme is shown: the URL may hold a password.
  if (!/^rediss?:\/\/[^\s]+$/.test(text)) throw new SettingError('REDIS_URL must be a redis:// or rediss:// URL');
  return text;
}

function trustProxyOf(text) {
  if (text === 'loopback') return true;
  if (text === 'none') return false;
  const list = text.split(',').map((entry) => entry.trim());
  for (const entry of list) {
    try {
      trustedPeers([entry]); // address.js's rule: throws for what is not an address or a subnet
    } catch {
      throw new SettingError(`TRUST_PROXY must be loopback, none, or addresses and subnets separated by commas; "${shown(entry)}" is neither`);
    }
  }
  return list;
}

function pageDirOf(text) {
  if (text === undefined) return undefined;
  let stat = null;
  try {
    stat = statSync(text);
  } catch {
    // Reported below, as a file would be.
  }
  if (stat === null || !stat.isDirectory()) throw new SettingError(`PAGE_DIR must be a directory, not "${shown(text)}"`);
  return text;
}

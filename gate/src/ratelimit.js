// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// Per-key request limits (the gate's key is the address class): at most
// `limit` hits per window. Both limiters use a fixed window per key that
// opens at the key's first hit and lasts `windowSeconds`; the next hit
// after it opens a new one. A fixed window is simple and needs one counter
// per key; its known weakness is a burst of up to 2 * limit across the
// end of one window and the start of the next, which is acceptable here:
// the limit only keeps one party from taking puzzles (and the store
// entries of their proofs) far faster than a visitor would, the proof of
// work is what makes each one cost.
//
// hit(key) resolves to { allowed, retryAfter }: retryAfter is 0 when
// allowed, else the whole seconds (at least 1) until the key's window
// ends, for a Retry-After header.

const MAX_KEY = 256;

function checkSettings(limit, windowSeconds) {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError('rate limit: the limit must be a positive integer');
  if (!Number.isInteger(windowSeconds) || windowSeconds < 1 || windowSeconds > 86400) {
    throw new RangeError('rate limit: the window must be a whole number of seconds from 1 to 86400');
  }
}

function checkKey(key) {
  if (typeof key !== 'string' || key === '' || key.length > MAX_KEY) {
    throw new TypeError(`rate limit: a key must be a string of 1 to ${MAX_KEY} characters`);
  }
}

const verdict = (count, limit, msLeft) => (count <= limit
  ? { allowed: true, retryAfter: 0 }
  : { allowed: false, retryAfter: Math.max(1, Math.ceil(msLeft / 1000)) });

/**
 * The limits of one process, in a Map of at most `maxKeys` keys whatever
 * the traffic. The Map is kept in order of last hit (a hit moves its key
 * to the end). When it is full, a new key pushes out the key hit least
 * recently. What that costs: the pushed-out key's count starts again from
 * zero, so a party with more than `maxKeys` address classes can free
 * others (or, cycling through them, itself) from the limit; it can never
 * make anyone be refused who was not over the limit. An active abuser,
 * hitting often, stays near the end and keeps its count; and a party with
 * that many classes can already spread its requests over all of them.
 * Refusing new keys when full instead would let the same party lock out
 * every new visitor, which is worse.
 */
export class MemoryLimiter {
  #limit;
  #windowMs;
  #maxKeys;
  #now;
  #windows = new Map(); // key -> { count, end }

  constructor({ limit, windowSeconds, maxKeys = 100000, now = Date.now } = {}) {
    checkSettings(limit, windowSeconds);
    if (!Number.isInteger(maxKeys) || maxKeys < 1) throw new RangeError('rate limit: maxKeys must be a positive integer');
    this.#limit = limit;
    this.#windowMs = windowSeconds * 1000;
    this.#maxKeys = maxKeys;
    this.#now = now;
  }

  /** The number of keys held now (for tests and monitoring). */
  get size() {
    return this.#windows.size;
  }

  async hit(key) {
    checkKey(key);
    const now = this.#now();
    let w = this.#windows.get(key);
    this.#windows.delete(key);
    if (w === undefined || now >= w.end) w = { count: 0, end: now + this.#windowMs };
    w.count = Math.min(w.count + 1, this.#limit + 1);
    this.#windows.set(key, w);
    if (this.#windows.size > this.#maxKeys) this.#windows.delete(this.#windows.keys().next().value);
    return verdict(w.count, this.#limit, w.end - now);
  }

  async close() {
    this.#windows.clear();
  }
}

// KEYS[1] the key's counter, ARGV[1] the window in milliseconds. One
// script, so the count and its expiry are set together: no hit can see a
// counter without an expiry, which would never end. A counter that has
// none anyway (written by someone else, or left by a Redis that lost
// expiries) gets one. The window is Redis's clock, shared by every
// instance of the gate.
const HIT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return {n, left}`;

/**
 * The limits shared by every instance of a site, in a Redis (keys
 * `prefix` + key, each expiring with its window, so Redis holds only the
 * keys of open windows). `client` is a connected @redis/client client,
 * shared with the caller: close() leaves it open. When the Redis cannot
 * be reached, hit() rejects with the client's error; the caller chooses
 * whether that refuses the request.
 */
export class RedisLimiter {
  #client;
  #limit;
  #windowMs;
  #prefix;

  constructor(client, { limit, windowSeconds, prefix = 'equix-gate:rate:' } = {}) {
    checkSettings(limit, windowSeconds);
    if (typeof prefix !== 'string') throw new TypeError('rate limit: the prefix must be a string');
    this.#client = client;
    this.#limit = limit;
    this.#windowMs = windowSeconds * 1000;
    this.#prefix = prefix;
  }

  async hit(key) {
    checkKey(key);
    const [count, msLeft] = await this.#client.eval(HIT, {
      keys: [this.#prefix + key],
      arguments: [String(this.#windowMs)],
    });
    return verdict(Number(count), this.#limit, Number(msLeft));
  }

  async close() {}
}

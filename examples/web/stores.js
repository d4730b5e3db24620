// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The demo's replay stores. A proof is worth one request: once a server
// has accepted a proof, that proof must be refused everywhere, by this
// process and by every other process serving the same site. A store has
// one operation,
//
//   await store.claim(key, ttlSeconds)   true the first time a key is
//                                        claimed, false every time after,
//                                        until ttlSeconds have passed
//   await store.close()
//
// and the server calls claim() only for proofs that passed every other
// check, so an attacker cannot fill the store without paying for each
// entry. The TTL is how long the proof's seed stays acceptable: after
// that the proof is refused for its seed anyway and the key can go.
//
// MemoryStore serves a single process; RedisStore serves any number of
// processes sharing one Redis, and is atomic there (SET NX: of two
// servers claiming one key at the same moment, exactly one wins).

import { createClient } from '@redis/client';

/** Claims in this process's memory, forgotten when it exits. */
export class MemoryStore {
  #expiry = new Map(); // key -> when it may be claimed again (ms)
  #now;
  #nextSweep = 0;

  /** `now` returns milliseconds (tests pass a clock of their own). */
  constructor({ now = Date.now } = {}) {
    this.#now = now;
  }

  async claim(key, ttlSeconds) {
    checkClaim(key, ttlSeconds);
    const now = this.#now();
    this.#sweep(now);
    const until = this.#expiry.get(key);
    if (until !== undefined && until > now) return false;
    this.#expiry.set(key, now + ttlSeconds * 1000);
    return true;
  }

  /** Keys held now (for tests and monitoring). */
  get size() {
    return this.#expiry.size;
  }

  async close() {
    this.#expiry.clear();
  }

  // Expired keys are dropped at most once a second, in one pass, so that
  // memory follows the claims of the last TTL and not of all time.
  #sweep(now) {
    if (now < this.#nextSweep) return;
    this.#nextSweep = now + 1000;
    for (const [key, until] of this.#expiry) {
      if (until <= now) this.#expiry.delete(key);
    }
  }
}

/** Claims in a Redis shared by every server process of a site. */
export class RedisStore {
  #client;
  #prefix;

  /** `client` is a connected @redis/client client. */
  constructor(client, { prefix = 'equix-demo:replay:' } = {}) {
    this.#client = client;
    this.#prefix = prefix;
  }

  /** Connects to `url` (redis://host:port) and fails if it cannot. */
  static async connect(url, options) {
    const client = createClient({
      url,
      // A server that cannot reach its replay store must refuse proofs,
      // not queue them: fail a command at once when disconnected.
      disableOfflineQueue: true,
    });
    client.on('error', (e) => console.error(`redis: ${e.message}`));
    await client.connect();
    return new RedisStore(client, options);
  }

  async claim(key, ttlSeconds) {
    checkClaim(key, ttlSeconds);
    const reply = await this.#client.set(this.#prefix + key, '1', {
      condition: 'NX',
      expiration: { type: 'EX', value: Math.ceil(ttlSeconds) },
    });
    return reply === 'OK';
  }

  async close() {
    await this.#client.close();
  }
}

function checkClaim(key, ttlSeconds) {
  if (typeof key !== 'string' || key === '') throw new TypeError('claim: the key must be a non-empty string');
  if (!(ttlSeconds > 0) || !Number.isFinite(ttlSeconds)) throw new RangeError('claim: the TTL must be a positive number of seconds');
}

/** The store a server's environment asks for: REDIS_URL, or memory. */
export async function openStore(env = process.env) {
  if (env.REDIS_URL) return RedisStore.connect(env.REDIS_URL);
  return new MemoryStore();
}

// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The gate's replay stores, first written for the web demo
// (examples/web imports them from here). A proof is worth one request:
// once a server has accepted a proof, that proof must be refused
// everywhere, by this process and by every other process serving the
// same site, and that must stay true when the store loses what it knew
// (a restart, a flush, an eviction): a store that may have forgotten a
// claim must refuse every proof it might have claimed, not accept them
// again.
//
// So a store keeps one record per seed, and a seed lives only as long as
// its record. A record holds a random salt, from which (with the SECRET)
// the server derives the seed, and the nonces of the proofs accepted for
// it. The record is made when the seed is first handed out, never later:
// once it is gone, no salt names that seed any more, its proofs are
// refused, and the server hands out a new seed (a new salt). Operations:
//
//   await store.issue(name, ttlSeconds)  the salt of record `name`,
//                                        making the record (a new random
//                                        salt, no claims, kept ttlSeconds)
//                                        when there is none
//   await store.salts(names)             for each name its record's salt,
//                                        or null when there is none
//   await store.claim(name, salt, nonce) 'claimed' the first time, then
//                                        'replayed'; 'gone' when record
//                                        `name` is no longer the one with
//                                        `salt` (its claims may be lost)
//   await store.close()
//
// The server calls claim() only for proofs that passed every other check,
// so an attacker cannot fill the store without paying for each entry.
//
// MemoryStore serves a single process, and its records die with it.
// RedisStore serves any number of processes sharing one Redis; each of
// its operations is one Lua script, atomic there, and a record made by
// another Redis process (before a restart, or on the primary before a
// failover) counts as gone, since the claims after its last snapshot or
// replication may be lost. A record and its claims are one Redis key (a
// hash), so an eviction takes both or neither.

import { randomBytes } from 'node:crypto';

import { createClient } from '@redis/client';

const NONCE = /^[0-9a-f]{32}$/;
const newSalt = () => randomBytes(16).toString('hex');

/** Records in this process's memory, forgotten when it exits. Memory
 * follows the live seeds: each operation first drops every record that
 * has expired, whether or not anyone asks for it again (a server asks
 * only for the current and previous epochs' records, never for older
 * ones), as Redis drops a key when its TTL runs out. */
export class MemoryStore {
  #records = new Map(); // name -> { name, salt, until (ms), nonces: Set }
  // The same records, earliest `until` first: a binary heap. A record
  // enters it once, when made, and leaves it once, when it expires, so
  // an operation costs one comparison when nothing has expired, and a
  // record O(log n) over its life, for n records at once (two or three
  // for a server).
  #expiries = [];
  #now;

  /** `now` returns milliseconds (tests pass a clock of their own). */
  constructor({ now = Date.now } = {}) {
    this.#now = now;
  }

  async issue(name, ttlSeconds) {
    checkName(name);
    checkTtl(ttlSeconds);
    const now = this.#sweep();
    const live = this.#records.get(name);
    if (live !== undefined) return live.salt;
    const record = { name, salt: newSalt(), until: now + ttlSeconds * 1000, nonces: new Set() };
    this.#records.set(name, record);
    this.#push(record);
    return record.salt;
  }

  async salts(names) {
    names.forEach(checkName);
    this.#sweep();
    return names.map((name) => this.#records.get(name)?.salt ?? null);
  }

  async claim(name, salt, nonce) {
    checkClaim(name, salt, nonce);
    this.#sweep();
    const record = this.#records.get(name);
    if (record === undefined || record.salt !== salt) return 'gone';
    if (record.nonces.has(nonce)) return 'replayed';
    record.nonces.add(nonce);
    return 'claimed';
  }

  /** Claims held now (for tests and monitoring). */
  get size() {
    this.#sweep();
    let n = 0;
    for (const record of this.#records.values()) n += record.nonces.size;
    return n;
  }

  async close() {
    this.#records.clear();
    this.#expiries = [];
  }

  // Drops the records whose `until` has come, and returns the time now:
  // what is left in #records is live.
  #sweep() {
    const now = this.#now();
    while (this.#expiries.length > 0 && this.#expiries[0].until <= now) {
      const record = this.#pop();
      if (this.#records.get(record.name) === record) this.#records.delete(record.name);
    }
    return now;
  }

  #push(record) {
    const heap = this.#expiries;
    let i = heap.push(record) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent].until <= record.until) break;
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = record;
  }

  #pop() {
    const heap = this.#expiries;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0) {
      let i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= heap.length) break;
        if (child + 1 < heap.length && heap[child + 1].until < heap[child].until) child += 1;
        if (last.until <= heap[child].until) break;
        heap[i] = heap[child];
        i = child;
      }
      heap[i] = last;
    }
    return top;
  }
}

// This Redis process's run_id, new at every start: a record stores the
// one it was made under, and is live only under the same.
const RUN_ID = "local run = string.match(redis.call('INFO', 'server'), 'run_id:(%x+)')\n";

// A record: a hash with fields salt, run and one per claimed nonce (32
// hex digits, so never 'salt' or 'run').
const LIVE = `${RUN_ID}local function live(key)
  local r = redis.call('HMGET', key, 'salt', 'run')
  if r[1] and r[2] == run then return r[1] end
  return false
end
`;

// KEYS[1] the record, ARGV[1] a new salt, ARGV[2] its TTL in seconds.
const ISSUE = `${LIVE}local salt = live(KEYS[1])
if salt then return salt end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'salt', ARGV[1], 'run', run)
redis.call('EXPIRE', KEYS[1], ARGV[2])
return ARGV[1]`;

// KEYS the records; '' for each that is not live.
const SALTS = `${LIVE}local out = {}
for i, key in ipairs(KEYS) do out[i] = live(key) or '' end
return out`;

// KEYS[1] the record, ARGV[1] the salt the proof's seed was derived from,
// ARGV[2] the nonce.
const CLAIM = `${LIVE}if live(KEYS[1]) ~= ARGV[1] then return 'gone' end
if redis.call('HSETNX', KEYS[1], ARGV[2], '1') == 1 then return 'claimed' end
return 'replayed'`;

/** A connected @redis/client client for `url` (redis://host:port), as
 * the stores and the gate's rate limiter need it: a server that cannot
 * reach its Redis must refuse, not queue, so a command fails at once
 * while disconnected. Once connected, the client reconnects by itself;
 * the first connection is tried once, so that a server started with a
 * wrong URL (or before its Redis) stops with the reason rather than
 * waiting without a word. Errors are one line each on stderr. */
export async function connectRedis(url) {
  let connected = false;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: { reconnectStrategy: (retries, cause) => (connected ? Math.min(retries * 50, 500) : cause) },
  });
  client.on('error', (e) => console.error(`redis: ${e.message}`));
  client.on('ready', () => { connected = true; });
  await client.connect();
  return client;
}

/** Records in a Redis shared by every server process of a site. */
export class RedisStore {
  #client;
  #prefix;
  #ownsClient;

  /** `client` is a connected @redis/client client; `prefix` starts the
   * name of every key the store makes (the demo passes its own);
   * close() closes the client only when `ownsClient`. */
  constructor(client, { prefix = 'equix-gate:seed:', ownsClient = false } = {}) {
    this.#client = client;
    this.#prefix = prefix;
    this.#ownsClient = ownsClient;
  }

  /** A store of its own client, connected to `url` (see connectRedis);
   * the checks and options are attach()'s. */
  static async connect(url, options = {}) {
    const client = await connectRedis(url);
    try {
      return await RedisStore.attach(client, { ...options, ownsClient: true });
    } catch (e) {
      await client.close();
      throw e;
    }
  }

  /** A store on `client` (shared: its close() leaves the client open,
   * unless `ownsClient`); fails if that Redis cannot run the store's
   * scripts. `warn` gets one line when the Redis may evict records (an
   * evicted record ends its seed early). */
  static async attach(client, { warn = (line) => console.error(line), ...options } = {}) {
    const store = new RedisStore(client, options);
    try {
      await store.salts(['startup-check']);
    } catch (e) {
      // Not the URL: it may hold a password.
      throw new Error(`the Redis cannot run the replay store's scripts (EVAL, and INFO in them): ${e.message}`);
    }
    await checkEviction(client, warn);
    return store;
  }

  async issue(name, ttlSeconds) {
    checkName(name);
    checkTtl(ttlSeconds);
    return this.#client.eval(ISSUE, { keys: [this.#prefix + name], arguments: [newSalt(), String(Math.ceil(ttlSeconds))] });
  }

  async salts(names) {
    names.forEach(checkName);
    const reply = await this.#client.eval(SALTS, { keys: names.map((name) => this.#prefix + name) });
    return reply.map((salt) => (salt === '' ? null : salt));
  }

  async claim(name, salt, nonce) {
    checkClaim(name, salt, nonce);
    return this.#client.eval(CLAIM, { keys: [this.#prefix + name], arguments: [salt, nonce] });
  }

  async close() {
    if (this.#ownsClient) await this.#client.close();
  }
}

// Eviction cannot let a replay in (a record and its claims go together),
// but it ends a seed early: the visitors solving its puzzle are refused.
async function checkEviction(client, warn) {
  let policy;
  try {
    policy = (await client.configGet('maxmemory-policy'))['maxmemory-policy'];
  } catch (e) {
    warn(`redis: cannot read maxmemory-policy (${e.message}); set it to noeviction, or seeds may end early`);
    return;
  }
  if (policy !== 'noeviction') {
    warn(`redis: maxmemory-policy is ${policy}: an evicted seed ends early (its proofs refused); noeviction keeps seeds`);
  }
}

function checkName(name) {
  if (typeof name !== 'string' || name === '') throw new TypeError('store: a record name must be a non-empty string');
}

function checkTtl(ttlSeconds) {
  if (typeof ttlSeconds !== 'number' || !(ttlSeconds > 0) || !Number.isFinite(ttlSeconds)) {
    throw new RangeError('store: the TTL must be a positive number of seconds');
  }
}

function checkClaim(name, salt, nonce) {
  checkName(name);
  if (typeof salt !== 'string' || salt === '') throw new TypeError('claim: the salt must be a non-empty string');
  if (typeof nonce !== 'string' || !NONCE.test(nonce)) throw new TypeError('claim: the nonce must be 32 lowercase hex digits');
}

/** The store a server's environment asks for: REDIS_URL, or memory;
 * `options` go to RedisStore.connect. */
export async function openStore(env = process.env, options = {}) {
  if (env.REDIS_URL) return RedisStore.connect(env.REDIS_URL, options);
  return new MemoryStore();
}

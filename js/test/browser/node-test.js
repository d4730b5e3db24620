// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// `node:test` for the browser suite (index.html maps the specifier here).
// Node's test runner has no browser build: it is part of Node itself
// (lib/internal/test_runner, on process, async_hooks and the rest of
// Node's internals), and no npm package reimplements its API, so this
// is a small shim of the part the suite uses, with Node's semantics:
//
//   test(name?, options?, fn?), also as it(); test.skip/todo/only
//   options { skip, todo, timeout, only (ignored), concurrency (ignored:
//   everything runs in order, one at a time) }, skip/todo may be reasons
//   fn(t) sync or async, or fn(t, done) with a callback
//   t.name, t.fullName, t.signal, t.skip(reason), t.todo(reason),
//   t.diagnostic(text), t.test() (subtests), t.before/after/beforeEach/
//   afterEach, t.plan(n)
//   describe()/suite() with it()/test() inside, and the top-level
//   before/after/beforeEach/afterEach hooks
//
// Anything else (mock, snapshots, coverage) is not here: a test using it
// fails with a TypeError in the browser, visibly. The harness (harness.js)
// decides when a test file's tests run and where the results go.

const DEFAULT_TIMEOUT = Infinity; // as Node's

class Test {
  constructor(name, options, fn, parent) {
    this.name = name;
    this.options = options;
    this.fn = fn;
    this.parent = parent;
    this.children = []; // subtests, in the order made
    this.hooks = { before: [], after: [], beforeEach: [], afterEach: [] };
    this.diagnostics = [];
    this.skipReason = null;
    this.todoReason = null;
    this.error = null;
    this.planned = null;
    this.asserted = 0;
  }

  get fullName() {
    return this.parent && this.parent.parent ? `${this.parent.fullName} > ${this.name}` : this.name;
  }
}

// The root of the current file's tests; the harness replaces it per file.
let root = new Test('<root>', {}, null, null);
// Where test()/it() calls go: the root, or the suite whose body runs now.
let collecting = null;
// The chain the top-level tests run on, one after another.
let queue = Promise.resolve();
let reporter = () => {};

function reason(value) {
  return typeof value === 'string' ? value : '';
}

function normalize(args) {
  let [name, options, fn] = args;
  if (typeof name === 'function') [name, options, fn] = [name.name || '<anonymous>', {}, name];
  else if (typeof name === 'object' && name !== null) [name, options, fn] = [options?.name || '<anonymous>', name, options];
  if (typeof options === 'function') [options, fn] = [{}, options];
  return { name: String(name ?? '<anonymous>'), options: options ?? {}, fn: fn ?? (() => {}) };
}

async function withTimeout(promise, ms, name) {
  if (!Number.isFinite(ms)) return promise;
  let timer;
  const expired = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`test timed out after ${ms}ms: ${name}`)), ms);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

function callBody(fn, t) {
  if (fn.length >= 2) {
    // Callback style: fn(t, done).
    return new Promise((resolve, reject) => {
      const r = fn(t, (err) => (err ? reject(err) : resolve()));
      if (r && typeof r.then === 'function') {
        reject(new Error('a test function takes a callback or returns a promise, not both'));
      }
    });
  }
  return fn(t);
}

async function runHooks(list, t) {
  for (const h of list) await h(t);
}

function inheritedEach(test, kind) {
  const chain = [];
  for (let p = test.parent; p; p = p.parent) chain.unshift(...p.hooks[kind]);
  return kind === 'afterEach' ? chain.reverse() : chain;
}

class TestContext {
  #test;
  #controller;

  constructor(test, controller) {
    this.#test = test;
    this.#controller = controller;
  }

  get name() { return this.#test.name; }

  get fullName() { return this.#test.fullName; }

  get signal() { return this.#controller.signal; }

  skip(message) { this.#test.skipReason = message ?? ''; }

  todo(message) { this.#test.todoReason = message ?? ''; }

  diagnostic(message) { this.#test.diagnostics.push(String(message)); }

  plan(count) { this.#test.planned = count; }

  before(fn) { this.#test.hooks.before.push(fn); }

  after(fn) { this.#test.hooks.after.push(fn); }

  beforeEach(fn) { this.#test.hooks.beforeEach.push(fn); }

  afterEach(fn) { this.#test.hooks.afterEach.push(fn); }

  test(...args) {
    const { name, options, fn } = normalize(args);
    const child = new Test(name, options, fn, this.#test);
    this.#test.children.push(child);
    this.#test.asserted++;
    child.done = runTest(child);
    return child.done;
  }
}

// Runs one test (its subtests included) and reports it after them, as
// Node's TAP reporter does. Resolves, never rejects: a failure is a result.
async function runTest(test) {
  const { options } = test;
  const started = performance.now();
  if (options.skip) {
    test.skipReason = reason(options.skip);
  } else {
    const controller = new AbortController();
    const t = new TestContext(test, controller);
    try {
      await runHooks(inheritedEach(test, 'beforeEach'), t);
      const timeout = options.timeout ?? DEFAULT_TIMEOUT;
      await withTimeout(Promise.resolve().then(() => callBody(test.fn, t)), timeout, test.fullName);
      // Subtests the body did not await still belong to it.
      await Promise.all(test.children.map((c) => c.done));
      await runHooks(test.hooks.after, t);
      await runHooks(inheritedEach(test, 'afterEach'), t);
      if (test.planned !== null && test.planned !== test.asserted) {
        throw new Error(`plan expected ${test.planned} subtests but got ${test.asserted}`);
      }
      const failed = test.children.filter((c) => c.error !== null && c.todoReason === null);
      if (failed.length > 0 && test.error === null) {
        test.error = new Error(`${failed.length} subtest${failed.length > 1 ? 's' : ''} failed`);
      }
    } catch (e) {
      test.error = e ?? new Error(`${test.fullName}: threw ${e}`);
    } finally {
      controller.abort();
    }
  }
  if (options.todo && test.todoReason === null) test.todoReason = reason(options.todo);
  test.duration = performance.now() - started;
  reporter(test);
  return test;
}

function enqueue(test) {
  test.done = queue.then(() => runTest(test));
  queue = test.done;
  return test.done.then(() => undefined);
}

/** node:test's test(): runs after the tests made before it. */
export function test(...args) {
  const { name, options, fn } = normalize(args);
  if (collecting !== null) {
    // Inside a describe() body: a subtest of that suite.
    const child = new Test(name, options, fn, collecting);
    collecting.children.push(child);
    return Promise.resolve();
  }
  return enqueue(new Test(name, options, fn, root));
}

test.skip = (...args) => {
  const { name, options, fn } = normalize(args);
  return test(name, { ...options, skip: options.skip ?? true }, fn);
};
test.todo = (...args) => {
  const { name, options, fn } = normalize(args);
  return test(name, { ...options, todo: options.todo ?? true }, fn);
};
test.only = test;

export const it = test;

/** describe()/suite(): runs its body now to make the tests inside. */
export function describe(...args) {
  const { name, options, fn } = normalize(args);
  const suite = new Test(name, options, null, collecting ?? root);
  suite.isSuite = true;
  const outer = collecting;
  collecting = suite;
  try {
    const r = fn(suite);
    if (r && typeof r.then === 'function') {
      throw new Error(`describe(${name}): the browser shim needs a synchronous suite body`);
    }
  } finally {
    collecting = outer;
  }
  // The suite runs as a test whose body runs its children in order.
  const children = suite.children;
  suite.children = [];
  suite.fn = async () => {
    await runHooks(suite.hooks.before, null);
    for (const c of children) {
      c.parent = suite;
      suite.children.push(c);
      c.done = runTest(c);
      await c.done;
    }
  };
  if (outer !== null) {
    outer.children.push(suite);
    return Promise.resolve();
  }
  return enqueue(suite);
}

describe.skip = (...args) => {
  const { name, options, fn } = normalize(args);
  return describe(name, { ...options, skip: true }, fn);
};
describe.todo = describe.skip;
describe.only = describe;

export const suite = describe;

function hook(kind) {
  return (fn) => {
    const target = collecting ?? root;
    if (target === root && kind === 'before') {
      // Top-level before(): before the next test runs.
      queue = queue.then(() => fn());
      return;
    }
    if (target === root && kind === 'after') {
      afterFile.push(fn);
      return;
    }
    target.hooks[kind].push(fn);
  };
}

let afterFile = [];

export const before = hook('before');
export const after = hook('after');
export const beforeEach = hook('beforeEach');
export const afterEach = hook('afterEach');

export default test;

// ---- For harness.js alone ------------------------------------------------

/** Starts a new file: its tests report to `report(test)`. */
export function beginFile(report) {
  root = new Test('<root>', {}, null, null);
  collecting = null;
  queue = Promise.resolve();
  afterFile = [];
  reporter = report;
}

/** Resolves once every test made so far has run, and the file's after(). */
export async function endFile() {
  // A test may make more tests; wait until the queue stays the same.
  let last;
  do {
    last = queue;
    await last;
  } while (last !== queue);
  for (const fn of afterFile) await fn();
}

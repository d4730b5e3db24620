// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The package's errors. Every error the package makes comes from
// failure(), which gives it its `code` and remembers it, so that
// `e instanceof EquixError` holds for each of them whatever its kind: an
// argument check's error stays the TypeError, RangeError or SyntaxError
// that the engine's own checks would throw (so that it cannot be an
// EquixError by its prototype), and is an EquixError as well. Not part
// of the package's exports: index.js re-exports EquixError.

// The errors failure() made: a WeakSet, so that nothing outside this
// module can mark an error as the package's, and the errors are not
// kept alive by it.
const made = new WeakSet();

/**
 * An error of the package: an Error with a `code` (index.d.ts lists
 * them). `instanceof EquixError` also holds for the package's
 * TypeErrors, RangeErrors and SyntaxErrors (FAIL_ARGUMENT and the other
 * argument checks), which are not made by this constructor.
 */
export class EquixError extends Error {
  constructor(message, code) {
    super(message);
    this.code = code;
    made.add(this);
  }

  // A subclass (which the package has none of) keeps the ordinary test.
  static [Symbol.hasInstance](value) {
    if (this !== EquixError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return made.has(value);
  }
}
EquixError.prototype.name = 'EquixError';

/**
 * An EquixError with `code`, or, given `Kind` (TypeError, RangeError,
 * SyntaxError), an error of that kind with `code` that is an EquixError
 * too: the package's one form of error.
 */
export function failure(message, code, Kind) {
  if (Kind === undefined) return new EquixError(message, code);
  const e = new Kind(message);
  e.code = code;
  made.add(e);
  return e;
}

/** A TypeError (or `Kind`) for a bad argument: FAIL_ARGUMENT. */
export function badArgument(message, Kind = TypeError) {
  return failure(`equix: ${message}`, 'FAIL_ARGUMENT', Kind);
}

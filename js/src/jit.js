// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The host side of the core's HashX-to-WebAssembly compiler
// (src/compiler/wasm.c, whose imports src/compiler/wasm_host.h declares).
// The core writes one small module per HashX program into its memory and
// asks us to install it: we compile it, instantiate it with the core's
// memory and put its function in the core's function table, whose slot the
// C code then calls as a function pointer. Where the engine refuses (a
// Content-Security-Policy that forbids compiling, a table that cannot
// grow, an engine without the features the module uses), install answers 0 and the core falls back to its
// interpreter, as HASHX_TRY_COMPILE does on a system without executable
// memory; status() says why.

// hashx_wasm_features() bits (wasm_host.h).
const WIDE_MUL = 1;

// The smallest module that uses i64.mul_wide_u (the wide-arithmetic
// proposal, 0xfc 0x16): (func (param i64 i64) (result i64) local.get 0
// local.get 1 i64.mul_wide_u drop). An engine that validates it runs the
// compiler's one-instruction high products.
const WIDE_MUL_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x07, 0x01, 0x60, 0x02, 0x7e, 0x7e, 0x01, 0x7e,
  0x03, 0x02, 0x01, 0x00,
  0x0a, 0x0b, 0x01, 0x09, 0x00, 0x20, 0x00, 0x20, 0x01, 0xfc, 0x16, 0x1a, 0x0b,
]);

function engineHasWideMul() {
  try {
    return WebAssembly.validate(WIDE_MUL_PROBE);
  } catch {
    return false;
  }
}

function describe(error) {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * The "hashx" imports of the core, for an instance whose exports
 * `exports()` returns once it exists. `options.jit === false` refuses
 * every module (the interpreter runs); `options.wideMultiply === false`
 * keeps the high products in 32-bit pieces even where the engine has the
 * wide multiply (to test that path).
 */
export function jitHost(exports, options = {}) {
  const enabled = options.jit !== false;
  const wide = options.wideMultiply !== false && engineHasWideMul();
  const free = []; // emptied table slots, reused before the table grows
  let installed = 0; // modules in the table now
  let compiles = 0; // modules compiled so far
  let refusal = enabled ? null : 'disabled by ready({ jit: false })';
  let observer = null; // tests: sees each module's bytes before compiling

  function install(pointer, size) {
    if (!enabled) return 0;
    const { memory, __indirect_function_table: table } = exports();
    const bytes = new Uint8Array(memory.buffer, pointer, size);
    if (observer !== null) observer(bytes.slice());
    try {
      // The constructor copies the bytes: the core may reuse its buffer.
      const module = new WebAssembly.Module(bytes);
      const instance = new WebAssembly.Instance(module, { env: { memory } });
      const slot = free.length > 0 ? free.pop() : table.grow(1);
      table.set(slot, instance.exports.f);
      installed++;
      compiles++;
      refusal = null;
      return slot;
    } catch (error) {
      refusal = describe(error);
      return 0;
    }
  }

  function uninstall(slot) {
    exports().__indirect_function_table.set(slot, null);
    free.push(slot);
    installed--;
  }

  return {
    imports: {
      hashx: {
        install,
        uninstall,
        features: () => (wide ? WIDE_MUL : 0),
      },
    },
    /**
     * { enabled, wideMultiply, compiles, installed, refusal }: refusal is
     * why the last module was refused (null once one is accepted again).
     */
    status() {
      return { enabled, wideMultiply: wide, compiles, installed, refusal };
    },
    /** Calls fn(bytes) with a copy of every module from now on (null:
     * stop); returns the previous observer. */
    observe(fn) {
      const previous = observer;
      observer = fn;
      return previous;
    },
  };
}

/*
 * interpreter.h - running a HashX program without native code.
 */
#ifndef HASHX_INTERPRETER_H
#define HASHX_INTERPRETER_H

#include <stdint.h>

#include "program.h"

/* Runs `prog` on the register file `r` (semantics in program.h). */
void hashx_interpret(const hashx_program *prog, uint64_t r[8]);

#endif

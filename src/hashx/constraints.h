/*
 * constraints.h - which registers an instruction may read and write.
 *
 * The generator tracks, per register, when its value becomes ready in the
 * CPU model and which operation wrote it last. The rules below pick operands
 * among the registers that are allowed; the random choice among the allowed
 * ones is uniform, and drawing nothing when a single register qualifies is
 * part of the algorithm.
 */
#ifndef HASHX_CONSTRAINTS_H
#define HASHX_CONSTRAINTS_H

#include <stdbool.h>
#include <stdint.h>

#include "rng.h"
#include "templates.h"

#define HASHX_REGISTERS 8

/* r5 cannot be the destination of ADD_RS: on x86, LEA with r13 as its base
 * needs a displacement byte, which would make the compiled code irregular. */
#define HASHX_REG_NO_ADD_RS_DST 5

typedef struct hashx_reg_info {
	int ready;            /* cycle at which its value is available */
	int last_group;       /* group of the last writer; -1: none yet */
	uint32_t last_op_par; /* that writer's operation parameter */
} hashx_reg_info;

typedef struct hashx_registers {
	hashx_reg_info reg[HASHX_REGISTERS];
} hashx_registers;

void hashx_registers_init(hashx_registers *regs);

/* Records that `tpl` writes `dst`, ready at `ready`. */
void hashx_registers_write(hashx_registers *regs, int dst,
			   const hashx_template *tpl, uint32_t op_par,
			   int ready);

/* Picks a source register ready at `cycle`; false if there is none. */
bool hashx_select_src(const hashx_registers *regs, const hashx_template *tpl,
		      int cycle, hashx_rng *rng, int *src);

/*
 * Picks a destination register for `tpl` reading `src` (-1: no source) with
 * operation parameter `op_par`; `chain_mul` lifts the ban on multiplying a
 * register twice in a row. False if no register qualifies.
 */
bool hashx_select_dst(const hashx_registers *regs, const hashx_template *tpl,
		      int cycle, int src, uint32_t op_par, bool chain_mul,
		      hashx_rng *rng, int *dst);

#endif

/*
 * constraints.c - the operand selection rules (see constraints.h).
 */
#include "constraints.h"

void hashx_registers_init(hashx_registers *regs)
{
	for (int i = 0; i < HASHX_REGISTERS; i++) {
		regs->reg[i].ready = 0;
		regs->reg[i].last_group = -1;
		regs->reg[i].last_op_par = UINT32_MAX;
	}
}

void hashx_registers_write(hashx_registers *regs, int dst,
			   const hashx_template *tpl, uint32_t op_par,
			   int ready)
{
	regs->reg[dst].ready = ready;
	regs->reg[dst].last_group = (int)tpl->group;
	regs->reg[dst].last_op_par = op_par;
}

/* Uniform choice among `count` candidates; a lone candidate costs no
 * random draw. */
static bool choose(const int *candidates, int count, hashx_rng *rng, int *out)
{
	if (count == 0)
		return false;
	*out = candidates[count > 1 ? (int)(hashx_rng_u32(rng) % (uint32_t)count)
				    : 0];
	return true;
}

bool hashx_select_src(const hashx_registers *regs, const hashx_template *tpl,
		      int cycle, hashx_rng *rng, int *src)
{
	int ready[HASHX_REGISTERS];
	int count = 0;

	for (int i = 0; i < HASHX_REGISTERS; i++)
		if (regs->reg[i].ready <= cycle)
			ready[count++] = i;

	/* With two registers ready and one of them r5, ADD_RS must read r5:
	 * the other one is its only possible destination. */
	if (count == 2 && tpl->opcode == HASHX_OP_ADD_RS &&
	    (ready[0] == HASHX_REG_NO_ADD_RS_DST ||
	     ready[1] == HASHX_REG_NO_ADD_RS_DST)) {
		*src = HASHX_REG_NO_ADD_RS_DST;
		return true;
	}
	return choose(ready, count, rng, src);
}

/*
 * A register may be the destination when all of these hold:
 *  - its value is ready when the instruction starts;
 *  - it is not the source, unless the instruction allows it (x-x and x^x
 *    are constants);
 *  - it was not just written by a MUL_R, if this is a MUL_R, unless
 *    chain_mul: repeated multiplication piles up trailing zero bits. The
 *    generator lifts the ban after a failed attempt so it cannot get stuck;
 *  - the same operation (group and parameter) was not its last write, since
 *    that pair could be merged or would cancel out;
 *  - it is not r5 for ADD_RS (see constraints.h).
 */
static bool dst_allowed(const hashx_reg_info *ri, int reg,
			const hashx_template *tpl, int cycle, int src,
			uint32_t op_par, bool chain_mul)
{
	if (ri->ready > cycle)
		return false;
	if (!tpl->src_may_be_dst && reg == src)
		return false;
	if (!chain_mul && tpl->group == HASHX_OP_MUL_R &&
	    ri->last_group == HASHX_OP_MUL_R)
		return false;
	if (ri->last_group == (int)tpl->group && ri->last_op_par == op_par)
		return false;
	if (tpl->opcode == HASHX_OP_ADD_RS && reg == HASHX_REG_NO_ADD_RS_DST)
		return false;
	return true;
}

bool hashx_select_dst(const hashx_registers *regs, const hashx_template *tpl,
		      int cycle, int src, uint32_t op_par, bool chain_mul,
		      hashx_rng *rng, int *dst)
{
	int allowed[HASHX_REGISTERS];
	int count = 0;

	for (int i = 0; i < HASHX_REGISTERS; i++)
		if (dst_allowed(&regs->reg[i], i, tpl, cycle, src, op_par,
				chain_mul))
			allowed[count++] = i;
	return choose(allowed, count, rng, dst);
}

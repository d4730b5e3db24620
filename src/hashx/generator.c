/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * generator.c - the HashX program generator.
 *
 * The generator walks through the cycles of the CPU model (scheduler.h),
 * three "sub-cycles" (issue slots) per cycle, choosing for each slot an
 * instruction type from a fixed layout, its immediate and its registers
 * (constraints.h), until an instruction would start at the target cycle.
 * Everything random comes from the seed's stream (rng.h), in an order that
 * is part of the algorithm: immediate, then operation parameter, then
 * source, then destination.
 */
#include "constraints.h"
#include "generator.h"
#include "scheduler.h"
#include "templates.h"

/*
 * Which kind of instruction each issue slot gets. Every cycle begins with a
 * multiplication, so the multiplier port is busy every cycle (192 cycles,
 * 192 multiplications); one cycle in six multiplies to 128 bits, and one
 * TARGET/BRANCH pair is laid out per 12 cycles. The layout repeats every 36
 * slots. A slot of "any" is filled with one of the cheap operations.
 */
typedef enum slot_kind {
	SLOT_MUL,      /* MUL_R */
	SLOT_WIDE_MUL, /* UMULH_R or SMULH_R, one random byte decides */
	SLOT_TARGET,
	SLOT_BRANCH,
	SLOT_ANY, /* random cheap operation, see pick_any() */
} slot_kind;

#define LAYOUT_SLOTS 36

/* (one row per cycle) */
/* clang-format off */
static const uint8_t layout[LAYOUT_SLOTS] = {
	SLOT_MUL, SLOT_TARGET, SLOT_ANY,
	SLOT_MUL, SLOT_ANY, SLOT_ANY,
	SLOT_MUL, SLOT_ANY, SLOT_ANY,
	SLOT_MUL, SLOT_ANY, SLOT_ANY,
	SLOT_WIDE_MUL, SLOT_ANY, SLOT_ANY,
	SLOT_MUL, SLOT_ANY, SLOT_ANY,
	SLOT_MUL, SLOT_BRANCH, SLOT_ANY,
	SLOT_MUL, SLOT_ANY, SLOT_ANY,
	SLOT_WIDE_MUL, SLOT_ANY, SLOT_ANY,
	SLOT_MUL, SLOT_ANY, SLOT_ANY,
	SLOT_MUL, SLOT_ANY, SLOT_ANY,
	SLOT_MUL, SLOT_ANY, SLOT_ANY,
};
/* clang-format on */

/* program.h's HASHX_GEN_BRANCHES_MAX: one BRANCH per layout, and the
 * layout repeats this often before the target cycle. (Its block bound,
 * the 17 slots between TARGET and BRANCH, is checked against generated
 * programs by tests/test_code_size.c.) */
_Static_assert(HASHX_TARGET_CYCLE * 3 / LAYOUT_SLOTS == HASHX_GEN_BRANCHES_MAX,
	       "one TARGET/BRANCH pair per layout");

/*
 * The cheap operations, indexed by a random byte masked with 7. After a
 * failed attempt the mask is 3, which keeps only the first four: they read
 * no source register, so they can go where nothing was ready.
 */
static const uint8_t any_ops[8] = {
	HASHX_OP_ROR_C, HASHX_OP_XOR_C, HASHX_OP_ADD_C, HASHX_OP_ADD_C,
	HASHX_OP_SUB_R, HASHX_OP_XOR_R, HASHX_OP_XOR_C, HASHX_OP_ADD_RS,
};

/* An attempt that finds no register is retried once with relaxed rules;
 * after that the generator gives up on the cycle and moves to the next. */
#define MAX_RETRIES 1

/*
 * Redraw loops (a cheap operation of another group, a non-zero immediate,
 * four distinct branch bits) end after a few draws on a genuine SipHash
 * stream: the chance that one needs this many is below 2^-256. A stream
 * replaced through hashx_rng_callback can be constant, though, and would
 * loop forever (the reference does); the limit turns that into a rejected
 * seed instead. It never changes the outcome for a real seed.
 */
#define MAX_REDRAWS 256

typedef struct generator {
	hashx_rng rng;
	bool stuck; /* a redraw loop hit MAX_REDRAWS */
	hashx_scheduler sched;
	hashx_registers regs;
	int sub_cycle;  /* issue slot; cycle = sub_cycle / 3 */
	int attempt;    /* failed attempts at the current slot */
	int last_group; /* group of the last template picked, -1: none */
	int mul_count;
	int latency; /* latest ready cycle of any register */
} generator;

/*
 * A cheap operation never repeats the group of the template picked just
 * before it (even one whose registers then could not be found), so no two
 * consecutive instructions merge into one.
 */
static hashx_opcode pick_any(generator *g)
{
	uint8_t mask = g->attempt > 0 ? 3 : 7;
	hashx_opcode op;

	int draws = 0;

	do
		op = (hashx_opcode)any_ops[hashx_rng_u8(&g->rng) & mask];
	while ((int)hashx_templates[op].group == g->last_group &&
	       !(g->stuck = ++draws >= MAX_REDRAWS));
	return op;
}

static hashx_opcode pick_opcode(generator *g)
{
	switch ((slot_kind)layout[g->sub_cycle % LAYOUT_SLOTS]) {
	case SLOT_MUL:
		return HASHX_OP_MUL_R;
	case SLOT_WIDE_MUL:
		/* one random byte: UMULH_R if odd, SMULH_R if even */
		return (hashx_rng_u8(&g->rng) & 1) ? HASHX_OP_UMULH_R
						   : HASHX_OP_SMULH_R;
	case SLOT_TARGET:
		return HASHX_OP_TARGET;
	case SLOT_BRANCH:
		return HASHX_OP_BRANCH;
	case SLOT_ANY:
	default:
		return pick_any(g);
	}
}

/* A branch is taken with probability 1/16: four random bits of the last
 * multiplication's result must all be zero. */
static uint32_t draw_branch_mask(generator *g)
{
	uint32_t mask = 0;
	int bits = 0;

	for (int draws = 0; bits < 4; draws++) {
		if (draws == MAX_REDRAWS) {
			g->stuck = true;
			break;
		}
		uint32_t bit = 1u << (hashx_rng_u8(&g->rng) % 32);

		if (!(mask & bit)) {
			mask |= bit;
			bits++;
		}
	}
	return mask;
}

static HASHX_ALWAYS_INLINE uint32_t draw_imm(const hashx_template *tpl,
					     generator *g)
{
	uint32_t imm;
	int draws = 0;

	switch (tpl->imm_rule) {
	case HASHX_IMM_BRANCH:
		return draw_branch_mask(g);
	case HASHX_IMM_MASKED:
		do
			imm = hashx_rng_u32(&g->rng) & tpl->imm_mask;
		while (imm == 0 && !tpl->imm_can_be_zero &&
		       !(g->stuck = ++draws >= MAX_REDRAWS));
		return imm;
	case HASHX_IMM_NONE:
	default:
		return 0;
	}
}

/* The operation parameter before the source is known; HASHX_OP_PAR_SRC
 * templates replace it with their source. */
static uint32_t draw_op_par(const hashx_template *tpl, hashx_rng *rng)
{
	return tpl->op_par_rule == HASHX_OP_PAR_RANDOM ? hashx_rng_u32(rng)
						       : UINT32_MAX;
}

/* After a failed attempt: retry the slot, or give up on this cycle. */
static void stall(generator *g)
{
	if (g->attempt++ < MAX_RETRIES)
		return;
	g->sub_cycle += 3;
	g->attempt = 0;
}

static void generator_init(generator *g, const hashx_sip_state *key,
			   hashx_rng_observer *observer, void *observer_data)
{
	hashx_rng_init(&g->rng, key, observer, observer_data);
	hashx_scheduler_init(&g->sched);
	hashx_registers_init(&g->regs);
	g->sub_cycle = 0;
	g->attempt = 0;
	g->last_group = -1;
	g->mul_count = 0;
	g->latency = 0;
	g->stuck = false;
}

/* Outcome of one step: an instruction was added, the slot must be tried
 * again (or skipped), or the program is complete. */
typedef enum step_result { STEP_ADDED, STEP_STALLED, STEP_DONE } step_result;

/*
 * One step for the template `op`, of the given shape. It is always
 * inlined with a constant shape (see step()), so each shape gets its own
 * copy in which the fields that decide the control flow are constants:
 * the tests on them (has a source? an immediate? which op-par rule?)
 * disappear from the step, along with their loads. Before, those tests
 * followed a random template choice and were mispredicted, and the loads
 * and tests were a sixth of the generator's instructions.
 */
static HASHX_ALWAYS_INLINE step_result step_as(generator *g,
					       const hashx_template *shape,
					       hashx_opcode op,
					       hashx_instr *out)
{
	/* The shape's shared fields are constants; its member fields are
	 * the template's own (templates.h). */
	hashx_template t = *shape;
	const hashx_template *tpl = &t;

#define HASHX_TAKE_MEMBER_FIELD(f) t.f = hashx_templates[op].f;
	HASHX_SHAPE_MEMBER_FIELDS(HASHX_TAKE_MEMBER_FIELD)
#undef HASHX_TAKE_MEMBER_FIELD

	int cycle = g->sub_cycle / 3;
	int src = -1, dst = -1;

	g->last_group = (int)tpl->group;
	uint32_t imm = draw_imm(tpl, g);
	uint32_t op_par = draw_op_par(tpl, &g->rng);

	if (g->stuck)
		return STEP_DONE;

	/* Earliest start given free ports only; operands must be ready by
	 * then. */
	hashx_placement plan;
	int start = hashx_scheduler_find(&g->sched, tpl->uop1, tpl->uop2, cycle,
					 &plan);
	if (start < 0)
		return STEP_DONE;

	bool chain_mul = g->attempt > 0;
	unsigned ready = hashx_registers_ready(&g->regs, start);
	if (tpl->has_src) {
		if (!hashx_select_src(tpl, ready, &g->rng, &src))
			return STEP_STALLED;
		if (tpl->op_par_rule == HASHX_OP_PAR_SRC)
			op_par = (uint32_t)src;
	}
	if (tpl->has_dst && !hashx_select_dst(&g->regs, tpl, ready, src, op_par,
					      chain_mul, &g->rng, &dst))
		return STEP_STALLED;
	g->attempt = 0;

	hashx_scheduler_commit(&g->sched, &plan);
	if (start >= HASHX_TARGET_CYCLE)
		return STEP_DONE;

	if (tpl->has_dst) {
		int retire = start + tpl->latency;

		hashx_registers_write(&g->regs, dst, tpl, op_par, retire);
		if (retire > g->latency)
			g->latency = retire;
	}
	out->opcode = (uint8_t)tpl->opcode;
	out->dst = (uint8_t)(dst < 0 ? 0 : dst);
	out->src = (uint8_t)(src < 0 ? 0 : src);
	out->unused = 0;
	out->imm = imm;
	g->mul_count += hashx_op_is_mul(tpl->opcode);
	/* A two-micro-op instruction fills two issue slots. */
	g->sub_cycle += tpl->uop2 != HASHX_PORT_NONE ? 2 : 1;
	return STEP_ADDED;
}

/*
 * One copy of step_as() per shape (templates.h says which templates share
 * one and why): the random choice among the cheap operations then needs a
 * three-way jump (no source; SUB_R or XOR_R; ADD_RS), and so is
 * mispredicted less often than a jump to one of six copies would be.
 */
static step_result step(generator *g, hashx_instr *out)
{
	hashx_opcode op = pick_opcode(g);

#define HASHX_STEP_MEMBER(op) case op:
#define HASHX_STEP_SHAPE(s) return step_as(g, &hashx_templates[s], op, out);
	switch (op) {
		HASHX_TEMPLATE_SHAPES(HASHX_STEP_MEMBER, HASHX_STEP_SHAPE)
	case HASHX_OP_COUNT:
	default:
		return STEP_DONE; /* not reached */
	}
#undef HASHX_STEP_MEMBER
#undef HASHX_STEP_SHAPE
}

bool hashx_generate(const hashx_sip_state *key, hashx_rng_observer *observer,
		    void *observer_data, hashx_program *prog,
		    hashx_gen_stats *stats)
{
	generator g;

	generator_init(&g, key, observer, observer_data);
	prog->size = 0;
	while (prog->size < HASHX_PROGRAM_SIZE) {
		step_result r = step(&g, &prog->code[prog->size]);

		if (r == STEP_DONE)
			break;
		if (r == STEP_STALLED)
			stall(&g);
		else
			prog->size++;
	}
	if (stats != NULL) {
		stats->mul_count = g.mul_count;
		stats->latency = g.latency + 1;
	}
	/* Uniform cost: every accepted function has the same size, number of
	 * multiplications and critical path (fewer than 1 seed in 10,000 is
	 * rejected). */
	return !g.stuck && prog->size == HASHX_REQUIRED_SIZE &&
	       g.mul_count == HASHX_REQUIRED_MULS &&
	       g.latency + 1 == HASHX_REQUIRED_LATENCY;
}

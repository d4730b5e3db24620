/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doc_examples.c - the worked examples of the documents in doc/, computed by
 * the library, so the documents cannot drift from the code.
 *
 * A document marks each example with a comment line followed by a fenced
 * block holding exactly what this program prints for it:
 *
 *     <!-- example hashx-trace seed="abc" input=0 steps=0,1 -->
 *     ```text
 *     ...
 *     ```
 *
 *   doc-examples print KIND [key=value ...]   print one example
 *   doc-examples check FILE...                 compare every example
 *   doc-examples                               check doc/{hashx,hashwx,
 *                                              equix,pow-v1}.md (make
 *                                              check)
 *
 * The HashX examples use the library's internals (keys, generator,
 * interpreter, finalization) to show intermediate values; each is also
 * cross-checked against the public API, so an example can only print what
 * the library really computes.
 */
#define _POSIX_C_SOURCE 200809L

#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <equix.h>
#include <equix_pow.h>
#include <hashwx.h>
#include <hashx.h>

#include "finalize.h"
#include "generator.h"
#include "hashwx_generator.h"
#include "hashwx_interpreter.h"
#include "interpreter.h"
#include "keys.h"
#include "siphash.h"

/* The ordering rule (only src/hashx is on this program's include path). */
#include "puzzle.h"

#define MAX_PARAMS 8
#define MAX_VALUE 256

/* ---- Parameters ---------------------------------------------------------- */

typedef struct params {
	int n;
	char key[MAX_PARAMS][32];
	char value[MAX_PARAMS][MAX_VALUE];
} params;

static const char *param(const params *p, const char *key)
{
	for (int i = 0; i < p->n; i++)
		if (strcmp(p->key[i], key) == 0)
			return p->value[i];
	return NULL;
}

/* Parses `key=value` or `key="value with spaces"` words from `s`. */
static int parse_params(const char *s, params *p)
{
	p->n = 0;
	while (*s != '\0') {
		while (*s == ' ')
			s++;
		if (*s == '\0')
			break;
		const char *eq = strchr(s, '=');
		if (eq == NULL || eq == s || eq - s >= 32 || p->n == MAX_PARAMS)
			return -1;
		memcpy(p->key[p->n], s, (size_t)(eq - s));
		p->key[p->n][eq - s] = '\0';
		s = eq + 1;
		const char *end;
		if (*s == '"') {
			end = strchr(++s, '"');
			if (end == NULL)
				return -1;
		} else {
			end = s + strcspn(s, " ");
		}
		if (end - s >= MAX_VALUE)
			return -1;
		memcpy(p->value[p->n], s, (size_t)(end - s));
		p->value[p->n][end - s] = '\0';
		s = *end == '"' ? end + 1 : end;
		p->n++;
	}
	return 0;
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Lower-case hex of exactly `len` bytes, or -1. */
static int parse_hex(const char *s, uint8_t *out, size_t len)
{
	if (s == NULL || strlen(s) != 2 * len)
		return -1;
	for (size_t i = 0; i < len; i++) {
		int hi = hex_value(s[2 * i]), lo = hex_value(s[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

/* The seed or challenge: `name`="text", or `name`_hex=HEX. */
static int bytes_param(const params *p, const char *name, uint8_t *out,
		       size_t cap, size_t *len)
{
	char hex_key[40];
	const char *text = param(p, name);

	snprintf(hex_key, sizeof hex_key, "%s_hex", name);
	const char *hex = param(p, hex_key);
	if (text != NULL && strlen(text) <= cap) {
		*len = strlen(text);
		memcpy(out, text, *len);
		return 0;
	}
	if (hex != NULL && strlen(hex) % 2 == 0 && strlen(hex) / 2 <= cap) {
		*len = strlen(hex) / 2;
		return parse_hex(hex, out, *len);
	}
	return -1;
}

static int uint_param(const params *p, const char *key, uint64_t *out)
{
	const char *s = param(p, key);
	char *end;

	if (s == NULL || *s == '\0')
		return -1;
	*out = strtoull(s, &end, 10);
	return *end == '\0' ? 0 : -1;
}

static void print_hex(FILE *f, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%02x", b[i]);
}

static void print_seed(FILE *f, const char *label, const uint8_t *s, size_t n)
{
	fprintf(f, "%-16s", label);
	print_hex(f, s, n);
	fprintf(f, " (%zu bytes)\n", n);
}

static uint64_t load64_le(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* ---- HashX ----------------------------------------------------------------
 */

typedef struct hashx_example {
	uint8_t seed[MAX_VALUE];
	size_t seed_len;
	hashx_keys keys;
	hashx_program prog;
	hashx_gen_stats stats;
	int valid;
} hashx_example;

static int hashx_example_load(const params *p, hashx_example *h)
{
	if (bytes_param(p, "seed", h->seed, sizeof h->seed, &h->seed_len) < 0)
		return -1;
	hashx_keys_from_seed(h->seed, h->seed_len, &h->keys);
	h->valid = hashx_generate(&h->keys.program, NULL, NULL, &h->prog,
				  &h->stats);
	return 0;
}

static void print_sip_key(FILE *f, const char *label, const hashx_sip_state *k)
{
	fprintf(f, "%s\n", label);
	fprintf(f, "  v0 = %016" PRIx64 "  v1 = %016" PRIx64 "\n", k->v0,
		k->v1);
	fprintf(f, "  v2 = %016" PRIx64 "  v3 = %016" PRIx64 "\n", k->v2,
		k->v3);
}

static int example_hashx_keys(const params *p, FILE *f)
{
	hashx_example h;
	if (hashx_example_load(p, &h) < 0)
		return -1;
	print_seed(f, "seed", h.seed, h.seed_len);
	print_sip_key(f, "program key (BLAKE2b bytes 0-31, little-endian):",
		      &h.keys.program);
	print_sip_key(f, "input key (BLAKE2b bytes 32-63, little-endian):",
		      &h.keys.input);
	return 0;
}

static int example_hashx_rng(const params *p, FILE *f)
{
	hashx_example h;
	uint64_t count;
	if (hashx_example_load(p, &h) < 0 || uint_param(p, "count", &count) ||
	    count > 64)
		return -1;
	print_seed(f, "seed", h.seed, h.seed_len);
	for (uint64_t i = 0; i < count; i++)
		fprintf(f,
			"SipHash-1-3(program key, %2" PRIu64 ") = %016" PRIx64
			"\n",
			i, hashx_siphash13_ctr(&h.keys.program, i));
	return 0;
}

static const char *const mnemonic[HASHX_OP_COUNT] = {
	"umulh", "smulh", "mul", "sub",    "xor",    "add",
	"ror",   "add",   "xor", "target", "branch",
};

static void print_instr(FILE *f, size_t i, const hashx_instr *in)
{
	if (in->opcode == HASHX_OP_TARGET) {
		fprintf(f, "%3zu  target\n", i);
		return;
	}
	fprintf(f, "%3zu  %-6s ", i, mnemonic[in->opcode]);
	switch (in->opcode) {
	case HASHX_OP_ADD_RS:
		fprintf(f, "r%u, r%u << %u\n", in->dst, in->src,
			(unsigned)in->imm);
		break;
	case HASHX_OP_ROR_C:
		fprintf(f, "r%u, %u\n", in->dst, (unsigned)in->imm);
		break;
	case HASHX_OP_ADD_C:
	case HASHX_OP_XOR_C:
		fprintf(f, "r%u, 0x%08" PRIx32 "\n", in->dst, in->imm);
		break;
	case HASHX_OP_BRANCH:
		fprintf(f, "mask 0x%08" PRIx32 "\n", in->imm);
		break;
	default:
		fprintf(f, "r%u, r%u\n", in->dst, in->src);
	}
}

static int example_hashx_program(const params *p, FILE *f)
{
	hashx_example h;
	uint64_t first = HASHX_PROGRAM_SIZE;
	if (hashx_example_load(p, &h) < 0 ||
	    (param(p, "first") && uint_param(p, "first", &first)))
		return -1;
	print_seed(f, "seed", h.seed, h.seed_len);
	if (!h.valid) {
		fprintf(f, "no valid program (HASHX_FAIL_SEED)\n");
		return 0;
	}
	fprintf(f, "%zu instructions, %d multiplications, latency %d\n",
		h.prog.size, h.stats.mul_count, h.stats.latency);
	for (size_t i = 0; i < h.prog.size && i < first; i++)
		print_instr(f, i, &h.prog.code[i]);
	if (first < h.prog.size)
		fprintf(f, "...\n");
	return 0;
}

/* The generator's stream, word by word: which instruction it was
 * producing (the program's size so far) when it fetched each word. */
#define MAX_WORDS 4096

typedef struct word_log {
	const hashx_program *prog; /* the program being generated */
	size_t count;
	size_t instr[MAX_WORDS];
	uint64_t word[MAX_WORDS];
} word_log;

static void log_word(uint64_t *word, void *data)
{
	word_log *log = data;
	if (log->count < MAX_WORDS) {
		log->instr[log->count] = log->prog->size;
		log->word[log->count] = *word;
	}
	log->count++;
}

/*
 * The program's instructions first..last, each followed by the stream
 * words W(c) the generator fetched while producing it (section 5: a byte
 * or u32 draw fetches a word when its buffer is empty; the rest of the
 * word may serve later draws). Checked against hashx-rng's stream and
 * against the program generated without an observer.
 */
static int example_hashx_gen_words(const params *p, FILE *f)
{
	hashx_example h;
	hashx_program prog;
	static word_log log;
	uint64_t first, last;

	if (hashx_example_load(p, &h) < 0 || !h.valid ||
	    uint_param(p, "first", &first) || uint_param(p, "last", &last) ||
	    first > last || last >= h.prog.size)
		return -1;
	log.prog = &prog;
	log.count = 0;
	if (!hashx_generate(&h.keys.program, log_word, &log, &prog, NULL) ||
	    log.count > MAX_WORDS ||
	    memcmp(prog.code, h.prog.code, sizeof prog.code) != 0)
		return -1;
	print_seed(f, "seed", h.seed, h.seed_len);
	fprintf(f,
		"instructions with the words W(c) fetched to produce them:\n");
	for (size_t i = (size_t)first; i <= last; i++) {
		print_instr(f, i, &h.prog.code[i]);
		for (size_t c = 0; c < log.count; c++) {
			if (log.instr[c] != i)
				continue;
			if (log.word[c] !=
			    hashx_siphash13_ctr(&h.keys.program, c))
				return -1;
			fprintf(f, "       W(%zu) = %016" PRIx64 "\n", c,
				log.word[c]);
		}
	}
	return 0;
}

static void print_regs(FILE *f, const char *label, const uint64_t r[8])
{
	fprintf(f, "%s\n", label);
	for (int i = 0; i < 8; i += 2)
		fprintf(f, "  r%d = %016" PRIx64 "  r%d = %016" PRIx64 "\n", i,
			r[i], i + 1, r[i + 1]);
}

/* The full 32-byte hash through the internals, checked against the
 * public API's HASHX_SIZE bytes. */
static int hash_full(const hashx_example *h, uint64_t input, uint64_t r[8],
		     uint8_t out[32])
{
	uint8_t api[HASHX_SIZE];
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);
	int ok;

	hashx_siphash24_ctr_state512(&h->keys.input, input, r);
	hashx_interpret_portable(&h->prog, r);
	hashx_finalize(&h->keys.input, r, out);
	ok = ctx != NULL && hashx_make(ctx, h->seed, h->seed_len) == HASHX_OK &&
	     hashx_exec(ctx, input, api) == HASHX_OK &&
	     memcmp(api, out, HASHX_SIZE) == 0;
	hashx_free(ctx);
	if (!ok)
		fprintf(stderr, "doc-examples: internal hash differs from "
				"hashx_exec\n");
	return ok ? 0 : -1;
}

/* Registers when execution reaches instruction `k`: the program cut
 * after k instructions runs exactly the same steps up to that point (a
 * BRANCH only jumps backwards). */
static void registers_at(const hashx_example *h, const uint64_t init[8],
			 size_t k, uint64_t r[8])
{
	hashx_program prefix = h->prog;
	prefix.size = k;
	memcpy(r, init, 8 * sizeof *r);
	hashx_interpret_portable(&prefix, r);
}

/*
 * Which BRANCHes the input takes. A taken BRANCH at j jumps back and runs
 * again, so the program cut after j + 1 instructions ends with different
 * registers than the one cut after j; a BRANCH not taken changes nothing.
 * A taken one resumes after the last TARGET before it (section 6).
 */
static void print_branches(FILE *f, const hashx_example *h,
			   const uint64_t init[8])
{
	uint64_t before[8], after[8];
	size_t target = 0, col = 0;

	for (size_t j = 0; j < h->prog.size; j++) {
		if (h->prog.code[j].opcode == HASHX_OP_TARGET)
			target = j;
		if (h->prog.code[j].opcode != HASHX_OP_BRANCH)
			continue;
		registers_at(h, init, j, before);
		registers_at(h, init, j + 1, after);
		if (memcmp(before, after, sizeof before) != 0) {
			fprintf(f, "%sbranch at %zu: taken, resumes at %zu\n",
				col ? "\n" : "", j, target + 1);
			col = 0;
			continue;
		}
		/* One list, wrapped under its label. */
		if (col == 0)
			col = (size_t)fprintf(f, "branches not taken:");
		else if (col > 64)
			col = (size_t)fprintf(f, "\n%19s", "") - 1;
		col += (size_t)fprintf(f, " %zu", j);
	}
	if (col)
		fprintf(f, "\n");
}

static int example_hashx_trace(const params *p, FILE *f)
{
	hashx_example h;
	uint64_t input, init[8], r[8];
	uint8_t out[32];
	char label[64];
	const char *steps = param(p, "steps");

	if (hashx_example_load(p, &h) < 0 || uint_param(p, "input", &input) ||
	    !h.valid)
		return -1;
	print_seed(f, "seed", h.seed, h.seed_len);
	fprintf(f, "input           %" PRIu64 "\n", input);
	hashx_siphash24_ctr_state512(&h.keys.input, input, init);
	print_regs(f, "registers after the input expansion:", init);
	for (const char *s = steps; s != NULL && *s != '\0';) {
		char *end;
		unsigned long k = strtoul(s, &end, 10);
		if (end == s || k > h.prog.size)
			return -1;
		registers_at(&h, init, k, r);
		snprintf(label, sizeof label, "before instruction %lu:", k);
		print_regs(f, label, r);
		s = *end == ',' ? end + 1 : end;
	}
	if (hash_full(&h, input, r, out) < 0)
		return -1;
	print_branches(f, &h, init);
	registers_at(&h, init, h.prog.size, r);
	print_regs(f, "after the program:", r);
	fprintf(f, "hash            ");
	print_hex(f, out, 32);
	fprintf(f, "\n");
	return 0;
}

static int example_hashx_hash(const params *p, FILE *f)
{
	hashx_example h;
	uint64_t input, r[8];
	uint8_t out[32];

	if (hashx_example_load(p, &h) < 0 || uint_param(p, "input", &input))
		return -1;
	print_seed(f, "seed", h.seed, h.seed_len);
	if (!h.valid) {
		fprintf(f, "no valid program (HASHX_FAIL_SEED)\n");
		return 0;
	}
	if (hash_full(&h, input, r, out) < 0)
		return -1;
	fprintf(f, "hash(%" PRIu64 ")%*s", input, input < 10 ? 7 : 6, "");
	print_hex(f, out, 32);
	fprintf(f, "\n");
	return 0;
}

/* ---- HashWX ---------------------------------------------------------------
 */

typedef struct hashwx_example {
	uint8_t seed[HASHWX_SEED_SIZE];
	hashwx_sip_key generator_key;
	hashwx_instance inst;
} hashwx_example;

/* seed_hex=HEX (32 bytes) or seed="text" (zero-padded to 32 bytes). */
static int hashwx_example_load(const params *p, hashwx_example *h)
{
	size_t len;

	memset(h->seed, 0, sizeof h->seed);
	if (bytes_param(p, "seed", h->seed, sizeof h->seed, &len) < 0)
		return -1;
	h->generator_key.k0 = load64_le(h->seed);
	h->generator_key.k1 = load64_le(h->seed + 8);
	h->inst.hash_key.k0 = load64_le(h->seed + 16);
	h->inst.hash_key.k1 = load64_le(h->seed + 24);
	hashwx_generate(&h->generator_key, h->inst.programs);
	return 0;
}

static int example_hashwx_keys(const params *p, FILE *f)
{
	hashwx_example h;

	if (hashwx_example_load(p, &h) < 0)
		return -1;
	print_seed(f, "seed", h.seed, sizeof h.seed);
	fprintf(f, "generator key  k0 = %016" PRIx64 "  k1 = %016" PRIx64
		"\n", h.generator_key.k0, h.generator_key.k1);
	fprintf(f, "hash key       k0 = %016" PRIx64 "  k1 = %016" PRIx64
		"\n", h.inst.hash_key.k0, h.inst.hash_key.k1);
	return 0;
}

/* One program's 16 words of the generator's stream and what each
 * decides (doc/hashwx.md section 5); the mnemonics are below. */
static const char *const hashwx_mnemonic[HASHWX_OPCODE_COUNT];

static void print_hashwx_word(FILE *f, unsigned i, uint64_t w,
			      const hashwx_program *prog)
{
	unsigned slot = i == 6 ? HASHWX_TAIL_SLOT : i + 1;
	uint32_t low = (uint32_t)w, high = (uint32_t)(w >> 32);

	fprintf(f, "gen[%2u] = %016" PRIx64 "  ", i, w);
	unsigned choices = i % 2 ? 3 : 9; /* odd words: the MUL slots */

	if (i < 7) {
		fprintf(f, "slot %u: low %% %u = %u (%s); shuffle: high %% %u "
			"= %u\n", slot, choices, low % choices,
			hashwx_mnemonic[prog->code[slot].opcode], i + 2,
			high % (i + 2));
	} else if (i == 7) {
		fprintf(f, "source permutation %u, RMCG multiplier r%u\n",
			(unsigned)(w % HASHWX_SOURCE_PERMUTATIONS),
			(unsigned)(8 + w % 2));
	} else {
		slot = hashwx_operand_slot(i - 8);
		fprintf(f, "immediate of slot %u = %u\n", slot,
			prog->code[slot].imm);
	}
}

static int example_hashwx_words(const params *p, FILE *f)
{
	hashwx_example h;
	uint64_t prog, words[HASHWX_PROGRAMS * HASHWX_WORDS_PER_PROGRAM];

	if (hashwx_example_load(p, &h) < 0 ||
	    uint_param(p, "program", &prog) || prog >= HASHWX_PROGRAMS)
		return -1;
	hashwx_rng_words(&h.generator_key, HASHWX_GENERATOR_SALT, words,
			 HASHWX_PROGRAMS * HASHWX_WORDS_PER_PROGRAM / 4);
	for (unsigned i = 0; i < HASHWX_WORDS_PER_PROGRAM; i++)
		print_hashwx_word(f, i,
				  words[prog * HASHWX_WORDS_PER_PROGRAM + i],
				  &h.inst.programs[prog]);
	return 0;
}

static const char *const hashwx_mnemonic[HASHWX_OPCODE_COUNT] = {
	"MULOR",  "MULXOR", "MULADD", "RMCG",   "XORROR",
	"ADDROR", "SUBROR", "XORASR", "ADDASR", "SUBASR",
	"XORLSR", "ADDLSR", "SUBLSR", "BRANCH", "HALT",
};

static void print_hashwx_program(FILE *f, const hashwx_program *prog)
{
	for (unsigned k = 0; k < HASHWX_PROGRAM_SIZE; k++) {
		const hashwx_instr *in = &prog->code[k];

		if (in->opcode < HASHWX_BRANCH)
			fprintf(f, "%u  %-6s r%u, r%u, %u\n", k,
				hashwx_mnemonic[in->opcode], in->dst, in->src,
				in->imm);
		else
			fprintf(f, "%u  %s\n", k, hashwx_mnemonic[in->opcode]);
	}
}

static int example_hashwx_program(const params *p, FILE *f)
{
	hashwx_example h;
	uint64_t prog;

	if (hashwx_example_load(p, &h) < 0 ||
	    uint_param(p, "program", &prog) || prog >= HASHWX_PROGRAMS)
		return -1;
	print_hashwx_program(f, &h.inst.programs[prog]);
	return 0;
}

static int example_hashwx_permutations(const params *p, FILE *f)
{
	(void)p;
	for (unsigned i = 0; i < HASHWX_SOURCE_PERMUTATIONS; i++)
		fprintf(f, "%08" PRIo32 "%s", hashwx_source_permutation(i),
			i % 5 == 4 ? "\n" : " ");
	return 0;
}

static void print_hashwx_regs(FILE *f, const char *label, const uint64_t *r,
			      unsigned n)
{
	fprintf(f, "%s\n", label);
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "%sr%u = %016" PRIx64 "%s", i % 2 ? "  " : "  ", i,
			r[i], i % 2 || i + 1 == n ? "\n" : "");
}

/* One hash, phase by phase; cross-checked against hashwx_exec(). */
static int example_hashwx_trace(const params *p, FILE *f)
{
	hashwx_example h;
	uint64_t nonce, r[HASHWX_REGISTERS + 2], mem[HASHWX_MEMORY_WORDS];
	unsigned bc = HASHWX_BRANCH_BUDGET, loops[HASHWX_PROGRAMS];
	hashwx_ctx *ctx = hashwx_alloc(HASHWX_INTERPRETED);
	uint64_t api = 0, hash;

	if (ctx == NULL || ctx == HASHWX_NOTSUPP ||
	    hashwx_example_load(p, &h) < 0 || uint_param(p, "nonce", &nonce))
		return -1;
	hashwx_make(ctx, h.seed);
	api = hashwx_exec(ctx, nonce);
	hashwx_free(ctx);
	hashwx_initial_registers(&h.inst.hash_key, nonce, r);
	fprintf(f, "nonce %" PRIu64 "\n", nonce);
	print_hashwx_regs(f, "start (the hash key's stream, salt = nonce):",
			  r, HASHWX_REGISTERS + 2);
	for (unsigned q = 0; q < HASHWX_PROGRAMS; q++) {
		loops[q] = hashwx_run_program(&h.inst.programs[q], r, NULL, &bc);
		for (unsigned j = 0; j < HASHWX_REGISTERS; j++)
			mem[hashwx_memory_word(q, j)] = r[j];
	}
	fprintf(f, "write phase: loop-backs per program");
	for (unsigned q = 0; q < HASHWX_PROGRAMS; q++)
		fprintf(f, "%s%u", q % 16 ? " " : "\n  ", loops[q]);
	fprintf(f, "\n  branch counter left: %u\n", bc);
	print_hashwx_regs(f, "after the write phase:", r, HASHWX_REGISTERS);
	bc = HASHWX_BRANCH_BUDGET;
	for (unsigned q = 0; q < HASHWX_PROGRAMS; q++)
		loops[q] = hashwx_run_program(&h.inst.programs[q], r, mem, &bc);
	fprintf(f, "read phase: loop-backs per program");
	for (unsigned q = 0; q < HASHWX_PROGRAMS; q++)
		fprintf(f, "%s%u", q % 16 ? " " : "\n  ", loops[q]);
	fprintf(f, "\n  branch counter left: %u\n", bc);
	print_hashwx_regs(f, "after the read phase:", r, HASHWX_REGISTERS);
	hash = hashwx_finalize(r);
	print_hashwx_regs(f, "after the SipRounds:", r, HASHWX_REGISTERS);
	fprintf(f, "hash = r3 ^ r7 ^ r9 = %016" PRIx64 "\n", hash);
	return hash == api ? 0 : -1;
}

static int example_hashwx_hash(const params *p, FILE *f)
{
	hashwx_example h;
	hashwx_ctx *ctx = hashwx_alloc(HASHWX_INTERPRETED);
	const char *list = param(p, "nonces");
	int rc = 0;

	if (ctx == NULL || ctx == HASHWX_NOTSUPP || list == NULL ||
	    hashwx_example_load(p, &h) < 0) {
		hashwx_free(ctx);
		return -1;
	}
	hashwx_make(ctx, h.seed);
	print_seed(f, "seed", h.seed, sizeof h.seed);
	while (*list != '\0' && rc == 0) {
		char *end;
		uint64_t n = strtoull(list, &end, 10);
		uint64_t got = hashwx_exec(ctx, n);

		if (end == list || (*end != ',' && *end != '\0') ||
		    got != hashwx_interpret(&h.inst, n))
			rc = -1;
		fprintf(f, "hashwx_exec(%" PRIu64 ") = %016" PRIx64 "\n", n,
			got);
		list = *end == ',' ? end + 1 : end;
	}
	hashwx_free(ctx);
	return rc;
}

/* ---- Equi-X -----------------------------------------------------------------
 */

static int solve(const uint8_t *c, size_t n, equix_solutions_buffer *out)
{
	equix_ctx *ctx = equix_alloc(EQUIX_CTX_SOLVE);
	equix_result r =
		ctx ? equix_solve(ctx, c, n, out) : EQUIX_FAIL_INTERNAL;
	equix_free(ctx);
	return r == EQUIX_OK ? 0 : -1;
}

static void print_indices(FILE *f, const equix_solution *s)
{
	for (int i = 0; i < EQUIX_NUM_IDX; i++)
		fprintf(f, "%s%04x", i ? " " : "", s->idx[i]);
}

static int example_equix_solve(const params *p, FILE *f)
{
	uint8_t c[MAX_VALUE], wire[EQUIX_SOLUTION_BYTES];
	size_t n;
	equix_solutions_buffer sols;

	if (bytes_param(p, "challenge", c, sizeof c, &n) < 0 ||
	    solve(c, n, &sols) < 0)
		return -1;
	print_seed(f, "challenge", c, n);
	fprintf(f, "%u solution%s, in the solver's order\n", sols.count,
		sols.count == 1 ? "" : "s");
	for (unsigned i = 0; i < sols.count; i++) {
		equix_solution_pack(&sols.sols[i], wire);
		fprintf(f, "%u: ", i);
		print_indices(f, &sols.sols[i]);
		fprintf(f, "  wire ");
		print_hex(f, wire, sizeof wire);
		fprintf(f, "\n");
	}
	return 0;
}

/* H(i): the first 8 bytes of the HashX output, little-endian. */
static int equix_hashes(const uint8_t *c, size_t n, const equix_solution *s,
			uint64_t h[EQUIX_NUM_IDX])
{
	hashx_example x;
	uint64_t r[8];
	uint8_t out[32];

	memcpy(x.seed, c, n);
	x.seed_len = n;
	hashx_keys_from_seed(c, n, &x.keys);
	if (!hashx_generate(&x.keys.program, NULL, NULL, &x.prog, &x.stats))
		return -1;
	for (int i = 0; i < EQUIX_NUM_IDX; i++) {
		if (hash_full(&x, s->idx[i], r, out) < 0)
			return -1;
		h[i] = load64_le(out);
	}
	return 0;
}

static void print_sums(FILE *f, const uint64_t *h, int group, int bits)
{
	uint64_t mask = ((uint64_t)1 << bits) - 1;
	fprintf(f, "sums of %d (low %d bits must be zero):\n", group, bits);
	for (int i = 0; i < EQUIX_NUM_IDX; i += group) {
		uint64_t sum = 0;
		for (int j = i; j < i + group; j++)
			sum += h[j];
		fprintf(f,
			"  H[%d..%d] = %016" PRIx64 "  low bits %0*" PRIx64
			"\n",
			i, i + group - 1, sum, (bits + 3) / 4, sum & mask);
	}
}

/* One solution of a challenge with its leaves' hashes, as the equix-check
 * and equix-stages examples show it. */
typedef struct equix_example {
	uint8_t challenge[MAX_VALUE];
	size_t len;
	uint64_t k;
	equix_solutions_buffer sols;
	uint64_t h[EQUIX_NUM_IDX];
} equix_example;

/* Loads challenge= (or challenge_hex=) and solution=K, and prints the
 * heading lines (the challenge, then "solution K: indices" unended). */
static const equix_solution *equix_example_load(const params *p,
						equix_example *e, FILE *f)
{
	if (bytes_param(p, "challenge", e->challenge, sizeof e->challenge,
			&e->len) < 0 ||
	    uint_param(p, "solution", &e->k) ||
	    solve(e->challenge, e->len, &e->sols) < 0 || e->k >= e->sols.count)
		return NULL;
	const equix_solution *s = &e->sols.sols[e->k];
	if (equix_hashes(e->challenge, e->len, s, e->h) < 0)
		return NULL;
	print_seed(f, "challenge", e->challenge, e->len);
	fprintf(f, "solution %" PRIu64 ": ", e->k);
	print_indices(f, s);
	return s;
}

static int example_equix_check(const params *p, FILE *f)
{
	equix_example e;
	const equix_solution *s = equix_example_load(p, &e, f);
	const uint8_t *c = e.challenge;
	size_t n = e.len;
	const uint64_t *h = e.h;

	if (s == NULL)
		return -1;
	fprintf(f, "\n");
	for (int i = 0; i < EQUIX_NUM_IDX; i++)
		fprintf(f, "  H(%04x) = %016" PRIx64 "\n", s->idx[i], h[i]);
	print_sums(f, h, 2, 15);
	print_sums(f, h, 4, 30);
	print_sums(f, h, 8, 60);
	equix_ctx *ctx = equix_alloc(EQUIX_CTX_VERIFY);
	equix_result r = ctx ? equix_verify(ctx, c, n, s) : EQUIX_FAIL_INTERNAL;
	equix_free(ctx);
	fprintf(f, "equix_verify: %s\n", r == EQUIX_OK ? "EQUIX_OK" : "FAIL");
	return r == EQUIX_OK ? 0 : -1;
}

/* One comparison of section 4: left and right subtree keys of `n` leaves
 * starting at positions `p` and `p + n`. */
static int print_order(FILE *f, const equix_solution *s, int p, int n)
{
	uint64_t l = equix_subtree_key(&s->idx[p], n);
	uint64_t r = equix_subtree_key(&s->idx[p + n], n);
	int ok = equix_subtrees_ordered(&s->idx[p], &s->idx[p + n], n);

	fprintf(f, "  key%d(%d) = %0*" PRIx64 " %s key%d(%d) = %0*" PRIx64 "\n",
		n, p, 4 * n, l, ok ? "<=" : "> ", n, p + n, 4 * n, r);
	return ok;
}

/* Names a subtree of `n` leaves at position `p`: "090c", "090c,94cf" or
 * "090c..e59c" (first and last leaf). */
static void subtree_name(char *out, size_t cap, const equix_solution *s, int p,
			 int n)
{
	if (n == 1)
		snprintf(out, cap, "%04x", s->idx[p]);
	else
		snprintf(out, cap, "%04x%s%04x", s->idx[p], n == 2 ? "," : "..",
			 s->idx[p + n - 1]);
}

/* Section 5.1's fields of a tree sum at level k. */
static unsigned coarse_of(uint64_t t, int k)
{
	return (unsigned)(t >> (15 * k)) & 255;
}

static unsigned fine_of(uint64_t t, int k)
{
	return (unsigned)(t >> (15 * k + 8)) & 127;
}

/*
 * How stage k+1 (section 5.3) joins the two level-k subtrees of `n` = 2^k
 * leaves at `p` and `p + n`: their sums and fields, the bucket b it meets
 * them in, and the left item's g, which must be the right item's fine
 * field. Fails if the sums do not fit the rule (they always should).
 */
static int print_join(FILE *f, const equix_solution *s, const uint64_t *h,
		      int p, int k)
{
	int n = 1 << k;
	uint64_t t[2] = {0, 0};
	unsigned coarse[2], fine[2];
	char name[2][16], label[24];

	for (int side = 0; side < 2; side++) {
		for (int i = 0; i < n; i++)
			t[side] += h[p + side * n + i];
		coarse[side] = coarse_of(t[side], k);
		fine[side] = fine_of(t[side], k);
		subtree_name(name[side], sizeof name[side], s, p + side * n, n);
		snprintf(label, sizeof label, "T(%s)", name[side]);
		fprintf(f, "  %-14s = %016" PRIx64 "  coarse %3u  fine %3u\n",
			label, t[side], coarse[side], fine[side]);
	}
	/* The left item is the one in bucket b <= 128; for b = 0 and 128
	 * both are, and the left one is whichever was inserted later. */
	int left = coarse[0] <= 128 ? 0 : 1;
	if (coarse[0] == coarse[1])
		left = 0;
	unsigned b = coarse[left], c = b != 0;
	unsigned g = (128 - (fine[left] + c) % 128) % 128;
	if ((coarse[0] + coarse[1]) % 256 != 0 || g != fine[1 - left])
		return -1;
	fprintf(f, "    b = %u, cb = %u, c = %u, left (%s): ", b,
		(256 - b) % 256, c,
		coarse[0] == coarse[1] ? "the later-inserted" : name[left]);
	fprintf(f, "g = (128 - (%u + %u)) mod 128 = %u\n", fine[left], c, g);
	return 0;
}

/*
 * The solver's path to one solution, read back from its leaves' hashes:
 * the seven order comparisons, then each join of stages 1-3 with the
 * fields of section 5.1, then stage 3's test of bits 45-59.
 */
static int example_equix_stages(const params *p, FILE *f)
{
	uint64_t all = 0;
	equix_example e;
	static const int cmp[7][2] = {{0, 4}, {0, 2}, {4, 2}, {0, 1},
				      {2, 1}, {4, 1}, {6, 1}};
	const equix_solution *s = equix_example_load(p, &e, f);
	const uint64_t *h = e.h;

	if (s == NULL)
		return -1;
	fprintf(f, "\norder (section 4):\n");
	int ordered = 1;
	for (int i = 0; i < 7; i++)
		ordered &= print_order(f, s, cmp[i][0], cmp[i][1]);
	if (ordered != equix_solution_ordered(s))
		return -1;
	fprintf(f, "  %s\n", ordered ? "in tree order" : "NOT in tree order");
	for (int lvl = 0; lvl < 3; lvl++) {
		fprintf(f,
			"stage %d (coarse_%d = bits %d-%d, fine_%d = bits "
			"%d-%d):\n",
			lvl + 1, lvl, 15 * lvl, 15 * lvl + 7, lvl, 15 * lvl + 8,
			15 * lvl + 14);
		for (int i = 0; i < EQUIX_NUM_IDX; i += 2 << lvl)
			if (print_join(f, s, h, i, lvl) < 0)
				return -1;
	}
	for (int i = 0; i < EQUIX_NUM_IDX; i++)
		all += h[i];
	uint64_t top = (all >> 45) & 0x7fff;
	fprintf(f, "sum %016" PRIx64 ": bits 45-59 = %04" PRIx64 ", %s\n", all,
		top, top == 0 ? "a solution" : "discarded");
	return top == 0 ? 0 : -1;
}

/* ---- PoW v1
 * ------------------------------------------------------------------ */

typedef struct pow_input {
	uint8_t id[EQUIX_POW_ID_LEN], seed[EQUIX_POW_SEED_LEN];
	uint8_t nonce[EQUIX_POW_NONCE_LEN];
	uint32_t effort;
} pow_input;

static int pow_input_load(const params *p, pow_input *in)
{
	uint64_t effort;
	if (parse_hex(param(p, "id"), in->id, sizeof in->id) < 0 ||
	    parse_hex(param(p, "seed"), in->seed, sizeof in->seed) < 0 ||
	    parse_hex(param(p, "nonce"), in->nonce, sizeof in->nonce) < 0 ||
	    uint_param(p, "effort", &effort) || effort > UINT32_MAX)
		return -1;
	in->effort = (uint32_t)effort;
	return 0;
}

static void print_field(FILE *f, const char *label, const uint8_t *b, size_t n)
{
	fprintf(f, "  %-3s ", label);
	print_hex(f, b, n);
	fprintf(f, "\n");
}

static void print_challenge(FILE *f, const uint8_t *c)
{
	fprintf(f, "challenge (100 bytes) = P || ID || C || N || E:\n");
	print_field(f, "P", c, 16);
	print_field(f, "ID", c + 16, 32);
	print_field(f, "C", c + 48, 32);
	print_field(f, "N", c + 80, 16);
	print_field(f, "E", c + 96, 4);
}

/* One nonce of the client's search; 1 when a solution won. */
static int pow_try_nonce(FILE *f, const pow_input *in, const uint8_t *nonce,
			 uint8_t *winner)
{
	uint8_t c[EQUIX_POW_CHALLENGE_LEN], wire[EQUIX_SOLUTION_BYTES];
	equix_solutions_buffer sols;

	equix_pow_challenge_build(c, in->id, in->seed, nonce, in->effort);
	fprintf(f, "nonce ");
	print_hex(f, nonce, EQUIX_POW_NONCE_LEN);
	if (solve(c, sizeof c, &sols) < 0) {
		fprintf(f, ": no HashX program, next nonce\n");
		return 0;
	}
	fprintf(f, ": %u solution%s\n", sols.count, sols.count == 1 ? "" : "s");
	for (unsigned i = 0; i < sols.count; i++) {
		equix_solution_pack(&sols.sols[i], wire);
		uint32_t r = equix_pow_effort_hash(c, wire);
		int pass = (uint64_t)r * in->effort <= UINT32_MAX;
		fprintf(f, "  ");
		print_hex(f, wire, sizeof wire);
		fprintf(f, "  R = %08" PRIx32 "  R * E = %" PRIu64 "  %s\n", r,
			(uint64_t)r * in->effort, pass ? "passes" : "fails");
		if (pass) {
			memcpy(winner, wire, sizeof wire);
			return 1;
		}
	}
	return 0;
}

static int pow_search(FILE *f, const pow_input *in, uint8_t *nonce,
		      uint8_t *solution)
{
	memcpy(nonce, in->nonce, EQUIX_POW_NONCE_LEN);
	for (int tries = 0; tries < 64; tries++) {
		if (pow_try_nonce(f, in, nonce, solution))
			return 0;
		equix_pow_nonce_add(nonce, 1);
	}
	return -1;
}

/*
 * The service's checks of section 6 on a decoded proof, step by step, for
 * a service that knows `in->seed` and has recorded nothing yet: the seed
 * head, the (empty) replay set, the effort test, then equix_verify.
 */
static void print_service_steps(FILE *f, const pow_input *in,
				const equix_pow_solution *got)
{
	uint8_t c[EQUIX_POW_CHALLENGE_LEN];
	equix_solution s;

	equix_pow_challenge_build(c, in->id, in->seed, got->nonce, got->effort);
	uint32_t r = equix_pow_effort_hash(c, got->solution);
	uint64_t re = (uint64_t)r * got->effort;
	int head = memcmp(got->seed_head, in->seed, EQUIX_POW_SEED_HEAD_LEN);
	equix_solution_unpack(got->solution, &s);
	equix_ctx *ctx = equix_alloc(EQUIX_CTX_VERIFY);
	equix_result v =
		ctx ? equix_verify(ctx, c, sizeof c, &s) : EQUIX_FAIL_INTERNAL;
	equix_free(ctx);
	fprintf(f, "service's checks (section 6):\n");
	fprintf(f, "  1 seed head: ");
	print_hex(f, got->seed_head, EQUIX_POW_SEED_HEAD_LEN);
	fprintf(f, " %s the current seed's first 4 bytes\n",
		head == 0 ? "matches" : "does not match");
	fprintf(f, "  2 replay: nonce not in the seed's (empty) replay set\n");
	fprintf(f,
		"  3 effort: R = %08" PRIx32 ", R * E = %" PRIu64 " %s %" PRIu32
		"\n",
		r, re, re <= UINT32_MAX ? "<=" : ">", UINT32_MAX);
	fprintf(f, "  4 reserve: the nonce goes into that set\n");
	fprintf(f, "  5 equix_verify(");
	print_indices(f, &s);
	fprintf(f, "): %s\n", v == EQUIX_OK ? "EQUIX_OK" : "fails");
}

/* The library's own solver and service must agree with the walk above. */
static int pow_cross_check(FILE *f, const pow_input *in, const uint8_t *nonce,
			   const uint8_t *solution)
{
	equix_pow_solution proof, got;
	uint8_t body[EQUIX_POW_EXTENSION_LEN];

	if (equix_pow_solve(in->id, in->seed, in->effort, in->nonce, NULL,
			    &proof, NULL) != EQUIX_POW_OK ||
	    memcmp(proof.nonce, nonce, EQUIX_POW_NONCE_LEN) != 0 ||
	    memcmp(proof.solution, solution, EQUIX_POW_SOLUTION_LEN) != 0)
		return -1;
	equix_pow_extension_encode(&proof, body);
	fprintf(f, "extension body (41 bytes) = version || N || E || seed "
		   "head || S:\n  ");
	print_hex(f, body, sizeof body);
	fprintf(f, "\n");
	equix_pow_service *svc =
		equix_pow_service_alloc(in->id, in->seed, 0, 0);
	if (svc == NULL || equix_pow_extension_decode(body, sizeof body,
						      &got) != EQUIX_POW_OK) {
		equix_pow_service_free(svc);
		return -1;
	}
	print_service_steps(f, in, &got);
	equix_pow_result first = equix_pow_service_verify(svc, NULL, &got);
	equix_pow_result again = equix_pow_service_verify(svc, NULL, &got);
	equix_pow_service_free(svc);
	fprintf(f, "service: %s; the same proof again: %s\n",
		equix_pow_result_string(first), equix_pow_result_string(again));
	return first == EQUIX_POW_OK ? 0 : -1;
}

static int example_pow(const params *p, FILE *f)
{
	pow_input in;
	uint8_t c[EQUIX_POW_CHALLENGE_LEN], nonce[EQUIX_POW_NONCE_LEN];
	uint8_t solution[EQUIX_POW_SOLUTION_LEN];

	if (pow_input_load(p, &in) < 0)
		return -1;
	equix_pow_challenge_build(c, in.id, in.seed, in.nonce, in.effort);
	fprintf(f, "effort E = %" PRIu32 "\n", in.effort);
	print_challenge(f, c);
	if (pow_search(f, &in, nonce, solution) < 0)
		return -1;
	fprintf(f, "proof: nonce ");
	print_hex(f, nonce, sizeof nonce);
	fprintf(f, ", effort %" PRIu32 ", seed head ", in.effort);
	print_hex(f, in.seed, EQUIX_POW_SEED_HEAD_LEN);
	fprintf(f, ", solution ");
	print_hex(f, solution, sizeof solution);
	fprintf(f, "\n");
	return pow_cross_check(f, &in, nonce, solution);
}

static int example_pow_params(const params *p, FILE *f)
{
	equix_pow_params pp, back;
	uint64_t effort, expiration;
	char line[EQUIX_POW_PARAMS_MAX_LEN + 1];

	if (parse_hex(param(p, "seed"), pp.seed, sizeof pp.seed) < 0 ||
	    uint_param(p, "effort", &effort) || effort > UINT32_MAX ||
	    uint_param(p, "expiration", &expiration) || expiration > INT64_MAX)
		return -1;
	pp.suggested_effort = (uint32_t)effort;
	pp.expiration = (int64_t)expiration;
	if (equix_pow_params_format(&pp, line, sizeof line) != EQUIX_POW_OK ||
	    equix_pow_params_parse(line, strlen(line), &back) != EQUIX_POW_OK ||
	    memcmp(&back.seed, pp.seed, sizeof pp.seed) != 0 ||
	    back.expiration != pp.expiration)
		return -1;
	fprintf(f, "%s\n", line);
	return 0;
}

/* ---- Dispatch and checking
 * ---------------------------------------------------- */

static const struct kind {
	const char *name;
	int (*print)(const params *p, FILE *f);
} kinds[] = {
	{"hashx-keys", example_hashx_keys},
	{"hashx-rng", example_hashx_rng},
	{"hashx-program", example_hashx_program},
	{"hashx-gen-words", example_hashx_gen_words},
	{"hashx-trace", example_hashx_trace},
	{"hashx-hash", example_hashx_hash},
	{"hashwx-keys", example_hashwx_keys},
	{"hashwx-words", example_hashwx_words},
	{"hashwx-program", example_hashwx_program},
	{"hashwx-permutations", example_hashwx_permutations},
	{"hashwx-trace", example_hashwx_trace},
	{"hashwx-hash", example_hashwx_hash},
	{"equix-solve", example_equix_solve},
	{"equix-check", example_equix_check},
	{"equix-stages", example_equix_stages},
	{"pow-example", example_pow},
	{"pow-params", example_pow_params},
};

/* The example's text in a malloc'ed string, or NULL. */
static char *render(const char *kind, const params *p)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	int rc = -1;

	if (f == NULL)
		return NULL;
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (strcmp(kinds[i].name, kind) == 0)
			rc = kinds[i].print(p, f);
	fclose(f);
	if (rc < 0) {
		free(text);
		return NULL;
	}
	return text;
}

static int print_one(int argc, char **argv)
{
	char joined[2048] = "";
	params p;

	for (int i = 3; i < argc; i++) {
		/* Re-quote values with spaces, as a document would. */
		const char *eq = strchr(argv[i], '=');
		size_t used = strlen(joined);
		if (eq != NULL && strchr(eq, ' ') != NULL)
			snprintf(joined + used, sizeof joined - used,
				 " %.*s\"%s\"", (int)(eq - argv[i] + 1),
				 argv[i], eq + 1);
		else
			snprintf(joined + used, sizeof joined - used, " %s",
				 argv[i]);
	}
	char *text = parse_params(joined, &p) == 0 ? render(argv[2], &p) : NULL;
	if (text == NULL) {
		fprintf(stderr,
			"doc-examples: cannot print %s with those "
			"parameters\n",
			argv[2]);
		return 2;
	}
	fputs(text, stdout);
	free(text);
	return 0;
}

typedef struct tally {
	int checks, failures;
} tally;

/* Reads the fenced block after a marker into a malloc'ed string. */
static char *read_block(FILE *doc, int *line_no)
{
	char *line = NULL, *text = NULL;
	size_t cap = 0, size = 0;
	FILE *out = open_memstream(&text, &size);
	int open = 0;

	while (out != NULL && getline(&line, &cap, doc) > 0) {
		(*line_no)++;
		if (strncmp(line, "```", 3) == 0) {
			if (open++)
				break;
			continue;
		}
		if (!open)
			break; /* no fence right after the marker */
		fputs(line, out);
	}
	free(line);
	if (out != NULL)
		fclose(out);
	if (open < 2) {
		free(text);
		return NULL;
	}
	return text;
}

/* "<!-- example KIND key=value ... -->": the kind and the parameters. */
static int parse_marker(const char *marker, char *kind, size_t kind_size,
			params *p)
{
	char body[1024];
	const char *start = marker + strlen("<!-- example ");
	const char *end = strstr(start, "-->");

	if (end == NULL || (size_t)(end - start) >= sizeof body)
		return -1;
	memcpy(body, start, (size_t)(end - start));
	body[end - start] = '\0';
	size_t k = strcspn(body, " ");
	if (k == 0 || k >= kind_size)
		return -1;
	memcpy(kind, body, k);
	kind[k] = '\0';
	return parse_params(body + k, p);
}

static void check_marker(const char *file, int line_no, const char *marker,
			 FILE *doc, int *doc_line, tally *t)
{
	char kind[64];
	params p;
	int parsed = parse_marker(marker, kind, sizeof kind, &p) == 0;
	char *want = read_block(doc, doc_line);
	char *got = parsed ? render(kind, &p) : NULL;

	t->checks++;
	if (want != NULL && got != NULL && strcmp(want, got) == 0) {
		printf("PASS: %s:%d: example %s\n", file, line_no, kind);
	} else {
		printf("FAIL: %s:%d: example %s\n", file, line_no,
		       !parsed        ? "marker is malformed"
		       : want == NULL ? "has no fenced block right after it"
		       : got == NULL  ? "cannot be computed"
				      : "differs; the library computes:");
		if (want != NULL && got != NULL)
			fputs(got, stdout);
		t->failures++;
	}
	free(want);
	free(got);
}

static void check_file(const char *path, tally *t)
{
	FILE *doc = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	int line_no = 0, found = 0;

	if (doc == NULL) {
		printf("FAIL: %s: cannot open\n", path);
		t->checks++;
		t->failures++;
		return;
	}
	while (getline(&line, &cap, doc) > 0) {
		line_no++;
		if (strncmp(line, "<!-- example ", 13) == 0) {
			found++;
			check_marker(path, line_no, line, doc, &line_no, t);
		}
	}
	free(line);
	fclose(doc);
	if (found == 0) {
		printf("FAIL: %s: no worked examples\n", path);
		t->checks++;
		t->failures++;
	}
}

static int check_files(int n, char **files)
{
	tally t = {0, 0};
	for (int i = 0; i < n; i++)
		check_file(files[i], &t);
	printf("%d%%: Checks: %d, Failures: %d, Errors: 0\n",
	       t.checks ? 100 * (t.checks - t.failures) / t.checks : 0,
	       t.checks, t.failures);
	return t.failures ? 1 : 0;
}

static int check_default_docs(void)
{
	static const char *const names[] = {"hashx.md", "hashwx.md",
					    "equix.md", "pow-v1.md"};
	const char *dir = getenv("DOC_DIR");
	char paths[4][4096];
	char *files[4];

	if (strcmp(HASHX_SALT, "HashX v1") != 0) {
		printf("SKIP: the examples use the reference salt, this build "
		       "has \"%s\"\n",
		       HASHX_SALT);
		return 77;
	}
	if (dir == NULL)
		dir = DOC_DIR_DEFAULT;
	for (int i = 0; i < 4; i++) {
		snprintf(paths[i], sizeof paths[i], "%s/%s", dir, names[i]);
		files[i] = paths[i];
	}
	return check_files(4, files);
}

int main(int argc, char **argv)
{
	if (argc == 1)
		return check_default_docs();
	if (argc >= 3 && strcmp(argv[1], "print") == 0)
		return print_one(argc, argv);
	if (argc >= 3 && strcmp(argv[1], "check") == 0)
		return check_files(argc - 2, argv + 2);
	fprintf(stderr, "usage: doc-examples [print KIND [key=value ...] | "
			"check FILE...]\n");
	return 2;
}

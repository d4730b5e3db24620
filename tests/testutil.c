/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * testutil.c - small helpers shared by the unit tests.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <hashx.h>

#include "program.h"
#include "testutil.h"

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

long tu_hex_decode(const char *hex, uint8_t *out, size_t cap)
{
	size_t len = strlen(hex);

	if (strcmp(hex, "-") == 0)
		return 0;
	if (len % 2 != 0 || len / 2 > cap)
		return -1;
	for (size_t i = 0; i < len / 2; i++) {
		int hi = hex_value(hex[2 * i]), lo = hex_value(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return (long)(len / 2);
}

void tu_hex_encode(const uint8_t *in, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < len; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * len] = '\0';
}

FILE *tu_open_vector(const char *name)
{
	const char *dir = getenv("VECTOR_DIR");
	char path[4096];

	if (dir == NULL)
		dir = VECTOR_DIR_DEFAULT;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	return fopen(path, "r");
}

int tu_hashx_vector_parse(char *line, tu_hashx_vector *v)
{
	char *save, *tag = strtok_r(line, " \n", &save);
	char *seed_hex = strtok_r(NULL, " \n", &save);
	char *status = strtok_r(NULL, " \n", &save);
	long len;

	if (tag == NULL || strcmp(tag, "hashx") != 0 || seed_hex == NULL ||
	    status == NULL)
		return -1;
	len = tu_hex_decode(seed_hex, v->seed, sizeof v->seed);
	if (len < 0)
		return -1;
	v->seed_len = (size_t)len;
	v->pairs = 0;
	if (strcmp(status, "fail-seed") == 0) {
		v->ok = 0;
		return 0;
	}
	if (strcmp(status, "ok") != 0)
		return -1;
	v->ok = 1;
	for (char *tok; (tok = strtok_r(NULL, " \n", &save)) != NULL;) {
		char *colon = strchr(tok, ':'), *end;

		if (colon == NULL || v->pairs == TU_MAX_PAIRS)
			return -1;
		*colon = '\0';
		v->nonce[v->pairs] = strtoull(tok, &end, 16);
		if (*end != '\0' ||
		    tu_hex_decode(colon + 1, v->hash[v->pairs], 32) != 32)
			return -1;
		v->pairs++;
	}
	return v->pairs > 0 ? 0 : -1;
}

int tu_hashx_vector_find(const char *name, const char *seed_hex,
			 tu_hashx_vector *v)
{
	static char line[8192];
	FILE *f = tu_open_vector(name);
	size_t n = strlen(seed_hex);
	int ret = -1;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL) {
		/* "hashx " + seed + separator */
		if (strncmp(line, "hashx ", 6) == 0 &&
		    strncmp(line + 6, seed_hex, n) == 0 && line[6 + n] == ' ') {
			ret = tu_hashx_vector_parse(line, v);
			break;
		}
	}
	fclose(f);
	return ret;
}

int tu_hashx_vector_each(const char *name,
			 void (*fn)(const tu_hashx_vector *v, void *user),
			 void *user)
{
	FILE *f = tu_open_vector(name);
	char *line = NULL;
	size_t cap = 0;
	int lines = 0;

	ck_assert_msg(f != NULL, "cannot open vector file %s", name);
	while (getline(&line, &cap, f) > 0) {
		tu_hashx_vector v;

		ck_assert_int_eq(tu_hashx_vector_parse(line, &v), 0);
		fn(&v, user);
		lines++;
	}
	free(line);
	fclose(f);
	return lines;
}

int tu_is_reference_salt(void)
{
	return strcmp(HASHX_SALT, "HashX v1") == 0;
}

void tu_skip_unless_reference_salt(const char *program)
{
	if (tu_is_reference_salt())
		return;
	printf("SKIP: %s compares with the reference vectors, which use the "
	       "salt \"HashX v1\"; this build uses \"%s\"\n", program,
	       HASHX_SALT);
	exit(77);
}

static int env_flag(const char *name)
{
	const char *e = getenv(name);

	return e != NULL && *e != '\0' && strcmp(e, "0") != 0;
}

int tu_emulated(void)
{
	return env_flag("EQUIX_TEST_EMULATED");
}

int tu_valgrind(void)
{
	return env_flag("EQUIX_TEST_VALGRIND");
}

int tu_slow_runner(void)
{
	return tu_emulated() || tu_valgrind();
}

int tu_count(int n)
{
	return tu_valgrind() && n >= 20 ? n / 20 : n;
}

int tu_run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#define MAX_SEED 1024

/* Runs one vector line; returns a description of the first mismatch, or
 * NULL. `lines` counts the vectors checked. */
static const char *check_line(hashx_ctx *ctx, char *line, char *why,
			      size_t why_len)
{
	uint8_t seed[MAX_SEED], want[32], got[HASHX_SIZE];
	char *save, *tag = strtok_r(line, " \n", &save);
	char *seed_hex = strtok_r(NULL, " \n", &save);
	char *status = strtok_r(NULL, " \n", &save);
	long seed_len;
	hashx_result res;

	if (tag == NULL || strcmp(tag, "hashx") != 0 || seed_hex == NULL ||
	    status == NULL)
		return "malformed line";
	seed_len = tu_hex_decode(seed_hex, seed, sizeof seed);
	if (seed_len < 0)
		return "malformed seed";
	res = hashx_make(ctx, seed, (size_t)seed_len);
	if (strcmp(status, "fail-seed") == 0) {
		snprintf(why, why_len, "seed %s: want HASHX_FAIL_SEED, got %d",
			 seed_hex, (int)res);
		return res == HASHX_FAIL_SEED ? NULL : why;
	}
	if (strcmp(status, "ok") != 0)
		return "unknown status";
	if (res != HASHX_OK) {
		snprintf(why, why_len, "seed %s: make gave %d", seed_hex,
			 (int)res);
		return why;
	}
	int pairs = 0;
	for (char *tok; (tok = strtok_r(NULL, " \n", &save)) != NULL;) {
		char *colon = strchr(tok, ':');
		uint64_t nonce;

		if (colon == NULL)
			return "malformed nonce:hash";
		*colon = '\0';
		nonce = strtoull(tok, NULL, 16);
		if (tu_hex_decode(colon + 1, want, sizeof want) != 32)
			return "malformed hash";
		if (hashx_exec(ctx, nonce, got) != HASHX_OK)
			return "exec failed";
		if (memcmp(got, want, HASHX_SIZE) != 0) {
			char hex[65];

			tu_hex_encode(got, HASHX_SIZE, hex);
			snprintf(why, why_len, "seed %s nonce %s: got %s want %s",
				 seed_hex, tok, hex, colon + 1);
			return why;
		}
		pairs++;
	}
	return pairs > 0 ? NULL : "no nonce:hash pairs";
}

int tu_check_hashx_vectors(hashx_ctx *ctx, const char *name,
			   hashx_type want_type, int *fail_seeds)
{
	static char line[8192];
	char why[512];
	FILE *f = tu_open_vector(name);
	int lines = 0;

	ck_assert_msg(f != NULL, "cannot open vector file %s", name);
	*fail_seeds = 0;
	while (fgets(line, sizeof line, f) != NULL) {
		int fail_seed = strstr(line, "fail-seed") != NULL;
		const char *err = check_line(ctx, line, why, sizeof why);
		hashx_type type;

		ck_assert_msg(err == NULL, "%s line %d: %s", name, lines + 1,
			      err);
		if (!fail_seed && want_type != 0) {
			ck_assert_int_eq(hashx_query_type(ctx, &type),
					 HASHX_OK);
			ck_assert_msg(type == want_type,
				      "%s line %d: runs as type %d, want %d",
				      name, lines + 1, (int)type,
				      (int)want_type);
		}
		lines++;
		*fail_seeds += fail_seed;
	}
	fclose(f);
	return lines;
}


void tu_program_clear(hashx_program *p)
{
	memset(p, 0, sizeof *p);
}

void tu_program_emit(hashx_program *p, int opcode, int dst, int src,
		     uint32_t imm)
{
	hashx_instr *in = &p->code[p->size++];

	in->opcode = (uint8_t)opcode;
	in->dst = (uint8_t)dst;
	in->src = (uint8_t)src;
	in->unused = 0;
	in->imm = imm;
}

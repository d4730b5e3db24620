/*
 * testutil.c - small helpers shared by the unit tests.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

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

static int parse_vector_line(char *line, tu_hashx_vector *v)
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
			ret = parse_vector_line(line, v);
			break;
		}
	}
	fclose(f);
	return ret;
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

int tu_run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

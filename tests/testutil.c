/*
 * testutil.c - small helpers shared by the unit tests.
 */
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

int tu_run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

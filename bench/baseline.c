/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * baseline.c - saving and strictly reading the baseline files.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "baseline.h"
#include "json.h"

#define FORMAT_NAME "equix-bench-baseline"
#define FORMAT_VERSION 1
/* Larger files are not ours: 100,000 samples at most. */
#define MAX_SAMPLES 100000
#define MAX_FILE (8u << 20)

int bench_baseline_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > 64 || name[0] == '.')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '.' &&
		    name[i] != '_' && name[i] != '-')
			return 0;
	return 1;
}

int bench_make_dirs(const char *dir)
{
	char path[4096];
	size_t n = strlen(dir);

	if (n == 0 || n >= sizeof path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(path, dir, n + 1);
	for (size_t i = 1; i <= n; i++) {
		if (path[i] != '/' && path[i] != '\0')
			continue;
		char c = path[i];
		path[i] = '\0';
		if (mkdir(path, 0777) < 0 && errno != EEXIST)
			return -1;
		path[i] = c;
	}
	return 0;
}

/* RESULTS/<bench with '/' as '_'> into dir, and the file in path. */
static void paths(const char *results, const char *bench, const char *baseline,
		  char *dir, char *path, size_t size)
{
	int n = snprintf(dir, size, "%s/", results);

	for (const char *p = bench; *p != '\0' && (size_t)n + 1 < size; p++)
		dir[n++] = *p == '/' ? '_' : *p;
	dir[n] = '\0';
	snprintf(path, size, "%s/%s.json", dir, baseline);
}

int bench_baseline_save(const char *results, const char *bench,
			const char *baseline, const bench_samples *s, char *err,
			size_t err_size)
{
	char dir[4096], path[4200];
	FILE *f;

	paths(results, bench, baseline, dir, path, sizeof dir);
	if (bench_make_dirs(dir) < 0 || (f = fopen(path, "w")) == NULL) {
		snprintf(err, err_size, "cannot write %s: %s", path,
			 strerror(errno));
		return -1;
	}
	fprintf(f, "{\"format\": \"%s\", \"version\": %d,\n \"benchmark\": ",
		FORMAT_NAME, FORMAT_VERSION);
	bench_json_string(f, bench);
	fputs(", \"baseline\": ", f);
	bench_json_string(f, baseline);
	fputs(",\n \"iters\": ", f);
	bench_json_array(f, s->iters, s->n);
	fputs(",\n \"times\": ", f);
	bench_json_array(f, s->times, s->n);
	fputs("}\n", f);
	if (fclose(f) != 0) {
		snprintf(err, err_size, "cannot write %s: %s", path,
			 strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- The reader --------------------------------------------------- */

typedef struct parser {
	const char *p;
	const char *why; /* the first error */
} parser;

static void skip_ws(parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\n' || *ps->p == '\t' ||
	       *ps->p == '\r')
		ps->p++;
}

static int expect(parser *ps, char c, const char *why)
{
	skip_ws(ps);
	if (*ps->p != c) {
		ps->why = why;
		return -1;
	}
	ps->p++;
	return 0;
}

/* A string without escapes (we never write any in these files) into
 * out. */
static int parse_string(parser *ps, char *out, size_t size)
{
	size_t n = 0;

	if (expect(ps, '"', "expected a string") < 0)
		return -1;
	for (; *ps->p != '"'; ps->p++) {
		if (*ps->p == '\0' || *ps->p == '\\' ||
		    (unsigned char)*ps->p < 0x20 || n + 1 >= size) {
			ps->why = "bad string";
			return -1;
		}
		out[n++] = *ps->p;
	}
	ps->p++;
	out[n] = '\0';
	return 0;
}

/* A JSON number: -?digits[.digits][e[+-]digits], finite. */
static int parse_number(parser *ps, double *out)
{
	const char *s;
	char *end;

	skip_ws(ps);
	s = ps->p;
	if (*s == '-')
		s++;
	if (!isdigit((unsigned char)*s)) {
		ps->why = "expected a number";
		return -1;
	}
	errno = 0;
	*out = strtod(ps->p, &end);
	if (errno != 0 || !isfinite(*out) || end == ps->p) {
		ps->why = "bad number";
		return -1;
	}
	ps->p = end;
	return 0;
}

/* An array of 2..MAX_SAMPLES positive numbers. */
static int parse_array(parser *ps, double **out, size_t *n)
{
	size_t cap = 0;

	*n = 0;
	if (expect(ps, '[', "expected an array") < 0)
		return -1;
	for (;;) {
		double x;

		if (*n == cap) {
			double *p = NULL;

			if (cap < MAX_SAMPLES)
				p = realloc(*out, (cap = 2 * cap + 128) *
							  sizeof(double));
			if (p == NULL) {
				ps->why = cap >= MAX_SAMPLES
						  ? "too many samples"
						  : "out of memory";
				return -1;
			}
			*out = p;
		}
		if (parse_number(ps, &x) < 0)
			return -1;
		if (x <= 0) {
			ps->why = "a sample is not positive";
			return -1;
		}
		(*out)[(*n)++] = x;
		skip_ws(ps);
		if (*ps->p == ']') {
			ps->p++;
			return 0;
		}
		if (expect(ps, ',', "expected ',' or ']'") < 0)
			return -1;
	}
}

/* The whole object; `seen` bits: format, version, benchmark, baseline,
 * iters, times. */
static int parse_object(parser *ps, const char *bench, const char *baseline,
			bench_samples *s)
{
	unsigned seen = 0;
	size_t n_iters = 0;
	char key[32], str[256];
	double x;

	if (expect(ps, '{', "expected '{'") < 0)
		return -1;
	for (;;) {
		unsigned bit;

		if (parse_string(ps, key, sizeof key) < 0 ||
		    expect(ps, ':', "expected ':'") < 0)
			return -1;
		if (strcmp(key, "version") == 0) {
			bit = 2;
			if (parse_number(ps, &x) < 0)
				return -1;
			if (x != FORMAT_VERSION)
				ps->why = "unknown version";
		} else if (strcmp(key, "iters") == 0) {
			bit = 16;
			if (parse_array(ps, &s->iters, &n_iters) < 0)
				return -1;
		} else if (strcmp(key, "times") == 0) {
			bit = 32;
			if (parse_array(ps, &s->times, &s->n) < 0)
				return -1;
		} else {
			const char *want = NULL;

			if (strcmp(key, "format") == 0)
				want = FORMAT_NAME, bit = 1;
			else if (strcmp(key, "benchmark") == 0)
				want = bench, bit = 4;
			else if (strcmp(key, "baseline") == 0)
				want = baseline, bit = 8;
			if (want == NULL) {
				ps->why = "unknown key";
				return -1;
			}
			if (parse_string(ps, str, sizeof str) < 0)
				return -1;
			if (strcmp(str, want) != 0)
				ps->why = "another format, benchmark or "
					  "baseline";
		}
		if (ps->why != NULL)
			return -1;
		if (seen & bit) {
			ps->why = "duplicate key";
			return -1;
		}
		seen |= bit;
		skip_ws(ps);
		if (*ps->p == '}')
			break;
		if (expect(ps, ',', "expected ',' or '}'") < 0)
			return -1;
	}
	ps->p++;
	skip_ws(ps);
	if (*ps->p != '\0')
		ps->why = "text after the object";
	else if (seen != 63)
		ps->why = "missing key";
	else if (n_iters != s->n || s->n < 2)
		ps->why = "iters and times differ in length, or fewer than 2";
	return ps->why == NULL ? 0 : -1;
}

/* The file's text, NUL-terminated; NULL with errno set. */
static char *read_all(FILE *f)
{
	char *buf = malloc(MAX_FILE + 1);
	size_t n;

	if (buf == NULL)
		return NULL;
	n = fread(buf, 1, MAX_FILE + 1, f);
	if (ferror(f) || n > MAX_FILE || memchr(buf, '\0', n) != NULL) {
		free(buf);
		errno = EINVAL;
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

int bench_baseline_load(const char *results, const char *bench,
			const char *baseline, bench_samples *s, char *err,
			size_t err_size)
{
	char dir[4096], path[4200];
	parser ps = {NULL, NULL};
	FILE *f;
	char *text;

	memset(s, 0, sizeof *s);
	paths(results, bench, baseline, dir, path, sizeof dir);
	if ((f = fopen(path, "r")) == NULL) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, err_size, "cannot read %s: %s", path,
			 strerror(errno));
		return -1;
	}
	text = read_all(f);
	fclose(f);
	if (text == NULL) {
		snprintf(err, err_size, "cannot read %s: not a baseline file",
			 path);
		return -1;
	}
	ps.p = text;
	if (parse_object(&ps, bench, baseline, s) < 0) {
		snprintf(err, err_size,
			 "%s: malformed baseline (%s at byte "
			 "%ld)",
			 path, ps.why ? ps.why : "error", (long)(ps.p - text));
		free(text);
		free(s->iters);
		free(s->times);
		memset(s, 0, sizeof *s);
		return -1;
	}
	free(text);
	return 1;
}

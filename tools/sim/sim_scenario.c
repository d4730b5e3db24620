/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_scenario.c - the simulator's scenarios (sim.h): the defaults, the
 * built-in ones, and the JSON file format (doc/defence.md section 3),
 * read and written with jansson.
 *
 * One table of fields serves the reader, the writer and the range
 * checks, so the three cannot disagree about a key.
 */
#include <stddef.h>
#include <string.h>

#include <jansson.h>

#include "args.h"
#include "output.h"
#include "sim.h"

void sim_scenario_defaults(sim_scenario *s)
{
	memset(s, 0, sizeof *s);
	strcpy(s->name, "custom");
	s->duration_s = 3600;
	s->rate = 250;  /* Tor's HiddenServicePoWQueueRate */
	s->burst = 2500; /* and HiddenServicePoWQueueBurst */
	s->max_in_flight = 16;
	s->rend_s = 1.5;
	s->period_s = 300;
	s->publish_delay_s = 60;
	s->client_rate = 2;
	s->client_cpu = 1;
	s->patience_s = 90;
}

/* ---- The built-in scenarios ------------------------------------------ */

typedef struct builtin {
	const char *name, *description;
	void (*setup)(sim_scenario *s);
} builtin;

static sim_attacker *add_attacker(sim_scenario *s, sim_strategy strategy,
				  double rate, uint32_t cores)
{
	sim_attacker *a = &s->attackers[s->n_attackers++];

	memset(a, 0, sizeof *a);
	a->strategy = strategy;
	a->rate = rate;
	a->cores = cores;
	a->cpu = 1;
	return a;
}

static void no_attack(sim_scenario *s)
{
	(void)s;
}

/* Ten times what the bucket lets through, without proofs. */
static void flood(sim_scenario *s)
{
	add_attacker(s, SIM_FLOOD, 10.0 * s->rate, 0);
}

static void cores(sim_scenario *s)
{
	add_attacker(s, SIM_MATCH, 10.0 * s->rate, 64);
}

static void above(sim_scenario *s)
{
	add_attacker(s, SIM_ABOVE, 10.0 * s->rate, 64);
}

/* The cores attack for 10 minutes, then pauses 10 minutes: long enough
 * for the effort to rise and to decay again. */
static void bursty(sim_scenario *s)
{
	sim_attacker *a = add_attacker(s, SIM_MATCH, 10.0 * s->rate, 64);

	a->on_s = 600;
	a->off_s = 600;
	s->duration_s = 7200;
}

static const builtin builtins[] = {
	{"no-attack", "legitimate clients only (2 per second)", no_attack},
	{"flood", "an effort-0 flood at 10x the service's rate", flood},
	{"cores", "64 cores matching the suggested effort, at most 10x the "
		  "rate",
	 cores},
	{"above", "64 cores just above the suggested effort", above},
	{"bursty", "the cores attack, 10 minutes on, 10 minutes off", bursty},
};

bool sim_scenario_builtin(const char *name, sim_scenario *s)
{
	for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++) {
		if (strcmp(name, builtins[i].name) != 0)
			continue;
		sim_scenario_defaults(s);
		strcpy(s->name, builtins[i].name);
		snprintf(s->description, sizeof s->description, "%s",
			 builtins[i].description);
		builtins[i].setup(s);
		return true;
	}
	return false;
}

bool sim_scenario_list(void)
{
	for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
		if (!cli_printf("%-10s %s\n", builtins[i].name,
				builtins[i].description))
			return false;
	return true;
}

static const char *const strategies[] = {"flood", "fixed", "match",
					 "above"};

const char *sim_strategy_name(sim_strategy strategy)
{
	return strategies[strategy];
}

bool sim_strategy_parse(const char *text, sim_strategy *out)
{
	for (size_t i = 0; i < sizeof strategies / sizeof strategies[0]; i++)
		if (strcmp(text, strategies[i]) == 0) {
			*out = (sim_strategy)i;
			return true;
		}
	return false;
}

/* ---- The fields ------------------------------------------------------ */

typedef enum field_type { F_REAL, F_U32 } field_type;

typedef struct field {
	const char *key;
	field_type type;
	size_t offset; /* in sim_scenario, or in sim_attacker */
	double min, max;
} field;

#define SC(m) offsetof(sim_scenario, m)
#define AT(m) offsetof(sim_attacker, m)

static const field service_fields[] = {
	{"rate", F_U32, SC(rate), 0, 1e6},
	{"burst", F_U32, SC(burst), 0, 1e8},
	{"max_in_flight", F_U32, SC(max_in_flight), 1, 1e6},
	{"rend_s", F_REAL, SC(rend_s), 0.001, 600},
	{"verify_cost_us", F_REAL, SC(verify_cost_us), 0, 1e6},
	{"period_s", F_REAL, SC(period_s), 1, 86400},
	{"publish_delay_s", F_REAL, SC(publish_delay_s), 0, 86400},
	{NULL, F_REAL, 0, 0, 0},
};

static const field machine_fields[] = {
	{"solve_rate", F_REAL, SC(solve_rate), 0, 1e9},
	{"solutions_per_nonce", F_REAL, SC(solutions_per_nonce), 0, 100},
	{NULL, F_REAL, 0, 0, 0},
};

static const field client_fields[] = {
	{"rate", F_REAL, SC(client_rate), 0, 1e6},
	{"cpu", F_REAL, SC(client_cpu), 0.001, 1e6},
	{"patience_s", F_REAL, SC(patience_s), 0, 86400},
	{NULL, F_REAL, 0, 0, 0},
};

static const field attacker_fields[] = {
	{"rate", F_REAL, AT(rate), 0, 1e7},
	{"cores", F_U32, AT(cores), 0, 1e6},
	{"cpu", F_REAL, AT(cpu), 0.001, 1e6},
	{"effort", F_U32, AT(effort), 0, 4294967295.0},
	{"start_s", F_REAL, AT(start_s), 0, 1e7},
	{"on_s", F_REAL, AT(on_s), 0, 1e7},
	{"off_s", F_REAL, AT(off_s), 0, 1e7},
	{NULL, F_REAL, 0, 0, 0},
};

static const field top_fields[] = {
	{"duration_s", F_REAL, SC(duration_s), 1, 1e7},
	{NULL, F_REAL, 0, 0, 0},
};

static double field_get(const field *f, const void *base)
{
	const char *p = (const char *)base + f->offset;

	if (f->type == F_U32)
		return *(const uint32_t *)(const void *)p;
	return *(const double *)(const void *)p;
}

static void field_set(const field *f, void *base, double v)
{
	char *p = (char *)base + f->offset;

	if (f->type == F_U32)
		*(uint32_t *)(void *)p = (uint32_t)v;
	else
		*(double *)(void *)p = v;
}

/* ---- Reading --------------------------------------------------------- */

/* Where a value sits, for messages: "service.rate", "attackers[1].cores".
 */
typedef struct where {
	const char *path;
	char at[64];
} where;

/* The key may be the file's own (an unknown one): quoted. */
static bool bad(const where *w, const char *key, const char *what)
{
	cli_usage_error("pow simulate: %s: %s%s%s: %s", w->path, w->at,
			w->at[0] ? "." : "", cli_quote(key).text, what);
	return false;
}

static bool read_field(const where *w, const field *f, json_t *v, void *base)
{
	char what[96];
	double d;

	if (f->type == F_U32 ? !json_is_integer(v) : !json_is_number(v))
		d = -1e300;
	else
		d = json_number_value(v);
	if (!(d >= f->min && d <= f->max)) {
		snprintf(what, sizeof what, "expected %s from %g to %g",
			 f->type == F_U32 ? "an integer" : "a number", f->min,
			 f->max);
		return bad(w, f->key, what);
	}
	field_set(f, base, d);
	return true;
}

static const field *find_field(const field *fields, const char *key)
{
	for (const field *f = fields; f->key != NULL; f++)
		if (strcmp(f->key, key) == 0)
			return f;
	return NULL;
}

/* An object of `fields` only. */
static bool read_object(const where *w, const char *name, json_t *obj,
			const field *fields, void *base)
{
	where in = *w;
	const char *key;
	json_t *v;

	if (!json_is_object(obj))
		return bad(w, name, "expected an object");
	/* A section's keys are named with it: "service.rate". */
	if (name[0] != '\0')
		snprintf(in.at, sizeof in.at, "%s", name);
	json_object_foreach(obj, key, v) {
		const field *f = find_field(fields, key);
		if (f == NULL)
			return bad(&in, key, "unknown key");
		if (!read_field(&in, f, v, base))
			return false;
	}
	return true;
}

static bool read_string(const where *w, const char *key, json_t *v,
			char *out, size_t size)
{
	if (!json_is_string(v) || json_string_length(v) >= size ||
	    strlen(json_string_value(v)) != json_string_length(v))
		return bad(w, key, "expected a string, shorter than the limit");
	memcpy(out, json_string_value(v), json_string_length(v) + 1);
	return true;
}

static bool read_attacker(const char *path, size_t i, json_t *obj,
			  sim_attacker *a)
{
	where w = {path, ""};
	json_t *strategy = json_object_get(obj, "strategy");
	json_t *rest;
	bool ok;

	snprintf(w.at, sizeof w.at, "attackers[%zu]", i);
	memset(a, 0, sizeof *a);
	a->cpu = 1;
	if (!json_is_object(obj))
		return bad(&w, "", "expected an object");
	if (!json_is_string(strategy) ||
	    !sim_strategy_parse(json_string_value(strategy), &a->strategy))
		return bad(&w, "strategy",
			   "expected \"flood\", \"fixed\", \"match\" or "
			   "\"above\"");
	rest = json_copy(obj);
	if (rest == NULL)
		return bad(&w, "", "out of memory");
	json_object_del(rest, "strategy");
	ok = read_object(&w, "", rest, attacker_fields, a);
	json_decref(rest);
	return ok;
}

static bool read_attackers(const where *w, json_t *v, sim_scenario *s)
{
	size_t i;
	json_t *a;

	if (!json_is_array(v) || json_array_size(v) > SIM_MAX_ATTACKERS)
		return bad(w, "attackers", "expected an array of at most 4");
	s->n_attackers = json_array_size(v);
	json_array_foreach(v, i, a) {
		if (!read_attacker(w->path, i, a, &s->attackers[i]))
			return false;
	}
	return true;
}

static bool read_top(const where *w, const char *key, json_t *v,
		     sim_scenario *s)
{
	const field *f = find_field(top_fields, key);

	if (f != NULL)
		return read_field(w, f, v, s);
	if (strcmp(key, "name") == 0)
		return read_string(w, key, v, s->name, sizeof s->name);
	if (strcmp(key, "description") == 0)
		return read_string(w, key, v, s->description,
				   sizeof s->description);
	if (strcmp(key, "service") == 0)
		return read_object(w, key, v, service_fields, s);
	if (strcmp(key, "machine") == 0)
		return read_object(w, key, v, machine_fields, s);
	if (strcmp(key, "clients") == 0)
		return read_object(w, key, v, client_fields, s);
	if (strcmp(key, "attackers") == 0)
		return read_attackers(w, v, s);
	return bad(w, key, "unknown key");
}

/* jansson's message for a syntax error: "MESSAGE near 'TEXT'", where
 * TEXT is the file's own (a token, the start of a string), quoted. */
static void syntax_error(const char *path, const json_error_t *err)
{
	static const char near[] = " near '";
	const char *at = strstr(err->text, near);

	if (at == NULL) {
		cli_usage_error("pow simulate: %s: line %d: %s", path,
				err->line, err->text);
		return;
	}
	cli_usage_error("pow simulate: %s: line %d: %.*s%s%s", path, err->line,
			(int)(at - err->text), err->text, near,
			cli_quote(at + strlen(near)).text);
}

bool sim_scenario_load(const char *path, sim_scenario *s)
{
	where w = {path, ""};
	json_error_t err;
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &err);
	const char *key;
	json_t *v;
	bool ok = true;

	if (root == NULL) {
		if (err.line > 0)
			syntax_error(path, &err);
		else
			cli_usage_error("pow simulate: %s: %s", path,
					err.text);
		return false;
	}
	sim_scenario_defaults(s);
	if (!json_is_object(root))
		ok = bad(&w, "scenario", "expected an object");
	else
		json_object_foreach(root, key, v) {
			if (!(ok = read_top(&w, key, v, s)))
				break;
		}
	json_decref(root);
	return ok;
}

/* ---- Checks across fields -------------------------------------------- */

bool sim_scenario_check(const sim_scenario *s)
{
	if (s->rate > 0 && s->burst < s->rate) {
		cli_usage_error("pow simulate: the burst (%lu) must be at "
				"least the rate (%lu)",
				(unsigned long)s->burst,
				(unsigned long)s->rate);
		return false;
	}
	for (size_t i = 0; i < s->n_attackers; i++) {
		const sim_attacker *a = &s->attackers[i];
		if (a->strategy != SIM_FLOOD && a->cores == 0) {
			cli_usage_error("pow simulate: attacker %zu: a %s "
					"attacker needs at least one core",
					i, sim_strategy_name(a->strategy));
			return false;
		}
		if (a->off_s > 0 && a->on_s == 0) {
			cli_usage_error("pow simulate: attacker %zu: off_s "
					"needs on_s above 0",
					i);
			return false;
		}
	}
	return true;
}

/* ---- Writing --------------------------------------------------------- */

static int put_fields(json_t *obj, const field *fields, const void *base)
{
	int rc = 0;

	for (const field *f = fields; f->key != NULL; f++) {
		double v = field_get(f, base);
		rc |= json_object_set_new(obj, f->key,
					  f->type == F_U32
						  ? json_integer((json_int_t)v)
						  : json_real(v));
	}
	return rc;
}

static json_t *fields_object(const field *fields, const void *base)
{
	json_t *obj = json_object();

	if (obj != NULL && put_fields(obj, fields, base) != 0) {
		json_decref(obj);
		obj = NULL;
	}
	return obj;
}

static json_t *attacker_json(const sim_attacker *a)
{
	json_t *obj = json_object();

	if (obj == NULL ||
	    json_object_set_new(obj, "strategy",
				json_string(sim_strategy_name(a->strategy))) ||
	    put_fields(obj, attacker_fields, a) != 0) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

json_t *sim_scenario_json(const sim_scenario *s)
{
	json_t *root = json_object(), *att = json_array();
	int rc = root == NULL || att == NULL;

	if (rc == 0) {
		rc |= json_object_set_new(root, "name", json_string(s->name));
		rc |= json_object_set_new(root, "description",
					  json_string(s->description));
		rc |= put_fields(root, top_fields, s);
		rc |= json_object_set_new(root, "service",
					  fields_object(service_fields, s));
		rc |= json_object_set_new(root, "machine",
					  fields_object(machine_fields, s));
		rc |= json_object_set_new(root, "clients",
					  fields_object(client_fields, s));
		for (size_t i = 0; i < s->n_attackers; i++)
			rc |= json_array_append_new(
				att, attacker_json(&s->attackers[i]));
		rc |= json_object_set(root, "attackers", att);
	}
	json_decref(att);
	if (rc != 0) {
		json_decref(root);
		return NULL;
	}
	return root;
}

char *sim_scenario_dump(const sim_scenario *s)
{
	json_t *root = sim_scenario_json(s);
	char *text;

	if (root == NULL)
		return NULL;
	text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
					JSON_REAL_PRECISION(17));
	json_decref(root);
	return text;
}

/* ---- The keys, for --help ---------------------------------------------- */

/* The keys of `fields`, ", "-separated, a line broken before column 72
 * (the line so far is `*col` wide; a new one is indented by `indent`);
 * `sep`: whether a separator goes before the first key. */
static void put_keys(FILE *f, const field *fields, int *col, int indent,
		     bool sep)
{
	for (const field *k = fields; k->key != NULL; k++, sep = true) {
		int len = (int)strlen(k->key);

		if (sep && *col + 2 + len > 72)
			*col = fprintf(f, ",\n%*s", indent, "") - 2;
		else if (sep)
			*col += fprintf(f, ", ");
		*col += fprintf(f, "%s", k->key);
	}
}

/* One object key and its fields: `  "NAME": {a, b, c}`. */
static void put_group(FILE *f, const char *name, const field *fields,
		      const char *close)
{
	int col = fprintf(f, "   \"%s\": {", name);

	put_keys(f, fields, &col, 5, false);
	fprintf(f, "}%s\n", close);
}

void sim_scenario_keys(FILE *f)
{
	int col;

	fputs("\nA scenario file (doc/defence.md section 3); every key "
	      "optional:\n", f);
	col = fprintf(f, "  {\"name\", \"description\"");
	put_keys(f, top_fields, &col, 3, true);
	fputs(",\n", f);
	put_group(f, "service", service_fields, ",");
	put_group(f, "machine", machine_fields, ",");
	put_group(f, "clients", client_fields, ",");
	col = fprintf(f, "   \"attackers\": [{strategy: ");
	for (size_t i = 0; i < sizeof strategies / sizeof strategies[0]; i++)
		col += fprintf(f, "%s%s", i ? "|" : "", strategies[i]);
	put_keys(f, attacker_fields, &col, 5, true);
	fputs("}]}\n", f);
}

/* ---- Command-line overrides ------------------------------------------ */

typedef struct override {
	const char *option; /* without "--" */
	const field *fields;
	const char *key;
} override;

static const override overrides[] = {
	{"duration", top_fields, "duration_s"},
	{"rate", service_fields, "rate"},
	{"burst", service_fields, "burst"},
	{"in-flight", service_fields, "max_in_flight"},
	{"rend-time", service_fields, "rend_s"},
	{"period", service_fields, "period_s"},
	{"publish-delay", service_fields, "publish_delay_s"},
	{"verify-cost-us", service_fields, "verify_cost_us"},
	{"solve-rate", machine_fields, "solve_rate"},
	{"solutions-per-nonce", machine_fields, "solutions_per_nonce"},
	{"client-rate", client_fields, "rate"},
	{"client-cpu", client_fields, "cpu"},
	{"patience", client_fields, "patience_s"},
	{"attack-rate", attacker_fields, "rate"},
	{"attack-cores", attacker_fields, "cores"},
	{"attack-effort", attacker_fields, "effort"},
};

/* The text as the field's value, with the field's range. */
static bool parse_value(const char *name, const field *f, const char *text,
			double *v)
{
	uint64_t u;

	if (f->type == F_REAL)
		return cli_parse_decimal(name, text, f->min, f->max, v);
	if (!cli_parse_uint(name, text, (uint64_t)f->min, (uint64_t)f->max,
			    &u))
		return false;
	*v = (double)u;
	return true;
}

bool sim_scenario_override(sim_scenario *s, const char *option,
			   const char *text)
{
	char name[48];

	snprintf(name, sizeof name, "--%s", option);
	for (size_t i = 0; i < sizeof overrides / sizeof overrides[0]; i++) {
		const override *o = &overrides[i];
		const field *f = find_field(o->fields, o->key);
		double v;
		if (strcmp(o->option, option) != 0)
			continue;
		if (!parse_value(name, f, text, &v))
			return false;
		if (o->fields != attacker_fields) {
			field_set(f, s, v);
			return true;
		}
		if (s->n_attackers == 0)
			return !cli_usage_error("%s: scenario '%s' has no "
						"attacker",
						name, cli_quote(s->name).text);
		for (size_t k = 0; k < s->n_attackers; k++)
			field_set(f, &s->attackers[k], v);
		return true;
	}
	return !cli_usage_error("%s: not a scenario option", name);
}

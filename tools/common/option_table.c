/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * option_table.c - what a table of options gives: --help lines, getopt_long()'s
 * arguments, the completion scripts; see option_table.h.
 */
#include "option_table.h"

#include <stdbool.h>
#include <string.h>

/* The width of "  -q, --quiet ARG". */
static int left_width(const tool_option *o)
{
	return 2 + (o->short_name ? 4 : 0) + 2 + (int)strlen(o->name) +
	       (o->arg ? 1 + (int)strlen(o->arg) : 0);
}

/* The column of the help texts: two past the widest left part. */
static int tool_options_column(const tool_option *options, size_t n)
{
	int widest = 0;

	for (size_t i = 0; i < n; i++)
		if (!options[i].hidden && left_width(&options[i]) > widest)
			widest = left_width(&options[i]);
	return widest + 2;
}

void tool_options_help(FILE *f, const tool_option *options, size_t n,
		       int column)
{
	if (column == 0)
		column = tool_options_column(options, n);
	for (size_t i = 0; i < n; i++) {
		const tool_option *o = &options[i];
		const char *p = o->help;
		int used;

		if (o->hidden)
			continue;
		if (o->short_name)
			fprintf(f, "  -%c, ", o->short_name);
		else
			fputs("  ", f);
		fprintf(f, "--%s%s%s", o->name, o->arg ? " " : "",
			o->arg ? o->arg : "");
		used = left_width(o);
		if (used >= column) { /* too wide: the text on the next line */
			fputc('\n', f);
			used = 0;
		}
		for (;;) { /* each line of the help, at the column */
			int len = (int)strcspn(p, "\n");

			fprintf(f, "%*s%.*s\n", column - used, "", len, p);
			if (p[len] == '\0')
				break;
			p += len + 1;
			used = 0;
		}
	}
}

void tool_options_getopt(const tool_option *options, size_t n,
			 struct option *longopts, char *shortopts)
{
	size_t s = 0;

	shortopts[s++] = ':';
	for (size_t i = 0; i < n; i++) {
		const tool_option *o = &options[i];

		longopts[i] = (struct option){
			o->name, o->arg ? required_argument : no_argument, NULL,
			o->short_name ? o->short_name : 256 + (int)i};
		if (o->short_name) {
			shortopts[s++] = o->short_name;
			if (o->arg)
				shortopts[s++] = ':';
		}
	}
	longopts[n] = (struct option){NULL, 0, NULL, 0};
	shortopts[s] = '\0';
}

const tool_option *tool_option_by_val(const tool_option *options, size_t n,
				      int val)
{
	if (val >= 256 && (size_t)(val - 256) < n)
		return &options[val - 256];
	for (size_t i = 0; i < n; i++)
		if (options[i].short_name && options[i].short_name == val)
			return &options[i];
	return NULL;
}

bool tool_scan_begin(tool_scan *s, const tool_option *options, size_t n,
		     bool in_order)
{
	if (n > TOOL_MAX_OPTIONS)
		return false;
	s->options = options;
	s->n = n;
	s->shortopts[0] = '+';
	tool_options_getopt(options, n, s->longopts,
			    in_order ? s->shortopts + 1 : s->shortopts);
	/* 0, not 1: makes glibc (and musl) forget the state of the previous
	 * scan, including a half-read cluster of short options. */
	optind = 0;
	opterr = 0;
	return true;
}

int tool_scan_next(tool_scan *s, int argc, char **argv,
		   const tool_option **row)
{
	int r = getopt_long(argc, argv, s->shortopts, s->longopts, NULL);

	if (r == -1 || r == '?' || r == ':')
		return r;
	*row = tool_option_by_val(s->options, s->n, r);
	return *row != NULL ? 0 : '?';
}

const tool_option *tool_option_by_word(const tool_option *options, size_t n,
				       const char *word)
{
	for (size_t i = 0; i < n; i++) {
		const tool_option *o = &options[i];

		if ((strncmp(word, "--", 2) == 0 &&
		     strcmp(word + 2, o->name) == 0) ||
		    (o->short_name && word[0] == '-' &&
		     word[1] == o->short_name && word[2] == '\0'))
			return o;
	}
	return NULL;
}

/* ---- Completions -------------------------------------------------------- */

/* The number of words of a command's name ("pow solve": 2). */
static int depth(const char *name)
{
	int words = 1;

	for (; *name != '\0'; name++)
		words += *name == ' ';
	return words;
}

/* Whether `child` is a subcommand of `parent` (NULL: the program). */
static bool is_child(const char *parent, const char *child)
{
	size_t len;

	if (parent == NULL)
		return strchr(child, ' ') == NULL;
	len = strlen(parent);
	return strncmp(child, parent, len) == 0 && child[len] == ' ' &&
	       strchr(child + len + 1, ' ') == NULL;
}

/* The last word of a command's name. */
static const char *last_word(const char *name)
{
	const char *space = strrchr(name, ' ');

	return space ? space + 1 : name;
}

/* A value that names a file or directory: complete file names for it. */
static bool is_path(const char *arg)
{
	return arg != NULL &&
	       (strstr(arg, "FILE") || strstr(arg, "DIR") ||
		strstr(arg, "PATH") || strstr(arg, "PREFIX"));
}

/* What follows command `c` (cmds[0]: the program) as its first operand,
 * separated by spaces: its subcommands, or the program's commands. */
static void put_words(FILE *f, const tool_command *cmds, size_t n, size_t c)
{
	const char *parent = c == 0 ? NULL : cmds[c].name;
	const char *sep = "";

	if (cmds[c].operand_is_command)
		parent = NULL;
	for (size_t i = 1; i < n; i++)
		if (is_child(parent, cmds[i].name) && i != c) {
			fprintf(f, "%s%s", sep, last_word(cmds[i].name));
			sep = " ";
		}
}

/* The options of `cmd` that `want` selects, separated by spaces:
 * 0 all visible, 1 those taking a value, 2 those naming a path. */
static void put_options(FILE *f, const tool_command *cmd, int want)
{
	const char *sep = "";

	for (size_t i = 0; i < cmd->n_options; i++) {
		const tool_option *o = &cmd->options[i];

		if (o->hidden || (want >= 1 && o->arg == NULL) ||
		    (want == 2 && !is_path(o->arg)))
			continue;
		fprintf(f, "%s--%s", sep, o->name);
		sep = " ";
		if (o->short_name)
			fprintf(f, " -%c", o->short_name);
	}
}

/* The program's name as a shell function name: "_equix_cli". */
static void put_function(FILE *f, const char *program)
{
	fputc('_', f);
	for (; *program != '\0'; program++)
		fputc(*program == '-' ? '_' : *program, f);
}

/* How each shell names the words of the command line. */
typedef struct shell_words {
	const char *count; /* the current word's index, or the words' count */
	const char *word;  /* a word by index, with "%d" */
	int base;          /* the index of the first word after the program */
	int fish;          /* fish's syntax, not sh's */
} shell_words;

/* The test that the words after the program spell `name`. */
static void put_match(FILE *f, const shell_words *s, const char *name)
{
	int k = depth(name);

	fprintf(f, s->fish ? "test %s -gt %d; and test \"" :
			     "[ \"%s\" -gt %d ] && [ \"",
		s->count, k + s->base - 1 - s->fish);
	for (int i = 0; i < k; i++) {
		fputs(i > 0 ? " " : "", f);
		fprintf(f, s->word, s->base + i);
	}
	fprintf(f, s->fish ? "\" = \"%s\"" : "\" = \"%s\" ]", name);
}

/* The commands, deepest first: sets cmd and first (the index of the
 * first word after the command). */
static void put_which(FILE *f, const tool_command *cmds, size_t n,
		      const shell_words *s)
{
	const char *kw = "if";
	int deepest = 1;

	for (size_t i = 1; i < n; i++)
		if (depth(cmds[i].name) > deepest)
			deepest = depth(cmds[i].name);
	for (int k = deepest; k >= 1; k--)
		for (size_t i = 1; i < n; i++) {
			if (depth(cmds[i].name) != k)
				continue;
			fprintf(f, "\t%s ", kw);
			put_match(f, s, cmds[i].name);
			if (s->fish)
				fprintf(f,
					"\n\t\tset cmd \"%s\"; set first %d\n",
					cmds[i].name, k + s->base);
			else
				fprintf(f, "; then\n\t\tcmd=\"%s\" first=%d\n",
					cmds[i].name, k + s->base);
			kw = s->fish ? "else if" : "elif";
		}
	fputs(s->fish ? "\tend\n" : "\tfi\n", f);
}

/* The opening comment: what the file is, its licence, whence it comes. */
static void put_header(FILE *f, const char *shell, const char *program)
{
	fprintf(f, "# %s completion for %s\n"
		   "# Copyright (c) 2026 The equix authors\n"
		   "# SPDX-License-Identifier: BSD-3-Clause\n"
		   "# Generated by \"%s --completions %s\" from its option "
		   "tables: do not edit.\n",
		shell, program, program, shell);
}

/* A `case` over the commands that sets, per command, its options, the
 * words that may follow it, the options that take a value and those
 * whose value is a file: bash and zsh differ only in the punctuation,
 * parts[0] (the label, around the command's name) to parts[4]. */
static void put_cases(FILE *f, const tool_command *cmds, size_t n,
		      const char *const parts[5])
{
	fputs("\tcase $cmd in\n", f);
	for (size_t c = 0; c < n; c++) {
		fprintf(f, parts[0], c == 0 ? "" : cmds[c].name);
		put_options(f, &cmds[c], 0);
		fputs(parts[1], f);
		put_words(f, cmds, n, c);
		fputs(parts[2], f);
		put_options(f, &cmds[c], 1);
		fputs(parts[3], f);
		put_options(f, &cmds[c], 2);
		fputs(parts[4], f);
	}
}

static const char *const bash_case[5] = {
	"\t\"%s\")\n\t\topts=\"", "\"\n\t\twords=\"", "\"\n\t\tvalues=\" ",
	" \"\n\t\tfiles=\" ", " \" ;;\n"};
static const char *const zsh_case[5] = {
	"\t(\"%s\")\n\t\topts=(", ")\n\t\tcmdwords=(", ")\n\t\tvalues=(",
	")\n\t\tfiles=(", ") ;;\n"};

static void bash_script(FILE *f, const tool_command *cmds, size_t n)
{
	put_header(f, "bash", cmds[0].name);
	put_function(f, cmds[0].name);
	fputs("()\n{\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]}\n"
	      "\tlocal prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\tlocal cmd= first=1 opts= words= values= files=\n", f);
	put_which(f, cmds, n,
		  &(shell_words){"$COMP_CWORD", "${COMP_WORDS[%d]}", 1, 0});
	put_cases(f, cmds, n, bash_case);
	fputs("\tesac\n"
	      "\tCOMPREPLY=()\n"
	      "\tcase $files in *\" $prev \"*)\n"
	      "\t\tCOMPREPLY=($(compgen -f -- \"$cur\")); return 0 ;;\n"
	      "\tesac\n"
	      "\tcase $values in *\" $prev \"*) return 0 ;; esac\n"
	      "\tif [[ $cur == -* ]]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
	      "\telif [ \"$COMP_CWORD\" -eq \"$first\" ]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
	      "\tfi\n"
	      "\treturn 0\n"
	      "}\n"
	      "complete -F ", f);
	put_function(f, cmds[0].name);
	fprintf(f, " %s\n", cmds[0].name);
}

static void zsh_script(FILE *f, const tool_command *cmds, size_t n)
{
	fprintf(f, "#compdef %s\n", cmds[0].name);
	put_header(f, "zsh", cmds[0].name);
	put_function(f, cmds[0].name);
	fputs("() {\n"
	      "\tlocal cmd= first=2 prev=${words[CURRENT-1]}\n"
	      "\tlocal -a opts cmdwords values files\n", f);
	put_which(f, cmds, n,
		  &(shell_words){"$CURRENT", "${words[%d]}", 2, 0});
	put_cases(f, cmds, n, zsh_case);
	fputs("\tesac\n"
	      "\tif (( ${files[(Ie)$prev]} )); then _files; return; fi\n"
	      "\tif (( ${values[(Ie)$prev]} )); then return 1; fi\n"
	      "\tif [[ $PREFIX == -* ]]; then\n"
	      "\t\tcompadd -- $opts\n"
	      "\telif (( CURRENT == first )); then\n"
	      "\t\tcompadd -- $cmdwords\n"
	      "\tfi\n"
	      "}\n"
	      "if [ \"$funcstack[1]\" = \"", f);
	put_function(f, cmds[0].name);
	fputs("\" ]; then\n\t", f);
	put_function(f, cmds[0].name);
	fputs(" \"$@\"\nelse\n\tcompdef ", f);
	put_function(f, cmds[0].name);
	fprintf(f, " %s\nfi\n", cmds[0].name);
}

/* A help text on one line, as a fish single-quoted string. */
static void fish_description(FILE *f, const char *help)
{
	fputc('\'', f);
	for (; *help != '\0'; help++) {
		if (*help == '\'' || *help == '\\')
			fputc('\\', f);
		fputc(*help == '\n' ? ' ' : *help, f);
	}
	fputc('\'', f);
}

static void fish_options(FILE *f, const char *program, const char *fn,
			 const tool_command *cmd, const char *name)
{
	for (size_t i = 0; i < cmd->n_options; i++) {
		const tool_option *o = &cmd->options[i];

		if (o->hidden)
			continue;
		fprintf(f, "complete -c %s -n '%s \"%s\"' -l %s", program, fn,
			name, o->name);
		if (o->short_name)
			fprintf(f, " -s %c", o->short_name);
		if (o->arg)
			fputs(is_path(o->arg) ? " -r -F" : " -x", f);
		fputs(" -d ", f);
		fish_description(f, o->help);
		fputc('\n', f);
	}
}

static void fish_script(FILE *f, const tool_command *cmds, size_t n)
{
	char fn[64];
	const char *program = cmds[0].name;

	snprintf(fn, sizeof fn, "__%s_is", program);
	for (char *p = fn; *p != '\0'; p++)
		*p = *p == '-' ? '_' : *p;
	put_header(f, "fish", program);
	fprintf(f, "# %s CMD [first]: the command line is at command CMD\n"
		   "# ('' the program), and with \"first\" at its first "
		   "operand.\n", fn);
	fprintf(f, "function %s\n"
		   "\tset -l w (commandline -opc)\n"
		   "\tset -l cmd ''\n"
		   "\tset -l first 2\n", fn);
	put_which(f, cmds, n,
		  &(shell_words){"(count $w)", "$w[%d]", 2, 1});
	fputs("\ttest \"$cmd\" = \"$argv[1]\"; or return 1\n"
	      "\ttest (count $argv) -lt 2; or "
	      "test (count $w) -eq (math $first - 1)\n"
	      "end\n", f);
	fprintf(f, "complete -c %s -f\n", program);
	for (size_t c = 0; c < n; c++) {
		const char *name = c == 0 ? "" : cmds[c].name;

		fprintf(f, "complete -c %s -n '%s \"%s\" first' -a '", program,
			fn, name);
		put_words(f, cmds, n, c);
		fputs("'\n", f);
		fish_options(f, program, fn, &cmds[c], name);
	}
}

int tool_completions(FILE *f, const char *shell, const tool_command *cmds,
		     size_t n)
{
	if (strcmp(shell, "bash") == 0)
		bash_script(f, cmds, n);
	else if (strcmp(shell, "zsh") == 0)
		zsh_script(f, cmds, n);
	else if (strcmp(shell, "fish") == 0)
		fish_script(f, cmds, n);
	else
		return -1;
	return 0;
}

void tool_options_list(FILE *f, const tool_command *cmds, size_t n)
{
	for (size_t c = 0; c < n; c++)
		for (size_t i = 0; i < cmds[c].n_options; i++) {
			const tool_option *o = &cmds[c].options[i];

			if (o->hidden)
				continue;
			fprintf(f, "%s\t--%s\t", cmds[c].name, o->name);
			if (o->short_name)
				fprintf(f, "-%c", o->short_name);
			fputc('\n', f);
		}
}

#!/bin/sh
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# tests/bad_input_cli.sh - runs every equix-cli row of doc/bad-input.md: the
# row's command, through sh, with the document's variables set and
# equix-cli on the PATH, must exit with the row's status and print the
# row's line (see "How the tests read the tables" there).
#
# Environment (set by tests/Makefile.am): EQUIX_CLI, the program;
# BAD_INPUT_DOC, the document; TEST_RUNNER or EQUIX_TEST_WRAPPER, what to
# run the program through (emulator, valgrind), else empty.
# Prints PASS/FAIL lines and a Check-style summary.
set -u

program=${EQUIX_CLI:?EQUIX_CLI must name the equix-cli program}
doc=${BAD_INPUT_DOC:?BAD_INPUT_DOC must name doc/bad-input.md}
. "$(dirname "$0")/shtest.sh"

# equix-cli on the PATH: the program under test, through the runner.
mkdir "$tmp/bin" "$tmp/work" || exit 99
cat >"$tmp/bin/equix-cli" <<EOF
#!/bin/sh
exec $runner "$program" "\$@"
EOF
chmod +x "$tmp/bin/equix-cli" || exit 99

# The variables: the document's one sh code block.
vars=$(sed -n '/^```sh$/,/^```$/p' "$doc" | sed '1d;$d')
[ -n "$vars" ] || { echo "FAIL: no sh block of variables in $doc"; exit 1; }

# The CLI rows, one per line: id, command, status, stream, text, separated
# by tabs. "\|" inside a cell is a literal "|".
rows() {
	awk -F'\001' '
	function code(s) { sub(/^[^`]*`/, "", s); sub(/`[^`]*$/, "", s); return s }
	function trim(s) { gsub(/^ +| +$/, "", s); return s }
	/^\| `cli-/ {
		line = $0
		gsub(/\\\|/, "\002", line)
		n = split(line, cell, "|")
		for (i = 1; i <= n; i++) { gsub("\002", "|", cell[i]); cell[i] = trim(cell[i]) }
		out = cell[6]; stream = out; sub(/:.*/, "", stream)
		printf "%s\t%s\t%s\t%s\t%s\n", code(cell[2]), code(cell[4]), cell[5], stream, code(out)
	}' "$doc"
}

# check ID COMMAND STATUS STREAM TEXT
check() {
	id=$1 cmd=$2 want_rc=$3 stream=$4 want=$5
	(cd "$tmp/work" && PATH="$tmp/bin:$PATH" sh -c "$vars
$cmd") >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ "$rc" != "$want_rc" ]; then
		fail "$id" "status $rc, want $want_rc; stderr: $(head -c 300 "$tmp/err")"
	elif [ "$stream" = stderr ] &&
	     [ "$(wc -l <"$tmp/err" | tr -d ' ')" != 1 ]; then
		fail "$id" "want one line on stderr, got: $(head -c 300 "$tmp/err")"
	elif [ "$stream" = stderr ] && [ "$(cat "$tmp/err")" != "$want" ]; then
		fail "$id" "stderr: $(cat "$tmp/err"); want: $want"
	elif [ "$stream" = stdout ] && [ -s "$tmp/err" ]; then
		fail "$id" "want nothing on stderr, got: $(head -c 300 "$tmp/err")"
	elif [ "$stream" = stdout ] && ! grep -Fqx -- "$want" "$tmp/out"; then
		fail "$id" "stdout lacks the line '$want': $(head -c 300 "$tmp/out")"
	elif [ "$stream" != stdout ] && [ "$stream" != stderr ]; then
		fail "$id" "the output cell must start with stdout: or stderr:"
	else
		pass "$id"
	fi
}

# Every option a command's --help lists is in a row of that command: the
# table covers every option. The options are the ones that start a line
# of the help ("  --id HEX", "  -q, --quiet").
coverage() {
	for cmd in solve verify hash "pow solve" "pow verify"; do
		# shellcheck disable=SC2086 # "pow solve" is two words
		opts=$($runner "$program" $cmd --help |
			sed -n 's/^  \(-[a-z], \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p')
		[ -n "$opts" ] || { fail "options of $cmd" "none in --help"; continue; }
		for opt in $opts; do
			if cut -f2 "$tmp/rows" |
			   grep -q -- "equix-cli $cmd .*$opt\([ =]\|\$\)"; then
				pass "$cmd $opt has a row"
			else
				fail "$cmd $opt has a row" "no row of $doc uses it"
			fi
		done
	done
}

tab=$(printf '\t')
rows >"$tmp/rows"
dups=$(cut -f1 "$tmp/rows" | sort | uniq -d)
[ -z "$dups" ] || fail "row ids are unique" "repeated: $dups"
[ -s "$tmp/rows" ] || fail "CLI rows" "none found in $doc"
while IFS=$tab read -r id cmd want_rc stream want; do
	check "$id" "$cmd" "$want_rc" "$stream" "$want"
done <"$tmp/rows"
coverage
finish

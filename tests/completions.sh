#!/bin/sh
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# tests/completions.sh - equix-cli's shell completions
# (src/cli/completions/), which its option tables generate: each
# committed file is what "equix-cli --completions SHELL" prints now (else
# "make update-completions"), and each shell loads its file and completes
# the commands, every option of every command (from --list-options, the
# same tables), and file names after an option that takes a file. bash
# is required; zsh and fish are tested where installed, reported skipped
# elsewhere.
#
# Environment (set by tests/Makefile.am): EQUIX_CLI, the program;
# TOP_SRCDIR, the source tree; TEST_RUNNER, the emulator of a cross build.
set -u

program=${EQUIX_CLI:?EQUIX_CLI must name the equix-cli program}
dir=${TOP_SRCDIR:?TOP_SRCDIR must name the source tree}/src/cli/completions
. "$(dirname "$0")/shtest.sh"

# ---- Up to date -----------------------------------------------------------

for pair in bash:equix-cli zsh:_equix-cli fish:equix-cli.fish; do
	sh=${pair%%:*} file=$dir/${pair#*:}
	run --completions "$sh"
	if [ "$rc" != 0 ]; then
		fail "--completions $sh" "status $rc: $(head -c 200 "$tmp/err")"
	elif cmp -s "$tmp/out" "$file"; then
		pass "$file is up to date"
	else
		fail "$file is up to date" "differs from --completions $sh; run make update-completions"
	fi
done

run --list-options
cp "$tmp/out" "$tmp/options"
[ "$rc" = 0 ] && [ -s "$tmp/options" ] ||
	fail "--list-options" "status $rc, no options"

# has NAME WANT GOT-FILE: the candidates in GOT-FILE include WANT.
has() {
	if grep -qx -- "$2" "$3"; then pass "$1"
	else fail "$1" "got: $(tr '\n' ' ' <"$3")"; fi
}
# exactly NAME WANT GOT-FILE: the candidates are WANT (one per line).
exactly() {
	if [ "$(cat "$3")" = "$2" ]; then pass "$1"
	else fail "$1" "got: $(tr '\n' ' ' <"$3"), want: $2"; fi
}

# The completion checks, for one shell: `complete WORDS...` writes the
# candidates for the last word, one per line, into $tmp/got.
checks() {
	sh=$1
	complete equix-cli ""
	for w in solve verify hash pow help; do has "$sh: command $w" "$w" "$tmp/got"; done
	complete equix-cli pow so
	exactly "$sh: pow so" solve "$tmp/got"
	complete equix-cli help ha
	exactly "$sh: help ha" hash "$tmp/got"
	complete equix-cli pow solve --id ""
	exactly "$sh: no candidates for --id's value" "" "$tmp/got"
	(cd "$tmp" && : >batch-file.jsonl)
	complete equix-cli pow verify --batch batch-f
	has "$sh: file names for --batch" batch-file.jsonl "$tmp/got"
	# Every option of every command, completed from its full name.
	i=0
	while IFS=$(printf '\t') read -r cmd long short; do
		[ "$cmd" = equix-cli ] && cmd= || cmd="$cmd "
		i=$((i + 1))
		# shellcheck disable=SC2086 # $cmd is zero to two words
		complete equix-cli $cmd "$long"
		has "$sh: ${cmd}$long" "$long" "$tmp/got"
		[ -z "$short" ] && continue
		# shellcheck disable=SC2086
		complete equix-cli $cmd -
		has "$sh: ${cmd}$short" "$short" "$tmp/got"
	done <"$tmp/options"
	[ "$i" -gt 40 ] || fail "$sh: options" "only $i from --list-options"
}

# ---- bash -----------------------------------------------------------------

complete() {
	(cd "$tmp" && bash -c '
		. "$1" || exit 1
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		_equix_cli
		[ ${#COMPREPLY[@]} = 0 ] || printf "%s\n" "${COMPREPLY[@]}"
	' bash "$dir/equix-cli" "$@") >"$tmp/got" 2>"$tmp/got.err"
	[ -s "$tmp/got.err" ] && fail "bash: $*" "stderr: $(head -c 200 "$tmp/got.err")"
	return 0
}
checks bash

# ---- zsh: the function, with compadd and _files standing in for the
# completion system's (they print the candidates) ------------------------

if command -v zsh >/dev/null 2>&1; then
	complete() {
		(cd "$tmp" && zsh -f -c '
			compadd() { [ "$1" = -- ] && shift; print -rl -- "$@" }
			_files() { print -rl -- ${PREFIX}*(N) }
			compdef() { : }
			file=$1; shift
			words=("$@"); CURRENT=$#; PREFIX=${words[CURRENT]}
			. "$file" || exit 1
			_equix_cli
			return 0
		' zsh "$dir/_equix-cli" "$@") >"$tmp/all" 2>"$tmp/got.err"
		# compadd itself keeps the candidates that match the prefix.
		last=$(eval "printf '%s' \"\${$#}\"")
		grep -- "^$last" "$tmp/all" >"$tmp/got" || :
		[ -s "$tmp/got.err" ] && fail "zsh: $*" "stderr: $(head -c 200 "$tmp/got.err")"
		return 0
	}
	checks zsh
else
	skip "zsh completions" "zsh is not installed"
fi

# ---- fish: its own completion engine ---------------------------------------

if command -v fish >/dev/null 2>&1; then
	complete() {
		line=$* # an empty last word leaves the trailing space
		(cd "$tmp" && fish --no-config -c 'source $argv[1]; complete -C$argv[2]' \
			"$dir/equix-cli.fish" "$line") 2>"$tmp/got.err" | cut -f1 >"$tmp/got"
		[ -s "$tmp/got.err" ] && fail "fish: $*" "stderr: $(head -c 200 "$tmp/got.err")"
		return 0
	}
	checks fish
else
	skip "fish completions" "fish is not installed"
fi

finish

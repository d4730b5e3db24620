#!/bin/sh
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# The manual pages, as a user reaches them:
#  - every exported function (the names of the version scripts
#    src/*/lib*.map, and every function the public headers declare) is
#    named in its page, libhashwx(3) for hashwx_*, libequix(3) for the
#    rest, and "man 3 NAME" finds it there: make's own install rule
#    (doc/Makefile.inc) installs the pages into a scratch directory, where
#    each NAME.3 resolves to its page and man -w finds it; the uninstall
#    rule leaves nothing behind;
#  - the pages render without a groff warning (lintian's check);
#  - every environment variable the library reads (getenv in src/) is
#    under ENVIRONMENT in libequix(3) and equix-cli(1), one equix-cli
#    reads itself (src/cli) in equix-cli(1), and the HASHX_IMPL values
#    libequix(3) lists are exactly the implementations the build knows
#    (equix-bench names them).
# Without man-db, the parts that need man are reported skipped.
program=${EQUIX_BENCH:?EQUIX_BENCH must name equix-bench}
top=${TOP_SRCDIR:?TOP_SRCDIR must name the source tree}
build=${TOP_BUILDDIR:?TOP_BUILDDIR must name the top build directory}
. "$top/tests/shtest.sh"
page=$top/doc/libequix.3
hashwx_page=$top/doc/libhashwx.3
cli_page=$top/doc/equix-cli.1
# page_of NAME: the page (file name) that documents the function NAME.
page_of() {
	case $1 in
	hashwx_*) echo libhashwx.3 ;;
	*) echo libequix.3 ;;
	esac
}

# ---- every exported function is documented -------------------------------

names=$({
	sed -n 's/^[[:space:]]*\([a-z][a-z0-9_]*\);$/\1/p' "$top"/src/*/lib*.map
	grep -hE '^[A-Z_]+_API ' "$top"/include/*.h "$top"/include/*.h.in |
		grep -o '[a-z_0-9]*(' | tr -d '('
} | sort -u)
count=$(echo "$names" | wc -l)
[ "$count" -ge 50 ] || fail "the exported names" "only $count found"

missing=
for n in $names; do
	grep -qw "$n" "$top/doc/$(page_of "$n")" || missing="$missing $n"
done
if [ -z "$missing" ]; then
	pass "libequix.3 and libhashwx.3 name all $count exported functions"
else
	fail "its page names every exported function" "missing:$missing"
fi

# ---- make install gives each one a page ----------------------------------

inst=$tmp/inst
man3=$inst/man/man3
# The build's own rules; this make is not part of the running one's jobs.
if env -u MAKEFLAGS -u MFLAGS ${MAKE:-make} -C "$build" install-man \
	install-man3-aliases DESTDIR="$inst" mandir=/man >"$tmp/install.log" 2>&1
then
	pass "make install-man install-man3-aliases"
else
	fail "make install-man install-man3-aliases" "$(tail -n 3 "$tmp/install.log")"
fi
# target NAME: the installed page NAME.3 must resolve to.
target() { realpath "$man3/$(page_of "$1")" 2>/dev/null; }
unresolved=
for n in $names; do
	t=$(target "$n")
	[ -n "$t" ] && [ "$(realpath "$man3/$n.3" 2>/dev/null)" = "$t" ] ||
		unresolved="$unresolved $n"
done
if [ -z "$unresolved" ]; then
	pass "each installed NAME.3 is its page (libequix.3, libhashwx.3)"
else
	fail "each installed NAME.3 is its page" "not:$unresolved"
fi

have_man=no
command -v man >/dev/null 2>&1 && have_man=yes
if [ $have_man = yes ]; then
	unfound=
	for n in $names; do
		found=$(MANPATH=$inst/man man -w 3 "$n" 2>/dev/null)
		[ -n "$found" ] && [ "$(realpath "$found")" = "$(target "$n")" ] ||
			unfound="$unfound $n"
	done
	if [ -z "$unfound" ]; then
		pass "man -w 3 NAME finds its page for each of them"
	else
		fail "man -w 3 NAME finds its page" "not for:$unfound"
	fi
	MANPATH=$inst/man MANWIDTH=80 man -P cat 3 equix_solve >"$tmp/page" 2>&1
	if head -n 1 "$tmp/page" | grep -q 'LIBEQUIX(3)'; then
		pass "man 3 equix_solve shows libequix(3)"
	else
		fail "man 3 equix_solve shows libequix(3)" "$(head -n 2 "$tmp/page")"
	fi
	MANPATH=$inst/man MANWIDTH=80 man -P cat 3 hashwx_make >"$tmp/page" 2>&1
	if head -n 1 "$tmp/page" | grep -q 'LIBHASHWX(3)'; then
		pass "man 3 hashwx_make shows libhashwx(3)"
	else
		fail "man 3 hashwx_make shows libhashwx(3)" "$(head -n 2 "$tmp/page")"
	fi
else
	skip "man -w 3 NAME" "man-db is not installed"
fi

env -u MAKEFLAGS -u MFLAGS ${MAKE:-make} -C "$build" uninstall-man \
	uninstall-man3-aliases DESTDIR="$inst" mandir=/man >"$tmp/uninstall.log" 2>&1
left=$(find "$inst" ! -type d | sed "s|^$inst||")
if [ -z "$left" ]; then
	pass "make uninstall removes every page"
else
	fail "make uninstall removes every page" "left:" $left
fi

# ---- both pages render cleanly ---------------------------------------------

if [ $have_man = yes ]; then
	for p in "$page" "$hashwx_page" "$cli_page"; do
		LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings \
			-E UTF-8 -l -Tutf8 -Z "$p" >/dev/null 2>"$tmp/warnings"
		if [ ! -s "$tmp/warnings" ]; then
			pass "${p##*/}: no groff warning"
		else
			fail "${p##*/}: no groff warning" "$(head -n 3 "$tmp/warnings")"
		fi
	done
else
	skip "groff warnings" "man-db is not installed"
fi

# ---- the environment -------------------------------------------------------

# section PAGE: the ENVIRONMENT section's lines.
section() { sed -n '/^\.SH ENVIRONMENT/,/^\.SH [^E]/p' "$1"; }
# variables FILE...: the names those sources read with getenv.
variables() {
	grep -ho 'getenv("[A-Za-z_0-9]*")' "$@" /dev/null |
		sed 's/getenv("\(.*\)")/\1/' | sort -u
}
lib_vars=$(variables $(find "$top/src" -name '*.c' ! -path "$top/src/cli/*"))
cli_vars=$(variables $(find "$top/src/cli" -name '*.c'))
[ -n "$lib_vars" ] || fail "the library's environment" "no getenv found in src/"
for v in $lib_vars; do
	for p in "$page" "$cli_page"; do
		if section "$p" | grep -qx "\.B $v"; then
			pass "${p##*/}: ENVIRONMENT has $v"
		else
			fail "${p##*/}: ENVIRONMENT has $v" "no '.B $v' line there"
		fi
	done
done
for v in $cli_vars; do
	if section "$cli_page" | grep -qx "\.B $v"; then
		pass "equix-cli.1: ENVIRONMENT has $v"
	else
		fail "equix-cli.1: ENVIRONMENT has $v" "no '.B $v' line there"
	fi
done

# The implementations: equix-bench --list-impls where it has it, else its
# first line, "... (HASHX_IMPL=a|b|c forces one)".
if $runner "$program" --list-impls >"$tmp/impls" 2>/dev/null &&
	[ -s "$tmp/impls" ]; then
	known=$(awk '{print $1}' "$tmp/impls" | sort)
else
	$runner "$program" --filter '^$' --quick --no-report \
		--results "$tmp/results" >/dev/null 2>"$tmp/first"
	known=$(sed -n 's/.*(HASHX_IMPL=\([a-z0-9|]*\) forces one).*/\1/p' \
		"$tmp/first" | head -n 1 | tr '|' '\n' | sort)
fi
# The page's list: the .B NAME after each .TP between .RS and .RE, under
# .B HASHX_IMPL.
documented=$(section "$page" | awk '
	/^\.B HASHX_IMPL$/ { on = 1; next }
	on && /^\.RS/ { list = 1; next }
	list && /^\.RE/ { exit }
	list && /^\.TP/ { tp = 1; next }
	tp { if (sub(/^\.B /, "")) print; tp = 0 }' | sort)
if [ -z "$known" ]; then
	fail "HASHX_IMPL values" "equix-bench named no implementation"
elif [ "$known" = "$documented" ]; then
	pass "libequix.3 lists the HASHX_IMPL values: $(echo $known)"
else
	fail "libequix.3 lists the HASHX_IMPL values" \
		"the build's: $(echo $known); the page's: $(echo $documented)"
fi
finish

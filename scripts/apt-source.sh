#!/bin/sh
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
#
# apt-source.sh PACKAGE[=VERSION] DIR - fetches and unpacks a Debian source
# package (Debian's patches applied) under DIR/src and prints the path of
# the unpacked tree, for builds from Debian's own sources (libsodium for
# wasm32 in js/build.sh, Tor in scripts/tor.sh).
#
# apt-get source needs deb-src entries, which a default Debian system
# lacks; rather than edit /etc/apt, it uses a private apt state under DIR
# whose only sources are the system's own release, its updates and its
# security archive (where Debian 12 carries Tor's newer releases), checked
# against the archive keys the system already trusts. Needs no root; needs
# dpkg-dev (dpkg-source) to unpack.
set -eu

[ $# -eq 2 ] || { echo "usage: scripts/apt-source.sh PACKAGE[=VERSION] DIR" >&2; exit 2; }
package=$1
dir=$2
name=${package%%=*}

codename=$(. /etc/os-release && echo "${VERSION_CODENAME:?}")
keys=/usr/share/keyrings/debian-archive-keyring.gpg
mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/src"
{
	echo "deb-src [signed-by=$keys] http://deb.debian.org/debian $codename main"
	echo "deb-src [signed-by=$keys] http://deb.debian.org/debian $codename-updates main"
	echo "deb-src [signed-by=$keys] http://deb.debian.org/debian-security $codename-security main"
} >"$dir/sources.list"
set -- -o Dir::Etc::SourceList="$dir/sources.list" \
	-o Dir::Etc::SourceParts=/dev/null \
	-o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache"
if ! apt-get "$@" update >"$dir/update.log" 2>&1; then
	echo "apt-source.sh: apt-get update failed (log: $dir/update.log):" >&2
	tail -n 5 "$dir/update.log" >&2
	exit 1
fi
# A tree of an earlier run is replaced, so that what is built is what the
# archive holds now.
rm -rf "$dir/src"
mkdir -p "$dir/src"
if ! (cd "$dir/src" && apt-get "$@" source "$package" >"$dir/source.log" 2>&1); then
	echo "apt-source.sh: apt-get source $package failed (log: $dir/source.log):" >&2
	tail -n 5 "$dir/source.log" >&2
	exit 1
fi
tree=$(find "$dir/src" -mindepth 1 -maxdepth 1 -type d -name "$name-*" | head -n 1)
[ -n "$tree" ] || { echo "apt-source.sh: apt-get source $package gave no tree" >&2; exit 1; }
echo "$tree"

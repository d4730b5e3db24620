#!/usr/bin/env bash
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# Builds the libraries and tools in build/release/, then runs the main job
# with equix-cli: a HashX hash, an Equi-X challenge solved and each
# solution verified, and a Tor PoW v1 proof found by the client and checked
# by the service (then refused as a replay).
#
#   scripts/build.sh [EFFORT]     PoW effort, default 200
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

effort=${1:-200}
equix_setup "$EQUIX_SRC/build/release"
make -s -j"$(equix_jobs)"

cli=./src/cli/equix-cli
run() {
	printf '$ equix-cli'
	printf ' %q' "$@"
	printf '\n'
	"$cli" "$@"
}

run --version
run hash "hello equix" 0

challenge="hello equix"
solutions=$(run solve "$challenge")
echo "$solutions"
for s in $(echo "$solutions" | grep -v '^\$'); do
	run verify "$challenge" "$s"
done

# A service's blinded ID and current seed (random here, as a service's are).
id=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
seed=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
proof=$(run pow solve --id "$id" --seed "$seed" --effort "$effort" --json)
echo "$proof"
proof=$(echo "$proof" | grep '^{')
printf '%s\n%s\n' "$proof" "$proof" >proof.jsonl
# The same proof twice: valid, then refused as a replay.
echo "\$ equix-cli pow verify --id ... --seed ... --batch proof.jsonl"
if "$cli" pow verify --id "$id" --seed "$seed" --batch proof.jsonl; then
	echo "FAIL: the replayed proof was accepted" >&2
	exit 1
fi
"$cli" pow verify --id "$id" --seed "$seed" --batch - <<<"$proof"

#!/usr/bin/env bash
# Builds the libraries and tools, then runs the main job: until equix-cli
# exists, the examples: a HashX function made from a seed and a few of its
# hashes, then an Equi-X challenge solved and its solutions verified.
# Extra arguments go to the HashX example (SEED [COUNT]).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

equix_setup "$EQUIX_SRC/build/release"
make -s -j"$(equix_jobs)"
./examples/hashx-example "$@"
./examples/equix-example

#!/usr/bin/env bash
# Builds the libraries and tools, then runs the main job: until equix-cli
# exists, the example that makes a HashX function from a seed and prints a
# few hashes. Extra arguments go to the example (SEED [COUNT]).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

equix_setup "$EQUIX_SRC/build/release"
make -s -j"$(equix_jobs)"
./examples/hashx-example "$@"

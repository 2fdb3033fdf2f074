#!/usr/bin/env bash
# Quick start, tests: set up, build, and run the whole test suite (CTest). Each step prints
# its duration (scripts/phase.sh).
# Extra arguments go to ctest (for example: -L core, -R config).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/phase.sh"
phase set-up "$root/scripts/setup.sh"
phase build "$root/scripts/build.sh"
cd "${BUILD_DIR:-$root/build}"
phase tests ctest --output-on-failure --timeout 600 -j"$(nproc)" "$@"

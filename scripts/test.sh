#!/usr/bin/env bash
# Quick start, tests: set up, build, and run the whole test suite (CTest).
# Extra arguments go to ctest (for example: -L core, -R config).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
cd "${BUILD_DIR:-$root/build}"
ctest --output-on-failure --timeout 600 -j"$(nproc)" "$@"

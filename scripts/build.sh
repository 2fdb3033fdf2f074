#!/usr/bin/env bash
# Configures and builds Plexus into ./build (Ninja, RelWithDebInfo by default).
# BUILD_DIR and CMAKE_BUILD_TYPE may be set in the environment.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-RelWithDebInfo}" >/dev/null
cmake --build "$build"

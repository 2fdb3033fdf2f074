#!/usr/bin/env bash
# Quick start, main job: set up, build, and run the demo on the embedded default config.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
exec "${BUILD_DIR:-$root/build}/bin/plexus" info "$@"

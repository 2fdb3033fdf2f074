#!/usr/bin/env bash
# Quick start, main job: set up, build, and run the tiled Cholesky demo on the embedded
# default config (examples/cholesky: devices used, time, GFLOP/s, bytes moved, "verified").
# Extra arguments go to the demo (--n N --tile T); the config follows the usual search
# order and PLEXUS_* overrides (e.g. PLEXUS_SCHEDULER=inorder ./scripts/demo.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
exec "${BUILD_DIR:-$root/build}/bin/cholesky" "$@"

#!/bin/bash
# Tiled Cholesky under scheduler/heft over the host device + PoCL against each alone (and dag
# alone), in interleaved rounds so that a loaded machine's noise falls on every row alike.
#   bench/heft_cholesky.sh BUILD_DIR [ROUNDS (7)] [N (1024)] [TILE (128)]
# Prints one line per run: label | makespan ms | bytes moved | ok/WRONG | heft's counters.
# Two calibration runs write a history file first; "no-history" runs start without one.
set -euo pipefail
build=$(cd "${1:?usage: $0 BUILD_DIR [ROUNDS] [N] [TILE]}" && pwd)
rounds=${2:-7} n=${3:-1024} tile=${4:-128}
config=$(cd "$(dirname "$0")/../config/examples" && pwd)/heft.toml
history=$(mktemp -d)/heft-history.json
run() {
  local label=$1; shift
  env PLEXUS_CACHE_DIR="$build/test-cache" PLEXUS_LOG_LEVEL=info PLEXUS_CONFIG="$config" "$@" \
    "$build/bin/cholesky" --n "$n" --tile "$tile" 2>&1 |
    awk -v l="$label" '/time/ {t=$2; b=$8} /heft: tasks/ {sub(/.*tasks per device: /, ""); p=$0}
                       /WRONG/ {w=1} END {print l " | " t " | " b " | " (w ? "WRONG" : "ok") " | " p}'
}
run calibrate-1 PLEXUS_BACKENDS=host,opencl PLEXUS_HEFT_HISTORY="$history"
run calibrate-2 PLEXUS_BACKENDS=host,opencl PLEXUS_HEFT_HISTORY="$history"
for _ in $(seq "$rounds"); do
  run heft-host+pocl PLEXUS_BACKENDS=host,opencl PLEXUS_HEFT_HISTORY="$history"
  run heft-host+pocl-no-history PLEXUS_BACKENDS=host,opencl
  run heft-host PLEXUS_BACKENDS=host PLEXUS_HEFT_HISTORY="$history"
  run heft-pocl PLEXUS_BACKENDS=opencl PLEXUS_HEFT_HISTORY="$history"
  run dag-host PLEXUS_BACKENDS=host PLEXUS_SCHEDULER=dag
  run dag-pocl PLEXUS_BACKENDS=opencl PLEXUS_SCHEDULER=dag
done
rm -rf "$(dirname "$history")"

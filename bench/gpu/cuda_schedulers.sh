#!/usr/bin/env bash
# On the GPU machine, inside bench/gpu/run.sh: plexus-bench-cuda under each scheduler (dag,
# the built-in default, then inorder), ARGS passed on; prints the summary lines.
#   bash bench/gpu/cuda_schedulers.sh [plexus-bench-cuda ARGS...]
set -euo pipefail
for scheduler in dag inorder; do
  echo "-- $scheduler"
  PLEXUS_SCHEDULER=$scheduler PLEXUS_BACKENDS=cuda plexus-bench-cuda "$@" |
    grep -E 'launch overhead|vector add|copy kernel|empty kernel|KiB to the'
done

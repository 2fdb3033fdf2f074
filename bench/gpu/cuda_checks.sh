#!/usr/bin/env bash
# A session's CUDA checks and graph figures on one GPU, in the environment of
# bench/gpu/run.sh (the pack's bin/ first in PATH), from the repository root:
#   bash bench/gpu/run.sh PACK [OVERLAY...] -- 'bash bench/gpu/cuda_checks.sh'
# The overlay must carry the programs named below (bench/gpu/overlay.sh BUILD OUT PROGRAMS).
# Test programs print their last lines (Catch's summary); then the graph benchmarks
# (issue 16: raw launches, raw CUDA graph, explicit graph, automatic replay in one run) and
# Jacobi with automatic replay off and on, alternating.
set -uo pipefail
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for test in sycl_usm sycl_kernels graph_api graph_auto_replay runtime_kernel_checks_cuda \
            runtime_native_tasks_cuda runtime_trace device_conformance; do
  echo "== $test"
  "$test" 2>&1 | tail -3
done
echo "== plexus-bench-cuda --kernels 10000 --reps 5 --per-graph 100 (inorder, then dag)"
for scheduler in inorder dag; do
  PLEXUS_SCHEDULER=$scheduler PLEXUS_BACKENDS=cuda plexus-bench-cuda --kernels 10000 --reps 5 \
    --per-graph 100 2>&1 | tail -12
done
echo "== jacobi --n 256 --iterations 10000, automatic replay off / on, 3 rounds"
for _ in 1 2 3; do
  for auto in 0 1; do
    printf 'auto=%s ' "$auto"
    PLEXUS_AUTO_GRAPH=$auto PLEXUS_BACKENDS=cuda jacobi --n 256 --iterations 10000 2>&1 |
      grep -i "time\|verified\|wrong" | tr '\n' ' '
    echo
  done
done

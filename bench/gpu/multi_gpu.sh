#!/usr/bin/env bash
# Issue 20's figures on a machine with two or more GPUs, in the environment of
# bench/gpu/run.sh (the pack's bin/ first in PATH), from the repository root:
#   bash bench/gpu/run.sh PACK [OVERLAY...] -- 'bash bench/gpu/multi_gpu.sh [N (8192)] [TILE (1024)]'
# device conformance on every device; device -> device copies through the runtime against
# the raw direct copy; tiled Cholesky (both kernel kinds) under heft over every GPU (first
# run without a history, then a run from the history the first wrote) against dag on one GPU.
set -uo pipefail
n=${1:-8192} tile=${2:-1024}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader
nvidia-smi topo -m | head -5
echo "== device_conformance (every device)"
device_conformance 2>&1 | tail -2
echo "== device -> device copies, 256 MiB, median of 5"
PLEXUS_BACKENDS=cuda plexus-bench-device-copy --mi 256 --reps 5
heft=$PWD/config/examples/heft.toml
for kernels in blas opencl; do
  history=$work/heft-$kernels.json
  echo "== cholesky --kernels $kernels, n $n, tile $tile"
  for run in no-history from-history; do
    [ $run = no-history ] && rm -f "$history"
    echo "-- heft over every GPU ($run)"
    PLEXUS_CONFIG=$heft PLEXUS_BACKENDS=cuda PLEXUS_HEFT_HISTORY=$history PLEXUS_LOG_LEVEL=info \
      cholesky --kernels $kernels --n "$n" --tile "$tile" --check 64 2>&1 | grep -v '^\s*$'
  done
  echo "-- dag on GPU 0 alone"
  PLEXUS_BACKENDS=cuda PLEXUS_SCHEDULER=dag PLEXUS_MEMORY=exact \
    cholesky --kernels $kernels --n "$n" --tile "$tile" --check 64 2>&1
done

#!/usr/bin/env bash
# Issue 14's figures on one GPU, in the environment of bench/gpu/run.sh (the pack unpacked
# in /tmp/dp, its bin/ first in PATH), from the repository root:
#   bash bench/gpu/run.sh PACK [OVERLAY...] -- 'bash bench/gpu/cholesky_gpu.sh [N (8192)] [ROUNDS (2)]'
# The demo's OpenCL C tile kernels (GPU shape) and the cuBLAS/cuSOLVER tiles against
# cusolverDnDpotrf in one process (end to end and on the device); heft over the GPU and the
# host CPU against each alone (bench/heft_cholesky.sh, blas kernels, calibrated and not).
set -uo pipefail
n=${1:-8192} rounds=${2:-2}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nproc
for tile in 512 1024; do
  echo "== --kernels opencl, tile $tile"
  PLEXUS_BACKENDS=cuda plexus-bench-cholesky-reference --on cuda --kernels opencl --n "$n" \
    --tile "$tile" --reps 3 --check 64
done
echo "== --kernels blas (tile 1024)"
PLEXUS_BACKENDS=cuda plexus-bench-cholesky-reference --on cuda --kernels blas --n "$n" --reps 3 --check 64
echo "== heft over CUDA + the host CPU, blas kernels: label | ms | bytes moved | check | tasks per device"
CHECK=64 DEVICE_ARGS="--kernels blas" bash bench/heft_cholesky.sh /tmp/dp "$rounds" "$n" 1024 cuda,host

#!/usr/bin/env bash
# Issue 17 on the GPU machine: the mpi backend with a worker whose device is the GPU. Runs in
# the environment of bench/gpu/run.sh (the pack's bin/ first in PATH), from the repository
# root, with Open MPI from bench/gpu/openmpi_pack.sh (the GPU machine has none):
#   bash bench/gpu/run.sh PACK [OVERLAY...] -- 'bash bench/gpu/mpi_checks.sh OPENMPI_PACK_DIR'
# The overlay must carry device_conformance, backend_conformance, mpi_cluster, cholesky,
# vector_add, jacobi and plexus-bench-mpi (and lib/libplexus_cholesky_native.so, which
# bench/gpu/pack.sh and overlay.sh take along). Each job is one rank 0 (the program) and workers
# (`plexus worker`), started by tests/mpi/run_mpi.sh as CTest starts them here; every program
# verifies its own results and exits non-zero when one is wrong. Prints one PASS/FAIL line
# per job, then a summary; exits non-zero when any failed.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/bench/gpu/openmpi_env.sh" "${1:?usage: $0 OPENMPI_PACK_DIR}"
plexus_tool=$(command -v plexus)
# The tile functions of cholesky --kernels blas (host and cuda), which the workers load.
native_tiles=$(cd "$(dirname "$plexus_tool")/../lib" && pwd)/libplexus_cholesky_native.so
export PLEXUS_LOG_LEVEL=${PLEXUS_LOG_LEVEL:-warn} PLEXUS_MPI_TEST_LIMIT=${PLEXUS_MPI_TEST_LIMIT:-240}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mpirun --version | head -1
failed=0 passed=0
logs=${MPI_CHECKS_LOGS:-/tmp/mpi-checks}  # each job's whole output, kept
mkdir -p "$logs"
job() {  # job NAME WORKERS [worker options] -- RANK0 COMMAND...
  local name=$1 log
  shift
  [[ $name =~ ${MPI_CHECKS_ONLY:-.} ]] || return 0
  log=$logs/$((passed + failed + 1)).log
  local start=$SECONDS
  if bash "$root/tests/mpi/run_mpi.sh" mpirun "$plexus_tool" "$@" >"$log" 2>&1; then
    passed=$((passed + 1)); echo "PASS ($((SECONDS - start)) s) $name"
  else
    failed=$((failed + 1)); echo "FAIL ($((SECONDS - start)) s) $name (whole output: $log)"
    sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -B4 -A14 "FAILED:" | head -60
    tail -6 "$log"
  fi
  sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E "test cases|assertions|verified|GFLOP|devices?:|rank [0-9]+:" |
    head -8 | sed 's/^/    /'
}
job "plexus info lists the remote GPU" 1 --backends cuda -- env PLEXUS_BACKENDS=mpi plexus info
job "device conformance on a remote CUDA device" 1 --backends cuda -- \
  env PLEXUS_TEST_BACKENDS=mpi device_conformance
job "backend conformance with a remote CUDA device" 1 --backends cuda -- \
  backend_conformance "every built backend plugin honours the Backend contract"
job "runtime programs on remote CUDA devices (2 workers)" 2 --backends cuda -- mpi_cluster "[runtime]"
job "vector_add on a remote CUDA device" 1 --backends cuda -- env PLEXUS_BACKENDS=mpi vector_add
job "jacobi on a remote CUDA device" 1 --backends cuda -- env PLEXUS_BACKENDS=mpi jacobi
job "cholesky n 2048 on a remote CUDA device" 1 --backends cuda -- \
  env PLEXUS_BACKENDS=mpi cholesky --n 2048 --tile 256
job "cholesky n 2048, heft over a remote CUDA device and a remote host device" 1 --backends cuda,host -- \
  env PLEXUS_BACKENDS=mpi PLEXUS_SCHEDULER=heft cholesky --n 2048 --tile 256
# cholesky --kernels blas with rank 0 host-only (no CUDA backend: it never loads cuBLAS, its
# output says the workers load it) and every tile on the worker's GPU, as registered native
# functions (cholesky.cuda_tile) that the worker runs with its own cuBLAS/cuSOLVER handles.
job "cholesky --kernels blas, rank 0 host-only, tiles on a remote CUDA worker" 1 \
  --backends cuda --native-library "$native_tiles" -- \
  bash -c 'out=$(PLEXUS_BACKENDS=mpi,host cholesky --kernels blas --n 4096 --device 0 --check 64) &&
           echo "$out" && grep -q "rank 1: NVIDIA" <<<"$out" &&
           grep -q "cuda cuBLAS/cuSOLVER loaded by the workers" <<<"$out"'
# The same with heft over rank 0's CPU (OpenBLAS) and the remote GPU (cuBLAS) at once.
job "cholesky --kernels blas, heft over rank 0's CPU and a remote CUDA worker" 1 \
  --backends cuda --native-library "$native_tiles" -- \
  env PLEXUS_BACKENDS=mpi,host PLEXUS_SCHEDULER=heft cholesky --kernels blas --n 4096 --tile 512 --check 64
# A POTRF that fails on the remote GPU (--indefinite 3000, tiles of 1024: tile (2, 2), info
# 952) fails its task; rank 0 names the tile, the function and the node.
job "cholesky --kernels blas: a POTRF that fails on a remote GPU names the tile and the node" 1 \
  --backends cuda --native-library "$native_tiles" -- \
  bash -c 'out=$(PLEXUS_BACKENDS=mpi cholesky --kernels blas --n 4096 --indefinite 3000 2>&1); echo "$out"
           grep -qE "\(function .cholesky\.cuda_tile., cuda\) failed: cusolverDnDpotrf of tile \(2, 2\): info [0-9]+ .*\(on node .* rank 1\)" <<<"$out"'
# The same tiles on rank 0's own GPU (the local path: no MPI traffic), and its failure.
job "cholesky --kernels blas on rank 0's own GPU" 0 -- \
  env PLEXUS_BACKENDS=cuda cholesky --kernels blas --n 4096 --check 64
job "cholesky --kernels blas: a POTRF that fails on rank 0's own GPU names the tile" 0 -- \
  bash -c 'out=$(PLEXUS_BACKENDS=cuda cholesky --kernels blas --n 4096 --indefinite 3000 2>&1); echo "$out"
           grep -qE "native task .potrf. \(function .cholesky.cuda_tile., cuda\) failed: cusolverDnDpotrf of tile \(2, 2\): info [0-9]+ " <<<"$out"'
# --precision single (MPI_CHECKS_ONLY=single runs these alone): the float routines (cuBLAS
# Strsm/Ssyrk/Sgemm, cusolverDnSpotrf with its own workspace query) on rank 0's GPU and on a
# remote worker's (the precision travels in each call's arguments), SPOTRF's failure named,
# and the OpenCL C kernels built for float (-DPRECISION_SINGLE) on the GPU.
job "cholesky --kernels blas --precision single on rank 0's own GPU" 0 -- \
  env PLEXUS_BACKENDS=cuda cholesky --kernels blas --n 4096 --check 64 --precision single
job "cholesky --kernels blas --precision single, rank 0 host-only, tiles on a remote CUDA worker" 1 \
  --backends cuda --native-library "$native_tiles" -- \
  bash -c 'out=$(PLEXUS_BACKENDS=mpi,host cholesky --kernels blas --n 4096 --device 0 --check 64 \
                 --precision single) &&
           echo "$out" && grep -q "rank 1: NVIDIA" <<<"$out" && grep -q "single precision" <<<"$out"'
job "cholesky --kernels blas --precision single: a POTRF that fails on rank 0's own GPU names SPOTRF" 0 -- \
  bash -c 'out=$(PLEXUS_BACKENDS=cuda cholesky --kernels blas --n 4096 --indefinite 3000 --precision single 2>&1)
           echo "$out"
           grep -qE "native task .potrf. \(function .cholesky.cuda_tile., cuda\) failed: cusolverDnSpotrf of tile \(2, 2\): info [0-9]+ " <<<"$out"'
job "cholesky --precision single, OpenCL C kernels (gpu shape) on rank 0's own GPU" 0 -- \
  env PLEXUS_BACKENDS=cuda cholesky --n 4096 --check 64 --precision single
job "killed CUDA worker reported within the bound" 2 --backends cuda PLEXUS_MPI_TEST_KILL=1:5 -- \
  mpi_cluster "[killed]"
[ -n "${MPI_CHECKS_ONLY:-}" ] && { echo "== mpi checks: $passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit; }
echo "== copies to and from a remote GPU against a raw MPI ping-pong (plexus-bench-mpi)"
mpirun --allow-run-as-root --oversubscribe -np 3 plexus-bench-mpi --mode raw 2>&1 | grep -E "^raw"
for round in 1 2; do
  for backend in cuda host; do
    echo "-- workers' devices: $backend (round $round)"
    mpirun --allow-run-as-root --oversubscribe -np 1 plexus-bench-mpi --mode plexus : \
      -np 2 "$plexus_tool" worker --backends "$backend" 2>&1 | grep -E "^(host_to|remote_to|empty)"
  done
done
if command -v plexus-bench-cholesky-reference >/dev/null; then
  # The local blas path's speed (its POTRFs now wait for their stream): docs/benchmarks.md
  # had, on an H100, on the device 11 460 GFLOP/s = 0.88 of cusolverDnDpotrf, end to end 0.95x.
  echo "== cholesky --kernels blas on the local GPU against cusolverDnDpotrf (n 8192)"
  PLEXUS_BACKENDS=cuda plexus-bench-cholesky-reference --on cuda --kernels blas --n 8192 --reps 3 --check 64 2>&1 | tail -8
fi
echo "== mpi checks: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

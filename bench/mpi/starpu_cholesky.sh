#!/usr/bin/env bash
# Tiled Cholesky over 3 MPI ranks: StarPU-MPI's mpi_cholesky (Debian starpu-examples, StarPU
# 1.3; apt-get install starpu-examples) against Plexus's cholesky example over the mpi backend
# (rank 0 the application, 2 `plexus worker` ranks with their host device, heft), at the same
# matrix sizes and tile counts, alternating, --rounds times; prints each run's time (ms) and
# the time per task. Plexus runs twice: with the demo's OpenCL C tile kernels, and with
# `--kernels blas` (native tasks calling OpenBLAS/LAPACKE on the workers, loaded there with
# `--native-library`: the kernels StarPU-MPI's example calls) where the build made that
# library. Both in single precision (`--precision single`: float elements, SPOTRF/STRSM/
# SSYRK/SGEMM on the blas side), as StarPU-MPI's example factors a float matrix. On fewer
# cores than ranks, compare overheads (time per task at small tiles), not speed-up.
#   bench/mpi/starpu_cholesky.sh [BUILD_DIR] [--rounds N]
set -euo pipefail
build=${1:-build}
[ $# -gt 0 ] && shift
rounds=2
[ "${1:-}" = --rounds ] && rounds=$2
starpu=/usr/lib/x86_64-linux-gnu/starpu/mpi/mpi_cholesky
if [ ! -x "$starpu" ]; then
  echo "skipped: $starpu is missing (Debian: apt-get install starpu-examples)"
  exit 77
fi
flags=(--oversubscribe)
[ "$(id -u)" -eq 0 ] && flags+=(--allow-run-as-root)
export PLEXUS_BUILD_PLUGIN_DIR=${PLEXUS_BUILD_PLUGIN_DIR:-$build/lib/plexus/plugins}
export PLEXUS_LOG_LEVEL=warn PLEXUS_BACKENDS=mpi PLEXUS_SCHEDULER=heft
# StarPU: one CPU worker per rank, unbound (3 ranks share 2 cores), sequential OpenBLAS.
export STARPU_SILENT=1 STARPU_NCPU=1 STARPU_WORKERS_NOBIND=1 OPENBLAS_NUM_THREADS=1
starpu_env=(-x STARPU_SILENT -x STARPU_NCPU -x STARPU_WORKERS_NOBIND -x OPENBLAS_NUM_THREADS)
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(mpirun --version | head -1); 3 ranks"
native=$build/lib/libplexus_cholesky_native.so
[ -f "$native" ] || echo "(no $native: the OpenBLAS columns stay empty)"
echo "| n | tiles | tasks | StarPU-MPI ms | Plexus OpenCL C ms | Plexus OpenBLAS ms | StarPU ms/task | Plexus OpenCL C ms/task | Plexus OpenBLAS ms/task |"
echo "|---|---|---|---|---|---|---|---|---|"
# One verified run of Plexus's cholesky at --n $1 --tile $2 with the rest as its arguments,
# then `--` and the workers' extra arguments; prints its time in ms.
plexus_run() {
  local n=$1 tile=$2 out args=() extra=()
  shift 2
  while [ $# -gt 0 ] && [ "$1" != -- ]; do args+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  extra=("$@")
  out=$(mpirun "${flags[@]}" -x PLEXUS_BUILD_PLUGIN_DIR -x PLEXUS_LOG_LEVEL -x PLEXUS_BACKENDS \
        -x PLEXUS_SCHEDULER -x OPENBLAS_NUM_THREADS -np 1 "$build/bin/cholesky" --n "$n" \
        --tile "$tile" --check 16 --precision single "${args[@]}" : \
        -np 2 "$build/bin/plexus" worker --backends host "${extra[@]}" 2>&1)
  if ! grep -q '^  verified' <<< "$out"; then
    echo "Plexus cholesky --n $n --tile $tile --precision single ${args[*]} did not verify:" >&2
    echo "$out" >&2
    return 1
  fi
  sed -n 's/^  time \([0-9.]*\) ms.*/\1/p' <<< "$out"
}
for case in "512 4" "512 8" "512 16" "2048 4" "2048 8"; do
  set -- $case
  n=$1 blocks=$2 tile=$(($1 / $2))
  tasks=$((blocks * (blocks + 1) * (blocks + 2) / 6))
  for round in $(seq "$rounds"); do
    s=$(mpirun "${flags[@]}" "${starpu_env[@]}" -np 3 "$starpu" -size "$n" -nblocks "$blocks" 2>&1 |
        sed -n 's/^Computation time (in ms): //p')
    p=$(plexus_run "$n" "$tile")
    b=
    [ -f "$native" ] && b=$(plexus_run "$n" "$tile" --kernels blas -- --native-library "$native")
    awk -v n="$n" -v b="$blocks" -v t="$tasks" -v s="$s" -v p="$p" -v q="$b" 'BEGIN {
      blas = q == "" ? "-" : sprintf("%.0f", q); per = q == "" ? "-" : sprintf("%.2f", q / t)
      printf "| %d | %dx%d | %d | %.0f | %.0f | %s | %.2f | %.2f | %s |\n", n, b, b, t, s, p, blas, s / t, p / t, per }'
  done
done

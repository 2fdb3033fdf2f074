#!/usr/bin/env bash
# Runs one MPMD job for a test: rank 0 is the test program, the other ranks `plexus worker`.
#   run_mpi.sh MPIRUN PLEXUS WORKERS [worker options...] -- RANK0 COMMAND...
# Worker options that are VAR=value set that variable for the workers only. Exits 77 (the
# test's SKIP_RETURN_CODE) with a message when mpirun is missing; each job is bounded by
# PLEXUS_MPI_TEST_LIMIT seconds (default 300).
set -u
mpirun=$1 plexus=$2 workers=$3
shift 3
worker_env=() worker_args=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case $1 in
    *=*) worker_env+=("$1") ;;
    *) worker_args+=("$1") ;;
  esac
  shift
done
shift  # --
if ! command -v "$mpirun" >/dev/null 2>&1; then
  echo "skipped: mpirun ('$mpirun') is not installed (Debian: apt-get install openmpi-bin)"
  exit 77
fi
# The job's bound; not passed on (Plexus warns about PLEXUS_ variables it does not read).
limit=${PLEXUS_MPI_TEST_LIMIT:-300}
unset PLEXUS_MPI_TEST_LIMIT
flags=(--oversubscribe --enable-recovery)
[ "$(id -u)" -eq 0 ] && flags+=(--allow-run-as-root)
# With --enable-recovery mpirun's own status does not tell rank 0's: rank 0 writes it down.
status=$(mktemp)
trap 'rm -f "$status"' EXIT
rank0=(bash -c '"$@"; code=$?; echo $code > "$0"; exit $code' "$status" "$@")
if [ "$workers" -eq 0 ]; then  # rank 0 alone: what it says about that
  timeout -k 10 "$limit" "$mpirun" "${flags[@]}" -np 1 "${rank0[@]}"
else
  timeout -k 10 "$limit" "$mpirun" "${flags[@]}" \
    -np 1 "${rank0[@]}" : -np "$workers" env "${worker_env[@]}" "$plexus" worker "${worker_args[@]}"
fi
code=$?
if [ ! -s "$status" ]; then
  echo "run_mpi.sh: rank 0 did not finish (mpirun status $code)"
  exit 1
fi
exit "$(cat "$status")"

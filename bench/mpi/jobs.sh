# Sourced by run.sh and modes.sh, once `bench` (the bench program) and `backends` (the
# workers' backends) are set: mpirun's flags (more ranks than cores; root allowed where the
# machine runs as root), quiet logs, the results file (removed at exit), and one job of a
# build's mpi backend.
flags=(--oversubscribe)
# pin=(taskset -c CPUS) before every mpirun when the caller sets it (every rank on those cores).
pin=(${pin[@]+"${pin[@]}"})
[ "$(id -u)" -eq 0 ] && flags+=(--allow-run-as-root)
export PLEXUS_LOG_LEVEL=${PLEXUS_LOG_LEVEL:-warn}
results=$(mktemp)
trap 'rm -f "$results"' EXIT
# mpi_backend_job BUILD_DIR [RANK0_ARGS...] [-- WORKER_ARGS...]: `$bench --mode plexus
# RANK0_ARGS` as rank 0 against 2 workers of BUILD_DIR (`plexus worker --backends $backends
# WORKER_ARGS`), with BUILD_DIR's plugins: that build's mpi backend, measured by this
# build's bench program (the same figures for every build).
mpi_backend_job() {
  local build_dir=$1 rank0=()
  shift
  while [ $# -gt 0 ] && [ "$1" != -- ]; do rank0+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  PLEXUS_BUILD_PLUGIN_DIR=$build_dir/lib/plexus/plugins ${pin[@]+"${pin[@]}"} mpirun "${flags[@]}" -x PLEXUS_BUILD_PLUGIN_DIR \
    -np 1 "$bench" --mode plexus "${rank0[@]}" : \
    -np 2 "$build_dir/bin/plexus" worker --backends "$backends" "$@"
}

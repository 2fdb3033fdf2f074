#!/usr/bin/env bash
# The mpi backend against raw MPI, side by side in one run (issue 17's goals): copies
# host->remote, remote->host and remote->remote against an MPI ping-pong's bandwidth at the
# same sizes (goal >= 80%), and an empty remote task's launch + wait against an MPI round
# trip (goal <= 3x). Both jobs have 3 ranks; they alternate for --rounds rounds and each
# figure is the best round's.
#   bench/mpi/run.sh [BUILD_DIR] [--rounds N] [--reps N] [--backends host] [--chunk-kib K]
# More ranks than cores: --oversubscribe is always passed.
set -euo pipefail
build=${1:-build}
[ $# -gt 0 ] && shift
rounds=3 reps=20 backends=host chunk=()
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --backends) backends=$2; shift 2 ;;
    --chunk-kib) chunk=(--chunk-kib "$2"); shift 2 ;;
    *) echo "usage: $0 [BUILD_DIR] [--rounds N] [--reps N] [--backends LIST] [--chunk-kib K]" >&2; exit 2 ;;
  esac
done
bench=$build/bin/plexus-bench-mpi
plexus=$build/bin/plexus
flags=(--oversubscribe)
[ "$(id -u)" -eq 0 ] && flags+=(--allow-run-as-root)
export PLEXUS_BUILD_PLUGIN_DIR=${PLEXUS_BUILD_PLUGIN_DIR:-$build/lib/plexus/plugins}
export PLEXUS_LOG_LEVEL=${PLEXUS_LOG_LEVEL:-warn}
results=$(mktemp)
trap 'rm -f "$results"' EXIT
for round in $(seq "$rounds"); do
  mpirun "${flags[@]}" -np 3 "$bench" --mode raw --reps "$reps" >> "$results"
  mpirun "${flags[@]}" -np 1 "$bench" --mode plexus --reps "$reps" "${chunk[@]}" : \
         -np 2 "$plexus" worker --backends "$backends" >> "$results"
done
grep '^# devices' "$results" | head -1
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(mpirun --version | head -1); $rounds rounds of $reps+ repetitions, best round"
awk '
  !/^#/ { if (!($1 SUBSEP $2 in best) || ($1 == "raw_round_trip" || $1 == "empty_task" ? $3 < best[$1, $2] : $3 > best[$1, $2])) best[$1, $2] = $3; if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 } }
  END {
    printf "| size | raw ping-pong 0-1 GB/s | host->remote GB/s | ratio | remote->host GB/s | ratio | raw ping-pong 1-2 GB/s | remote->remote GB/s | ratio |\n|---|---|---|---|---|---|---|---|---|\n"
    for (i = 1; i <= n; ++i) {
      s = order[i]; if (s == 0 || s == 8) continue
      r01 = best["raw_0_1", s]; r12 = best["raw_1_2", s]
      size = s >= 1048576 ? s / 1048576 " MiB" : s / 1024 " KiB"
      printf "| %s | %.2f | %.2f | %.0f%% | %.2f | %.0f%% | %.2f | %.2f | %.0f%% |\n", size, r01,
        best["host_to_remote", s], 100 * best["host_to_remote", s] / r01,
        best["remote_to_host", s], 100 * best["remote_to_host", s] / r01, r12,
        best["remote_to_remote", s], 100 * best["remote_to_remote", s] / r12
    }
    rt = best["raw_round_trip", 8]; et = best["empty_task", 0]
    printf "\nraw MPI round trip (8 bytes, ranks 0-1): %.2f us; empty remote task (launch + wait): %.2f us: %.1fx\n", rt, et, et / rt
  }' "$results"

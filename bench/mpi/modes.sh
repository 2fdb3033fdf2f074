#!/usr/bin/env bash
# Small copies (4 KiB, or --kib K) of the mpi backend against raw MPI, told apart by the
# job's mode. On a machine with fewer cores than polling threads a job runs in one of two
# modes, chosen when it starts: its polling threads get a core each (fast), or share one
# (slow); one job's figures all move together, so medians over jobs of mixed modes compare
# mixes, not trees.
# Each round: a raw job (`plexus-bench-mpi --mode raw --max-kib K`), then this build's mpi
# backend and BASELINE's (`--mode plexus --max-kib K`, the order alternating), as run.sh
# runs them. A raw job is fast when its 8-byte round trip is under 2.5 us, a plexus job
# when its empty task is under 8 us; each figure is the median over the jobs of its mode,
# its ratio against the median raw ping-pong of all rounds (which barely depends on the mode).
# --pin CPUS runs every job under `taskset -c CPUS` (--pin 0: every rank on one core, the
# slow mode forced). --kib 64: the figures of 64 KiB copies (the jobs also measure 4 KiB).
#   bench/mpi/modes.sh BUILD_DIR BASELINE_BUILD_DIR [--rounds N] [--backends host] [--pin CPUS] [--kib K]
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 BUILD_DIR BASELINE_BUILD_DIR [--rounds N] [--backends LIST] [--pin CPUS] [--kib K]" >&2; exit 2; }
build=$1 baseline=$2
shift 2
rounds=20 backends=host pin=() kib=4
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --backends) backends=$2; shift 2 ;;
    --pin) pin=(taskset -c "$2"); shift 2 ;;
    --kib) kib=$2; shift 2 ;;
    *) echo "usage: $0 BUILD_DIR BASELINE_BUILD_DIR [--rounds N] [--backends LIST] [--pin CPUS] [--kib K]" >&2; exit 2 ;;
  esac
done
bench=$build/bin/plexus-bench-mpi
source "$(dirname "$0")/jobs.sh"
# plexus_job BUILD_DIR LABEL: that build's mpi backend and workers (jobs.sh), lines labelled.
plexus_job() {
  mpi_backend_job "$1" --reps 20 --max-kib "$kib" | grep -v '^#' | sed "s/^/$round $2 /"
}
for round in $(seq "$rounds"); do
  ${pin[@]+"${pin[@]}"} mpirun "${flags[@]}" -np 3 "$bench" --mode raw --reps 20 --max-kib "$kib" | sed "s/^/$round raw /"
  if [ $((round % 2)) -eq 1 ]; then
    plexus_job "$build" after; plexus_job "$baseline" before
  else
    plexus_job "$baseline" before; plexus_job "$build" after
  fi
done > "$results"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(mpirun --version | head -1); $rounds rounds; load average $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v size=$((kib * 1024)) -v kib="$kib" "$(cat "$(dirname "$0")/median.awk")"'
  # Lines: round job name size value.
  { value[$1, $2, $3, $4] = $5; rounds[$1] = 1 }
  END {
    split("host_to_remote remote_to_host remote_to_remote host_to_remote_8 remote_to_host_8 remote_to_remote_8", kinds, " ")
    for (r in rounds) {
      mode = value[r, "raw", "raw_round_trip", 8] < 2.5 ? "fast" : "slow"
      jobs["raw", mode]++
      split("raw_0_1 raw_1_2 raw_pieces_0_1 raw_round_trip", raws, " ")
      for (k = 1; k <= 4; ++k) {
        v = value[r, "raw", raws[k], raws[k] == "raw_round_trip" ? 8 : size]
        raw[mode, raws[k]] = raw[mode, raws[k]] " " v
        raw["all", raws[k]] = raw["all", raws[k]] " " v
      }
      for (q = 1; q <= 2; ++q) {
        job = q == 1 ? "before" : "after"
        if (value[r, job, "empty_task", 0] == "") continue
        mode = value[r, job, "empty_task", 0] < 8 ? "fast" : "slow"
        jobs[job, mode]++
        task[job, mode] = task[job, mode] " " value[r, job, "empty_task", 0]
        for (k = 1; k <= 6; ++k) figure[job, mode, kinds[k]] = figure[job, mode, kinds[k]] " " value[r, job, kinds[k], size]
      }
    }
    # The ping-pong barely depends on the mode: every ratio is against its median over
    # all raw jobs.
    r01 = median(raw["all", "raw_0_1"]); r12 = median(raw["all", "raw_1_2"])
    printf "raw jobs: %d KiB ping-pong 0-1 %.2f GB/s, 1-2 %.2f GB/s, 0-1 in pieces %.2f GB/s (medians of all)\n",
      kib, r01, r12, median(raw["all", "raw_pieces_0_1"])
    for (m = 1; m <= 2; ++m) {
      mode = m == 1 ? "fast" : "slow"
      if (jobs["before", mode] + jobs["after", mode] == 0) { printf "\n%s mode: no jobs\n", mode; continue }
      printf "\n%s mode: %d raw jobs (round trip %.2f us, %d KiB ping-pong 0-1 %.2f GB/s), %d jobs before, %d after\n",
        mode, jobs["raw", mode], median(raw[mode, "raw_round_trip"]), kib, median(raw[mode, "raw_0_1"]), jobs["before", mode], jobs["after", mode]
      printf "\n| %d KiB | before GB/s | ratio | after GB/s | ratio |\n|---|---|---|---|---|\n", kib
      for (k = 1; k <= 6; ++k) {
        ping = kinds[k] ~ /remote_to_remote/ ? r12 : r01
        b = median(figure["before", mode, kinds[k]]); a = median(figure["after", mode, kinds[k]])
        printf "| %s | %.2f | %.0f%% | %.2f | %.0f%% |\n", kinds[k], b, (ping > 0 ? 100 * b / ping : 0), a, (ping > 0 ? 100 * a / ping : 0)
      }
      printf "| empty task (us) | %.2f | | %.2f | |\n", median(task["before", mode]), median(task["after", mode])
    }
  }' "$results"

#!/usr/bin/env bash
# Streams of 8 copies + 1 wait alone (`plexus-bench-mpi --streams-only MASK`: 1 host->remote,
# 2 remote->host, 4 remote->remote), this build's mpi backend against BASELINE's, each rank
# pinned to a core of its own choosing (`taskset -c`): the mode of a job is then chosen by
# the command, not by the scheduler (modes.sh tells the modes apart after the fact). Rounds
# alternate the two builds; prints each figure's median, min and max over the rounds, GB/s.
#   bench/mpi/streams.sh BUILD_DIR BASELINE_BUILD_DIR [--rounds N] [--kib K] [--mask M]
#                        [--cores "C0 C1 C2"] [--reps R]
# --cores "0 0 1": rank 0 (the bench) and rank 1 (the first worker) on core 0, rank 2 (the
# second worker) on core 1; "0 0 0": every rank on one core.
set -euo pipefail
usage="usage: $0 BUILD_DIR BASELINE_BUILD_DIR [--rounds N] [--kib K] [--mask M] [--cores \"C0 C1 C2\"] [--reps R]"
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
build=$1 baseline=$2
shift 2
rounds=10 kib=4 mask=7 cores="0 0 1" reps=1000
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --kib) kib=$2; shift 2 ;;
    --mask) mask=$2; shift 2 ;;
    --cores) cores=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
read -r c0 c1 c2 <<< "$cores"
bench=$build/bin/plexus-bench-mpi backends=host
source "$(dirname "$0")/jobs.sh"
# job BUILD_DIR LABEL: that build's backend and workers, each rank on its core.
job() {
  PLEXUS_BUILD_PLUGIN_DIR=$1/lib/plexus/plugins mpirun "${flags[@]}" -x PLEXUS_BUILD_PLUGIN_DIR \
    -np 1 taskset -c "$c0" "$bench" --mode plexus --max-kib "$kib" --streams-only "$mask" --reps "$reps" : \
    -np 1 taskset -c "$c1" "$1/bin/plexus" worker --backends "$backends" : \
    -np 1 taskset -c "$c2" "$1/bin/plexus" worker --backends "$backends" |
    awk -v label="$2" -v size=$((kib * 1024)) '$2 == size { print label, $1, $3 }'
}
for round in $(seq "$rounds"); do
  if [ $((round % 2)) -eq 1 ]; then job "$build" after; job "$baseline" before
  else job "$baseline" before; job "$build" after; fi
done > "$results"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(mpirun --version | head -1); $rounds rounds, $kib KiB, ranks on cores $cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
awk "$(cat "$(dirname "$0")/median.awk")"'
  { key = $2 " " $1; list[key] = list[key] " " $3
    if (!(key in low) || $3 + 0 < low[key]) low[key] = $3 + 0
    if ($3 + 0 > high[key]) high[key] = $3 + 0 }
  END { for (key in list) printf "%s median %.3f GB/s [%.3f-%.3f]\n", key, median(list[key]), low[key], high[key] }
' "$results" | sort

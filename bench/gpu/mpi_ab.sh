#!/usr/bin/env bash
# Issue 17 on the GPU machine, before/after a change: the mpi backend and worker of an overlay
# (bench/gpu/mpi_overlay.sh: "after") against the base pack's ("before"),
# in alternating rounds of one run, each round with raw MPI ping-pongs (at MPI_THREAD_SINGLE
# and at MPI_THREAD_SERIALIZED, the backend's level): the empty remote task and copies up to
# 64 KiB between host workers (every rank on a core of its own); the raw jobs also give the
# round trip by message size, blocking and as the backend's engine moves a message (--floor).
# Runs in bench/gpu/run.sh's environment with the base pack alone (no overlay given there):
#   bash bench/gpu/run.sh PACK -- 'bash bench/gpu/mpi_ab.sh OPENMPI_PACK_DIR OVERLAY_DIR [ROUNDS]'
# Prints every round's lines, then per variant the median of each figure and, for the
# empty task, the median of its ratio to the same round's raw round trip.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/bench/gpu/openmpi_env.sh" "${1:?usage: $0 OPENMPI_PACK_DIR OVERLAY_DIR [ROUNDS]}"
overlay=$(cd "${2:?usage: $0 OPENMPI_PACK_DIR OVERLAY_DIR [ROUNDS]}" && pwd)
rounds=${3:-5}
before=$(cd "$(dirname "$(command -v plexus)")/.." && pwd)
after=$before-after
rm -rf "$after"  # the overlay given now, never one left from an earlier call
cp -a "$before" "$after" && tar -C "$after" -xJf "$overlay/overlay.tar.xz"
export PLEXUS_LOG_LEVEL=warn
results=$(mktemp)
nproc
for round in $(seq "$rounds"); do
  for level in "" "--serialized 1"; do
    # The overlay's bench program: the base pack's may predate --serialized.
    LD_LIBRARY_PATH=$after/lib:$LD_LIBRARY_PATH mpirun --oversubscribe -x LD_LIBRARY_PATH -np 3 \
      "$after/bin/plexus-bench-mpi" --mode raw --max-kib 64 --floor 1 $level 2>&1 |
      grep -E "^raw" | sed "s/^/$round raw /" | tee -a "$results"
  done
  for variant in before after; do
    dir=$before
    [ $variant = after ] && dir=$after
    LD_LIBRARY_PATH=$dir/lib:$LD_LIBRARY_PATH PLEXUS_PLUGIN_PATH=$dir/bin PLEXUS_BUILD_PLUGIN_DIR=$dir/bin \
      mpirun --oversubscribe -x LD_LIBRARY_PATH -x PLEXUS_PLUGIN_PATH -x PLEXUS_BUILD_PLUGIN_DIR \
      -np 1 "$dir/bin/plexus-bench-mpi" --mode plexus --max-kib 64 : -np 2 "$dir/bin/plexus" worker --backends host 2>&1 |
      grep -E "^(host_to|remote_to|empty)" | sed "s/^/$round $variant /" | tee -a "$results"
  done
done
echo "== medians over $rounds rounds (GB/s; the empty task in us, and its ratio to the round's raw round trip)"
awk "$(cat "$root/bench/mpi/median.awk")"'
  { key = $2 " " $3 " " $4; all[key] = all[key] " " $5; if (!(key in seen)) { seen[key] = 1; order[++n] = key } }
  $2 == "raw" && $3 == "raw_round_trip" && $4 == 8 { trip[$1] = $5 }
  $2 == "raw" && $3 == "raw_round_trip_serialized" && $4 == 8 { serialized[$1] = $5 }
  $3 == "empty_task" {
    ratio[$2] = ratio[$2] " " $5 / trip[$1]
    if ($1 in serialized) ratio_serialized[$2] = ratio_serialized[$2] " " $5 / serialized[$1]
  }
  END {
    for (i = 1; i <= n; ++i) print order[i], median(all[order[i]])
    for (v in ratio) print v, "empty_task / raw_round_trip", median(ratio[v])
    for (v in ratio_serialized) print v, "empty_task / raw_round_trip_serialized", median(ratio_serialized[v])
  }' "$results"
rm -f "$results"

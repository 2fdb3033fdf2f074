#!/usr/bin/env bash
# The mpi backend against raw MPI, side by side in one run (issue 17's goals): copies
# host->remote, remote->host and remote->remote against an MPI ping-pong's bandwidth at the
# same sizes (goal >= 80%), alone and as streams of 8 copies sharing one wait (the second
# table), small copies also against the ping-pong cut in the backend's eager-sized pieces
# (the last table), an empty remote task's launch + wait against an MPI round trip (goal <= 3x;
# also against the round trip at MPI_THREAD_SERIALIZED, the level the backend runs at), and an
# empty remote native task (a registered native function, the workers loading
# libplexus_bench_native.so) against the empty kernel in alternating blocks of the same
# job. Both jobs have 3 ranks; they alternate for --rounds rounds and each
# figure is the best round's (--median: the median round's, with the spread of the
# task's per-round ratio to the raw round trip). --baseline OTHER_BUILD_DIR runs that build's mpi backend and
# worker too, in the same rounds (before/after a change, side by side): its figures and
# ratios are printed in the column after each of BUILD_DIR's, marked "before".
#   bench/mpi/run.sh [BUILD_DIR] [--rounds N] [--reps N] [--backends host] [--chunk-kib K]
#                    [--baseline OTHER_BUILD_DIR] [--median]
# More ranks than cores: --oversubscribe is always passed.
set -euo pipefail
build=${1:-build}
[ $# -gt 0 ] && shift
rounds=3 reps=20 backends=host chunk=() baseline= stat=best
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --backends) backends=$2; shift 2 ;;
    --chunk-kib) chunk=(--chunk-kib "$2"); shift 2 ;;
    --baseline) baseline=$2; shift 2 ;;
    --median) stat=median; shift ;;
    *) echo "usage: $0 [BUILD_DIR] [--rounds N] [--reps N] [--backends LIST] [--chunk-kib K] [--baseline BUILD_DIR] [--median]" >&2; exit 2 ;;
  esac
done
bench=$build/bin/plexus-bench-mpi
source "$(dirname "$0")/jobs.sh"
# plexus_job BUILD_DIR: the mpi backend of that build against its workers (jobs.sh); with the
# empty native function where that build has it.
plexus_job() {
  local native=() library=$1/lib/libplexus_bench_native.so
  [ -f "$library" ] && native=(--native-library "$library")
  mpi_backend_job "$1" --reps "$reps" "${chunk[@]}" ${native:+--native 1} -- "${native[@]}"
}
for round in $(seq "$rounds"); do
  mpirun "${flags[@]}" -np 3 "$bench" --mode raw --reps "$reps" >> "$results"
  # The round trip at the backend's thread level too (Open MPI locks internally above SINGLE).
  mpirun "${flags[@]}" -np 3 "$bench" --mode raw --max-kib 1 --serialized 1 >> "$results"
  plexus_job "$build" >> "$results"
  [ -z "$baseline" ] || plexus_job "$baseline" | sed '/^#/!s/^/before_/' >> "$results"
done
grep '^# devices' "$results" | head -1
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(mpirun --version | head -1); $rounds rounds of $reps+ repetitions, $stat round"
awk -v baseline="$baseline" -v stat="$stat" "$(cat "$(dirname "$0")/median.awk")"'
  !/^#/ {
    if (!($1 SUBSEP $2 in best) || ($1 ~ /raw_round_trip|empty_/ ? $3 < best[$1, $2] : $3 > best[$1, $2])) best[$1, $2] = $3
    all[$1, $2] = all[$1, $2] " " $3
    if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 }
    # Rounds in order: raw, then this build, then the baseline (their task per raw trip).
    if ($1 == "raw_round_trip") trip = $3
    if ($1 == "raw_round_trip_serialized") serialized = $3
    if ($1 == "empty_task") { ratios = ratios " " $3 / trip; serialized_ratios = serialized_ratios " " $3 / serialized }
    if ($1 == "before_empty_task") before_ratios = before_ratios " " $3 / trip
    if ($1 == "empty_kernel_alternating") kernel = $3
    if ($1 == "empty_native_task") native_ratios = native_ratios " " $3 / kernel
  }
  # "GB/s | ratio" of one copy kind, and of the baseline before it when there is one.
  function cell(kind, s, raw) {
    text = sprintf("%.2f | %.0f%%", best[kind, s], 100 * best[kind, s] / raw)
    if (baseline != "") text = sprintf("%.2f | %.0f%% | ", best["before_" kind, s], 100 * best["before_" kind, s] / raw) text
    return text
  }
  # One table of host->remote, remote->host and remote->remote copies (names ending in
  # `suffix`; `pre` and `post` around each name in the header, `lead` before it) against the
  # ping-pong of their size.
  function table(suffix, pre, post, lead,    i, s, r01, r12, size, header) {
    for (i = 1; i <= n; ++i) {
      s = order[i]
      if (!((("host_to_remote" suffix) SUBSEP s) in best)) continue
      if (!header++) {
        if (baseline == "") printf "%s| size | raw ping-pong 0-1 GB/s | %shost->remote%s GB/s | ratio | %sremote->host%s GB/s | ratio | raw ping-pong 1-2 GB/s | %sremote->remote%s GB/s | ratio |\n|---|---|---|---|---|---|---|---|---|\n", lead, pre, post, pre, post, pre, post
        else printf "%s| size | raw 0-1 GB/s | %shost->remote%s before | ratio | after | ratio | %sremote->host%s before | ratio | after | ratio | raw 1-2 GB/s | %sremote->remote%s before | ratio | after | ratio |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n", lead, pre, post, pre, post, pre, post
      }
      r01 = best["raw_0_1", s]; r12 = best["raw_1_2", s]
      size = s >= 1048576 ? s / 1048576 " MiB" : s / 1024 " KiB"
      printf "| %s | %.2f | %s | %s | %.2f | %s |\n", size, r01, cell("host_to_remote" suffix, s, r01),
        cell("remote_to_host" suffix, s, r01), r12, cell("remote_to_remote" suffix, s, r12)
    }
  }
  END {
    if (stat == "median") for (key in all) best[key] = median(all[key])
    table("", "", "", "")
    # Streams: 8 copies in a row share one wait (the copies a runtime makes before a kernel
    # share their completion), against the ping-pong of the same size.
    table("_8", "8 ", " + 1 wait", "\n")
    # Like with like for a lone copy: a copy + wait is the data one way and its completion
    # back, as the raw send answered by 8 bytes.
    header = 0
    for (i = 1; i <= n; ++i) {
      s = order[i]
      if (!((("raw_answered_0_1") SUBSEP s) in best) || !((("host_to_remote") SUBSEP s) in best)) continue
      if (!header++) {
        if (baseline == "") printf "\n| size | raw send + 8-byte answer GB/s | host->remote copy + wait | ratio | remote->host copy + wait | ratio |\n|---|---|---|---|---|---|\n"
        else printf "\n| size | raw send + 8-byte answer GB/s | host->remote copy + wait before | ratio | after | ratio | remote->host copy + wait before | ratio | after | ratio |\n|---|---|---|---|---|---|---|---|---|---|\n"
      }
      size = s >= 1048576 ? s / 1048576 " MiB" : s / 1024 " KiB"
      ra = best["raw_answered_0_1", s]
      printf "| %s | %.2f | %s | %s |\n", size, ra, cell("host_to_remote", s, ra), cell("remote_to_host", s, ra)
    }
    # Against raw MPI cut as the backend cuts a small transfer (pieces under the eager
    # limit): what is left is the overhead of the backend itself.
    header = 0
    for (i = 1; i <= n; ++i) {
      s = order[i]
      if (!((("raw_pieces_0_1") SUBSEP s) in best) || !((("host_to_remote") SUBSEP s) in best)) continue
      if (!header++) printf "\n| size | raw ping-pong 0-1 in pieces GB/s | host->remote | ratio | remote->host | ratio | 8 host->remote + 1 wait | ratio | 8 remote->host + 1 wait | ratio |\n|---|---|---|---|---|---|---|---|---|---|\n"
      size = s >= 1048576 ? s / 1048576 " MiB" : s / 1024 " KiB"
      rp = best["raw_pieces_0_1", s]
      printf "| %s | %.2f", size, rp
      split("host_to_remote remote_to_host host_to_remote_8 remote_to_host_8", kinds, " ")
      for (k = 1; k <= 4; ++k) printf " | %.2f | %.0f%%", best[kinds[k], s], 100 * best[kinds[k], s] / rp
      printf " |\n"
    }
    # The copies of a tiled algorithm: a strided 8 MiB tile (against the contiguous sizes above).
    if ((("tile_host_to_remote") SUBSEP 8388608) in best) {
      printf "\nstrided 8 MiB tile (1024 rows of 8 KiB, 32 KiB apart), copy + wait: host->remote %.2f GB/s, remote->host %.2f GB/s", best["tile_host_to_remote", 8388608], best["tile_remote_to_host", 8388608]
      if (baseline != "") printf " (before: %.2f, %.2f)", best["before_tile_host_to_remote", 8388608], best["before_tile_remote_to_host", 8388608]
      printf "\n"
    }
    rt = best["raw_round_trip", 8]; et = best["empty_task", 0]
    printf "\nraw MPI round trip (8 bytes, ranks 0-1): %.2f us; empty remote task (launch + wait): %.2f us: %.1fx", rt, et, et / rt
    if (baseline != "") printf "; before: %.2f us: %.1fx", best["before_empty_task", 0], best["before_empty_task", 0] / rt
    rs = best["raw_round_trip_serialized", 8]
    printf "\nraw MPI round trip at MPI_THREAD_SERIALIZED (the backend'"'"'s level): %.2f us: %.1fx", rs, et / rs
    if (stat == "median") printf " (same round: median %.1fx)", median(serialized_ratios)
    printf "\n"
    if (native_ratios != "") {
      k = split(native_ratios, v, " "); lo = hi = v[1]; for (i = 2; i <= k; ++i) { lo = v[i] < lo ? v[i] : lo; hi = v[i] > hi ? v[i] : hi }
      printf "empty remote native task (call + wait): %.2f us; empty kernel in alternating blocks: %.2f us; native / kernel of the same round: median %.2fx [%.2f-%.2fx]\n",
        best["empty_native_task", 0], best["empty_kernel_alternating", 0], median(native_ratios), lo, hi
    }
    if (stat == "median") {
      k = split(ratios, v, " "); lo = hi = v[1]; for (i = 2; i <= k; ++i) { lo = v[i] < lo ? v[i] : lo; hi = v[i] > hi ? v[i] : hi }
      printf "empty task / raw round trip of the same round: median %.1fx [%.1f-%.1fx]", median(ratios), lo, hi
      if (baseline != "") {
        k = split(before_ratios, v, " "); lo = hi = v[1]; for (i = 2; i <= k; ++i) { lo = v[i] < lo ? v[i] : lo; hi = v[i] > hi ? v[i] : hi }
        printf "; before: median %.1fx [%.1f-%.1fx]", median(before_ratios), lo, hi
      }
      printf "\n"
    }
  }' "$results"

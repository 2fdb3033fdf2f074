#!/usr/bin/env bash
# On the GPU machine, inside bench/gpu/run.sh: where a kernel followed at once by its wait
# loses time under dag (vector add at 64 Mi floats, 0.24 ms kernels, was 0.57-0.85x raw
# under dag, 0.93 under inorder). plexus-bench-cuda's vector add and lone launch + wait under
# inorder, dag (queues "auto": 4 on a GPU), dag with one queue per device and dag without its
# worker spin, ROUNDS rounds alternating; then one traced dag run, the tasks' waits summed.
#   bash bench/gpu/dag_waits.sh [ROUNDS] [OUT_DIR]
set -uo pipefail
rounds=${1:-3}
out=${2:-/tmp/dag-waits}
mkdir -p "$out"
args=(--kernels 200 --mi 64 --reps 20 --per-graph 100 --jacobi 1 --latency-reps 500)
variant() {  # name, then the [scheduler] table
  printf '[backends]\nuse = ["cuda"]\n[scheduler]\n%s\n' "$2" >"$out/$1.toml"
}
variant inorder 'use = "inorder"'
variant dag 'use = "dag"'
variant dag-q1 $'use = "dag"\n[scheduler.dag]\nqueues_per_device = 1'
variant dag-spin0 $'use = "dag"\n[scheduler.dag]\nspin_us = 0'
for round in $(seq "$rounds"); do
  for v in inorder dag dag-q1 dag-spin0; do
    printf 'round %s %-10s ' "$round" "$v"
    PLEXUS_CONFIG=$out/$v.toml plexus-bench-cuda "${args[@]}" 2>&1 |
      grep -E '^vector add|empty kernel \(submit' | tr '\n' ' '
    echo
  done
done
echo "== one traced dag run"
PLEXUS_CONFIG=$out/dag.toml PLEXUS_TRACE=$out/dag-trace.json plexus-bench-cuda "${args[@]}" \
  >/dev/null 2>&1
python3 - "$out/dag-trace.json" <<'PY'
import json, statistics, sys
events = json.load(open(sys.argv[1]))["traceEvents"]
tasks = [e for e in events if e.get("cat") == "task" and "vector_add" in e.get("name", "")]
def med(key):
    values = [e["args"].get(key) for e in tasks if e["args"].get(key) is not None]
    return statistics.median(values) if values else None
print("vector_add tasks:", len(tasks), "median dur us:", statistics.median(e["dur"] for e in tasks))
for key in ("waited_us", "wait_queue_busy_us", "wait_scheduler_us"):
    print(" median", key, med(key))
starts = [e["ts"] - e["args"]["submit_us"] for e in tasks if "submit_us" in e["args"]]
print(" median start - submit us:", statistics.median(starts) if starts else None)
PY

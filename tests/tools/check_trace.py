#!/usr/bin/env python3
"""Checks a Plexus trace against its summary (docs/tracing.md).

usage: check_trace.py TRACE SUMMARY [KERNELS]
Exits 1 naming the first mismatch: the trace is valid JSON with trace events; its task
events count the summary's tasks (and KERNELS kernels when given); the latest task end
equals the summary's makespan; every dependency and flow refers to a task; copies and
launches lie inside their task."""
import json
import sys


def fail(message):
    print("check_trace: " + message)
    sys.exit(1)


def main():
    if len(sys.argv) not in (3, 4):
        fail("usage: check_trace.py TRACE SUMMARY [KERNELS]")
    with open(sys.argv[1]) as f:
        trace = json.load(f)
    with open(sys.argv[2]) as f:
        summary = json.load(f)
    events = trace.get("traceEvents")
    if not isinstance(events, list) or not events:
        fail("no traceEvents")
    tasks = [e for e in events if e.get("ph") == "X" and e.get("cat") == "task"]
    if len(tasks) != summary["tasks"]:
        fail("%d task events, summary says %d tasks" % (len(tasks), summary["tasks"]))
    kernels = [t for t in tasks if t["args"]["kernel"]]
    if len(kernels) != summary["kernels"]:
        fail("%d kernel tasks, summary says %d" % (len(kernels), summary["kernels"]))
    if len(sys.argv) == 4 and len(kernels) != int(sys.argv[3]):
        fail("%d kernel tasks, the program submitted %s" % (len(kernels), sys.argv[3]))
    makespan = max(t["ts"] + t["dur"] for t in tasks)
    if abs(makespan - summary["makespan_us"]) > 0.01:
        fail("trace makespan %.3f us, summary %.3f us" % (makespan, summary["makespan_us"]))
    ids = {t["args"]["id"]: t for t in tasks}
    edges = 0
    for t in tasks:
        a = t["args"]
        if not a["submit_us"] <= a["ready_us"] + 0.01 or not a["start_us"] <= a["end_us"]:
            fail("task %d: times out of order: %s" % (a["id"], a))
        for d in a["dependencies"]:
            if d not in ids:
                fail("task %d depends on unknown task %d" % (a["id"], d))
            if ids[d]["args"]["end_us"] > a["start_us"] + 0.01:
                fail("task %d started before its dependency %d ended" % (a["id"], d))
            edges += 1
    if edges != summary["dependencies"]:
        fail("%d dependencies in the trace, summary says %d" % (edges, summary["dependencies"]))
    flows = [e for e in events if e.get("ph") in ("s", "f")]
    if len(flows) != 2 * edges:
        fail("%d flow events for %d dependencies" % (len(flows), edges))
    copies = [e for e in events if e.get("ph") == "X" and e.get("cat") == "copy"]
    if len(copies) != summary["copies"]:
        fail("%d copy events, summary says %d" % (len(copies), summary["copies"]))
    if sum(c["args"]["bytes"] for c in copies) != summary["bytes_moved"]:
        fail("copy bytes differ from the summary's bytes_moved")
    for op in copies + [e for e in events if e.get("ph") == "X" and e.get("cat") == "launch"]:
        task = ids[op["args"]["task"]]
        if op["ts"] < task["ts"] - 0.01 or op["ts"] + op["dur"] > task["ts"] + task["dur"] + 0.01:
            fail("%s of task %d lies outside it" % (op["name"], task["args"]["id"]))
    busy = sum(d["busy_us"] for d in summary["devices"])
    if not summary["devices"] or busy <= 0:
        fail("no device busy time in the summary")
    print("check_trace: ok: %d tasks (%d kernels), %d dependencies, %d copies, makespan %.1f us"
          % (len(tasks), len(kernels), edges, len(copies), makespan))


main()

#!/usr/bin/env bash
# Tracing and `plexus ab` over the Cholesky example on the host device.
# usage: plexus_ab_test.sh PLEXUS CHOLESKY JACOBI
# Needs python3 (check_trace.py). Environment from CTest: PLEXUS_PLUGIN_PATH, PLEXUS_CACHE_DIR.
set -u
plexus=$1
cholesky=$2
jacobi=$3
here=$(cd "$(dirname "$0")" && pwd)
configs=$here/ab
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset PLEXUS_SCHEDULER PLEXUS_MEMORY PLEXUS_BACKENDS PLEXUS_TRACE
source "$here/expect.sh"

# 1. PLEXUS_TRACE on a run of the example: the trace matches the tasks it submitted.
for scheduler in inorder dag; do
  out=$(PLEXUS_CONFIG=$configs/$scheduler.toml PLEXUS_TRACE=$work/$scheduler.json \
        "$cholesky" --n 128 --tile 32 2>&1)
  kernels=$(sed -nE 's/.*\(([0-9]+) tasks[,)].*/\1/p' <<<"$out")
  expect "trace of cholesky under $scheduler matches its $kernels kernels" 0 "check_trace: ok" -- \
    python3 "$here/check_trace.py" "$work/$scheduler.json" "$work/$scheduler.summary.json" "$kernels"
  expect "summary names the scheduler ($scheduler)" 0 "\"scheduler\":\"$scheduler\"" -- \
    cat "$work/$scheduler.summary.json"
done
# The config key does the same as the variable.
sed "s|^\[scheduler\]|[trace]\nfile = \"$work/from-config.json\"\n[scheduler]|" \
  "$configs/dag.toml" >"$work/traced.toml"
PLEXUS_CONFIG=$work/traced.toml "$cholesky" --n 64 --tile 32 >/dev/null 2>&1
expect "[trace] file writes the trace" 0 "check_trace: ok" -- \
  python3 "$here/check_trace.py" "$work/from-config.json" "$work/from-config.summary.json"
printf '[trace]\npath = "x"\n' >"$work/bad-trace.toml"
expect "a bad [trace] key is a config error" 1 "unknown key 'trace.path'" -- \
  env PLEXUS_CONFIG=$work/bad-trace.toml "$cholesky" --n 64 --tile 32
expect "an unwritable trace file is reported, the run still succeeds" 0 "cannot write the trace" -- \
  env PLEXUS_CONFIG=$configs/dag.toml PLEXUS_LOG_LEVEL=info PLEXUS_TRACE=/nonexistent/dir/t.json \
  "$cholesky" --n 64 --tile 32

# 2. plexus ab: inorder vs dag, with the raw numbers and an SVG.
expect "ab: inorder vs dag prints the table and the ratio" 0 \
  "B/A = [0-9.]+ \[[0-9.]+-[0-9.]+\]: (B is (faster|slower)|the difference is within run-to-run noise)" -- \
  "$plexus" ab --config "$configs/inorder.toml" --config "$configs/dag.toml" --runs 3 --warmup 1 \
  --out "$work/ab" --csv "$work/ab.csv" --json "$work/ab.json" --svg "$work/ab.svg" \
  -- "$cholesky" --n 128 --tile 32
expect "ab: the table has both configs' schedulers" 0 "inorder.*dag" -- \
  tr '\n' ' ' < <("$plexus" ab --config "$configs/inorder.toml" --config "$configs/dag.toml" \
  --runs 1 --warmup 0 -- "$cholesky" --n 64 --tile 32)
# The numbers come from the runs: each CSV row's makespan is its trace's latest task end.
check_csv() {
  python3 - "$1" "$here/check_trace.py" <<'PY'
import csv, json, subprocess, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 6, "want 6 rows (3 runs x 2 configs), got %d" % len(rows)
assert {r["scheduler"] for r in rows} == {"inorder", "dag"}, rows
for r in rows:
    trace = r["trace"]
    summary = trace[:-5] + ".summary.json"
    subprocess.run([sys.executable, sys.argv[2], trace, summary], check=True, stdout=subprocess.DEVNULL)
    events = json.load(open(trace))["traceEvents"]
    end = max(e["ts"] + e["dur"] for e in events if e.get("cat") == "task")
    assert abs(end - float(r["makespan_us"])) < 0.01, (end, r["makespan_us"])
    assert float(r["wall_ms"]) * 1000 > float(r["makespan_us"]), r
print("csv ok")
PY
}
expect "ab: CSV rows are the runs' trace makespans" 0 "csv ok" -- check_csv "$work/ab.csv"
expect "ab: JSON has the ratio and verdict" 0 '"ratio_to_first":\{"median":[0-9.]+' -- cat "$work/ab.json"
expect "ab: SVG is well-formed with a Gantt chart and a box plot" 0 "svg ok" -- python3 -c "
import sys, xml.etree.ElementTree as ET
root = ET.parse('$work/ab.svg').getroot()
rects = root.findall('.//{http://www.w3.org/2000/svg}rect')
circles = root.findall('.//{http://www.w3.org/2000/svg}circle')
assert len(rects) > 20 and len(circles) == 6, (len(rects), len(circles))
print('svg ok')"
# What the picture must say (issue 21): the ratio and noise verdict, the time tasks waited
# while ready, the critical path, the program with its arguments, the run count and the
# machine; no track for a queue that was idle (the host's, which only read the result).
expect "ab: SVG has the verdict, ready waits, critical path, program, runs and machine" 0 "svg text ok" -- python3 -c "
import re, xml.etree.ElementTree as ET
ns = '{http://www.w3.org/2000/svg}'
root = ET.parse('$work/ab.svg').getroot()
texts = [t.text or '' for t in root.iter(ns + 'text')]
joined = ' '.join(texts)  # a long line may be wrapped over several text elements
assert re.search(r'B/A = [0-9.]+ \[[0-9.]+-[0-9.]+\]: (B is (faster|slower)|the difference is within)', joined), joined
assert re.search(r'waited while ready: [0-9.]+ ms over [0-9]+ tasks \(queue busy [0-9.]+ ms, the rest the scheduler.s\)', joined), joined
# Both panels (inorder records few dependencies: its queue order counts) trace a path
# through the 20 kernels of a 4x4-tile factorisation.
paths = [int(n) for n in re.findall(r'critical path: ([0-9]+) tasks', joined)]
assert len(paths) == 2 and min(paths) >= 5, paths
assert 'program: $cholesky --n 128 --tile 32' in texts, texts[:4]
assert any(t.startswith('3 measured runs per config (+1 warm-up)') and 'machine: ' in t for t in texts), texts[:4]
outlined = [r for r in root.iter(ns + 'rect') if r.get('stroke') == 'black']
assert outlined, 'no task outlined as the critical path'
assert not [t for t in texts if re.fullmatch(r'host q[0-9]+', t)], 'an idle host queue has a track'
assert len([t for t in texts if t.startswith('not drawn (idle): host q1 (1 tasks')]) == 2, texts
print('svg text ok')"
# A loaded machine stretches the host access (the result's hand-over) and the tasks' waits
# while ready (dag's under load: 0.2 ms of kernels in a 382 ms makespan). Neither decides a
# track: the host's queue, which only handed the result over, has none; the queue that ran
# the kernels has one. The program here stretches both in its own trace: every event starts
# 100 makespans later than it did (its ready time kept), and the host access takes 5 % of
# the new makespan.
cat >"$work/slow-hand-over.sh" <<SH
#!/bin/sh
"$cholesky" "\$@" || exit
python3 - "\$PLEXUS_TRACE" <<'PY'
import json, sys
trace = json.load(open(sys.argv[1]))
events = trace["traceEvents"]
end = max(e["ts"] + e["dur"] for e in events if e.get("ph") == "X")
for e in events:
    if e.get("ph") == "X":
        e["ts"] += 100 * end
end *= 101
for e in events:
    if e.get("cat") == "task" and e.get("name") == "host access":
        e["ts"], e["dur"] = e["ts"] + e["dur"] - 0.05 * end, 0.05 * end  # same end
json.dump(trace, open(sys.argv[1], "w"))
PY
SH
chmod +x "$work/slow-hand-over.sh"
expect "ab: slow starts and a slow host access decide no track" 0 "tracks ok" -- bash -c "
  '$plexus' ab --config '$configs/inorder.toml' --config '$configs/dag.toml' --runs 1 --warmup 0 \
    --out '$work/slow' --svg '$work/slow.svg' -- '$work/slow-hand-over.sh' --n 128 --tile 32 >/dev/null &&
  python3 -c \"
import re, xml.etree.ElementTree as ET
texts = [t.text or '' for t in ET.parse('$work/slow.svg').getroot().iter('{http://www.w3.org/2000/svg}text')]
assert not [t for t in texts if re.fullmatch(r'host q[0-9]+', t)], texts
notes = [t for t in texts if t.startswith('not drawn (idle): ')]
assert len(notes) == 2 and all(re.fullmatch(r'not drawn \(idle\): host q1 \(1 tasks[^)]*\)', t) for t in notes), notes
assert len([t for t in texts if re.fullmatch(r'.+ q[0-9]+', t) and not t.startswith('host ')]) >= 2, texts
print('tracks ok')\""
# No line of text runs into another (the panels' long lines are wrapped to their width):
# boxes at 6.2 px per character, 14 px high, by their anchor.
expect "ab: SVG text lines do not overlap" 0 "no overlap" -- python3 -c "
import xml.etree.ElementTree as ET
boxes = []
for t in ET.parse('$work/ab.svg').getroot().iter('{http://www.w3.org/2000/svg}text'):
    w = len(t.text or '') * 6.2 * (14 / 11 if t.get('font-size') == '14' else 1)
    x, y = float(t.get('x')), float(t.get('y'))
    x -= {'end': w, 'middle': w / 2}.get(t.get('text-anchor'), 0)
    boxes.append((x, y - 11, x + w, y + 2, t.text))
for i, a in enumerate(boxes):
    for b in boxes[i + 1:]:
        assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
print('no overlap')"
# Two configs that differ only in an option are named apart (by file), not both 'dag'.
{ cat "$configs/dag.toml"; printf '[scheduler.dag]\nworkers = 1\n'; } >"$work/dag-w1.toml"
expect "ab: SVG names configs that differ only in options apart" 0 "labels ok" -- bash -c "
  '$plexus' ab --config '$configs/dag.toml' --config '$work/dag-w1.toml' --runs 1 --warmup 0 \
    --out '$work/options' --svg '$work/options.svg' -- '$cholesky' --n 64 --tile 32 >/dev/null &&
  python3 -c \"
import xml.etree.ElementTree as ET
texts = [t.text for t in ET.parse('$work/options.svg').getroot().iter('{http://www.w3.org/2000/svg}text')]
assert 'A: dag.toml' in texts and 'B: dag-w1.toml' in texts, texts
print('labels ok')\""
expect "ab: three configs (--set adds one)" 0 "C/A = " -- \
  "$plexus" ab --config "$configs/inorder.toml" --config "$configs/dag.toml" \
  --set scheduler=dag --runs 1 --warmup 0 -- "$cholesky" --n 64 --tile 32
mkdir -p "$work/rel/extra"
{ printf '[plugins]\npaths = ["extra"]\n'; cat "$configs/dag.toml"; } >"$work/rel/with-paths.toml"
expect "ab: --set keeps relative plugin paths working (made absolute)" 0 "paths = \[ '$work/rel/extra' \]" -- \
  bash -c "'$plexus' ab --config '$work/rel/with-paths.toml' --set scheduler=inorder --runs 1 \
    --warmup 0 --out '$work/set' -- '$cholesky' --n 64 --tile 32 >/dev/null && cat '$work/set/config-B.toml'"
expect "ab: --set sets a component option" 0 "workers = 1" -- \
  bash -c "'$plexus' ab --config '$configs/dag.toml' --set scheduler.dag.workers=1 --runs 1 \
    --warmup 0 --out '$work/opt' -- '$cholesky' --n 64 --tile 32 >/dev/null && cat '$work/opt/config-B.toml'"
expect "ab: a bad component option fails the run, naming the option" 1 \
  "config-B.toml:[0-9]+:[0-9]+: option 'scheduler.dag.workers' must be an integer, found string \"many\"" -- \
  "$plexus" ab --config "$configs/dag.toml" --set scheduler.dag.workers=many --runs 1 \
  --warmup 0 -- "$cholesky" --n 64 --tile 32
mkdir -p "$work/tmp"
expect "ab: without --out, its temporary directory is removed at the end" 0 "^left: 0$" -- \
  bash -c "TMPDIR='$work/tmp' '$plexus' ab --config '$configs/inorder.toml' --config '$configs/dag.toml' \
    --runs 1 --warmup 0 -- '$cholesky' --n 64 --tile 32 >/dev/null && echo left: \$(ls '$work/tmp' | wc -l)"
expect "ab: ... and kept when a run fails, saying where" 0 "kept in $work/tmp/plexus-ab-[A-Za-z0-9]+ left: 1 " -- \
  bash -c "(TMPDIR='$work/tmp' '$plexus' ab --config '$configs/inorder.toml' --config '$configs/dag.toml' \
    --runs 1 --warmup 0 -- true 2>&1; echo left: \$(ls '$work/tmp' | wc -l)) | tr '\n' ' '"

# 3. Failures are reported with the config and the status.
expect "ab: program failing under one config" 1 \
  "failed under config B \(.*no_device.toml\), warmup-1: '.*cholesky' exited with status 77" -- \
  "$plexus" ab --config "$configs/inorder.toml" --config "$configs/no_device.toml" --runs 2 \
  -- "$cholesky" --n 64 --tile 32
cat >"$work/crashy.sh" <<SH
#!/bin/sh
case "\$PLEXUS_CONFIG" in *dag*) kill -SEGV \$\$ ;; esac
exec "$cholesky" "\$@"
SH
chmod +x "$work/crashy.sh"
expect "ab: program crashing under one config" 1 \
  "failed under config B \(.*dag.toml\), run-1: .* killed by signal 11" -- \
  "$plexus" ab --config "$configs/inorder.toml" --config "$configs/dag.toml" --runs 2 --warmup 0 \
  -- "$work/crashy.sh" --n 64 --tile 32
expect "ab: a program that writes no trace" 1 "exited normally but no trace summary" -- \
  "$plexus" ab --config "$configs/inorder.toml" --config "$configs/dag.toml" --runs 1 -- true
expect "ab: a program that does not exist" 1 "exited with status 127" -- \
  "$plexus" ab --config "$configs/inorder.toml" --config "$configs/dag.toml" --runs 1 \
  -- "$work/no-such-program"
expect "ab: one config only" 2 "two or more configs" -- \
  "$plexus" ab --config "$configs/inorder.toml" -- "$cholesky"
expect "ab: missing config file" 2 "--config '.*missing.toml': no such file" -- \
  "$plexus" ab --config "$work/missing.toml" --config "$configs/dag.toml" -- "$cholesky"
expect "ab: no program" 2 "no program to run" -- \
  "$plexus" ab --config "$configs/inorder.toml" --config "$configs/dag.toml"
expect "ab: bad --runs" 2 "--runs 'x': expected a whole number from 1 to" -- \
  "$plexus" ab --config "$configs/inorder.toml" --config "$configs/dag.toml" --runs x -- true
expect "ab: --runs 0 gets the same message" 2 "--runs '0': expected a whole number from 1 to" -- \
  "$plexus" ab --config "$configs/inorder.toml" --config "$configs/dag.toml" --runs 0 -- true
expect "ab: bad --set" 2 "expected KEY=VALUE" -- \
  "$plexus" ab --config "$configs/inorder.toml" --set heft -- true
expect "ab: a hanging program times out" 1 "timed out after 1 s" -- \
  "$plexus" ab --config "$configs/inorder.toml" --config "$configs/dag.toml" --runs 1 --warmup 0 \
  --timeout 1 -- sleep 30

# 3. Automatic replay (on by default) against off: --set alone compares the config in force
# (A) with the override (B), and an environment override of the key (PLEXUS_AUTO_GRAPH=1)
# does not undo the --set in B's runs. The Jacobi sweeps repeat: replayed under A only.
expect "ab: --set alone compares the config in force with it" 0 \
  "graphs\.auto=false.*B/A = " -- \
  tr '\n' ' ' < <(PLEXUS_AUTO_GRAPH=1 "$plexus" ab --set graphs.auto=false --runs 1 --warmup 0 \
  --out "$work/auto" -- "$jacobi" --n 32 --iterations 200)
expect "ab: automatic replay in A's run (on by default)" 0 "graph of [0-9]+ kernels \(automatic replay\)" -- \
  cat "$work/auto/A-run-1.json"
expect "ab: none in B's run (graphs.auto=false, PLEXUS_AUTO_GRAPH=1 in the environment)" 1 "^0$" -- \
  grep -c "automatic replay" "$work/auto/B-run-1.json"
report

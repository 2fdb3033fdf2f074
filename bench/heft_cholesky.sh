#!/bin/bash
# Tiled Cholesky under scheduler/heft over two backends against each alone (and dag alone),
# in interleaved rounds so that a loaded machine's noise falls on every row alike.
#   bench/heft_cholesky.sh BUILD_DIR [ROUNDS (7)] [N (1024)] [TILE (128)] [BACKENDS (host,opencl)]
# BACKENDS: two backends, e.g. host,opencl (the host device + PoCL, CPU only) or cuda,host
# (a GPU + the host CPU) or cuda,opencl; or host2: two host devices, the cores split in two
# ([backends.host] devices = 2), heft over both against dag on each one alone (--device 0/1). Environment: OPENCL_PLATFORM narrows the opencl
# backend to platforms whose name contains it (e.g. "NVIDIA"); CHECK=R checks R evenly
# spaced rows of L * L^T instead of all (the full check is n^3/6 on one thread);
# HEFT_OPTIONS='key = value' adds an option to [scheduler.heft] (e.g. 'prior = "none"');
# CALIBRATE=K calibration runs (2); ONLY=REGEX runs only the rows whose label matches;
# KEEP=DIR keeps each run's whole output (DIR/LABEL-TIME.log) and the history file (DIR/heft-history.json).
# BUILD_DIR holds bin/cholesky and the plugins it finds.
# Prints one line per run: label | makespan ms | bytes moved | ok/WRONG | heft's counters.
# Calibration runs write a history file first; "no-history" runs start without one.
set -euo pipefail
build=$(cd "${1:?usage: $0 BUILD_DIR [ROUNDS] [N] [TILE] [BACKENDS]}" && pwd)
rounds=${2:-7} n=${3:-1024} tile=${4:-128} pair=${5:-host,opencl}
first=${pair%%,*} second=${pair#*,}
work=$(mktemp -d)
config=$(cd "$(dirname "$0")/../config/examples" && pwd)/heft.toml
cp "$config" "$work/heft.toml"
config=$work/heft.toml
if [ -n "${HEFT_OPTIONS:-}" ]; then
  sed -i "/^\[scheduler.heft\]/a ${HEFT_OPTIONS}" "$config"
fi
if [ -n "${OPENCL_PLATFORM:-}" ]; then
  printf '\n[backends.opencl]\nplatform = "%s"\n' "$OPENCL_PLATFORM" >>"$config"
fi
if [ "$pair" = host2 ]; then
  printf '\n[backends.host]\ndevices = 2\n' >>"$config"
  pair=host first=host second=host
fi
history=$work/heft-history.json
keep() {  # copies standard input to KEEP/LABEL-TIME.log when KEEP is set
  if [ -n "${KEEP:-}" ]; then mkdir -p "$KEEP"; tee "$KEEP/$1-$(date +%H%M%S%N).log"; else cat; fi
}
trap '[ -n "${KEEP:-}" ] && [ -f "$history" ] && cp "$history" "$KEEP/"; rm -rf "$work"' EXIT
run() {
  local label=$1; shift
  [[ $label =~ ${ONLY:-.} || $label == calibrate-* ]] || return 0
  env PLEXUS_CACHE_DIR="$build/test-cache" PLEXUS_LOG_LEVEL=info PLEXUS_CONFIG="$config" "$@" \
    "$build/bin/cholesky" --n "$n" --tile "$tile" --check "${CHECK:-0}" ${DEVICE_ARGS:-} 2>&1 |
    keep "$label" | awk -v l="$label" '/time/ {t=$2; b=$8} /heft: tasks/ {sub(/.*tasks per device: /, ""); p=$0}
                       /WRONG|cholesky: / && !/cholesky: n / {w=1} END {print l " | " t " | " b " | " (w ? "WRONG" : "ok") " | " p}'
}
for k in $(seq "${CALIBRATE:-2}"); do
  run "calibrate-$k" PLEXUS_BACKENDS="$pair" PLEXUS_HEFT_HISTORY="$history"
done
if [ "${5:-}" = host2 ]; then
  for _ in $(seq "$rounds"); do
    run "heft-host2" PLEXUS_BACKENDS=host PLEXUS_HEFT_HISTORY="$history"
    run "heft-host2-no-history" PLEXUS_BACKENDS=host
    DEVICE_ARGS="${DEVICE_ARGS:-} --device 0" run "dag-host-device0" PLEXUS_BACKENDS=host PLEXUS_SCHEDULER=dag
    DEVICE_ARGS="${DEVICE_ARGS:-} --device 1" run "dag-host-device1" PLEXUS_BACKENDS=host PLEXUS_SCHEDULER=dag
  done
  exit 0
fi
for _ in $(seq "$rounds"); do
  run "heft-$first+$second" PLEXUS_BACKENDS="$pair" PLEXUS_HEFT_HISTORY="$history"
  run "heft-$first+$second-no-history" PLEXUS_BACKENDS="$pair"
  run "heft-$first" PLEXUS_BACKENDS="$first" PLEXUS_HEFT_HISTORY="$history"
  run "heft-$second" PLEXUS_BACKENDS="$second" PLEXUS_HEFT_HISTORY="$history"
  run "dag-$first" PLEXUS_BACKENDS="$first" PLEXUS_SCHEDULER=dag
  run "dag-$second" PLEXUS_BACKENDS="$second" PLEXUS_SCHEDULER=dag
done

#!/usr/bin/env bash
# heft over two GPUs against each GPU alone (heft and dag), tiled Cholesky, in interleaved
# rounds, in the environment of bench/gpu/run.sh (the pack's bin/ first in PATH), from the
# repository root, on a machine with two GPUs:
#   bash bench/gpu/run.sh PACK [OVERLAY...] -- 'bash bench/gpu/heft_two_gpus.sh [N (16384)] [TILE (1024)] [KERNELS (opencl)] [ROUNDS (3)]'
# Two calibration runs over both GPUs write the history first. One line per run:
# label | ms | bytes moved | heft's tasks per device.
set -uo pipefail
n=${1:-16384} tile=${2:-1024} kernels=${3:-opencl} rounds=${4:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
heft=$PWD/config/examples/heft.toml
history=$work/heft.json
nvidia-smi --query-gpu=index,name --format=csv,noheader
run() {  # LABEL SCHEDULER GPUS
  CUDA_VISIBLE_DEVICES=$3 PLEXUS_CONFIG=$heft PLEXUS_SCHEDULER=$2 PLEXUS_BACKENDS=cuda \
    PLEXUS_HEFT_HISTORY=$history PLEXUS_LOG_LEVEL=info \
    cholesky --kernels "$kernels" --n "$n" --tile "$tile" --check 16 2>&1 |
    awk -v l="$1" '/time/ {t=$2; b=$8} /heft: tasks/ {sub(/.*tasks per device: /, ""); p=$0}
                   /WRONG|cholesky: / && !/cholesky: n / {w=1} END {print l " | " t " | " b " | " (w ? "WRONG" : "ok") " | " p}'
}
run calibrate-1 heft 0,1
run calibrate-2 heft 0,1
for _ in $(seq "$rounds"); do
  run heft-both-gpus heft 0,1
  run heft-gpu0 heft 0
  run dag-gpu0 dag 0
done

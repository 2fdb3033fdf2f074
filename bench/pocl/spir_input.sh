#!/usr/bin/env bash
# PoCL 3.1 on this CPU with the same kernels as SPIR bitcode in four shapes (issue 15 item 4):
#   O2    what the opencl backend gives PoCL (the frontend at -O2)
#   O0    -O0 as Clang gives it (optnone on every function)
#   raw   -O0 without optnone (-disable-O0-optnone; -fgnu89-inline so plain `inline`
#         helpers are emitted: C99 inline definitions are not at -O0)
#   O1    the frontend at -O1
# stencil2d's results are checked first (stencil_check.c: after a kernel of another program,
# four work-group shapes, against the host). Each variant is loaded with clCreateProgramWithBinary ("-x spir -spir-std=1.2") and timed
# interleaved with the others: 9 rounds of 3 launches each, min and median per launch.
# usage: bench/pocl/spir_input.sh [kernel...]   (stencil2d jacobi sgemm saxpy)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kernels=$here/../kernels
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O1 "$here/spir_input_timing.c" -o "$work/timing" -lOpenCL
cc -O1 "$here/stencil_check.c" -o "$work/check" -lOpenCL -lm
resource=$(clang-15 -print-resource-dir)
cc1=(clang-15 -cc1 -triple spir64-unknown-unknown -x cl -no-opaque-pointers
     -finclude-default-header -fdeclare-opencl-builtins -emit-llvm-bc -resource-dir "$resource"
     -internal-isystem "$resource/include" -nostdsysteminc -I "$kernels/include")
source_of() {
  case $1 in
    stencil2d) echo "$here/stencil2d.cl" ;;
    jacobi) echo "$kernels/jacobi.cl" ;;
    sgemm) echo "$kernels/matmul.cl" ;;
    saxpy) echo "$kernels/saxpy.cl" ;;
  esac
}
for kernel in "${@:-stencil2d jacobi sgemm saxpy}"; do
  for k in $kernel; do
    src=$(source_of "$k")
    "${cc1[@]}" -O2 "$src" -o "$work/$k.O2.bc"
    "${cc1[@]}" -O0 -fgnu89-inline "$src" -o "$work/$k.O0.bc"
    "${cc1[@]}" -O0 -disable-O0-optnone -fgnu89-inline "$src" -o "$work/$k.raw.bc"
    "${cc1[@]}" -O1 "$src" -o "$work/$k.O1.bc"
    if [ "$k" = stencil2d ]; then  # results first: after another program, four shapes
      for shape in O2 O0 raw O1; do
        echo -n "stencil2d $shape after another program: "
        (cd "$work" && ./check "$k.$shape.bc" "$k.$shape.bc" 8 | tail -1)
      done
    fi
    (cd "$work" && ./timing "$k" "$k.O2.bc" "$k.O0.bc" "$k.raw.bc" "$k.O1.bc")
  done
done

#!/usr/bin/env bash
# Installs every Debian 12 package Plexus needs to build and test (idempotent:
# when everything is present it only checks, in well under a second).
# Toolchain facts: shared/reference/toolchain.md.
set -euo pipefail

packages=(
  # build
  cmake ninja-build g++ pkg-config git
  # the host device library's builtin generators (backends/host/device_library/generator)
  python3
  # core: plugin loading, config, logging, tests
  libboost1.81-dev libspdlog-dev libfmt-dev libtomlplusplus-dev catch2
  # cache stores
  libzstd-dev libsqlite3-dev
  # compiler and fusion components: one shared LLVM 15 stack
  llvm-15-dev libclang-15-dev libclang-cpp15-dev clang-15 lld-15 liblld-15-dev
  libllvmspirvlib-15-dev llvm-spirv-15 spirv-tools libclc-15
  # OpenCL backend, with PoCL as a real CPU device
  ocl-icd-opencl-dev opencl-c-headers opencl-clhpp-headers pocl-opencl-icd clinfo
  # level_zero backend: the loader's headers (build) and the loader (opened at run time;
  # without a driver the backend reports itself unavailable with the loader's reason)
  libze-dev libze1
  # hip backend: the HIP runtime's headers (build) and libamdhip64 (opened at run time;
  # without an AMD GPU the backend reports itself unavailable with the runtime's reason)
  libamdhip64-dev
  # host backend: work-items of barrier kernels run as fibers
  libboost-context1.81-dev
  # cholesky --kernels blas on host devices, and its LAPACKE_dpotrf reference benchmark
  libopenblas-dev liblapacke-dev
  # mpi backend and `plexus worker`: remote devices over Open MPI (tests start mpirun)
  libopenmpi-dev openmpi-bin
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$status" = installed ] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"

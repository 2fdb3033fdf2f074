#!/usr/bin/env bash
# On the GPU machine: unpacks a base pack (bench/gpu/pack.sh) and, over it, overlays
# (bench/gpu/overlay.sh), sets the environment the compilers and the plugin loader need,
# registers NVIDIA's OpenCL next to PoCL, and runs COMMAND (a shell snippet; the pack's bin/
# is first in PATH).
#   bash bench/gpu/run.sh PACK_DIR [OVERLAY_DIR...] -- 'COMMAND...'
set -euo pipefail
dp=/tmp/dp
pack=$(cd "${1:?usage: $0 PACK_DIR [OVERLAY_DIR...] -- COMMAND}" && pwd)
shift
[ -x "$dp/bin/plexus" ] || bash "$pack/unpack.sh" "$dp" >/dev/null
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  tar -C "$dp" -xJf "$1/overlay.tar.xz"
  shift
done
[ "${1:-}" = -- ] && shift
export LD_LIBRARY_PATH=$dp/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export PATH=$dp/bin:$PATH
export PLEXUS_PLUGIN_PATH=$dp/bin PLEXUS_BUILD_PLUGIN_DIR=$dp/bin
resource=$(ls -d "$dp"/data/usr/lib/llvm-15/lib/clang/*/ 2>/dev/null | head -1)
export PLEXUS_CLANG_RESOURCE_DIR=${resource%/}
export PLEXUS_LIBCLC_DIR=$dp/data/usr/lib/clc
export PLEXUS_HOST_DEVICE_LIBRARY=$dp/data/tmp/plexus-gpu-pack-data/host_device_library.bc
vendors=/tmp/ocl-vendors
mkdir -p "$vendors"
cp /etc/OpenCL/vendors/*.icd "$vendors/" 2>/dev/null || true
nvidia=$(ldconfig -p | awk '/libnvidia-opencl.so.1/{print $NF; exit}')
[ -n "$nvidia" ] && echo "$nvidia" > "$vendors/nvidia.icd"
export OCL_ICD_VENDORS=$vendors
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
bash -c "$*"

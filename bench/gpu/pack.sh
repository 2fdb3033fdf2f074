#!/usr/bin/env bash
# Packs a build for the GPU machine (no LLVM, Boost or toml++ there): the plexus tool, every
# plugin and the programs named (file names in BUILD_DIR/bin; default: the examples and
# device_conformance), debug info stripped, with the shared libraries they need and the data
# the compilers read (clang's OpenCL headers, libclc for nvptx64, the host device library).
# The pack must stay under the device tool's 64 MiB carry limit: name only what a run needs.
#   bench/gpu/pack.sh BUILD_DIR OUT_DIR [PROGRAM...]
# Then carry OUT_DIR with the device tool and run bench/gpu/run.sh OUT_DIR COMMAND... there.
set -euo pipefail
build=$(cd "${1:?usage: $0 BUILD_DIR OUT_DIR [PROGRAM...]}" && pwd)
out=${2:?usage: $0 BUILD_DIR OUT_DIR [PROGRAM...]}
shift 2
root=$(cd "$(dirname "$0")/../.." && pwd)
programs=("$@")
[ ${#programs[@]} -gt 0 ] || programs=(cholesky vector_add jacobi device_conformance)
files=("$build/bin/plexus" "$build"/lib/plexus/plugins/*.so)
for p in "${programs[@]}"; do files+=("$build/bin/$p"); done
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/lib"
cp -L "$build"/lib/libplexus-*.so.0 "$stage/lib/"
# The examples' own libraries (libplexus_cholesky_native.so, which `plexus worker
# --native-library` loads, and what it links): found here, they go to the pack's lib/.
cp -L "$build"/lib/libplexus_*.so "$stage/lib/" 2>/dev/null || true
for f in "${files[@]}"; do cp "$f" "$stage/"; done
for f in "$stage"/* "$stage"/lib/*; do [ -f "$f" ] && strip --strip-debug "$f" 2>/dev/null || true; done
export LD_LIBRARY_PATH=$stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
resource=$(clang-15 -print-resource-dir)
hostlib=/tmp/plexus-gpu-pack-data
rm -rf "$hostlib" && mkdir -p "$hostlib"
cp "$build/lib/plexus/host_device_library.bc" "$hostlib/"
mkdir -p "$out"
"$root/../shared/tools/devpack" "$out" $(find "$stage" -maxdepth 1 -type f) \
  --data "$resource/include" --data /usr/lib/clc/nvptx64--nvidiacl.bc --data "$hostlib"

#!/usr/bin/env bash
# Packs what changes between builds for the GPU machine, small and fast (zstd), to go over a
# base pack from bench/gpu/pack.sh: the plexus tool, every plugin, the Plexus libraries and the
# programs named (file names in BUILD_DIR/bin; default: the examples and device_conformance),
# debug info stripped, plus the libraries they link that the GPU machine lacks, except the
# large LLVM ones that the base pack holds. The examples' and tests' own libraries
# (lib/libplexus_*.so: libplexus_cholesky_native.so, which `plexus worker --native-library`
# loads, and libplexus_examples_common.so it links) go to lib/ with the Plexus libraries.
#   bench/gpu/overlay.sh BUILD_DIR OUT_DIR [PROGRAM...]
set -euo pipefail
build=$(cd "${1:?usage: $0 BUILD_DIR OUT_DIR [PROGRAM...]}" && pwd)
out=${2:?usage: $0 BUILD_DIR OUT_DIR [PROGRAM...]}
shift 2
programs=("$@")
[ ${#programs[@]} -gt 0 ] || programs=(cholesky vector_add jacobi device_conformance)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib" "$out"
cp "$build/bin/plexus" "$build"/lib/plexus/plugins/*.so "$stage/bin/"
for p in "${programs[@]}"; do cp "$build/bin/$p" "$stage/bin/"; done
cp -L "$build"/lib/libplexus-*.so.0 "$stage/lib/"
cp -L "$build"/lib/libplexus_*.so "$stage/lib/" 2>/dev/null || true
for f in "$stage"/bin/* "$stage"/lib/*; do strip --strip-debug "$f" 2>/dev/null || true; done
on_gpu_machine='^(linux-vdso|ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libstdc\+\+\.so|libgcc_s\.so|libcuda\.so|libOpenCL\.so|libnvidia|libxml2\.so|libicu|libz\.so|libzstd\.so|liblzma\.so|libffi\.so|libedit\.so|libtinfo\.so|libbsd\.so|libmd\.so|libsqlite3\.so|libLLVM|libclang-cpp|libz3|libplexus)'
for f in "$stage"/bin/* "$stage"/lib/*; do
  LD_LIBRARY_PATH=$stage/lib ldd "$f" | awk '/=> \//{print $1, $3}' | while read -r name path; do
    [[ $name =~ $on_gpu_machine ]] && continue
    [ -e "$stage/lib/$name" ] || cp -L "$path" "$stage/lib/$name"
  done
done
tar -C "$stage" -cf - . | xz -T2 -6 > "$out/overlay.tar.xz"
echo "overlay: $(du -h "$out/overlay.tar.xz" | cut -f1) in $out/overlay.tar.xz"

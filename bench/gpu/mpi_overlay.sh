#!/usr/bin/env bash
# Packs what bench/gpu/mpi_ab.sh measures of a build (about 1.2 MB, so that it travels beside
# a base pack and the Open MPI pack): the plexus tool (the worker), plexus-bench-mpi, the mpi
# and host backend plugins and the Plexus libraries, debug info stripped; everything else
# comes from the base pack (bench/gpu/pack.sh) it goes over.
#   bench/gpu/mpi_overlay.sh BUILD_DIR OUT_DIR
set -euo pipefail
build=$(cd "${1:?usage: $0 BUILD_DIR OUT_DIR}" && pwd)
out=${2:?usage: $0 BUILD_DIR OUT_DIR}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib" "$out"
cp "$build/bin/plexus" "$build/bin/plexus-bench-mpi" "$build"/lib/plexus/plugins/libplexus_backend_{mpi,host}.so \
  "$stage/bin/"
cp -L "$build"/lib/libplexus-*.so.0 "$stage/lib/"
for f in "$stage"/bin/* "$stage"/lib/*; do strip --strip-debug "$f"; done
tar -C "$stage" -cf - . | xz -T2 -6 > "$out/overlay.tar.xz"
echo "overlay: $(du -h "$out/overlay.tar.xz" | cut -f1) in $out/overlay.tar.xz"

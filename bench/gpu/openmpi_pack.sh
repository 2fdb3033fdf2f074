#!/usr/bin/env bash
# Packs this machine's Open MPI runtime (Debian 12's 4.1.4: mpirun, orted, the MCA and PMIx
# plugins, help texts and the libraries they need) for the GPU machine, which has no MPI, so
# that the mpi backend can run a worker there (bench/gpu/mpi_checks.sh). Relocated at run
# time with OPAL_PREFIX and PMIX_PREFIX (bench/gpu/openmpi_env.sh). Plugins for fabrics the
# GPU machine's single node does not use (UCX, OFI, verbs, PSM, usnic, Java) are left out.
#   bench/gpu/openmpi_pack.sh OUT_DIR      -> OUT_DIR/openmpi.tar.xz (about 4 MB)
set -euo pipefail
out=${1:?usage: $0 OUT_DIR}
mkdir -p "$out"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
ompi_lib=/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3
pmix=/usr/lib/x86_64-linux-gnu/pmix2
mkdir -p "$stage/bin" "$stage/lib" "$stage/lib/x86_64-linux-gnu/openmpi/lib/openmpi3" \
  "$stage/share" "$stage/etc" "$stage/pmix2/lib/pmix" "$stage/pmix2/share"
cp -L /usr/bin/orterun /usr/bin/orted "$stage/bin/"
ln -s orterun "$stage/bin/mpirun"
unused='ucx|ofi|openib|verbs|psm|usnic|java|portals|ompio|monitoring|sshmem_ucx'
for p in "$ompi_lib"/*.so; do
  [[ $(basename "$p") =~ $unused ]] || cp -L "$p" "$stage/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/"
done
cp -L "$pmix"/lib/pmix/*.so "$stage/pmix2/lib/pmix/"
cp -rL "$pmix/share/pmix" "$stage/pmix2/share/"
cp -rL /usr/share/openmpi "$stage/share/"
cp -rL /etc/openmpi "$stage/etc/"
# the libraries they link, except those the GPU machine has (devpack's list)
on_gpu_machine='^(linux-vdso|ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libstdc\+\+\.so|libgcc_s\.so|libcuda\.so|libOpenCL\.so|libnvidia|libz\.so|libzstd\.so|liblzma\.so)'
cp -L /usr/lib/x86_64-linux-gnu/libmpi.so.40 "$stage/lib/"
find "$stage/bin" "$stage/lib" "$stage/pmix2" -type f -name '*.so*' -o -type f -path '*/bin/*' |
  while read -r f; do
    ldd "$f" 2>/dev/null | awk '/=> \//{print $1, $3}' | while read -r name path; do
      [[ $name =~ $on_gpu_machine ]] && continue
      [ -e "$stage/lib/$name" ] || cp -L "$path" "$stage/lib/$name"
    done
  done
strip --strip-debug "$stage"/bin/* "$stage"/lib/*.so* 2>/dev/null || true
tar -C "$stage" -cf - . | xz -T2 -9 > "$out/openmpi.tar.xz"
echo "openmpi pack: $(du -h "$out/openmpi.tar.xz" | cut -f1) in $out/openmpi.tar.xz ($(ls "$stage/lib" | wc -l) libraries)"

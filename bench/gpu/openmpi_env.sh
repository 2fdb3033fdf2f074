# Sourced: unpacks bench/gpu/openmpi_pack.sh's archive into DIR (once) and sets what Open MPI
# needs to run from there (its install prefix, PMIx's, the path, the libraries), as root (the
# GPU machine runs commands as root; Open MPI refuses that unless told).
#   source bench/gpu/openmpi_env.sh PACK_DIR [DIR]
ompi_pack=${1:?usage: source openmpi_env.sh PACK_DIR [DIR]}
ompi_dir=${2:-/tmp/openmpi}
[ -x "$ompi_dir/bin/orterun" ] || { mkdir -p "$ompi_dir" && xz -dc "$ompi_pack/openmpi.tar.xz" | tar -C "$ompi_dir" -xf -; }
export OPAL_PREFIX=$ompi_dir PMIX_PREFIX=$ompi_dir/pmix2 PMIX_DATADIR=$ompi_dir/pmix2/share
export PMIX_PKGDATADIR=$ompi_dir/pmix2/share/pmix PMIX_PKGLIBDIR=$ompi_dir/pmix2/lib/pmix
export OPAL_SYSCONFDIR=$ompi_dir/etc/openmpi
export PATH=$ompi_dir/bin:$PATH
export LD_LIBRARY_PATH=$ompi_dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mca_base_component_show_load_errors=0

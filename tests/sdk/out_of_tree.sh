#!/usr/bin/env bash
# The SDK test (CTest: sdk_out_of_tree). Usage: out_of_tree.sh <sdk_test_env.sh>
#
#  1. `cmake --install` this build into a fresh temporary prefix;
#  2. copies the installed example (share/plexus/sdk/examples/fifo_scheduler) and every
#     installed skeleton out of the prefix and builds each out of tree with
#     -DCMAKE_PREFIX_PATH=<prefix>, checking the file each produces;
#  3. builds tests/sdk/consumer (an application linking plexus::core) the same way and
#     runs it with a config that selects the out-of-tree `fifo` scheduler
#     ([plugins] paths = [<fifo build dir>]); it also loads each skeleton plugin;
#  4. runs the installed `plexus plugins --config <file>` and expects `fifo` listed.
# Any failing step fails the test. The temporary directory (under the build tree) is
# removed at the end; set PLEXUS_SDK_TEST_KEEP=1 to keep it for a post-mortem.
set -euo pipefail

env_file=${1:?usage: out_of_tree.sh <sdk_test_env.sh>}
# shellcheck source=/dev/null
source "$env_file"

# Nothing from the caller's environment may redirect the runtime or the install.
unset PLEXUS_CONFIG PLEXUS_PLUGIN_PATH PLEXUS_SCHEDULER PLEXUS_MEMORY PLEXUS_CACHE \
      PLEXUS_COMPILER PLEXUS_FUSION PLEXUS_BACKENDS PLEXUS_LOG_LEVEL PLEXUS_TRACE DESTDIR \
      CMAKE_PREFIX_PATH

kinds=(backend scheduler memory cache compiler fusion)
jobs=${PLEXUS_SDK_TEST_JOBS:-2}

mkdir -p "$PLEXUS_TEST_WORK_PARENT"
work=$(mktemp -d "$PLEXUS_TEST_WORK_PARENT/oot.XXXXXX")
cleanup() {
  local rc=$?
  if [[ ${PLEXUS_SDK_TEST_KEEP:-0} == 1 ]]; then
    echo "kept $work"
  else
    rm -rf "$work"
  fi
  exit "$rc"
}
trap cleanup EXIT

prefix=$work/prefix
logs=$work/logs
mkdir -p "$logs" "$work/src" "$work/build"
started=$SECONDS

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# run <log name> <command>...: quiet on success, prints the log and fails otherwise.
run() {
  local name=$1
  shift
  if ! "$@" >"$logs/$name.log" 2>&1; then
    echo "---- $name: $* ----" >&2
    cat "$logs/$name.log" >&2
    fail "step '$name' failed (exit status above)"
  fi
}

# oot_build <name> <source dir> <build dir>: configure and build against the prefix only.
oot_build() {
  local name=$1 src=$2 bld=$3
  run "configure-$name" "$PLEXUS_CMAKE" -S "$src" -B "$bld" -G "$PLEXUS_GENERATOR" \
    -DCMAKE_MAKE_PROGRAM="$PLEXUS_MAKE_PROGRAM" \
    -DCMAKE_CXX_COMPILER="$PLEXUS_CXX_COMPILER" \
    -DCMAKE_CXX_FLAGS="$PLEXUS_CXX_FLAGS" \
    -DCMAKE_EXE_LINKER_FLAGS="$PLEXUS_EXE_LINKER_FLAGS" \
    -DCMAKE_MODULE_LINKER_FLAGS="$PLEXUS_MODULE_LINKER_FLAGS" \
    -DCMAKE_BUILD_TYPE="$PLEXUS_BUILD_TYPE" \
    -DCMAKE_PREFIX_PATH="$prefix"
  # It must have found the package in the temporary prefix, not some other install.
  local found
  found=$(sed -n 's/^Plexus_DIR:PATH=//p' "$bld/CMakeCache.txt")
  [[ $found == "$prefix/$PLEXUS_INSTALL_LIBDIR/cmake/Plexus" ]] ||
    fail "$name: find_package(Plexus) used '$found', not the temporary prefix"
  run "build-$name" "$PLEXUS_CMAKE" --build "$bld" -j "$jobs"
  echo "ok: built $name out of tree ($((SECONDS - started))s)"
}

# ---- 1. install ----------------------------------------------------------------------
run install "$PLEXUS_CMAKE" --install "$PLEXUS_BINARY_DIR" --prefix "$prefix"
sdk=$prefix/$PLEXUS_INSTALL_DATADIR/plexus/sdk
for f in "$PLEXUS_INSTALL_LIBDIR/cmake/Plexus/PlexusConfig.cmake" \
         "$PLEXUS_INSTALL_LIBDIR/cmake/Plexus/PlexusConfigVersion.cmake" \
         "$PLEXUS_INSTALL_LIBDIR/cmake/Plexus/PlexusTargets.cmake" \
         "$PLEXUS_INSTALL_LIBDIR/cmake/Plexus/PlexusPlugin.cmake" \
         "$PLEXUS_INSTALL_INCLUDEDIR/plexus/plugin.hpp" \
         "$PLEXUS_INSTALL_INCLUDEDIR/plexus/version.hpp" \
         "$PLEXUS_INSTALL_DATADIR/plexus/sdk/README.md"; do
  [[ -f $prefix/$f ]] || fail "the install lacks $f"
done
echo "ok: installed into $prefix ($((SECONDS - started))s)"

# ---- 2. the example plugin and every skeleton, copied out of the installed SDK --------
cp -R "$sdk/examples/fifo_scheduler" "$work/src/fifo_scheduler"
oot_build fifo_scheduler "$work/src/fifo_scheduler" "$work/build/fifo"
fifo_so=$work/build/fifo/libplexus_scheduler_fifo.so
[[ -f $fifo_so ]] || fail "the example did not produce $fifo_so"

skeleton_sos=()
for kind in "${kinds[@]}"; do
  [[ -d $sdk/skeletons/$kind ]] || fail "the install lacks the $kind skeleton"
  cp -R "$sdk/skeletons/$kind" "$work/src/skeleton_$kind"
  oot_build "skeleton_$kind" "$work/src/skeleton_$kind" "$work/build/skeleton_$kind"
  so=$work/build/skeleton_$kind/libplexus_${kind}_my_${kind}.so
  [[ -f $so ]] || fail "the $kind skeleton did not produce $so"
  skeleton_sos+=(--load "$so")
done

# Hidden visibility: the entry alias must be exported, and the plugin's own classes not.
if command -v nm >/dev/null; then
  exports=$(nm -D --defined-only "$fifo_so")
  grep -q ' plexus_plugin_abi[0-9]*__scheduler__fifo$' <<<"$exports" ||
    fail "$fifo_so does not export its entry symbol; exports: $exports"
  if grep -q 'FifoScheduler' <<<"$exports"; then
    fail "$fifo_so exports FifoScheduler symbols: was it built with hidden visibility?"
  fi
  echo "ok: the example exports its entry symbol and hides its classes"
fi

# ---- 3. an application built against the package selects the plugin by config --------
oot_build consumer "$PLEXUS_SOURCE_DIR/tests/sdk/consumer" "$work/build/consumer"
config=$work/plexus.toml
cat >"$config" <<TOML
# Written by tests/sdk/out_of_tree.sh
[log]
level = "warn"

[plugins]
paths = ["$work/build/fifo"]

[backends]
use = ["host"]

[scheduler]
use = "fifo"

[scheduler.fifo]
queue_limit = 2
TOML
"$work/build/consumer/plexus_sdk_check" --config "$config" --plugin "$fifo_so" \
  --prefix "$prefix" "${skeleton_sos[@]}" ||
  fail "plexus_sdk_check failed (output above)"

# ---- 4. the installed tool lists the plugin -------------------------------------------
tool=$prefix/$PLEXUS_INSTALL_BINDIR/plexus
[[ -x $tool ]] || fail "the install lacks the plexus tool ($tool)"
if ! listing=$("$tool" plugins --config "$config" 2>&1); then
  fail "'plexus plugins --config $config' failed: $listing"
fi
# A row of the plugin table (kind, then name), not merely the directory name in the path.
grep -Eq '(^|[[:space:]])scheduler[[:space:]]+fifo([[:space:]]|$)' <<<"$listing" ||
  fail "'plexus plugins --config $config' does not list fifo; it printed: $listing"
echo "ok: 'plexus plugins' lists fifo"

echo "sdk test passed in $((SECONDS - started))s"

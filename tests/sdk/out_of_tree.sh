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
#     builds plexus_sdk_kernels the same way and runs kernels through each skeleton, selected
#     by a config (both applications configured with Boost and spdlog out of reach);
#     builds the installed examples (share/plexus/examples) from the package, runs vector_add;
#  4. runs the installed `plexus plugins --config <file>` and expects `fifo` listed;
#  5. installs fifo into the prefix, then checks every installed example config with the
#     installed `plexus info` and vector_add;
#  6. runs the installed `plexus conformance <kind> --plugin FILE` on the example, the
#     scheduler, memory and cache skeletons (they pass) and on a broken scheduler (fails).
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

# oot_build <name> <source dir> <build dir> [cmake argument]...: configure and build against
# the prefix only.
oot_build() {
  local name=$1 src=$2 bld=$3 config_flags=()
  shift 3
  # This build's flags of its build type (e.g. -O2 -g1 for RelWithDebInfo), not CMake's defaults.
  [[ -z $PLEXUS_BUILD_TYPE ]] ||
    config_flags=("-DCMAKE_CXX_FLAGS_${PLEXUS_BUILD_TYPE^^}=$PLEXUS_CONFIG_CXX_FLAGS")
  run "configure-$name" "$PLEXUS_CMAKE" -S "$src" -B "$bld" -G "$PLEXUS_GENERATOR" "$@" \
    -DCMAKE_MAKE_PROGRAM="$PLEXUS_MAKE_PROGRAM" \
    -DCMAKE_CXX_COMPILER="$PLEXUS_CXX_COMPILER" \
    -DCMAKE_CXX_FLAGS="$PLEXUS_CXX_FLAGS" \
    -DCMAKE_EXE_LINKER_FLAGS="$PLEXUS_EXE_LINKER_FLAGS" \
    -DCMAKE_MODULE_LINKER_FLAGS="$PLEXUS_MODULE_LINKER_FLAGS" \
    -DCMAKE_BUILD_TYPE="$PLEXUS_BUILD_TYPE" \
    "${config_flags[@]}" \
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
# Applications need neither the Boost nor the spdlog dev package (plexus/plexus.hpp includes
# neither): find_package(Plexus) must succeed with both out of reach.
no_plugin_deps=(-DCMAKE_DISABLE_FIND_PACKAGE_Boost=ON -DCMAKE_DISABLE_FIND_PACKAGE_spdlog=ON)
included=$(printf '#include <plexus/plexus.hpp>\n' |
  "$PLEXUS_CXX_COMPILER" -std=c++20 -I "$prefix/$PLEXUS_INSTALL_INCLUDEDIR" -M -x c++ -) ||
  fail "the installed plexus/plexus.hpp does not compile on its own"
if grep -Eo '[^ ]*(boost|spdlog)[^ ]*' <<<"$included" | head -3 | grep .; then
  fail "the installed plexus/plexus.hpp includes Boost or spdlog headers (above)"
fi
oot_build consumer "$PLEXUS_SOURCE_DIR/tests/sdk/consumer" "$work/build/consumer" \
  "${no_plugin_deps[@]}"
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

# ---- 3b. a kernel application through each skeleton, selected by config -------------
# Every skeleton must work as copied: plexus_sdk_kernels runs kernels (c = a + b, c *= 2,
# read back, three rounds) with a config that selects the skeleton and checks each result.
# The compiler skeleton passes OpenCL C through to the OpenCL backend: it needs an OpenCL
# device (PoCL); without one plexus_sdk_kernels says so and exits 77 (skipped).
for kind in "${kinds[@]}"; do
  backends='["host"]' scheduler=dag memory=whole compiler=clang cache=memory fusion=
  case $kind in
    backend) backends='["host", "my_backend"]' ;;
    scheduler) scheduler=my_scheduler ;;
    memory) memory=my_memory ;;
    compiler) backends='["opencl"]' compiler=my_compiler ;;
    cache) cache=my_cache ;;
    fusion) fusion=my_fusion ;;
  esac
  skeleton_config=$work/skeleton_$kind.toml
  {
    printf '[log]\nlevel = "warn"\n[plugins]\npaths = ["%s"]\n' "$work/build/skeleton_$kind"
    printf '[backends]\nuse = %s\n[scheduler]\nuse = "%s"\n[memory]\nuse = "%s"\n' \
      "$backends" "$scheduler" "$memory"
    printf '[compiler]\nuse = "%s"\n[cache]\nuse = "%s"\n' "$compiler" "$cache"
    [[ -z $fusion ]] || printf '[fusion]\nuse = "%s"\n' "$fusion"
  } >"$skeleton_config"
  status=0
  "$work/build/consumer/plexus_sdk_kernels" --config "$skeleton_config" --expect "$kind" "my_$kind" ||
    status=$?
  [[ $status == 0 || ($status == 77 && $kind == compiler) ]] ||
    fail "kernels through the $kind skeleton failed (output above; config $skeleton_config)"
done

# ---- 3c. the installed examples build from the package and run ------------------------
examples=$prefix/$PLEXUS_INSTALL_DATADIR/plexus/examples
[[ -f $examples/CMakeLists.txt ]] || fail "the install lacks the examples ($examples)"
cp -R "$examples" "$work/src/examples"
oot_build examples "$work/src/examples" "$work/build/examples" "${no_plugin_deps[@]}"
PLEXUS_CACHE_DIR=$work/cache run example-vector-add "$work/build/examples/bin/vector_add" --n 10000
grep -q 'verified' "$logs/example-vector-add.log" ||
  fail "the installed vector_add example did not verify: $(cat "$logs/example-vector-add.log")"
echo "ok: the installed examples build from the package and vector_add runs"

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

# ---- 5. the installed example configs work as installed ------------------------------
# With the SDK's fifo example installed into the prefix (as third-party-plugin.toml says),
# every installed config loads with the installed tool, names no missing folder, and runs
# the installed vector_add example.
run install-fifo "$PLEXUS_CMAKE" --install "$work/build/fifo" --prefix "$prefix"
while IFS= read -r -d '' installed_config; do
  name=${installed_config#"$prefix/"}
  info=$(PLEXUS_CACHE_DIR=$work/cache "$tool" info --config "$installed_config" 2>&1) ||
    fail "'plexus info --config $name' failed: $info"
  # A plugin folder that is missing is listed with "(does not exist)".
  if grep -F '(does not exist)' <<<"$info"; then
    fail "'plexus info --config $name' lists a plugin folder that does not exist (above)"
  fi
  out=$(PLEXUS_CACHE_DIR=$work/cache PLEXUS_CONFIG=$installed_config PLEXUS_HEFT_HISTORY=$work/heft.json \
        "$work/build/examples/bin/vector_add" --n 10000 2>&1) ||
    fail "vector_add with the installed $name failed: $out"
done < <(find "$prefix/$PLEXUS_INSTALL_DATADIR/plexus/config" -name '*.toml' -print0)
echo "ok: every installed example config works as installed"

# ---- 6. the installed conformance suites check third-party plugins --------------------
# The example and the skeletons pass; a scheduler that ignores dependencies (the scheduler
# skeleton with its run_task_now replaced by a body-less run) fails, with exit status 1.
conformance() {  # <log name> <kind> <plugin file>
  run "conformance-$1" "$tool" conformance "$2" --plugin "$3"
  grep -q "passes the conformance suite" "$logs/conformance-$1.log" ||
    fail "plexus conformance $2 --plugin $3 did not say it passes: $(cat "$logs/conformance-$1.log")"
}
conformance fifo scheduler "$fifo_so"
for kind in scheduler memory cache; do
  conformance "skeleton-$kind" "$kind" "$work/build/skeleton_$kind/libplexus_${kind}_my_${kind}.so"
done
cp -R "$sdk/skeletons/scheduler" "$work/src/broken_scheduler"
sed -i 's|plexus::run_task_now(task, queues_.for_device(placement));|task.event->mark_running(); if (task.host_work) task.host_work(); task.event->mark_complete();|' \
  "$work/src/broken_scheduler/my_scheduler.cpp"
grep -q 'if (task.host_work) task.host_work();' "$work/src/broken_scheduler/my_scheduler.cpp" ||
  fail "could not break the copied scheduler skeleton (its run_task_now line changed?)"
oot_build broken_scheduler "$work/src/broken_scheduler" "$work/build/broken_scheduler"
status=0
"$tool" conformance scheduler \
  --plugin "$work/build/broken_scheduler/libplexus_scheduler_my_scheduler.so" \
  >"$logs/conformance-broken.log" 2>&1 || status=$?
[[ $status == 1 ]] && grep -q "FAILS the conformance suite" "$logs/conformance-broken.log" ||
  fail "plexus conformance passed (or did not fail cleanly, status $status) a scheduler that ignores dependencies: $(cat "$logs/conformance-broken.log")"
echo "ok: plexus conformance passes the example and the skeletons, fails a broken scheduler"

echo "sdk test passed in $((SECONDS - started))s"

#!/usr/bin/env bash
# The sanitizer variants of the test suite (issue 22 item 7), each a second build of only
# what its tests need:
#   address,undefined (build-asan): the tests of the core, SYCLBIN, caches, memory models,
#     schedulers and the runtime API on the host backend;
#   thread (build-tsan): the concurrency tests (program cache, dag/heft, runtime API).
# No debug info, and unity builds (CMAKE_UNITY_BUILD: a target's sources compiled in
# batches of 8 per translation unit): these trees are built in every CI run and their tests
# take about 30 s of it, so the build is what counts (docs/benchmarks.md, "CI time"). TSan
# builds at -O0; ASan+UBSan at -O1, since at -O0 memory/paged's 50 000 accesses take 5-6 s
# of CPU (memory_transfers; no test is timed, so this is only the suite's time).
# The LLVM components (compiler, fusion) are not rebuilt: each sanitized tree links the
# normal build's (PLEXUS_LLVM_PLUGINS_FROM), uninstrumented like the LLVM libraries under
# them, so the normal build must exist (scripts/build.sh). Plugins stay loaded at exit
# (PLEXUS_KEEP_PLUGINS_LOADED) so that leaks name their code. .ci/run runs both after the
# test suite.
# Usage: scripts/sanitize.sh [asan|tsan]... (default: both). BUILD_DIR: the normal build's
# directory (the sanitized ones go beside it, e.g. build-asan); JOBS: parallel compiles.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/phase.sh"  # each variant's build and tests print their durations
base=${BUILD_DIR:-$root/build}
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

configure() {  # <dir> <sanitizers> <optimization>
  local llvm_plugins=$base/lib/plexus/plugins
  if [ ! -f "$llvm_plugins/libplexus_compiler_clang.so" ]; then
    echo "sanitize.sh: $llvm_plugins/libplexus_compiler_clang.so is missing: build the" \
         "normal tree first (scripts/build.sh; BUILD_DIR=$base)" >&2
    exit 1
  fi
  cmake -S "$root" -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS_RELEASE="$3 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELEASE="$3 -DNDEBUG" \
    -DCMAKE_UNITY_BUILD=ON \
    -DPLEXUS_SANITIZE="$2" -DPLEXUS_BACKEND_CUDA=OFF -DPLEXUS_LLVM_PLUGINS_FROM="$llvm_plugins" \
    "${launcher[@]}" >/dev/null
}

run_asan() {
  local dir=$base-asan
  phase "asan configure" configure "$dir" address,undefined -O1
  local tests=(box3 config_test runtime_test build_cache_test pending_events_test
               syclbin_format syclbin_fuzz cache_store_conformance cache_store_defaults
               memory_conformance memory_transfers page_tracker scheduler_conformance
               heft_model runtime_api runtime_api_errors runtime_api_kernels
               runtime_api_failures)
  phase "asan build" cmake --build "$dir" -j"${JOBS:-$(nproc)}" --target "${tests[@]}"
  local regex
  regex="^($(IFS='|'; echo "${tests[*]}")):"
  # Left out: the runtime that abandons a task that never ends leaves it running, and its
  # runtime allocated, on purpose (LeakSanitizer cannot stop that thread at exit); the
  # access check that allocates 16 PiB on purpose (ASan ends the process on a failed
  # operator new instead of throwing std::bad_alloc).
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=0 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  LSAN_OPTIONS=suppressions=$root/scripts/lsan.supp:print_suppressions=0 \
  PLEXUS_KEEP_PLUGINS_LOADED=1 \
    phase "asan tests" ctest --test-dir "$dir" --output-on-failure --timeout 600 -j"$(nproc)" \
      -R "$regex" -E "returns from its destructor after the deadline|accesses outside a buffer's range"
}

run_tsan() {
  local dir=$base-tsan
  phase "tsan configure" configure "$dir" thread -O0
  local tests=(build_cache_test scheduler_conformance runtime_api_concurrency)
  phase "tsan build" cmake --build "$dir" -j"${JOBS:-$(nproc)}" --target "${tests[@]}"
  local regex
  regex="^($(IFS='|'; echo "${tests[*]}")):"
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 PLEXUS_KEEP_PLUGINS_LOADED=1 \
    phase "tsan tests" ctest --test-dir "$dir" --output-on-failure --timeout 600 -j"$(nproc)" -R "$regex"
}

variants=("$@")
[ ${#variants[@]} -eq 0 ] && variants=(asan tsan)
for variant in "${variants[@]}"; do
  case $variant in
    asan) run_asan ;;
    tsan) run_tsan ;;
    *) echo "sanitize.sh: unknown variant '$variant' (asan, tsan)" >&2; exit 2 ;;
  esac
done

# plexus-bench-syclbin-load (issue 7): loading a >= 100 MB SYCLBIN of many modules: read vs
# parse vs plan vs bundle creation (cold and warm program cache). Included by CMakeLists.txt.
if(TARGET plexus_backend_host AND TARGET plexus_compiler_clang)
  add_executable(plexus-bench-syclbin-load syclbin_load_bench.cpp)
  target_link_libraries(plexus-bench-syclbin-load PRIVATE plexus::core plexus::syclbin)
  add_dependencies(plexus-bench-syclbin-load plexus_backend_host plexus_compiler_clang
                   plexus_scheduler_inorder plexus_memory_whole plexus_cache_memory)
  if(BUILD_TESTING)
    add_test(NAME bench_syclbin_load_smoke
             COMMAND plexus-bench-syclbin-load --modules 3 --mib 1 --reps 1)
    set_tests_properties(bench_syclbin_load_smoke PROPERTIES LABELS "bench;syclbin"
                         PASS_REGULAR_EXPRESSION "kernel k2 from the bundle: verified")
  endif()
endif()

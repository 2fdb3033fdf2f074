# Configures and builds a ThreadSanitizer copy of the tree (core, plugins and the runtime
# concurrency test) in BINARY_DIR, for the runtime_tsan test. Run with cmake -P:
#   cmake -DSOURCE_DIR=... -DBINARY_DIR=... -DTARGET=... -P tsan_build.cmake
set(flags -fsanitize=thread)
execute_process(
  COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${BINARY_DIR} -G Ninja
          -DCMAKE_BUILD_TYPE=RelWithDebInfo
          -DCMAKE_C_FLAGS=${flags} -DCMAKE_CXX_FLAGS=${flags}
          -DCMAKE_EXE_LINKER_FLAGS=${flags} -DCMAKE_SHARED_LINKER_FLAGS=${flags}
          -DCMAKE_MODULE_LINKER_FLAGS=${flags}
  RESULT_VARIABLE configured)
if(NOT configured EQUAL 0)
  message(FATAL_ERROR "configuring the ThreadSanitizer build in ${BINARY_DIR} failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY_DIR} --target ${TARGET}
                RESULT_VARIABLE built)
if(NOT built EQUAL 0)
  message(FATAL_ERROR "building ${TARGET} under ThreadSanitizer in ${BINARY_DIR} failed")
endif()

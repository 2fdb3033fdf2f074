// examples/common: SharedLibrary (the run-time loader of vendor libraries) and CudaLibraries
// (cuBLAS, cuSOLVER and the CUDA driver through it).
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <string>

#include <plexus/error.hpp>

#include "common/shared_library.hpp"
#if PLEXUS_EXAMPLES_HAVE_CUDA
#include "common/cuda_libraries.hpp"
#endif

using examples::SharedLibrary;

namespace {

std::string failure_of(const std::function<void()>& work) {
  try {
    work();
  } catch (const plexus::error& e) {
    CHECK(e.category() == plexus::error_category::unsupported);
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a library loads from the first name that exists, and its entry points resolve") {
  const SharedLibrary libm("the C math library", {"libplexus-no-such-library.so.1", "libm.so.6"},
                           {}, "install libc6");
  CHECK(libm.loaded_name() == "libm.so.6");
  const auto cosine = libm.symbol<double (*)(double)>("cos");
  CHECK(cosine(0.0) == 1.0);
}

TEST_CASE("a missing library names what it is, every name tried and how to get it") {
  const std::string message = failure_of([] {
    SharedLibrary("cuFoo (libcufoo)", {"libcufoo.so.13", "libcufoo.so.12"}, {"/nonexistent/lib64"},
                  "It comes with the Foo Toolkit.");
  });
  CHECK(message.find("cuFoo (libcufoo) is missing") != std::string::npos);
  for (const char* tried : {"libcufoo.so.13", "libcufoo.so.12", "/nonexistent/lib64/libcufoo.so.13",
                            "/nonexistent/lib64/libcufoo.so.12", "It comes with the Foo Toolkit."})
    CHECK(message.find(tried) != std::string::npos);
}

TEST_CASE("a missing entry point names the library and the symbol") {
  const SharedLibrary libm("the C math library", {"libm.so.6"}, {}, "");
  const std::string message = failure_of([&] { libm.address("plexus_no_such_function"); });
  CHECK(message.find("libm.so.6") != std::string::npos);
  CHECK(message.find("'plexus_no_such_function'") != std::string::npos);
}

#if PLEXUS_EXAMPLES_HAVE_CUDA
TEST_CASE("CudaLibraries loads cuBLAS and cuSOLVER, or says which library is missing") {
  std::string loaded;
  const std::string message = failure_of([&] { loaded = examples::CudaLibraries::get().describe(); });
  if (message.empty()) {  // a machine with the driver and the CUDA libraries
    CHECK(loaded.find("libcublas.so.1") != std::string::npos);
    CHECK(loaded.find("libcusolver.so.1") != std::string::npos);
  } else {
    INFO(message);
    CHECK(message.find(" is missing: tried ") != std::string::npos);
    const bool names_one = message.find("libcuda") != std::string::npos ||
                           message.find("libcublas") != std::string::npos ||
                           message.find("libcusolver") != std::string::npos;
    CHECK(names_one);
    // The failure is kept: asking again says the same.
    CHECK(failure_of([] { examples::CudaLibraries::get(); }) == message);
  }
}
#endif

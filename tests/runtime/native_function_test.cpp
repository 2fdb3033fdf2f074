// Registered native functions (native_function.hpp) in one process: an implementation made
// from a NativeFunction runs on a host device like a closure, reaching the task's memory by
// accessor index; the registry refuses, naming them, a name nobody registered, a name
// registered twice, arguments of another type, and forgets a function whose object is gone.
// (Their run on another process's device: tests/mpi/native_test.cpp.)
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <typeinfo>
#include <vector>

#include "plexus/native_function.hpp"
#include "runtime_test_support.hpp"

using plexus::error_category;
using plexus::test::make_runtime;
using plexus::test::require_error;

namespace {

struct Scale {
  int factor;
  std::size_t count;
};

// out (accessor 1) = in (accessor 0) * factor, over count ints, checked to fit both first.
int scale(plexus::InteropHandle& ih, const Scale& args) {
  for (std::size_t accessor : {0, 1})
    ih.require_memory(accessor, args.count, sizeof(int), "scale of " + std::to_string(args.count) + " ints");
  const int* in = ih.native_memory<const int*>(0);
  int* out = ih.native_memory<int*>(1);
  for (std::size_t i = 0; i < args.count; ++i) out[i] = in[i] * args.factor;
  return ih.accessors() == 2 ? 0 : 99;
}
const plexus::NativeFunction<Scale> scale_on_host{"runtime_test.scale", "host", &scale};

// Reads accessor `factor` (an index past the task's accessors).
void read_past(plexus::InteropHandle& ih, const Scale& args) {
  (void)ih.native_memory<int*>(static_cast<std::size_t>(args.factor));
}
const plexus::NativeFunction<Scale> past_end{"runtime_test.past_end", "host", &read_past};

plexus::NativeCall call_of(const std::string& name, const std::string& type, std::size_t bytes) {
  plexus::NativeCall call;
  call.function = name;
  call.backend = "host";
  call.arguments_type = type;
  call.arguments.resize(bytes);
  return call;
}

}  // namespace

TEST_CASE("a registered native function runs on a host device, memory by accessor index",
          "[native_function]") {
  auto rt = make_runtime({"dag", "paged"}, "\"host\"");
  const std::size_t n = 100;
  std::vector<int> in(n), out(n, 0);
  for (std::size_t i = 0; i < n; ++i) in[i] = int(i);
  {
    plexus::Buffer<int> bin(in.data(), n), bout(out.data(), n);
    plexus::Queue q = rt->queue();
    q.submit([&](plexus::Handler& h) {
      auto a = bin.access(h, plexus::read);
      auto b = bout.access(h, plexus::discard_write);
      h.native_task("scale", {scale_on_host({3, n})});
    });
    bout.copy_to(out.data());
  }
  for (std::size_t i = 0; i < n; ++i) REQUIRE(out[i] == 3 * int(i));

  std::vector<int> data(4, 0);
  plexus::Buffer<int> buffer(data.data(), data.size());
  plexus::Queue q = rt->queue();
  q.submit([&](plexus::Handler& h) {
    auto a = buffer.access(h, plexus::read_write);
    h.native_task("past", {past_end({5, 0})});
  });
  require_error([&] { q.wait(); }, error_category::invalid_argument,
                "native_memory(5): the task has 1 accessor(s)");
}

TEST_CASE("a native function's arguments that reach past its memory are refused, naming the sizes",
          "[native_function]") {
  auto rt = make_runtime({"dag", "paged"}, "\"host\"");
  std::vector<int> in(8, 1), out(8, 0);
  plexus::Buffer<int> bin(in.data(), in.size()), bout(out.data(), out.size());
  plexus::Queue q = rt->queue();
  q.submit([&](plexus::Handler& h) {
    auto a = bin.access(h, plexus::read, plexus::Range<1>{2}, plexus::Range<1>{4});  // bytes: the buffer's
    auto b = bout.access(h, plexus::read_write);
    CHECK(a.requirement_index() == 0);
    h.native_task("scale", {{"host", [b](plexus::InteropHandle& ih) {
                               CHECK(ih.native_memory_bytes(0) == 8 * sizeof(int));
                               CHECK(ih.native_memory_bytes(b) == 8 * sizeof(int));
                             }}});
  });
  q.wait();
  q.submit([&](plexus::Handler& h) {
    auto a = bin.access(h, plexus::read);
    auto b = bout.access(h, plexus::read_write);
    h.native_task("scale", {scale_on_host({3, 9})});
  });
  std::string message;
  try {
    q.wait();
  } catch (const plexus::error& e) {
    CHECK(e.category() == error_category::invalid_argument);
    message = e.what();
  }
  CHECK_THAT(message, Catch::Contains("native task 'scale' (function 'runtime_test.scale', host) "
                                      "failed: scale of 9 ints needs 9 x 4 bytes of accessor 0, "
                                      "whose memory on '") &&
                          Catch::Contains("' has 32 bytes"));
}

TEST_CASE("the registry names what it cannot call", "[native_function]") {
  const std::string type = typeid(Scale).name();
  require_error([&] { plexus::NativeFunctions::check(call_of("runtime_test.nobody", type, sizeof(Scale))); },
                error_category::unsupported, "'runtime_test.nobody' is not registered");
  require_error([&] { plexus::NativeFunctions::check(call_of("runtime_test.nobody", type, sizeof(Scale))); },
                error_category::unsupported, "'runtime_test.scale'");  // what is registered
  require_error([&] { plexus::NativeFunctions::check(call_of("runtime_test.scale", typeid(int).name(), sizeof(int))); },
                error_category::invalid_argument, "takes arguments of type");
  plexus::NativeCall other_backend = call_of("runtime_test.scale", type, sizeof(Scale));
  other_backend.backend = "cuda";
  require_error([&] { plexus::NativeFunctions::check(other_backend); },
                error_category::invalid_argument, "registered for backend 'host'");
  {
    const plexus::NativeFunction<Scale> twice{"runtime_test.scale", "host", &scale};
    require_error([&] { plexus::NativeFunctions::check(call_of("runtime_test.scale", type, sizeof(Scale))); },
                  error_category::invalid_argument, "registered 2 times");
  }
  plexus::NativeFunctions::check(call_of("runtime_test.scale", type, sizeof(Scale)));  // once again
  {
    const plexus::NativeFunction<Scale> brief{"runtime_test.brief", "host", &scale};
    const auto names = plexus::NativeFunctions::names();
    CHECK(std::find(names.begin(), names.end(), "runtime_test.brief") != names.end());
  }
  const auto names = plexus::NativeFunctions::names();
  CHECK(std::find(names.begin(), names.end(), "runtime_test.brief") == names.end());
}

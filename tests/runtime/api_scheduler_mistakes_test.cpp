// A scheduler that forgets a step of running a task (tests/plugins/forgetful_scheduler.cpp)
// makes the application get an error naming the missing call, never a wrong result: the
// kernel's task fails, and so does reading its output back.
#include <vector>

#include "runtime_test_support.hpp"

using namespace plexus;

namespace {

const char* const source = R"(
__kernel void twice(__global const float* in, __global float* out) {
  size_t i = get_global_id(0);
  out[i] = 2.0f * in[i];
})";

// Runs `twice` through the forgetful scheduler; expects reading the result to fail with
// an error containing `expected`.
void check_forgetting(const std::string& forgets, const std::string& expected) {
  const auto config = Config::from_string(
      "[log]\nlevel = \"error\"\n[plugins]\npaths = [\"" +
          test::test_plugin_dir("forgetful").string() +
          "\"]\n[backends]\nuse = [\"host\"]\n[scheduler]\nuse = \"forgetful\"\n"
          "[scheduler.forgetful]\nforgets = \"" + forgets + "\"\n"
          "[memory]\nuse = \"whole\"\n[compiler]\nuse = \"clang\"\n[cache]\nuse = \"memory\"\n",
      "forgetful.toml");
  Runtime runtime(config);
  const std::size_t n = 64;
  std::vector<float> in(n, 1.5f), out(n, -1.0f);
  Buffer<float> din(in.data(), n), dout(n);
  Kernel kernel = runtime.build(source).kernel("twice");
  Event launched = runtime.queue().submit([&](Handler& h) {
    h.parallel_for(kernel, Range{n}, din.access(h, plexus::read), dout.access(h, plexus::discard_write));
  });
  test::require_error([&] { launched.wait(); }, error_category::plugin, expected);
  test::require_error([&] { dout.copy_to(out.data()); }, error_category::plugin, expected);
  CHECK(out[0] == -1.0f);  // nothing was copied back
}

}  // namespace

TEST_CASE("a scheduler that runs a task it never placed gets an error naming place_task") {
  check_forgetting("place_task", "plexus::place_task(task, placement)");
}

TEST_CASE("a scheduler that runs a device task without its queue gets an error naming the queue") {
  check_forgetting("queue", "pass queues.for_device(placement) to run_task_now");
}

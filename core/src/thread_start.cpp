#include "plexus/thread_start.hpp"

#include <string>
#include <system_error>

#include "plexus/error.hpp"
#include "plexus/log.hpp"

namespace plexus {

std::size_t start_threads(std::vector<std::thread>& threads, std::size_t count,
                          const std::function<void(std::size_t)>& body, std::string_view what,
                          bool at_least_one) {
  std::size_t started = 0;
  std::string refused;
  try {
    threads.reserve(threads.size() + count);
  } catch (const std::exception&) {
    // Too many to hold: start as many as the system gives (the loop stops at a refusal).
  }
  for (; started < count; ++started) {
    try {
      threads.emplace_back([body, started] { body(started); });  // a copy: the caller's may be a temporary
    } catch (const std::exception& failure) {  // std::system_error, std::bad_alloc
      refused = failure.what();
      break;
    }
  }
  if (started == count) return started;
  const std::string message = std::string(what) + ": the system refused to start thread " +
                              std::to_string(started + 1) + " of " + std::to_string(count) +
                              " (" + refused +
                              "): the process is at its thread limit (ulimit -u, "
                              "/proc/sys/kernel/threads-max) or out of memory for stacks";
  if (started == 0 && at_least_one) {
    throw error(error_category::resource, message + "; lower the option or raise the limit");
  }
  logger().warn("{}; going on with {}", message, started);
  return started;
}

}  // namespace plexus

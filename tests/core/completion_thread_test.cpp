// plexus::CompletionThread: callbacks in order, each after its wait, with the wait's failure;
// a throwing wait reports its exception; the destructor serves what is still queued.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "plexus/completion_thread.hpp"
#include "plexus/error.hpp"

using plexus::CompletionThread;

TEST_CASE("completion thread: callbacks run in order, each after its wait", "[core]") {
  std::mutex mutex;
  std::vector<int> seen;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  {
    CompletionThread thread;
    for (int i = 0; i < 5; ++i)
      thread.add(
          [&, i] {
            if (i == 0) released.wait();  // the first wait blocks: nothing may run before it
            std::lock_guard lock(mutex);
            seen.push_back(10 + i);
            return std::exception_ptr();
          },
          [&, i](std::exception_ptr failure) {
            CHECK_FALSE(failure);
            std::lock_guard lock(mutex);
            seen.push_back(i);
          });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    {
      std::lock_guard lock(mutex);
      CHECK(seen.empty());
    }
    release.set_value();
  }  // the destructor serves the rest
  CHECK(seen == std::vector<int>{10, 0, 11, 1, 12, 2, 13, 3, 14, 4});
}

TEST_CASE("completion thread: a wait's failure reaches its callback only", "[core]") {
  std::vector<std::string> reported;
  {
    CompletionThread thread;
    thread.add([] { return std::make_exception_ptr(plexus::error(plexus::error_category::device, "lost")); },
               [&](std::exception_ptr failure) {
                 try {
                   if (failure) std::rethrow_exception(failure);
                   reported.push_back("none");
                 } catch (const plexus::error& e) {
                   reported.push_back(e.what());
                 }
               });
    thread.add([]() -> std::exception_ptr { throw std::runtime_error("wait threw"); },
               [&](std::exception_ptr failure) {
                 try {
                   if (failure) std::rethrow_exception(failure);
                 } catch (const std::runtime_error& e) {
                   reported.push_back(e.what());
                 }
               });
    thread.add([] { return std::exception_ptr(); },
               [&](std::exception_ptr failure) { reported.push_back(failure ? "failed" : "none"); });
  }
  REQUIRE(reported.size() == 3);
  CHECK_THAT(reported[0], Catch::Contains("lost"));
  CHECK(reported[1] == "wait threw");
  CHECK(reported[2] == "none");
}

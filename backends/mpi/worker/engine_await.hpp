// Waiting on the worker's engine from a queue's operation: the waiting thread drives the
// engine itself for a while (it then completes the transfer with no hand-off to the main
// thread and back), then blocks. Thread-safety: any thread that may drive the engine.
#pragma once

#include <chrono>
#include <exception>
#include <future>
#include <memory>

#include "../engine.hpp"

namespace plexus::mpi {

// How long an operation that waits for the engine (data arriving or leaving) drives it
// itself before it blocks and leaves the engine to the main thread.
inline constexpr std::chrono::microseconds await_spin{200};

template <class Future>
void await(Engine& engine, const Future& future) {
  engine.drive_until(
      [&] { return future.wait_for(std::chrono::seconds(0)) == std::future_status::ready; },
      await_spin);
  future.wait();
}

// A transfer's Done that fulfils `promise` (with its failure, if any).
inline Engine::Done fulfil(const std::shared_ptr<std::promise<void>>& promise) {
  return [promise](std::exception_ptr failure) {
    if (failure)
      promise->set_exception(failure);
    else
      promise->set_value();
  };
}

}  // namespace plexus::mpi

// How long the mpi tests give a node's failure (or any awaited effect) to show: bounds that
// come from the backend's configured `timeout_ms`, plus slack for a loaded machine, never a
// fixed figure near the time the work takes on an idle one.
#pragma once

#include <chrono>
#include <thread>

namespace plexus::test {

// Added to every bound: on a loaded 2-core CI machine (tests at -j2, each MPI job three to
// five processes with polling threads) a process can be held off its core for seconds. It
// stays below the backend's default timeout_ms (20 s) less the tests' own timeouts, so that a
// failure declared by the default timeout instead of the configured one still fails a check.
inline constexpr std::chrono::milliseconds load_slack{10000};

// The longest a dead or misbehaving worker may take to fail the work placed on it when rank
// 0 runs with `timeout` (timeout_ms): the silence that declares it failed, the period of the
// check and of the heartbeats (a fifth of the timeout), and load_slack.
inline std::chrono::milliseconds failure_bound(std::chrono::milliseconds timeout) {
  return timeout + timeout / 5 + load_slack;
}

// Polls `ready` every millisecond or so until it holds or `bound` has passed: whether it
// holds. A bound that passes only costs time on a failing run.
template <class Ready>
bool eventually(Ready&& ready, std::chrono::milliseconds bound) {
  const auto give_up = std::chrono::steady_clock::now() + bound;
  while (!ready()) {
    if (std::chrono::steady_clock::now() >= give_up) return ready();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

// Seconds since `start`, for a check against a bound and its message.
inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace plexus::test

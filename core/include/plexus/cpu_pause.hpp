// cpu_pause: one iteration of a spin-wait loop, telling the CPU so (x86 PAUSE: less power,
// no memory-order mis-speculation when the awaited store lands); elsewhere a yield.
// spin_for: a bounded spin-wait on a condition, for code that spins briefly for work or an
// end before it sleeps (a scheduler's workers, an event's wait, a backend's launch thread).
// Header-only, no state: safe from any thread.
#pragma once

#include <chrono>
#include <thread>

namespace plexus {

inline void cpu_pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

// Spins until `done()` or `limit` has passed (every 64 spins it reads the clock and yields,
// so that a thread it waits for on the same core can run); returns the last done().
template <class Done>
bool spin_for(std::chrono::nanoseconds limit, Done&& done) {
  const auto until = std::chrono::steady_clock::now() + limit;
  for (int spins = 1; !done(); ++spins) {
    cpu_pause();
    if (spins % 64 != 0) continue;
    if (std::chrono::steady_clock::now() >= until) return done();
    std::this_thread::yield();
  }
  return true;
}

}  // namespace plexus

// cpu_pause: one iteration of a spin-wait loop, telling the CPU so (x86 PAUSE: less power,
// no memory-order mis-speculation when the awaited store lands); elsewhere a yield.
// spin_for: a bounded spin-wait on a condition, for code that spins briefly for work or an
// end before it sleeps (a scheduler's workers, an event's wait, a backend's launch thread).
// spin_until: an unbounded spin-wait for another thread that is known to be at work (a
// launch thread issuing what it was handed).
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

// Spins until `done()` or `limit` has passed, reading the clock every 64 spins; returns the
// last done(). Spin::yielding also yields then, so that a thread it waits for on the same
// core can run (a wait for another thread's work); Spin::pausing never gives the core up
// (a worker polling for new work: a yield would delay taking it by a system call).
enum class Spin { pausing, yielding };
template <class Done>
bool spin_for(std::chrono::nanoseconds limit, Spin how, Done&& done) {
  const auto until = std::chrono::steady_clock::now() + limit;
  for (int spins = 1; !done(); ++spins) {
    cpu_pause();
    if (spins % 64 != 0) continue;
    if (std::chrono::steady_clock::now() >= until) return done();
    if (how == Spin::yielding) std::this_thread::yield();
  }
  return true;
}

// Spins until `done()`: pausing for the first 4096 tries, then yielding the core between
// tries (the awaited thread may share it).
template <class Done>
void spin_until(Done&& done) {
  for (int spins = 0; !done(); ++spins) {
    if (spins < 4096) {
      cpu_pause();
    } else {
      std::this_thread::yield();
    }
  }
}

}  // namespace plexus

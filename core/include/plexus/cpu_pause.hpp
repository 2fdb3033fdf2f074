// cpu_pause: one iteration of a spin-wait loop, telling the CPU so (x86 PAUSE: less power,
// no memory-order mis-speculation when the awaited store lands); elsewhere a yield. For
// components that spin briefly for work before sleeping (a scheduler's workers, a backend's
// launch thread). Header-only, no state: safe from any thread.
#pragma once

#include <thread>

namespace plexus {

inline void cpu_pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

}  // namespace plexus

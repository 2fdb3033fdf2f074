// plexus-bench-cpu-capacity: how independent a machine's logical CPUs are, before two host
// devices over them are called comparable. Times an FMA-saturating loop (12 independent AVX2
// chains, enough to fill a core's FMA ports) on each CPU this process may use alone (the best
// of two, so that a cold first run does not inflate it; CPUs of a virtual machine need not be
// equally fast), then on the first CPU and each other one at once (siblings of one physical
// core slow each other down about 2x, separate cores do not), then on the first n CPUs at
// once (a virtual machine given fewer cores' time than it shows slows down here). Prints each
// time as a ratio to that CPU's time alone.
#include <immintrin.h>
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

namespace {

// The CPUs this process may run on (sched_getaffinity), in order.
std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
      if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  return cpus;
}

// Seconds the loop takes on a thread pinned to `cpu`.
double timed_loop_on(int cpu) {
  double seconds = 0.0;
  std::thread thread([&] {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    volatile double seed = 1.0000001;  // not known at compile time: the loop cannot fold
    __m256d chains[12];
    for (int i = 0; i < 12; ++i) chains[i] = _mm256_set1_pd(seed + i);
    const __m256d factor = _mm256_set1_pd(0.9999999), step = _mm256_set1_pd(1e-9);
    const auto start = std::chrono::steady_clock::now();
    for (long n = 0; n < 30000000; ++n)
      for (__m256d& chain : chains) chain = _mm256_fmadd_pd(chain, factor, step);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double sum = 0.0;
    for (const __m256d& chain : chains) sum += chain[0];
    seed = sum;  // keeps the chains' results alive
  });
  thread.join();
  return seconds;
}

// The loop on every CPU of `cpus` at once: each one's seconds.
std::vector<double> at_once(const std::vector<int>& cpus) {
  std::vector<double> seconds(cpus.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < cpus.size(); ++i)
    threads.emplace_back([&, i] { seconds[i] = timed_loop_on(cpus[i]); });
  for (std::thread& thread : threads) thread.join();
  return seconds;
}

}  // namespace

int main() {
  const std::vector<int> cpus = allowed_cpus();
  if (cpus.empty()) {
    std::fprintf(stderr, "plexus-bench-cpu-capacity: no CPU this process may use\n");
    return 1;
  }
  std::vector<double> alone(cpus.size());
  for (std::size_t i = 0; i < cpus.size(); ++i)
    alone[i] = std::min(timed_loop_on(cpus[i]), timed_loop_on(cpus[i]));
  const auto [fastest, slowest] = std::minmax_element(alone.begin(), alone.end());
  std::printf("%zu CPUs, each alone (best of 2): %.3f-%.3f s\n", cpus.size(), *fastest, *slowest);
  for (std::size_t k = 1; k < cpus.size(); ++k) {
    const std::vector<double> pair = at_once({cpus[0], cpus[k]});
    std::printf("cpu %d + cpu %-3d %.2fx %.2fx\n", cpus[0], cpus[k], pair[0] / alone[0],
                pair[1] / alone[k]);
  }
  for (std::size_t n : {2, 4, 8, 12, 16, 32, 64}) {
    if (n > cpus.size()) break;
    const std::vector<double> seconds = at_once({cpus.begin(), cpus.begin() + static_cast<long>(n)});
    double worst = 0.0, sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      worst = std::max(worst, seconds[i] / alone[i]);
      sum += seconds[i] / alone[i];
    }
    std::printf("%2zu at once: mean %.2fx, worst %.2fx\n", n, sum / double(n), worst);
  }
  return 0;
}

// plexus-bench-cpu-capacity: how independent a machine's logical CPUs are, before two host devices
// over them are called comparable. Times an FMA-saturating loop (12 independent AVX2 chains)
// on cpu 0 alone, then on cpu 0 and cpu k at once for every k (siblings of one physical core
// slow each other down about 2x, separate cores do not), then on cpus 0..n-1 at once for n up
// to the count (a virtual machine given fewer cores' time than it shows slows down here).
#include <immintrin.h>
#include <pthread.h>
#include <sched.h>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>
#include <algorithm>
#include <unistd.h>
static double work(int cpu) {
  cpu_set_t s; CPU_ZERO(&s); CPU_SET(cpu, &s); pthread_setaffinity_np(pthread_self(), sizeof s, &s);
  volatile double seed = 1.0000001;
  __m256d a[12]; for (int i = 0; i < 12; ++i) a[i] = _mm256_set1_pd(seed + i);
  const __m256d m = _mm256_set1_pd(0.9999999), c = _mm256_set1_pd(1e-9);
  auto t = std::chrono::steady_clock::now();
  for (long n = 0; n < 30000000; ++n)
    for (int i = 0; i < 12; ++i) a[i] = _mm256_fmadd_pd(a[i], m, c);
  double sum = 0; for (auto& x : a) sum += x[0] + x[3];
  if (sum == 42) std::puts("");
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}
int main() {
  int cpus = sysconf(_SC_NPROCESSORS_ONLN);
  double alone = work(0);
  std::printf("cpus %d, cpu0 alone %.3f s\n", cpus, alone);
  for (int k = 1; k < cpus; ++k) {
    double t0 = 0, tk = 0;
    std::thread a([&] { t0 = work(0); }), b([&] { tk = work(k); });
    a.join(); b.join();
    std::printf("cpu0+cpu%-2d  %.2fx %.2fx\n", k, t0 / alone, tk / alone);
  }
  for (int n : {2, 4, 8, 12, 16}) {  // n threads on cpus 0..n-1 at once: the machine's capacity
    if (n > cpus) break;
    std::vector<double> t(n);
    std::vector<std::thread> threads;
    for (int i = 0; i < n; ++i) threads.emplace_back([&, i] { t[i] = work(i); });
    for (auto& th : threads) th.join();
    double worst = 0, sum = 0;
    for (double x : t) worst = std::max(worst, x), sum += x;
    std::printf("%2d at once: mean %.2fx, worst %.2fx\n", n, sum / n / alone, worst / alone);
  }
}

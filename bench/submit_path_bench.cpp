// The core's cost per submission (issue 5): a chain of tiny kernels through an in-order
// queue on the host device under scheduler/inorder, whose queue runs each kernel at once on
// the submitting thread, so that one submit is the whole per-kernel path: command group,
// memory-model record, task and event, scheduler, launch, completion. Per memory model:
// median microseconds per submit, and the operator new calls and mutex locks per submit
// (counted by this binary, which replaces operator new and interposes pthread_mutex_lock
// and pthread_rwlock_rdlock).
//   plexus-bench-submit [--kernels 20000] [--rounds 7]
//   valgrind --tool=callgrind --instr-atstart=no plexus-bench-submit --callgrind 1
//     instructions of `--kernels` submits (memory/paged) only: callgrind_annotate then
//     splits them by function (built with the valgrind headers; otherwise it just runs them)
#include <dlfcn.h>
#include <pthread.h>

#include <atomic>
#include <cstdlib>
#include <iomanip>
#include <new>

#include <plexus/plexus.hpp>

#include "bench_support.hpp"

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_STOP_INSTRUMENTATION
#endif

namespace {

std::atomic<long> allocations{0}, locks{0};
thread_local bool counting = false;  // on the submitting thread, while measuring

template <class F>
F real(const char* name) {
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

}  // namespace

// Every non-aligned form is replaced (a sanitizer's own would otherwise pair with these).
// GCC sees these free() calls inlined behind std::allocator's operator new and warns of a
// mismatch that is not one: these operators allocate with malloc.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept {
  if (counting) ++allocations;
  return std::malloc(bytes ? bytes : 1);
}
void* operator new(std::size_t bytes) {
  if (void* memory = operator new(bytes, std::nothrow)) return memory;
  throw std::bad_alloc();
}
void* operator new[](std::size_t bytes) { return operator new(bytes); }
void* operator new[](std::size_t bytes, const std::nothrow_t&) noexcept {
  return operator new(bytes, std::nothrow);
}
void operator delete(void* memory) noexcept { std::free(memory); }
void operator delete(void* memory, std::size_t) noexcept { std::free(memory); }
void operator delete(void* memory, const std::nothrow_t&) noexcept { std::free(memory); }
void operator delete[](void* memory) noexcept { std::free(memory); }
void operator delete[](void* memory, std::size_t) noexcept { std::free(memory); }
void operator delete[](void* memory, const std::nothrow_t&) noexcept { std::free(memory); }
#pragma GCC diagnostic pop

extern "C" int pthread_mutex_lock(pthread_mutex_t* mutex) {
  static const auto lock = real<int (*)(pthread_mutex_t*)>("pthread_mutex_lock");
  if (counting) ++locks;
  return lock(mutex);
}
extern "C" int pthread_rwlock_rdlock(pthread_rwlock_t* rwlock) {
  static const auto lock = real<int (*)(pthread_rwlock_t*)>("pthread_rwlock_rdlock");
  if (counting) ++locks;
  return lock(rwlock);
}

namespace {

const char* const source = "__kernel void bump(__global int* x) { x[get_global_id(0)] += 1; }";
constexpr std::size_t elements = 64;

struct Chain {
  explicit Chain(const char* memory)
      : runtime(bench::config_with(
            // One submit, one launch: automatic replay (on by default) off.
            {{"scheduler", "inorder"}, {"backends", "host"}, {"memory", memory}, {"graphs.auto", "false"}})),
        queue(runtime.queue(*runtime.devices().front())),
        kernel(runtime.build(source).kernel("bump")),
        buffer(std::vector<int>(elements, 0).data(), elements) {}

  void submit(std::size_t count) {
    for (std::size_t k = 0; k < count; ++k) {
      queue.submit([&](plexus::Handler& h) {
        h.parallel_for(kernel, plexus::Range{elements}, buffer.access(h, plexus::read_write));
      });
    }
    submitted += count;
  }
  void check() {
    queue.wait();
    if (buffer.host_access(plexus::read)[elements - 1] != static_cast<int>(submitted))
      throw std::runtime_error("submit chain: wrong result");
  }

  plexus::Runtime runtime;
  plexus::Queue queue;
  plexus::Kernel kernel;
  plexus::Buffer<int> buffer;
  std::size_t submitted = 0;
};

}  // namespace

int main(int argc, char** argv) try {
  const auto options =
      bench::parse_options(argc, argv, {{"kernels", 20000}, {"rounds", 7}, {"callgrind", 0}});
  const auto kernels = static_cast<std::size_t>(options.at("kernels"));
  if (options.at("callgrind") != 0) {
    Chain chain("paged");
    chain.submit(100);  // warm
    chain.check();
    CALLGRIND_START_INSTRUMENTATION;
    chain.submit(kernels);
    chain.check();
    CALLGRIND_STOP_INSTRUMENTATION;
    std::cout << kernels << " submits measured (memory/paged)\n";
    return 0;
  }
  std::cout << "chain of " << kernels << " tiny kernels on the host device, scheduler/inorder, "
            << options.at("rounds") << " rounds; per submit:\n"
            << std::fixed << std::setprecision(2);
  for (const char* memory : {"paged", "whole", "exact"}) {
    Chain chain(memory);
    chain.submit(100);  // warm
    chain.check();
    constexpr std::size_t counted = 1000;
    allocations = 0;
    locks = 0;
    counting = true;
    chain.submit(counted);
    counting = false;
    chain.check();
    std::vector<double> samples;
    for (long round = 0; round < options.at("rounds"); ++round) {
      const auto start = bench::clock::now();
      chain.submit(kernels);
      chain.check();
      samples.push_back(bench::seconds_since(start) / static_cast<double>(kernels));
    }
    std::cout << "  memory/" << memory << ": " << bench::median(samples) * 1e6 << " us, "
              << static_cast<double>(allocations) / counted << " operator new, "
              << static_cast<double>(locks) / counted << " mutex locks\n";
  }
  return 0;
} catch (const std::exception& e) {
  std::cerr << "plexus-bench-submit: " << e.what() << "\n";
  return 1;
}

// The memory models' per-task bookkeeping cost: a vector add's three full-buffer accesses
// (read a, read b, discard_write c at one device location) through PageTracker's
// conflicts(), copies() and record(), as TrackingMemoryModel calls them per task, with the
// paged model's default 1D page (4096 elements) and with memory/whole's one page per buffer.
// No kernels, no copies run: the host cost the runtime adds per task.
//   plexus-bench-page-tracker [--mi 64] [--reps 20]
#include <chrono>
#include <iomanip>
#include <iostream>
#include <memory>
#include <vector>

#include "bench_support.hpp"
#include "page_tracker.hpp"
#include "plexus/task_event.hpp"

namespace {

using namespace plexus;
using namespace plexus::memory;

// Microseconds per task (median over `reps` tasks after one warm-up task).
double per_task_us(std::size_t n, const Extent3& page, long reps) {
  BufferDesc desc;
  desc.element_size = 4;
  desc.extent = {n, 1, 1};
  desc.host_data_valid = true;
  PageTracker a(desc, page), b(desc, page);
  desc.host_data_valid = false;
  PageTracker c(desc, page);
  const Box3 all{{0, 0, 0}, {n, 1, 1}};
  const LocationId device = 1;
  std::vector<double> times;
  std::shared_ptr<TaskEvent> previous;
  for (long rep = 0; rep <= reps; ++rep) {
    auto task = std::make_shared<TaskEvent>("vector_add");
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::shared_ptr<TaskEvent>> dependencies;
    for (auto [tracker, mode] : {std::pair{&a, AccessMode::read}, std::pair{&b, AccessMode::read},
                                 std::pair{&c, AccessMode::discard_write}}) {
      std::vector<SourcedBox> copies;
      tracker->conflicts(all, mode, dependencies);
      tracker->copies(all, mode, device, copies);
      tracker->record(all, mode, device, copies, task);
    }
    const auto stop = std::chrono::steady_clock::now();
    if (rep > 0) times.push_back(std::chrono::duration<double, std::micro>(stop - start).count());
    if (previous) previous->mark_complete();
    previous = task;
  }
  previous->mark_complete();
  return bench::median(times);
}

}  // namespace

int main(int argc, char** argv) try {
  const auto options = bench::parse_options(argc, argv, {{"mi", 64}, {"reps", 20}});
  const std::size_t n = static_cast<std::size_t>(options.at("mi")) << 20;
  const long reps = options.at("reps");
  const double paged = per_task_us(n, {4096, 1, 1}, reps);
  const double whole = per_task_us(n, {n, 1, 1}, reps);
  std::cout << std::fixed << std::setprecision(2) << "vector add bookkeeping, " << (n >> 20)
            << " Mi floats, median of " << reps << " tasks (us per task): paged (4096-element "
            << "pages, " << n / 4096 << " per buffer) " << paged << ", whole " << whole << "\n";
  return 0;
} catch (const std::exception& e) {
  std::cerr << "plexus-bench-page-tracker: " << e.what() << "\n";
  return 1;
}

#include "ze_completions.hpp"

#include <limits>
#include <utility>


namespace plexus::level_zero {

ZeCompletions::ZeCompletions(const ZeLoader& loader, Settle settle, TakeFailure take_failure)
    : loader_(loader), settle_(std::move(settle)), take_failure_(std::move(take_failure)) {}

ZeCompletions::~ZeCompletions() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void ZeCompletions::add(std::shared_ptr<ZeEvent> event, std::uint64_t sequence,
                        std::function<void(std::exception_ptr)> done) {
  {
    std::lock_guard lock(mutex_);
    if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
    entries_.push_back({std::move(event), sequence, std::move(done)});
  }
  wake_.notify_one();
}

void ZeCompletions::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || !entries_.empty(); });
    if (entries_.empty()) return;  // stopping, and every callback served
    Entry entry = std::move(entries_.front());
    entries_.pop_front();
    lock.unlock();
    const ze_result_t result =
        loader_.event_host_synchronize(entry.event->handle, std::numeric_limits<std::uint64_t>::max());
    entry.event.reset();
    settle_(entry.sequence, result);
    entry.done(take_failure_());
    lock.lock();
  }
}

}  // namespace plexus::level_zero

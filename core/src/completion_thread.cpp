#include "plexus/completion_thread.hpp"

#include <string>
#include <system_error>
#include <utility>

#include "plexus/error.hpp"

namespace plexus {

CompletionThread::~CompletionThread() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void CompletionThread::add(Wait wait, Done done) {
  std::exception_ptr refused;
  {
    std::lock_guard lock(mutex_);
    if (!thread_.joinable()) {
      try {
        thread_ = std::thread([this] { run(); });
      } catch (const std::system_error& e) {
        refused = std::make_exception_ptr(
            error(error_category::resource,
                  std::string("cannot start a queue's completion thread: ") + e.what()));
      }
    }
    if (!refused) entries_.push_back({std::move(wait), std::move(done)});
  }
  if (refused) return done(refused);
  wake_.notify_one();
}

void CompletionThread::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || !entries_.empty(); });
    if (entries_.empty()) return;  // stopping, and every callback served
    Entry entry = std::move(entries_.front());
    entries_.pop_front();
    lock.unlock();
    std::exception_ptr failure;
    try {
      failure = entry.wait();
    } catch (...) {
      failure = std::current_exception();
    }
    entry.done(failure);
    lock.lock();
  }
}

}  // namespace plexus

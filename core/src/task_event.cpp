#include "plexus/task_event.hpp"

#include "plexus/error.hpp"

namespace plexus {

TaskEvent::TaskEvent(std::string label)
    : label_(std::move(label)), submitted_at_(clock::now()) {}

TaskEvent::~TaskEvent() = default;

TaskStatus TaskEvent::status() const {
  std::lock_guard lock(mutex_);
  return status_;
}

bool TaskEvent::is_done() const {
  std::lock_guard lock(mutex_);
  return status_ == TaskStatus::complete || status_ == TaskStatus::failed;
}

void TaskEvent::mark_running() {
  std::lock_guard lock(mutex_);
  if (status_ != TaskStatus::submitted) {
    throw error(error_category::internal, "task '" + label_ + "' started twice or after it ended");
  }
  status_ = TaskStatus::running;
  started_at_ = clock::now();
}

void TaskEvent::mark_complete() {
  std::vector<std::function<void()>> callbacks;
  {
    std::lock_guard lock(mutex_);
    if (status_ == TaskStatus::complete || status_ == TaskStatus::failed) {
      throw error(error_category::internal, "task '" + label_ + "' completed twice");
    }
    if (status_ == TaskStatus::submitted) started_at_ = clock::now();
    status_ = TaskStatus::complete;
    finished_at_ = clock::now();
    callbacks.swap(callbacks_);
  }
  done_cv_.notify_all();
  for (auto& callback : callbacks) callback();
}

void TaskEvent::mark_failed(std::exception_ptr failure) {
  std::vector<std::function<void()>> callbacks;
  {
    std::lock_guard lock(mutex_);
    if (status_ == TaskStatus::complete || status_ == TaskStatus::failed) {
      throw error(error_category::internal, "task '" + label_ + "' completed twice");
    }
    if (status_ == TaskStatus::submitted) started_at_ = clock::now();
    status_ = TaskStatus::failed;
    failure_ = std::move(failure);
    finished_at_ = clock::now();
    callbacks.swap(callbacks_);
  }
  done_cv_.notify_all();
  for (auto& callback : callbacks) callback();
}

void TaskEvent::wait() const {
  std::unique_lock lock(mutex_);
  done_cv_.wait(lock, [this] {
    return status_ == TaskStatus::complete || status_ == TaskStatus::failed;
  });
  if (status_ == TaskStatus::failed && failure_) std::rethrow_exception(failure_);
}

void TaskEvent::on_done(std::function<void()> callback) {
  {
    std::lock_guard lock(mutex_);
    if (status_ != TaskStatus::complete && status_ != TaskStatus::failed) {
      callbacks_.push_back(std::move(callback));
      return;
    }
  }
  callback();
}

TaskEvent::clock::time_point TaskEvent::submitted_at() const {
  std::lock_guard lock(mutex_);
  return submitted_at_;
}

TaskEvent::clock::time_point TaskEvent::started_at() const {
  std::lock_guard lock(mutex_);
  return started_at_;
}

TaskEvent::clock::time_point TaskEvent::finished_at() const {
  std::lock_guard lock(mutex_);
  return finished_at_;
}

}  // namespace plexus

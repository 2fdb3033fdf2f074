// A device task body for scheduler tests: runs only on its one device, moves no data,
// records no accesses; what it enqueues is the test's (enqueue_work). run() enqueues and
// waits. Thread-safety: as TaskBody. Ownership: the device must outlive the body.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "plexus/device.hpp"
#include "plexus/device_queue.hpp"
#include "plexus/task_body.hpp"

namespace plexus::test {

class DeviceTaskBody : public TaskBody {
 public:
  DeviceTaskBody(Device& device, std::string name) : device_(device), name_(std::move(name)) {}
  const std::string& name() const override { return name_; }
  bool runs_on_host() const override { return false; }
  Device* preferred_device() const override { return &device_; }
  bool can_run_on(const Device& device) const override { return &device == &device_; }
  std::size_t transfer_bytes(Device*) const override { return 0; }
  std::vector<std::shared_ptr<TaskEvent>> place(Device*, const std::shared_ptr<TaskEvent>&) override {
    return {};
  }
  void run(DeviceQueue* queue) override {
    enqueue(queue);
    queue->wait();
  }
  bool enqueue(DeviceQueue* queue) override {
    enqueue_work(*queue);
    return true;
  }

 protected:
  // Leaves the task's work in `queue`.
  virtual void enqueue_work(DeviceQueue& queue) = 0;

 private:
  Device& device_;
  std::string name_;
};

}  // namespace plexus::test

// Worker::native_call: a registered native function (native_function.hpp) run for rank 0 on
// one of this worker's devices, in its queue's order, with the device's native handles and
// the worker's allocations of the task's accessors. The function comes from a library the
// worker loaded (`--native-library`, native_libraries.hpp); its failure (not registered
// here, its error code, its exception) becomes the queue's, reported at rank 0's next
// notify, naming the task and the function (rank 0 adds this node's name).
#include <memory>
#include <string>
#include <vector>

#include "plexus/error.hpp"
#include "plexus/native_enqueue.hpp"
#include "plexus/native_function.hpp"
#include "worker.hpp"

namespace plexus::mpi {

namespace {

// The worker's allocations of a task's accessors, by index, with their bytes (from the
// worker's own table of its allocations, not from rank 0's message).
class AccessorMemory final : public InteropHandle::Memory {
 public:
  AccessorMemory(Device& device, std::vector<void*> allocations, std::vector<std::size_t> bytes)
      : device_(device), allocations_(std::move(allocations)), bytes_(std::move(bytes)) {}

  std::size_t accessors() const override { return allocations_.size(); }
  NativeHandle memory(const detail::BufferStorage*, std::size_t requirement) const override {
    return device_.native_memory(allocation(requirement));
  }
  void* allocation(std::size_t requirement) const override {
    if (requirement >= allocations_.size() || !allocations_[requirement])
      throw error(error_category::invalid_argument,
                  "native_memory(" + std::to_string(requirement) + "): the task has " +
                      std::to_string(allocations_.size()) +
                      " accessor(s) with memory on this device, numbered from 0 in the order "
                      "its command group made them");
    return allocations_[requirement];
  }
  std::size_t bytes(std::size_t requirement) const override {
    allocation(requirement);  // the same refusal
    return bytes_[requirement];
  }

 private:
  Device& device_;
  std::vector<void*> allocations_;
  std::vector<std::size_t> bytes_;
};

struct RemoteNativeCall {
  std::string task;
  NativeCall call;
  std::unique_ptr<AccessorMemory> memory;
};

}  // namespace

void Worker::native_call(Reader& in) {
  WorkerQueue& on = queue(in);
  const std::uint64_t seq = sequence(on, in);
  auto native = std::make_shared<RemoteNativeCall>();
  native->task = in.text(max_native_name_bytes);
  native->call.function = in.text(max_native_name_bytes);
  native->call.backend = in.text(max_native_name_bytes);
  native->call.arguments_type = in.text(max_native_name_bytes);
  const auto arguments = in.block(max_native_arguments_bytes);
  native->call.arguments.assign(arguments.begin(), arguments.end());
  const std::uint64_t count = in.bounded(1 << 16, "the number of accessors");
  std::vector<void*> allocations(count, nullptr);
  std::vector<std::size_t> bytes(count, 0);
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t address = in.u64();
    if (!address) continue;
    bytes[i] = bytes_after(on.index(), address, in);
    allocations[i] = reinterpret_cast<void*>(address);
  }
  in.end();
  native->memory =
      std::make_unique<AccessorMemory>(on.device(), std::move(allocations), std::move(bytes));
  on.enqueue([native, &device = on.device()](WorkerQueue::Context& context) {
    if (context.failure) return;
    const RemoteNativeCall& each = *native;
    enqueue_native_work(
        each.task,
        [&each](InteropHandle& handle) { return NativeFunctions::run(each.call, handle); },
        device, context.local, *each.memory, [&each] {
          return "native task '" + each.task + "' (function '" + each.call.function + "', " +
                 each.call.backend + ")";
        });
  }, seq);
}

}  // namespace plexus::mpi

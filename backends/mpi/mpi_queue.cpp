#include "mpi_queue.hpp"

#include <future>
#include <utility>

#include "mpi_device.hpp"
#include "mpi_module.hpp"
#include "packing.hpp"
#include "plexus/copy_validation.hpp"
#include "plexus/cpu_pause.hpp"
#include "plexus/error.hpp"
#include "plexus/launch_validation.hpp"

namespace plexus::mpi {

namespace {

constexpr std::chrono::microseconds wait_spin{200};

// copy_out: the queue, the worker's address, the region, the transfer.
void tell_copy(Engine& engine, const MpiDevice::Target& device, MessageType type, std::uint64_t queue,
               std::uint64_t seq, std::uint64_t address, const CopyLayout& layout,
               std::uint64_t transfer) {
  device.session->tell(engine, device.rank, type, [&](Writer& out) {
    out.u64(queue);
    out.u64(seq);
    out.u64(address);
    write(out, layout);
    out.u64(transfer);
  });
}

std::exception_ptr ended_failure() {
  return std::make_exception_ptr(
      error(error_category::device, "mpi: the session ended (the process exits)"));
}

}  // namespace

void MpiQueue::State::settle() {
  for (auto it = waiters.begin(); it != waiters.end();) {
    if (!arriving.empty() && *arriving.begin() < it->after) {
      ++it;
      continue;
    }
    std::exception_ptr failure = it->failure ? it->failure : std::exchange(this->failure, nullptr);
    if (!this->failure) transfer_failed.store(false);
    if (it->direct)
      it->done(failure);  // wait(): sets a promise, may not wait behind application callbacks
    else
      deliver([done = std::move(it->done), failure] { done(failure); });
    it = waiters.erase(it);
  }
}

void MpiQueue::State::fail(std::exception_ptr error) {
  if (failure) return;
  failure = error;
  transfer_failed.store(true);
}

std::uint64_t MpiQueue::next_seq() {
  state_->progress->sent.store(++sent_, std::memory_order_release);
  return sent_;
}

MpiQueue::MpiQueue(MpiDevice& device)
    : device_(device), id_(device.session().next_id()), state_(std::make_shared<State>()) {
  state_->deliver = [session = &device.session()](std::function<void()> callback) {
    session->deliver(std::move(callback));
  };
  state_->progress->rank = device.rank();
  post([device = device_.target(), id = id_, progress = state_->progress](Engine& engine) {
    device.session->track_queue(id, progress);
    device.session->tell(engine, device.rank, MessageType::create_queue, [&](Writer& out) {
      out.u32(device.index);
      out.u64(id);
    });
  });
}

MpiQueue::~MpiQueue() {
  // Drains, and returns only after the on_complete callbacks delivered before have returned:
  // behind them on the callback thread (or at once when this runs on that thread, where
  // they have returned already).
  std::promise<void> drained;
  auto future = drained.get_future();
  const bool direct = device_.session().on_callback_thread();
  complete([&drained](std::exception_ptr) { drained.set_value(); }, direct);
  if (direct)
    device_.session().drive_until(
        [&] { return future.wait_for(std::chrono::seconds(0)) == std::future_status::ready; },
        wait_spin);
  future.wait();
  post([device = device_.target(), id = id_](Engine& engine) {
    device.session->forget_queue(id);
    device.session->tell(engine, device.rank, MessageType::destroy_queue,
                          [&](Writer& out) { out.u64(id); });
  });
}

template <class Work>
void MpiQueue::post(Work&& work) {
  device_.session().post(std::forward<Work>(work));
}

std::function<std::string()> MpiQueue::described(const char* operation) const {
  return [this, operation] { return std::string(operation) + " on " + device_.info().name; };
}

void MpiQueue::copy_to_device(void* allocation, const void* host_base, const CopyLayout& layout) {
  const auto what = described("copy to device");
  const auto remote = device_.resolve(allocation, what);
  validate_copy(layout, allocation, host_base, remote.bytes_after, what);
  const std::size_t bytes = layout.bytes();
  const auto* host = static_cast<const std::byte*>(host_base);
  Writer message(protocol_version, static_cast<std::uint32_t>(MessageType::copy_in), 0);
  message.u64(id_);
  message.u64(next_seq());
  message.u64(remote.address);
  write(message, layout);
  // Inline: the transfer (u64), the flag (u8) and the block's length (u64), then the data.
  const std::size_t piece = device_.session().options().piece_bytes;
  const bool inline_data =
      piece > 0 ? message.size() + 17 + bytes <= piece : bytes <= eager_copy_bytes;
  if (inline_data) {
    // Small: the data travels packed inside the message (one message; the copy returns at
    // once, like an eager send).
    message.u64(0);
    message.boolean(true);
    pack(message.block(bytes), host, layout);
    post([device = device_.target(), bytes, message = std::move(message).finish()](
             Engine& engine) mutable {
      engine.send(device.rank, std::move(message));
      engine.count_inline_data(device.rank, bytes);
    });
    return;
  }
  // Larger: on a tag of its own, in chunks (or pieces, Engine::cut); a strided region packed
  // first, a contiguous one straight from the caller's memory.
  std::shared_ptr<std::byte[]> packed;
  const std::byte* data = host + layout.offset;
  if (!contiguous(layout)) {
    packed = device_.session().packing_pool().acquire(bytes);
    pack(packed.get(), host, layout);
    data = packed.get();
  }
  const std::uint64_t transfer = device_.session().next_id();
  message.u64(transfer);
  message.boolean(false);
  post([device = device_.target(), state = state_, transfer, data, bytes, packed,
        control = std::move(message).finish()](Engine& engine) mutable {
    Session& session = *device.session;
    engine.send(device.rank, std::move(control));
    engine.send_data(device.rank, data_tag(transfer, session.tag_upper_bound()), data, bytes,
                     [state, packed](std::exception_ptr failure) {
                       if (failure) state->fail(failure);
                     });
  });
}

void MpiQueue::copy_to_host(void* host_base, const void* allocation, const CopyLayout& layout) {
  const auto what = described("copy to host");
  const auto remote = device_.resolve(allocation, what);
  validate_copy(layout, allocation, host_base, remote.bytes_after, what);
  const std::size_t bytes = layout.bytes();
  const std::uint64_t transfer = device_.session().next_id();
  auto* base = static_cast<std::byte*>(host_base);
  state_->arrivals.fetch_add(1);
  post([device = device_.target(), id = id_, seq = next_seq(), state = state_, remote, layout,
        transfer, base, bytes](Engine& engine) {
    Session& session = *device.session;
    tell_copy(engine, device, MessageType::copy_out, id, seq, remote.address, layout, transfer);
    const std::uint64_t number = state->next_transfer++;
    state->arriving.insert(number);
    std::shared_ptr<std::byte[]> packed;
    std::byte* into = base + layout.offset;
    if (!contiguous(layout)) {
      packed = session.packing_pool().acquire(bytes);
      into = packed.get();
    }
    engine.recv_data(device.rank, data_tag(transfer, session.tag_upper_bound()), into, bytes,
                     [state, packed, base, layout, number](std::exception_ptr failure) {
                       if (failure) state->fail(failure);
                       if (!failure && packed) unpack(base, packed.get(), layout);
                       state->arriving.erase(number);
                       state->arrivals.fetch_sub(1, std::memory_order_release);
                       state->settle();
                     });
  });
}

bool MpiQueue::copy_from_device(void* allocation, Device& source, const void* source_allocation,
                                const CopyLayout& layout) {
  auto* from = dynamic_cast<MpiDevice*>(&source);
  if (!from || &from->backend() != &device_.backend()) return false;
  const auto what = described("copy between devices");
  const auto remote = device_.resolve(allocation, what);
  const auto remote_source = from->resolve(source_allocation, what);
  validate_copy(layout, allocation, source_allocation, remote.bytes_after, what);
  validate_copy(layout, source_allocation, allocation, remote_source.bytes_after, what);
  const std::uint64_t transfer = device_.session().next_id();
  post([device = device_.target(), from = from->target(), id = id_, seq = next_seq(), remote,
        remote_source, layout, transfer](Engine& engine) {
    Session& session = *device.session;
    if (from.rank == device.rank) {
      session.tell(engine, device.rank, MessageType::copy_local, [&](Writer& out) {
        out.u64(id);
        out.u64(seq);
        out.u64(remote.address);
        out.u32(from.index);
        out.u64(remote_source.address);
        write(out, layout);
      });
      return;
    }
    // Worker to worker, directly: the source pushes, the destination pulls in its order.
    session.tell(engine, from.rank, MessageType::copy_push, [&](Writer& out) {
      out.u32(from.index);
      out.u64(remote_source.address);
      write(out, layout);
      out.u64(static_cast<std::uint64_t>(device.rank));
      out.u64(transfer);
    });
    session.tell(engine, device.rank, MessageType::copy_pull, [&](Writer& out) {
      out.u64(id);
      out.u64(seq);
      out.u64(remote.address);
      write(out, layout);
      out.u64(static_cast<std::uint64_t>(from.rank));
      out.u64(transfer);
    });
  });
  return true;
}

bool MpiQueue::copy_within(void* allocation, std::size_t offset, const void* source_allocation,
                           std::size_t source_offset, std::size_t bytes) {
  const auto what = described("copy_within");
  const auto target = device_.resolve(allocation, what);
  const auto origin = device_.resolve(source_allocation, what);
  validate_copy(CopyLayout::contiguous(offset, bytes), allocation, source_allocation,
                target.bytes_after, what);
  validate_copy(CopyLayout::contiguous(source_offset, bytes), source_allocation, allocation,
                origin.bytes_after, what);
  Writer message(protocol_version, static_cast<std::uint32_t>(MessageType::copy_within), 0);
  message.u64(id_);
  message.u64(next_seq());
  message.u64(target.address);
  message.u64(offset);
  message.u64(origin.address);
  message.u64(source_offset);
  message.u64(bytes);
  post([device = device_.target(), bytes = std::move(message).finish()](Engine& engine) mutable {
    engine.send(device.rank, std::move(bytes));
  });
  return true;
}

bool MpiQueue::fill_within(void* allocation, std::size_t offset, const void* pattern,
                           std::size_t pattern_size, std::size_t bytes) {
  const auto what = described("fill_within");
  const auto target = device_.resolve(allocation, what);
  validate_copy(CopyLayout::contiguous(offset, bytes), allocation, pattern, target.bytes_after,
                what);
  if (pattern_size == 0 || bytes % pattern_size != 0 || offset % pattern_size != 0)
    throw error(error_category::invalid_argument,
                what() + ": the offset and size must be multiples of the " +
                    std::to_string(pattern_size) + "-byte pattern");
  if (pattern_size > max_fill_pattern_bytes) return false;  // the caller goes through host memory
  Writer message(protocol_version, static_cast<std::uint32_t>(MessageType::fill_within), 0);
  message.u64(id_);
  message.u64(next_seq());
  message.u64(target.address);
  message.u64(offset);
  message.u64(bytes);
  message.block({static_cast<const std::byte*>(pattern), pattern_size});
  post([device = device_.target(), bytes = std::move(message).finish()](Engine& engine) mutable {
    engine.send(device.rank, std::move(bytes));
  });
  return true;
}

void MpiQueue::launch(const DeviceKernel& kernel, const NdRange& range,
                      std::span<const KernelArgument> arguments) {
  const auto* remote_kernel = dynamic_cast<const MpiKernel*>(&kernel);
  if (!remote_kernel)
    throw error(error_category::invalid_argument,
                "launch of '" + kernel.info().name + "' on " + device_.info().name +
                    ": the kernel was not loaded for an mpi device");
  const std::function<std::string()> what = [&] {
    return "launch of '" + kernel.info().name + "' on " + device_.info().name;
  };
  validate_launch(kernel.info(), range, arguments, what);
  Writer message(protocol_version, static_cast<std::uint32_t>(MessageType::launch), 0);
  message.u64(id_);
  message.u64(remote_kernel->module());
  message.u32(remote_kernel->index());
  write(message, range);
  message.u64(arguments.size());
  for (const KernelArgument& argument : arguments) {
    message.u8(static_cast<std::uint8_t>(argument.kind));
    switch (argument.kind) {
      case KernelArgumentKind::allocation:
        message.u64(device_.resolve(argument.allocation, what).address);  // a bad one throws
        break;
      case KernelArgumentKind::scalar:
        message.block({static_cast<const std::byte*>(argument.value), argument.size});
        break;
      case KernelArgumentKind::local:
        message.u64(argument.size);
        break;
    }
  }
  // Numbered last: every argument resolved before the operation takes its number.
  message.u64(next_seq());
  post([device = device_.target(), bytes = std::move(message).finish()](Engine& engine) mutable {
    engine.send(device.rank, std::move(bytes));
  });
}

void MpiQueue::enqueue_native_call(const std::string& task, const NativeCall& call,
                                   std::span<void* const> allocations) {
  const std::function<std::string()> what = [&] {
    return "native task '" + task + "' (function '" + call.function + "') on " + device_.info().name;
  };
  for (const std::string* name : {&task, &call.function, &call.backend, &call.arguments_type})
    if (name->size() > max_native_name_bytes)
      throw error(error_category::invalid_argument,
                  what() + ": a name of " + std::to_string(name->size()) + " bytes (at most " +
                      std::to_string(max_native_name_bytes) + ")");
  if (call.arguments.size() > max_native_arguments_bytes)
    throw error(error_category::invalid_argument,
                what() + ": arguments of " + std::to_string(call.arguments.size()) +
                    " bytes (at most " + std::to_string(max_native_arguments_bytes) +
                    "): pass large data in a buffer");
  // Every allocation resolved before the operation takes its number (a bad one throws).
  std::vector<std::uint64_t> addresses;
  addresses.reserve(allocations.size());
  for (void* allocation : allocations)
    addresses.push_back(allocation ? device_.resolve(allocation, what).address : 0);
  Writer message(protocol_version, static_cast<std::uint32_t>(MessageType::native_call), 0);
  message.u64(id_);
  message.u64(next_seq());
  message.text(task);
  message.text(call.function);
  message.text(call.backend);
  message.text(call.arguments_type);
  message.block(call.arguments);
  message.u64(addresses.size());
  for (const std::uint64_t address : addresses) message.u64(address);
  post([device = device_.target(), bytes = std::move(message).finish()](Engine& engine) mutable {
    engine.send(device.rank, std::move(bytes));
  });
}

void MpiQueue::on_complete(std::function<void(std::exception_ptr)> done) {
  complete(std::move(done), false);
}

void MpiQueue::complete(std::function<void(std::exception_ptr)> done, bool direct) {
  auto shared_done = std::make_shared<std::function<void(std::exception_ptr)>>(std::move(done));
  device_.session().post(
      [device = device_.target(), id = id_, position = sent_, state = state_, shared_done,
       direct](Engine& engine) {
        const std::uint64_t after = state->next_transfer;
        device.session->request(
            engine, device.rank, MessageType::notify,
            [&](Writer& out) {
              out.u64(id);
              out.u64(position);
            },
            [state, after, position, shared_done, direct](std::exception_ptr failure, Reader* payload) {
              if (payload) payload->end();
              // The operations up to `position` are done (their failure, if any, is this
              // answer's): the worker's idle report of them may be skipped.
              QueueProgress& progress = *state->progress;
              if (payload && progress.done.load() <= position) {
                progress.failed.store(false);
                progress.done.store(position, std::memory_order_release);
              }
              state->waiters.push_back({after, failure, std::move(*shared_done), direct});
              state->settle();
            });
      },
      [shared_done] { (*shared_done)(ended_failure()); }, direct);
}

void MpiQueue::wait() {
  // The worker reports, unasked, when the queue falls idle: when that report covers every
  // operation sent, no failure waits to be reported and every copy to host memory has
  // arrived, the operations are done. This thread drives the engine until then (no
  // hand-off to the progress thread and back; an idle worker answers within
  // microseconds), for up to wait_spin after the last progress.
  Session& session = device_.session();
  const QueueProgress& progress = *state_->progress;
  const std::uint64_t target = sent_;
  const int rank = device_.rank();
  // Checked at every step of the driving: two words captured (std::function keeps them
  // in place, no allocation per wait) and no string built.
  const auto reported = [this, target] {
    return (state_->progress->done.load(std::memory_order_acquire) >= target &&
            state_->arrivals.load(std::memory_order_acquire) == 0) ||
           device_.session().failed(device_.rank());
  };
  if (session.drive_until(reported, wait_spin) && !progress.failed.load() &&
      !state_->transfer_failed.load() && !session.failed(rank))
    return;
  // A failure to report (the worker's, a transfer's, the node's), or a long wait: a notify
  // request, answered once the operations before it are done, with their failure.
  std::promise<void> finished;
  auto future = finished.get_future();
  complete(
      [&finished](std::exception_ptr failure) {
        if (failure)
          finished.set_exception(failure);
        else
          finished.set_value();
      },
      true);
  session.drive_until(
      [&] { return future.wait_for(std::chrono::seconds(0)) == std::future_status::ready; },
      wait_spin);
  future.get();
}

}  // namespace plexus::mpi

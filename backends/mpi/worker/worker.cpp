#include "worker.hpp"

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <iostream>

#include "../chunks.hpp"
#include "../packing.hpp"
#include "engine_await.hpp"
#include "staged_copies.hpp"
#include "plexus/copy_validation.hpp"
#include "plexus/error.hpp"

namespace plexus::mpi {

namespace {

constexpr std::uint64_t max_devices_index = 4096;

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "unknown-host";
  return name;
}

// Data that arrives from another rank before its queue's operation runs: in place in the
// staging (a contiguous region), or packed (a strided one).
struct Arrival {
  std::unique_ptr<RegionStaging> staging;
  std::shared_ptr<std::byte[]> packed;
  std::shared_ptr<Signal> arrived = std::make_shared<Signal>();
};

// Host memory for a copy of a device's: from its staging pool (page-locked, reused: no page
// faults on every copy, which fresh megabytes cost) when it has one, else plain. Every
// staging of a device copy on a worker comes from here (region_staging).
std::shared_ptr<std::byte[]> host_buffer(std::size_t bytes, StagingPool* pool) {
  if (pool) return pool->acquire(bytes);
  return std::shared_ptr<std::byte[]>(new std::byte[std::max<std::size_t>(bytes, 1)]);
}

std::unique_ptr<RegionStaging> region_staging(const CopyLayout& layout, StagingPool* pool) {
  if (!pool) return std::make_unique<RegionStaging>(layout);
  return std::make_unique<RegionStaging>(layout,
                                         host_buffer(RegionStaging::span_bytes(layout), pool));
}

// Waits for the operations before this one on the local queue; false, with the failure
// kept for the next report, when one failed (or failed earlier).
bool drained(WorkerQueue::Context& context) {
  if (context.failure) return false;
  try {
    context.local.wait();
    return true;
  } catch (...) {
    context.failure = std::current_exception();
    return false;
  }
}

}  // namespace

Worker::Worker(const LocalBackends& backends, std::string startup_failure)
    : backends_(backends), startup_failure_(std::move(startup_failure)),
      allocations_(backends.devices().size()) {
  push_queues_.resize(backends.devices().size());
}

Worker::~Worker() {
  queues_.clear();
  push_queues_.clear();
  modules_.clear();
  loaded_.clear();
  for (std::size_t d = 0; d < allocations_.size(); ++d)
    for (const auto& [address, allocation] : allocations_[d])
      backends_.devices()[d].device->deallocate(reinterpret_cast<void*>(address));
}

int Worker::serve(MPI_Comm comm) {
  Engine engine(comm, EngineOptions{}, *this);
  engine_ = &engine;
  // Test hook PLEXUS_MPI_TEST_KILL="RANK:N": that worker kills itself (SIGKILL) when the N-th
  // control message from rank 0 arrives, as a node that dies mid-run.
  if (const char* hook = std::getenv("PLEXUS_MPI_TEST_KILL"); hook && *hook) {
    char* rest = nullptr;
    if (std::strtol(hook, &rest, 10) == engine.rank() && *rest == ':')
      kill_after_ = std::strtoull(rest + 1, nullptr, 10);
  }
  engine.watch(0, "rank 0 (the application)");
  // Queue threads may drive the engine: MPI must allow calls from any thread, one at a time.
  int provided = 0;
  MPI_Query_thread(&provided);
  engine.allow_driving(provided >= MPI_THREAD_SERIALIZED);
  // Serves until stopped; queues that rank 0 destroyed end here, outside the engine's work
  // (their threads may be the ones that drive it).
  for (;;) {
    std::vector<std::unique_ptr<WorkerQueue>> gone;
    engine.run_until([&] {
      gone.swap(retired_);
      return !gone.empty() || stop_.load();
    }, std::chrono::hours(24));
    gone.clear();
    if (stop_) break;
  }
  // The queues' operations finish (they may wait for data the engine receives, and send
  // replies), then the queues go while the engine still runs; then what is still going out
  // leaves.
  const auto idle = [&] {
    for (auto& [id, each] : queues_)
      if (!each->idle()) return false;
    for (auto& each : push_queues_)
      if (each && !each->idle()) return false;
    return true;
  };
  engine.run_until(idle, std::chrono::seconds(10));
  std::map<std::uint64_t, std::unique_ptr<WorkerQueue>> queues;
  std::vector<std::unique_ptr<WorkerQueue>> push_queues;
  engine.run_until([&] {
    queues.swap(queues_);
    push_queues.swap(push_queues_);
    push_queues_.resize(push_queues.size());
    return true;
  }, std::chrono::seconds(1));
  queues.clear();
  push_queues.clear();
  retired_.clear();
  engine.run_until([] { return false; }, std::chrono::milliseconds(100));
  engine.close();
  engine.finish();
  engine_ = nullptr;
  if (!failure_.empty()) {
    std::cerr << "plexus worker (rank " << engine.rank() << "): " << failure_ << '\n';
    return 1;
  }
  return 0;
}

void Worker::on_peer_failed(int rank, const std::string& why) {
  if (rank != 0) return;  // a worker that fails a direct copy fails that copy only
  failure_ = "rank 0 failed: " + why;
  stop_ = true;
}

void Worker::reply_ok(std::uint64_t id, const std::function<void(Writer&)>& body) {
  Writer out(protocol_version, static_cast<std::uint32_t>(MessageType::reply), id);
  out.boolean(true);
  if (body) body(out);
  engine_->send(0, std::move(out).finish());
}

void Worker::reply_failure(std::uint64_t id, std::exception_ptr failure) {
  Writer out(protocol_version, static_cast<std::uint32_t>(MessageType::reply), id);
  out.boolean(false);
  write_failure(out, failure);
  engine_->send(0, std::move(out).finish());
}

std::uint32_t Worker::device_index(Reader& in) {
  const std::uint32_t index = in.u32();
  if (index >= backends_.devices().size())
    in.fail("device " + std::to_string(index) + " does not exist (this worker has " +
            std::to_string(backends_.devices().size()) + ")");
  return index;
}

Device& Worker::device(Reader& in) { return *backends_.devices()[device_index(in)].device; }

WorkerQueue& Worker::queue(Reader& in) {
  const std::uint64_t id = in.u64();
  auto it = queues_.find(id);
  if (it == queues_.end()) in.fail("queue " + std::to_string(id) + " does not exist");
  return *it->second;
}

std::uint64_t Worker::sequence(WorkerQueue& on, Reader& in) {
  const std::uint64_t seq = in.u64();
  if (!on.accept(seq))
    in.fail("operation " + std::to_string(seq) + " of a queue whose last was " +
            std::to_string(on.received()));
  return seq;
}

WorkerQueue::Report Worker::report_to_rank0(std::uint64_t queue) {
  Engine* engine = engine_;
  return [this, engine, queue](WorkerQueue::Context& context, std::uint64_t finished) {
    // Done means done on the device (a launch may only have been enqueued there).
    if (!context.failure) {
      try {
        context.local.wait();
      } catch (...) {
        context.failure = std::current_exception();
      }
    }
    context.reported = finished;
    const bool failed = context.failure != nullptr;
    engine->run_or_post([this, queue, finished, failed] {
      Writer out(protocol_version, static_cast<std::uint32_t>(MessageType::done), 0);
      out.u64(queue);
      out.u64(finished);
      out.boolean(failed);
      engine_->send(0, std::move(out).finish());
    });
  };
}

std::size_t Worker::bytes_after(std::uint32_t device, std::uint64_t address, Reader& in) {
  const auto& allocations = allocations_[device];
  auto it = allocations.upper_bound(address);
  if (it == allocations.begin() || address - std::prev(it)->first >= std::prev(it)->second.bytes)
    in.fail("address " + std::to_string(address) + " is in no allocation of device " +
            std::to_string(device));
  --it;
  return it->second.bytes - (address - it->first);
}

void* Worker::pointer_in(std::uint32_t device, std::uint64_t address, Reader& in) {
  bytes_after(device, address, in);
  return reinterpret_cast<void*>(address);
}

void* Worker::region(std::uint32_t device, std::uint64_t address, const CopyLayout& layout,
                     Reader& in) {
  const std::size_t bytes_after = this->bytes_after(device, address, in);
  void* pointer = reinterpret_cast<void*>(address);
  try {
    validate_copy(layout, pointer, &layout, bytes_after, "the region");
  } catch (const error& e) {
    in.fail(e.what());
  }
  return pointer;
}

void Worker::release_after_queues(std::uint32_t index, void* allocation) {
  // Operations still queued may use it: it goes once every queue of its device has run
  // what was enqueued before (the last of them frees it).
  Device& device = *backends_.devices()[index].device;
  std::vector<WorkerQueue*> on_device;
  for (auto& [id, each] : queues_)
    if (each->index() == index) on_device.push_back(each.get());
  if (push_queues_[index]) on_device.push_back(push_queues_[index].get());
  if (on_device.empty()) return device.deallocate(allocation);
  auto left = std::make_shared<std::atomic<std::size_t>>(on_device.size());
  for (WorkerQueue* each : on_device)
    each->enqueue([left, &device, allocation](WorkerQueue::Context&) {
      if (--*left == 0) device.deallocate(allocation);
    });
}

void Worker::on_message(int source, const Header& header, Reader& in) {
  if (kill_after_ && ++received_ == kill_after_) {
    std::cerr << "plexus worker (rank " << engine_->rank()
              << "): test hook PLEXUS_MPI_TEST_KILL: killing this process\n";
    std::raise(SIGKILL);
  }
  {
    const auto type = static_cast<MessageType>(header.type);
    if (source != 0) in.fail("a worker takes control messages from rank 0 only");
    if (!greeted_) {
      if (type != MessageType::hello) in.fail("the first message must be 'hello'");
      hello(header, in);
      return;
    }
    switch (type) {
      case MessageType::shutdown:
        in.end();
        stop_ = true;
        return;
      case MessageType::allocate: {
        const std::uint32_t index = device_index(in);
        const std::uint64_t bytes = in.u64();
        in.end();
        try {
          void* memory = backends_.devices()[index].device->allocate(bytes);
          allocations_[index][reinterpret_cast<std::uint64_t>(memory)] = {bytes};
          reply_ok(header.id, [&](Writer& out) { out.u64(reinterpret_cast<std::uint64_t>(memory)); });
        } catch (...) {
          reply_failure(header.id, std::current_exception());
        }
        return;
      }
      case MessageType::deallocate: {
        const std::uint32_t index = device_index(in);
        const std::uint64_t address = in.u64();
        in.end();
        if (allocations_[index].erase(address) == 0)
          in.fail("address " + std::to_string(address) + " is no allocation");
        release_after_queues(index, reinterpret_cast<void*>(address));
        return;
      }
      case MessageType::create_queue: {
        const std::uint32_t index = device_index(in);
        Device& on = *backends_.devices()[index].device;
        const std::uint64_t id = in.u64();
        in.end();
        if (queues_.count(id)) in.fail("queue " + std::to_string(id) + " exists already");
        queues_[id] = std::make_unique<WorkerQueue>(on, index, *engine_, report_to_rank0(id));
        return;
      }
      case MessageType::destroy_queue: {
        const std::uint64_t id = in.u64();
        in.end();
        auto it = queues_.find(id);
        if (it == queues_.end()) in.fail("queue " + std::to_string(id) + " does not exist");
        // This may run on that queue's own thread (it drives the engine while idle): the
        // main thread ends it (serve()).
        retired_.push_back(std::move(it->second));
        queues_.erase(it);
        return;
      }
      case MessageType::copy_in: return copy_in(in);
      case MessageType::copy_out: return copy_out(in);
      case MessageType::copy_pull: return copy_pull(in);
      case MessageType::copy_push: return copy_push(in);
      case MessageType::copy_local: return copy_local(in);
      case MessageType::peer_failed: {
        // Another worker that rank 0 found failed: the transfers with it fail now (a pull
        // that awaits its data, a push to it), naming it as rank 0 does.
        const std::uint64_t rank =
            in.bounded(static_cast<std::uint64_t>(engine_->size() - 1), "the rank");
        std::string name = in.text(1024);
        const std::string why = in.text();
        in.end();
        if (rank == 0 || static_cast<int>(rank) == engine_->rank())
          in.fail("a failed peer of rank " + std::to_string(rank));
        engine_->name(static_cast<int>(rank), std::move(name));
        engine_->fail_peer(static_cast<int>(rank), why);
        return;
      }
      case MessageType::copy_within: return copy_within(in);
      case MessageType::fill_within: return fill_within(in);
      case MessageType::load_module: return load_module(header, in);
      case MessageType::release_module: {
        const std::uint64_t id = in.u64();
        in.end();
        if (modules_.erase(id) == 0) in.fail("module " + std::to_string(id) + " does not exist");
        return;
      }
      case MessageType::launch: return launch(in);
      case MessageType::native_call: return native_call(in);
      case MessageType::notify: return notify(header, in);
      case MessageType::counters: {
        in.end();
        std::uint64_t sent = 0, received = 0;
        for (int r = 1; r < engine_->size(); ++r) {
          sent += engine_->data_bytes_sent(r);
          received += engine_->data_bytes_received(r);
        }
        reply_ok(header.id, [&](Writer& out) {
          out.u64(sent);
          out.u64(received);
        });
        return;
      }
      default:
        in.fail("a worker does not expect this message");
    }
  }
}

void Worker::on_bad_message(int source, const std::string& why) {
  // Rank 0 learns what was wrong and gives up on this node; the engine then fails the
  // sender for this worker, which stops (serve() sends what is queued before it ends).
  if (source != 0) return;
  Writer out(protocol_version, static_cast<std::uint32_t>(MessageType::protocol_error), 0);
  out.text(why);
  engine_->send(0, std::move(out).finish());
}

void Worker::hello(const Header& header, Reader& in) {
  const Versions theirs = read_versions(in);
  const Versions mine = this_side_versions();
  // Another protocol's greeting may hold other fields: refused before they are read.
  const bool same_protocol = theirs.protocol == mine.protocol;
  std::uint64_t chunk = 0, timeout = 0, piece = 0;
  if (same_protocol) {
    chunk = in.bounded(std::uint64_t{1} << 30, "the chunk size");
    timeout = in.bounded(std::uint64_t{1} << 32, "the timeout");
    piece = in.bounded(piecewise_transfer_bytes, "the piece size");
    in.end();
    if (chunk < 4096) in.fail("a chunk size under 4096 bytes");
    if (piece != 0 && piece < min_piece_bytes)
      in.fail("a piece size under " + std::to_string(min_piece_bytes) + " bytes");
  }
  const std::string mismatch =
      startup_failure_.empty() ? version_mismatch(theirs, mine) : startup_failure_;
  if (!mismatch.empty()) {
    Writer out(protocol_version, static_cast<std::uint32_t>(MessageType::refuse), header.id);
    write(out, mine);
    out.text(mismatch);
    engine_->send(0, std::move(out).finish());
    failure_ = "refused to work with rank 0: " + mismatch;
    stop_ = true;
    return;
  }
  engine_->set_options({std::chrono::milliseconds(std::max<std::uint64_t>(timeout, 100)), chunk, piece});
  Writer out(protocol_version, static_cast<std::uint32_t>(MessageType::welcome), header.id);
  write(out, mine);
  out.text(host_name());
  out.u64(backends_.devices().size());
  for (const LocalDevice& each : backends_.devices()) {
    out.text(each.backend);
    write(out, each.device->info());
    out.text(each.device->native_backend());
  }
  engine_->send(0, std::move(out).finish());
  greeted_ = true;
}

void Worker::receive_then_copy_in(WorkerQueue& on, std::uint64_t seq, void* allocation,
                                  const CopyLayout& layout, int source, std::uint64_t transfer) {
  Engine* engine = engine_;
  const int tag = data_tag(transfer, engine_->tag_upper_bound());
  const std::size_t bytes = layout.bytes();
  const bool host_memory = on.device().shares_host_memory();
  if (host_memory && contiguous(layout)) {
    // Straight into the allocation (host memory), once the operations before it are done:
    // no staging, no copy on this side. After a failure the data still arrives, unused.
    on.enqueue([engine, allocation, layout, source, tag, bytes](WorkerQueue::Context& context) {
      std::unique_ptr<std::byte[]> unused;
      std::byte* into = static_cast<std::byte*>(allocation) + layout.offset;
      if (!drained(context)) into = (unused = std::make_unique<std::byte[]>(bytes)).get();
      auto arrived = std::make_shared<Signal>();
      engine->run_or_post([engine, source, tag, into, bytes, arrived] {
        engine->recv_data(source, tag, into, bytes, fulfil(arrived));
      }, true);
      await(*engine, *arrived);
    }, seq);
    return;
  }
  StagingPool* pool = backends_.devices()[on.index()].staging.get();
  if (pool && contiguous(layout)) {
    // Into a device whose memory is not host memory: the receives are posted now (the
    // sender may send at once) into a pooled staging; in queue order each chunk's device
    // copy starts as it arrives (staged_copies.hpp).
    auto staged = std::make_shared<StagedReceive>(*engine_, *pool, source, tag, bytes);
    on.enqueue([engine, staged, allocation, layout](WorkerQueue::Context& context) {
      staged->copy_in(*engine, context.local, allocation, layout, context.failure != nullptr);
    }, seq);
    return;
  }
  // Otherwise the receive is posted now (the sender may send at once), into host memory;
  // the copy runs in queue order: a strided region arrives packed, then is unpacked (into
  // the allocation itself when it is host memory, else into a staging copied to it).
  auto arrival = std::make_shared<Arrival>();
  if (!host_memory) arrival->staging = region_staging(layout, pool);
  std::byte* into = nullptr;
  if (contiguous(layout)) {
    into = arrival->staging->span();
  } else {
    arrival->packed = host_buffer(bytes, pool);
    into = arrival->packed.get();
  }
  engine_->recv_data(source, tag, into, bytes, fulfil(arrival->arrived));
  on.enqueue([engine, arrival, allocation, layout](WorkerQueue::Context& context) {
    await(*engine, *arrival->arrived);
    if (!arrival->staging) {  // strided, into host memory
      if (drained(context)) unpack(static_cast<std::byte*>(allocation), arrival->packed.get(), layout);
      return;
    }
    if (context.failure) return;
    if (arrival->packed) unpack(arrival->staging->base(), arrival->packed.get(), layout);
    context.local.copy_to_device(allocation, arrival->staging->base(), layout);
    context.local.wait();  // the staging goes with this operation
  }, seq);
}

void Worker::copy_out_then_send(WorkerQueue& on, std::uint64_t seq, void* allocation,
                                const CopyLayout& layout, int destination, std::uint64_t transfer,
                                bool report) {
  Engine* engine = engine_;
  const int tag = data_tag(transfer, engine_->tag_upper_bound());
  const bool host_memory = on.device().shares_host_memory();
  StagingPool* pool = backends_.devices()[on.index()].staging.get();
  if (pool && contiguous(layout)) {
    // From a device whose memory is not host memory: chunk by chunk through a pooled
    // staging, each chunk sent while the next is copied (staged_copies.hpp).
    on.enqueue([engine, pool, allocation, layout, destination, tag, report](WorkerQueue::Context& context) {
      std::exception_ptr failure = context.failure;
      if (!failure) {
        try {
          context.local.wait();
        } catch (...) {
          failure = std::current_exception();
        }
      }
      failure = staged_send(*engine, *pool, context.local, allocation, layout, destination, tag,
                            failure);
      // A push (no report: its queue serves no remote queue) leaves nothing failed behind.
      context.failure = report ? failure : nullptr;
    }, seq);
    return;
  }
  on.enqueue([engine, allocation, layout, destination, tag, report, host_memory,
              pool](WorkerQueue::Context& context) {
    // What goes: the allocation itself (host memory, contiguous: counted in the queue's
    // sends, so that no later operation that may write it runs until it has gone, while
    // later copies out stream beside it), the staging of the device copy (contiguous), or
    // the region packed. The data goes even after a failure (the receiver waits for it);
    // the failure's report says it is not valid.
    const std::size_t bytes = layout.bytes();
    std::shared_ptr<void> keep;
    const std::byte* from = nullptr;
    bool in_place = false;
    std::exception_ptr failure = context.failure;
    if (!failure) {
      try {
        context.local.wait();
        const std::byte* base = static_cast<const std::byte*>(allocation);
        if (!host_memory) {
          std::shared_ptr<RegionStaging> staging = region_staging(layout, pool);
          context.local.copy_to_host(staging->base(), allocation, layout);
          context.local.wait();
          base = staging->base();
          keep = staging;
        }
        if (contiguous(layout)) {
          from = base + layout.offset;
          in_place = host_memory;
        } else {
          std::shared_ptr<std::byte[]> packed = host_buffer(bytes, pool);
          pack(packed.get(), base, layout);
          from = packed.get();
          keep = packed;
        }
      } catch (...) {
        failure = std::current_exception();
      }
    }
    if (failure) {
      std::shared_ptr<std::byte[]> zeros(new std::byte[bytes]());
      from = zeros.get();
      keep = zeros;
      in_place = false;
    }
    std::atomic<int>* sends = in_place ? &context.sends : nullptr;
    if (sends) sends->fetch_add(1, std::memory_order_relaxed);
    engine->run_or_post([engine, keep, from, bytes, destination, tag, sends] {
      engine->send_data(destination, tag, from, bytes, [keep, sends](std::exception_ptr) {
        if (sends) sends->fetch_sub(1, std::memory_order_release);
      });
    });
    // A push (no report: its queue serves no remote queue) leaves nothing failed behind.
    context.failure = report ? failure : nullptr;
  }, seq, true);
}

void Worker::copy_in(Reader& in) {
  WorkerQueue& on = queue(in);
  const std::uint64_t seq = sequence(on, in);
  const std::uint64_t address = in.u64();
  const CopyLayout layout = read_layout(in);
  const std::uint64_t transfer = in.u64();
  if (!in.boolean()) {
    in.end();
    return receive_then_copy_in(on, seq, region(on.index(), address, layout, in), layout, 0,
                                transfer);
  }
  // The data came inside the message (packed): the operation keeps a copy of it (the
  // message's buffer goes back to the engine's control receive).
  const auto data = in.block(eager_copy_bytes);
  if (data.size() != layout.bytes())
    in.fail("inline data of " + std::to_string(data.size()) + " bytes for a region of " +
            std::to_string(layout.bytes()));
  in.end();
  void* allocation = region(on.index(), address, layout, in);
  const bool host_memory = on.device().shares_host_memory();
  StagingPool* pool = backends_.devices()[on.index()].staging.get();
  on.enqueue([allocation, layout, data = std::vector<std::byte>(data.begin(), data.end()),
              host_memory, pool](WorkerQueue::Context& context) {
    if (host_memory) {
      if (drained(context)) unpack(static_cast<std::byte*>(allocation), data.data(), layout);
      return;
    }
    if (context.failure) return;
    const auto staging = region_staging(layout, pool);
    unpack(staging->base(), data.data(), layout);
    context.local.copy_to_device(allocation, staging->base(), layout);
    context.local.wait();  // the staging goes with this operation
  }, seq);
}

void Worker::copy_out(Reader& in) {
  WorkerQueue& on = queue(in);
  const std::uint64_t seq = sequence(on, in);
  const std::uint64_t address = in.u64();
  const CopyLayout layout = read_layout(in);
  const std::uint64_t transfer = in.u64();
  in.end();
  copy_out_then_send(on, seq, region(on.index(), address, layout, in), layout, 0, transfer, true);
}

void Worker::copy_pull(Reader& in) {
  WorkerQueue& on = queue(in);
  const std::uint64_t seq = sequence(on, in);
  const std::uint64_t address = in.u64();
  const CopyLayout layout = read_layout(in);
  const std::uint64_t source = in.bounded(static_cast<std::uint64_t>(engine_->size() - 1), "the source rank");
  const std::uint64_t transfer = in.u64();
  in.end();
  if (source == 0 || static_cast<int>(source) == engine_->rank()) in.fail("a pull from rank " + std::to_string(source));
  receive_then_copy_in(on, seq, region(on.index(), address, layout, in), layout,
                       static_cast<int>(source), transfer);
}

void Worker::copy_push(Reader& in) {
  const std::uint32_t index = device_index(in);
  const std::uint64_t address = in.u64();
  const CopyLayout layout = read_layout(in);
  const std::uint64_t destination =
      in.bounded(static_cast<std::uint64_t>(engine_->size() - 1), "the destination rank");
  const std::uint64_t transfer = in.u64();
  in.end();
  if (destination == 0 || static_cast<int>(destination) == engine_->rank())
    in.fail("a push to rank " + std::to_string(destination));
  void* allocation = region(index, address, layout, in);
  const std::size_t bytes = layout.bytes();
  if (bytes <= piecewise_transfer_bytes && backends_.devices()[index].device->shares_host_memory()) {
    // Small, from host memory: packed and sent here, at once (no hop to the push queue's
    // thread; the pieces leave eagerly). The push queue would read it no later: a push waits
    // for no queue but itself, as rank 0 pushes once the data is ready.
    std::shared_ptr<std::byte[]> packed(new std::byte[std::max<std::size_t>(bytes, 1)]);
    pack(packed.get(), static_cast<const std::byte*>(allocation), layout);
    engine_->send_data(static_cast<int>(destination), data_tag(transfer, engine_->tag_upper_bound()),
                       packed.get(), bytes, [packed](std::exception_ptr) {});
    return;
  }
  if (!push_queues_[index])
    push_queues_[index] =
        std::make_unique<WorkerQueue>(*backends_.devices()[index].device, index, *engine_);
  copy_out_then_send(*push_queues_[index], 0, allocation, layout, static_cast<int>(destination),
                     transfer, false);
}

void Worker::copy_local(Reader& in) {
  WorkerQueue& on = queue(in);
  const std::uint64_t seq = sequence(on, in);
  const std::uint64_t address = in.u64();
  const std::uint32_t source_index = device_index(in);
  const std::uint64_t source_address = in.u64();
  const CopyLayout layout = read_layout(in);
  in.end();
  const std::uint32_t index = on.index();
  void* allocation = region(index, address, layout, in);
  void* source_allocation = region(source_index, source_address, layout, in);
  Device& source = *backends_.devices()[source_index].device;
  StagingPool* pool = backends_.devices()[index].staging.get();
  on.enqueue([allocation, source_allocation, &source, layout, pool](WorkerQueue::Context& context) {
    if (context.failure) return;
    if (context.local.copy_from_device(allocation, source, source_allocation, layout)) return;
    // No direct path between these two local devices: through host memory.
    const auto staging = region_staging(layout, pool);
    const auto reader = source.create_queue();
    reader->copy_to_host(staging->base(), source_allocation, layout);
    reader->wait();
    context.local.copy_to_device(allocation, staging->base(), layout);
    context.local.wait();
  }, seq);
}

void* Worker::allocation_start(std::uint32_t device, std::uint64_t address, std::uint64_t offset,
                               std::uint64_t bytes, Reader& in) {
  const auto& allocations = allocations_[device];
  const auto it = allocations.find(address);
  if (it == allocations.end())
    in.fail("address " + std::to_string(address) + " is not the start of an allocation of device " +
            std::to_string(device));
  if (bytes == 0 || offset > it->second.bytes || bytes > it->second.bytes - offset)
    in.fail("bytes [" + std::to_string(offset) + ", +" + std::to_string(bytes) +
            ") of an allocation of " + std::to_string(it->second.bytes));
  return reinterpret_cast<void*>(address);
}

void Worker::copy_within(Reader& in) {
  WorkerQueue& on = queue(in);
  const std::uint64_t seq = sequence(on, in);
  const std::uint64_t address = in.u64(), offset = in.u64();
  const std::uint64_t source_address = in.u64(), source_offset = in.u64();
  const std::uint64_t bytes = in.u64();
  in.end();
  void* target = allocation_start(on.index(), address, offset, bytes, in);
  void* source = allocation_start(on.index(), source_address, source_offset, bytes, in);
  const bool host_memory = on.device().shares_host_memory();
  StagingPool* pool = backends_.devices()[on.index()].staging.get();
  on.enqueue([=](WorkerQueue::Context& context) {
    if (host_memory) {
      if (drained(context))
        std::memmove(static_cast<std::byte*>(target) + offset,
                     static_cast<const std::byte*>(source) + source_offset, bytes);
      return;
    }
    if (context.failure) return;
    if (context.local.copy_within(target, offset, source, source_offset, bytes)) return;
    // No device copy for it: through host memory here, never rank 0's.
    const auto from = CopyLayout::contiguous(source_offset, bytes);
    const auto staging = region_staging(from, pool);
    context.local.copy_to_host(staging->base(), source, from);
    context.local.wait();
    const auto at = reinterpret_cast<std::uintptr_t>(staging->span()) - offset;
    context.local.copy_to_device(target, reinterpret_cast<const void*>(at),
                                 CopyLayout::contiguous(offset, bytes));
    context.local.wait();  // the staging goes with this operation
  }, seq);
}

void Worker::fill_within(Reader& in) {
  WorkerQueue& on = queue(in);
  const std::uint64_t seq = sequence(on, in);
  const std::uint64_t address = in.u64(), offset = in.u64(), bytes = in.u64();
  const auto pattern_bytes = in.block(max_fill_pattern_bytes);
  in.end();
  if (pattern_bytes.empty() || bytes % pattern_bytes.size() != 0 ||
      offset % pattern_bytes.size() != 0)
    in.fail("a fill of " + std::to_string(bytes) + " bytes at " + std::to_string(offset) +
            " with a pattern of " + std::to_string(pattern_bytes.size()) + " bytes");
  void* target = allocation_start(on.index(), address, offset, bytes, in);
  std::vector<std::byte> pattern(pattern_bytes.begin(), pattern_bytes.end());
  const bool host_memory = on.device().shares_host_memory();
  StagingPool* pool = backends_.devices()[on.index()].staging.get();
  on.enqueue([=](WorkerQueue::Context& context) {
    const auto fill = [&](std::byte* into) {
      for (std::uint64_t at = 0; at < bytes; at += pattern.size())
        std::memcpy(into + at, pattern.data(), pattern.size());
    };
    if (host_memory) {
      if (drained(context)) fill(static_cast<std::byte*>(target) + offset);
      return;
    }
    if (context.failure) return;
    if (context.local.fill_within(target, offset, pattern.data(), pattern.size(), bytes)) return;
    // No device fill for this pattern: a filled block from host memory here.
    const auto layout = CopyLayout::contiguous(offset, bytes);
    const auto staging = region_staging(layout, pool);
    fill(staging->span());
    context.local.copy_to_device(target, staging->base(), layout);
    context.local.wait();  // the staging goes with this operation
  }, seq);
}

void Worker::load_module(const Header& header, Reader& in) {
  const std::uint32_t index = device_index(in);
  const std::uint64_t id = in.u64();
  const auto hash_bytes = in.block(32);
  if (hash_bytes.size() != 32) in.fail("a content hash of " + std::to_string(hash_bytes.size()) + " bytes");
  Hash hash;
  std::memcpy(hash.data(), hash_bytes.data(), 32);
  const std::uint32_t format = in.u32();
  if (format > static_cast<std::uint32_t>(BinaryFormat::native)) in.fail("binary format " + std::to_string(format));
  const std::uint64_t count = in.bounded(1 << 16, "the number of kernels");
  std::vector<KernelInfo> kernels;
  for (std::uint64_t i = 0; i < count; ++i) kernels.push_back(read_kernel_info(in));
  const bool with_binary = in.boolean();
  if (with_binary) {
    const auto binary = in.block();
    binaries_.try_emplace(hash, binary.begin(), binary.end());
  }
  in.end();
  if (modules_.count(id)) in.fail("module " + std::to_string(id) + " exists already");
  try {
    auto cached = loaded_.find({index, hash});
    std::shared_ptr<DeviceModule> module;
    if (cached != loaded_.end()) {
      module = cached->second;
    } else {
      auto binary = binaries_.find(hash);
      if (binary == binaries_.end())
        throw error(error_category::internal,
                    "mpi: the worker holds no binary with this content hash (rank 0 thought it "
                    "had sent it)");
      module = backends_.devices()[index].device->load_module(static_cast<BinaryFormat>(format),
                                                              binary->second, kernels);
      loaded_[{index, hash}] = module;
    }
    std::vector<const DeviceKernel*> found;
    for (const KernelInfo& kernel : kernels) found.push_back(&module->kernel(kernel.name));
    std::vector<std::uint64_t> group_limits;  // each kernel's, in order: the reply
    for (const DeviceKernel* kernel : found) group_limits.push_back(kernel->max_work_group_size());
    modules_[id] = {index, module, std::move(kernels), std::move(found)};
    reply_ok(header.id, [&](Writer& out) {
      for (const std::uint64_t limit : group_limits) out.u64(limit);
    });
  } catch (...) {
    reply_failure(header.id, std::current_exception());
  }
}

void Worker::launch(Reader& in) {
  WorkerQueue& on = queue(in);
  const std::uint64_t module_id = in.u64();
  auto module = modules_.find(module_id);
  if (module == modules_.end()) in.fail("module " + std::to_string(module_id) + " does not exist");
  if (module->second.device != on.index())
    in.fail("module " + std::to_string(module_id) + " was loaded for another device");
  const std::uint32_t kernel_index = in.u32();
  if (kernel_index >= module->second.kernels.size())
    in.fail("kernel " + std::to_string(kernel_index) + " does not exist in its module");
  const NdRange range = read_range(in);
  const std::uint64_t count = in.bounded(1 << 16, "the number of arguments");
  struct Launch {
    std::shared_ptr<DeviceModule> module;
    const DeviceKernel* kernel = nullptr;
    NdRange range;
    std::vector<std::vector<std::byte>> values;
    std::vector<KernelArgument> arguments;
  };
  auto launch = std::make_shared<Launch>();
  launch->module = module->second.module;
  launch->kernel = module->second.found[kernel_index];
  launch->range = range;
  launch->arguments.reserve(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint8_t kind = in.u8();
    switch (static_cast<KernelArgumentKind>(kind)) {
      case KernelArgumentKind::allocation:
        launch->arguments.push_back(
            KernelArgument::of_allocation(pointer_in(module->second.device, in.u64(), in)));
        break;
      case KernelArgumentKind::scalar: {
        const auto value = in.block(1 << 20);
        if (launch->values.empty()) launch->values.reserve(count);  // no reallocation: kept pointers
        launch->values.emplace_back(value.begin(), value.end());
        launch->arguments.push_back(
            KernelArgument::of_scalar(launch->values.back().data(), launch->values.back().size()));
        break;
      }
      case KernelArgumentKind::local:
        launch->arguments.push_back(KernelArgument::of_local(in.u64()));
        break;
      default:
        in.fail("argument kind " + std::to_string(kind));
    }
  }
  const std::uint64_t seq = sequence(on, in);  // numbered last (protocol 10)
  in.end();
  on.enqueue([launch](WorkerQueue::Context& context) {
    if (context.failure) return;
    context.local.launch(*launch->kernel, launch->range, launch->arguments);
  }, seq);
}

void Worker::notify(const Header& header, Reader& in) {
  WorkerQueue& on = queue(in);
  const std::uint64_t position = in.u64();
  in.end();
  if (position != on.received())
    in.fail("a notify after operation " + std::to_string(position) + " of a queue whose last is " +
            std::to_string(on.received()));
  Engine* engine = engine_;
  const std::uint64_t id = header.id;
  on.enqueue([this, engine, id, position](WorkerQueue::Context& context) {
    context.reported = position;  // this answer tells rank 0 they are done
    std::exception_ptr failure;
    try {
      context.local.wait();
    } catch (...) {
      failure = std::current_exception();
    }
    if (context.failure) failure = std::exchange(context.failure, nullptr);
    engine->run_or_post([this, id, failure] {
      if (failure)
        reply_failure(id, failure);
      else
        reply_ok(id);
    });
  });
}

}  // namespace plexus::mpi

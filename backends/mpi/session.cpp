#include "session.hpp"

#include <algorithm>
#include <cstdlib>
#include <future>

#include "mpi_environment.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"

namespace plexus::mpi {

namespace {

std::mutex instance_mutex;
std::shared_ptr<Session> instance;
std::string instance_unavailable;
bool instance_tried = false;

// How long call() drives the engine after the last progress before it blocks (a worker's
// allocation answers within tens of microseconds; a module load may take milliseconds).
constexpr std::chrono::microseconds call_spin{200};

std::exception_ptr node_failure(const std::string& name, const std::string& why) {
  return std::make_exception_ptr(error(error_category::device, "mpi: " + name + " failed: " + why));
}

}  // namespace

std::shared_ptr<Session> Session::open(const SessionOptions& options, std::string& why_not) {
  std::lock_guard lock(instance_mutex);
  if (!instance_tried) {
    instance_tried = true;
    if (!launched_by_mpirun()) {
      instance_unavailable = std::string("not started by mpirun (no remote devices): ") + launch_hint;
    } else if (std::string pin = pin_mpi_libraries(reinterpret_cast<const void*>(&Session::open));
               !pin.empty()) {
      instance_unavailable = pin;
    } else {
      // The logger must outlive the session's exit (the progress thread logs until then):
      // a static made before the handler is registered is destroyed after it runs.
      (void)logger();
      std::shared_ptr<Session> session(new Session(options));
      std::atexit(&Session::at_exit);
      instance = session;
      std::unique_lock ready(session->ready_mutex_);
      // MPI_Init waits for every rank of the job: bounded, in case some never calls it.
      const auto limit = std::chrono::milliseconds(options.engine.timeout) * 2;
      if (!session->ready_cv_.wait_for(ready, limit, [&] { return session->ready_; }))
        instance_unavailable = "MPI_Init or the workers' greeting did not finish within " +
                               std::to_string(limit.count()) + " ms: " + launch_hint;
      else
        instance_unavailable = session->unavailable_;
    }
  }
  why_not = instance_unavailable;
  return instance_unavailable.empty() ? instance : nullptr;
}

Session::Session(const SessionOptions& options) : options_(options) {
  thread_ = std::thread([this] { thread_main(); });
  callback_thread_ = std::thread([this] { callback_main(); });
}

void Session::callback_main() {
  std::unique_lock lock(callback_mutex_);
  for (;;) {
    callback_cv_.wait(lock, [&] { return callbacks_stop_ || !callbacks_.empty(); });
    if (callbacks_.empty()) return;
    auto callback = std::move(callbacks_.front());
    callbacks_.pop_front();
    lock.unlock();
    callback();
    lock.lock();
  }
}

void Session::deliver(std::function<void()> callback) {
  {
    std::lock_guard lock(callback_mutex_);
    callbacks_.push_back(std::move(callback));
  }
  callback_cv_.notify_one();
}

Session::~Session() {
  // finish_at_exit joins them; never reached before
  if (thread_.joinable()) thread_.detach();
  if (callback_thread_.joinable()) callback_thread_.detach();
}

void Session::at_exit() {
  std::shared_ptr<Session> session;
  {
    std::lock_guard lock(instance_mutex);
    session = instance;
  }
  if (session) session->finish_at_exit();
}

void Session::finish_at_exit() {
  {
    std::lock_guard lock(ready_mutex_);
    if (!ready_) return;  // stuck in MPI_Init: nothing to finalize from here
  }
  stop_ = true;
  if (engine_) engine_->post([] {});
  // MPI_Finalize may wait for a failed worker's process: bounded (finalize_limit).
  {
    std::unique_lock lock(finished_mutex_);
    const bool done = finished_cv_.wait_for(lock, finalize_limit, [&] { return finished_; });
    lock.unlock();
    if (!done) {
      logger().error("mpi: MPI_Finalize did not return within {} s (a failed worker?): exiting "
                     "without it", finalize_limit.count());
      thread_.detach();
    }
  }
  if (thread_.joinable()) thread_.join();
  {
    std::lock_guard lock(callback_mutex_);
    callbacks_stop_ = true;
  }
  callback_cv_.notify_one();
  if (callback_thread_.joinable()) callback_thread_.join();
}

void Session::thread_main() {
  std::string unavailable;
  bool drivable = false;
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    // Serialized calls from any thread: a thread that waits for a remote device drives the
    // engine itself (Engine::drive_until); FUNNELED would keep every call on this thread.
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
      std::lock_guard lock(ready_mutex_);
      unavailable_ = "MPI_Init_thread failed";
      ready_ = true;
      ready_cv_.notify_all();
      std::lock_guard finished(finished_mutex_);
      finished_ = true;
      return;
    }
    initialized_mpi_ = true;
    drivable = provided >= MPI_THREAD_SERIALIZED;
  } else {
    int provided = 0;
    MPI_Query_thread(&provided);
    if (provided != MPI_THREAD_MULTIPLE)
      unavailable = "the application initialized MPI without MPI_THREAD_MULTIPLE; the mpi "
                    "backend makes its MPI calls on a thread of its own";
    drivable = true;
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  if (!options_.piece_bytes_configured) options_.engine.piece_bytes = shared_memory_eager_bytes();
  engine_ = std::make_unique<Engine>(comm_, options_.engine, *this);
  tag_upper_bound_ = engine_->tag_upper_bound();
  if (unavailable.empty() && engine_->rank() != 0)
    unavailable = "this process is rank " + std::to_string(engine_->rank()) +
                  ", not rank 0: the application runs as rank 0 only, and the other ranks run "
                  "`plexus worker`: " + launch_hint;
  else if (unavailable.empty() && engine_->size() < 2)
    unavailable = std::string("rank 0 runs without workers (the job has 1 rank): ") + launch_hint;
  if (unavailable.empty()) {
    handshake();
    std::sort(nodes_.begin(), nodes_.end(),
              [](const Node& a, const Node& b) { return a.rank < b.rank; });
    if (nodes_.empty()) {
      unavailable = "no worker joined:";
      for (const auto& refusal : refusals_) unavailable += " " + refusal + ";";
      unavailable += std::string(" ") + launch_hint;
    }
  }
  engine_->allow_driving(drivable);
  {
    std::lock_guard lock(ready_mutex_);
    unavailable_ = unavailable;
    ready_ = true;
  }
  ready_cv_.notify_all();
  engine_->run(stop_);
  // Exit: what was posted before goes out (a queue's destroy_queue, a deallocate), then the
  // workers stop (after shutdown a worker takes nothing more), queued messages leave, MPI
  // ends. Posts under way finish first (later ones run their `ended` instead), and no other
  // thread drives the engine from here on.
  ended_ = true;
  while (posting_.load() > 0) std::this_thread::yield();
  engine_->close();
  engine_->run_posted();
  for (const Node& node : nodes_) tell(*engine_, node.rank, MessageType::shutdown, {});
  engine_->run_until([] { return false; }, std::chrono::milliseconds(200));
  auto waiting = std::move(waiting_);
  for (auto& [id, entry] : waiting)
    entry.second(std::make_exception_ptr(error(error_category::device,
                                               "mpi: the session ended (the process exits)")),
                 nullptr);
  engine_->finish();
  MPI_Comm_free(&comm_);
  if (initialized_mpi_) MPI_Finalize();
  {
    std::lock_guard lock(finished_mutex_);
    finished_ = true;
  }
  finished_cv_.notify_all();
}

void Session::handshake() {
  const Versions mine = this_side_versions();
  for (int rank = 1; rank < engine_->size(); ++rank) {
    engine_->watch(rank, "rank " + std::to_string(rank));
    Writer hello(protocol_version, static_cast<std::uint32_t>(MessageType::hello), next_id());
    write(hello, mine);
    hello.u64(options_.engine.chunk_bytes);
    hello.u64(static_cast<std::uint64_t>(options_.engine.timeout.count()));
    hello.u64(options_.engine.piece_bytes);
    engine_->send(rank, std::move(hello).finish());
  }
  const auto answered = [&] {  // every worker greeted or failed (a refusal is both: once)
    for (int rank = 1; rank < engine_->size(); ++rank)
      if (!engine_->failed(rank) && !greeted(rank)) return false;
    return true;
  };
  if (!engine_->run_until(answered, options_.engine.timeout)) {
    for (int rank = 1; rank < engine_->size(); ++rank)
      if (std::find(greeted_.begin(), greeted_.end(), rank) == greeted_.end() && !engine_->failed(rank))
        engine_->fail_peer(rank, "it did not answer rank 0's greeting within " +
                                     std::to_string(options_.engine.timeout.count()) +
                                     " ms: does it run `plexus worker`?");
  }
}

bool Session::greeted(int rank) const {
  return std::find(greeted_.begin(), greeted_.end(), rank) != greeted_.end();
}

void Session::refuse_answer(int source, const std::string& why) {
  greeted_.push_back(source);
  refusals_.push_back("rank " + std::to_string(source) + ": " + why);
  logger().error("mpi: rank 0 gives up on rank {}: {}", source, why);
  tell(*engine_, source, MessageType::shutdown, {});
  engine_->fail_peer(source, why);
}

void Session::on_message(int source, const Header& header, Reader& payload) {
  const auto type = static_cast<MessageType>(header.type);
  if (type != MessageType::welcome && type != MessageType::refuse && !greeted(source)) {
    // Not an answer to the greeting: from a worker of another protocol, most likely.
    const std::string said = type == MessageType::protocol_error ? payload.text() : "";
    refuse_answer(source, unexpected_greeting_answer(header.type, header.protocol, said));
    return;
  }
  if (type == MessageType::welcome || type == MessageType::refuse) {
    if (greeted(source)) payload.fail("a second greeting");
    const Versions theirs = read_versions(payload);
    if (type == MessageType::refuse) {
      const std::string why = payload.text();
      payload.end();
      greeted_.push_back(source);
      refusals_.push_back("rank " + std::to_string(source) + " refused: " + why);
      logger().error("mpi: rank {} refused to work with rank 0: {}", source, why);
      engine_->fail_peer(source, "it refused: " + why);
      return;
    }
    Node node;
    node.rank = source;
    node.host = payload.text(1024);
    node.name = "node '" + node.host + "' rank " + std::to_string(source);
    const std::uint64_t count = payload.bounded(4096, "the number of devices");
    for (std::uint32_t i = 0; i < count; ++i) {
      RemoteDevice device;
      device.rank = source;
      device.index = i;
      device.backend = payload.text(256);
      device.info = read_device_info(payload);
      device.native_backend = payload.text(256);
      node.devices.push_back(std::move(device));
    }
    payload.end();
    greeted_.push_back(source);
    if (std::string mismatch = version_mismatch(this_side_versions(), theirs); !mismatch.empty()) {
      refusals_.push_back(node.name + " refused by rank 0: " + mismatch);
      logger().error("mpi: rank 0 refuses {}: {}", node.name, mismatch);
      tell(*engine_, source, MessageType::shutdown, {});
      engine_->fail_peer(source, "refused by rank 0: " + mismatch);
      return;
    }
    engine_->watch(source, node.name);
    nodes_.push_back(std::move(node));
    return;
  }
  if (type == MessageType::reply) {
    auto it = waiting_.find(header.id);
    if (it == waiting_.end() || it->second.first != source)
      payload.fail("a reply to request " + std::to_string(header.id) + ", which it was not sent");
    Reply reply = std::move(it->second.second);
    waiting_.erase(it);
    if (!payload.boolean()) {
      const error failure = read_failure(payload);
      payload.end();
      reply(std::make_exception_ptr(error(
                failure.category(), std::string(failure.what()) + " (on " + name_of(source) + ")")),
            nullptr);
      return;
    }
    reply(nullptr, &payload);
    return;
  }
  if (type == MessageType::done) {
    const std::uint64_t queue = payload.u64();
    const std::uint64_t done = payload.u64();
    const bool failed = payload.boolean();
    payload.end();
    auto it = queues_.find(queue);
    if (it == queues_.end() || it->second->rank != source)
      payload.fail("a report on queue " + std::to_string(queue) + ", which it does not serve");
    QueueProgress& progress = *it->second;
    if (done > progress.sent.load() || done < progress.done.load())
      payload.fail("operation " + std::to_string(done) + " reported finished, of " +
                   std::to_string(progress.sent.load()) + " sent and " +
                   std::to_string(progress.done.load()) + " reported before");
    progress.failed.store(failed);
    progress.done.store(done, std::memory_order_release);
    return;
  }
  if (type == MessageType::protocol_error) {
    const std::string why = payload.text();
    throw error(error_category::device, "it could not accept a message of rank 0: " + why);
  }
  payload.fail("rank 0 does not expect this message");
}

void Session::track_queue(std::uint64_t id, std::shared_ptr<QueueProgress> progress) {
  queues_[id] = std::move(progress);
}

void Session::forget_queue(std::uint64_t id) { queues_.erase(id); }

void Session::on_peer_failed(int rank, const std::string& why) {
  std::vector<Reply> failed;
  for (auto it = waiting_.begin(); it != waiting_.end();) {
    if (it->second.first == rank) {
      failed.push_back(std::move(it->second.second));
      it = waiting_.erase(it);
    } else {
      ++it;
    }
  }
  const std::exception_ptr failure = node_failure(engine_->name_of(rank), why);
  for (Reply& reply : failed) reply(failure, nullptr);
  // The other workers fail their transfers with it (a pull from it, a push to it), which
  // would otherwise wait for ever: no worker watches another.
  const bool node = std::any_of(nodes_.begin(), nodes_.end(),
                                [&](const Node& each) { return each.rank == rank; });
  if (!node) return;
  for (const Node& other : nodes_) {
    if (other.rank == rank || engine_->failed(other.rank)) continue;
    tell(*engine_, other.rank, MessageType::peer_failed, [&](Writer& out) {
      out.u64(static_cast<std::uint64_t>(rank));
      out.text(engine_->name_of(rank));
      out.text(engine_->reason(rank));
    });
  }
}

void Session::on_bad_message(int source, const std::string& why) {
  // The worker is given up on (the engine fails it next): it stops rather than wait. An
  // answer to the greeting that cannot be read is listed with the refusals.
  if (source <= 0) return;
  if (!greeted(source)) {
    refuse_answer(source, "its answer to rank 0's greeting could not be read (" + why +
                              "): a worker of another version? rank 0 has mpi protocol " +
                              std::to_string(protocol_version) + " (Plexus " +
                              this_side_versions().plexus +
                              "); run the same Plexus build on every node");
    return;
  }
  tell(*engine_, source, MessageType::shutdown, {});
}

void Session::request(Engine& engine, int rank, MessageType type,
                      const std::function<void(Writer&)>& body, Reply reply) {
  if (engine.failed(rank)) {
    // How it failed, as when it did (a bad message's check, the silence, the MPI error).
    reply(std::make_exception_ptr(error(error_category::device, engine.failure(rank))), nullptr);
    return;
  }
  const std::uint64_t id = next_id();
  Writer message(protocol_version, static_cast<std::uint32_t>(type), id);
  if (body) body(message);
  waiting_.emplace(id, std::make_pair(rank, std::move(reply)));
  engine.send(rank, std::move(message).finish());
}

void Session::tell(Engine& engine, int rank, MessageType type,
                   const std::function<void(Writer&)>& body) {
  Writer message(protocol_version, static_cast<std::uint32_t>(type), 0);
  if (body) body(message);
  engine.send(rank, std::move(message).finish());
}

void Session::call(int rank, MessageType type, const std::function<void(Writer&)>& body,
                   const std::function<void(Reader&)>& read) {
  std::promise<void> answered;
  auto future = answered.get_future();
  post(
      [&](Engine& engine) {
        request(engine, rank, type, body, [&](std::exception_ptr failure, Reader* payload) {
          try {
            if (failure) std::rethrow_exception(failure);
            if (read) read(*payload);
            payload->end();
            answered.set_value();
          } catch (...) {
            answered.set_exception(std::current_exception());
          }
        });
      },
      [&] {
        answered.set_exception(std::make_exception_ptr(
            error(error_category::device, "mpi: the session ended (the process exits)")));
      },
      true);
  drive_until([&] { return future.wait_for(std::chrono::seconds(0)) == std::future_status::ready; },
              call_spin);
  future.get();
}

std::uint64_t Session::data_bytes_to_workers() const {
  std::uint64_t total = 0;
  for (const Node& node : nodes_) total += engine_->data_bytes_sent(node.rank);
  return total;
}

std::uint64_t Session::data_bytes_from_workers() const {
  std::uint64_t total = 0;
  for (const Node& node : nodes_) total += engine_->data_bytes_received(node.rank);
  return total;
}

}  // namespace plexus::mpi

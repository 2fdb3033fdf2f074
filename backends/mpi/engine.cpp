#include "engine.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <utility>

#include "chunks.hpp"
#include "messages.hpp"
#include "plexus/cpu_pause.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"

namespace plexus::mpi {

namespace {

std::string mpi_error_text(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) return "MPI error " + std::to_string(code);
  return std::string(text, static_cast<std::size_t>(length));
}

std::exception_ptr peer_failure(const std::string& name, const std::string& why) {
  return std::make_exception_ptr(error(error_category::device, "mpi: " + name + " failed: " + why));
}

// How long a driver spins without yielding after the engine last progressed.
constexpr std::chrono::microseconds pause_window{5};

// The engine whose work this thread runs now (it holds that engine's lock).
thread_local const Engine* inside = nullptr;

// Marks this thread as inside `engine`'s work for a scope.
class Inside {
 public:
  explicit Inside(const Engine* engine) : previous_(std::exchange(inside, engine)) {}
  ~Inside() { inside = previous_; }
  Inside(const Inside&) = delete;
  Inside& operator=(const Inside&) = delete;

 private:
  const Engine* previous_;
};

}  // namespace

Engine::Engine(MPI_Comm comm, EngineOptions options, Handler& handler)
    : comm_(comm), options_(options), handler_(handler) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  int* upper = nullptr;
  int found = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &upper, &found);
  if (found && upper) tag_upper_bound_ = *upper;
  peers_.resize(static_cast<std::size_t>(size_));
  for (int r = 0; r < size_; ++r) peers_[static_cast<std::size_t>(r)].name = "rank " + std::to_string(r);
  sent_ = std::make_unique<std::atomic<std::uint64_t>[]>(static_cast<std::size_t>(size_));
  received_ = std::make_unique<std::atomic<std::uint64_t>[]>(static_cast<std::size_t>(size_));
  if (const char* hook = std::getenv("PLEXUS_MPI_TEST_CORRUPT"); hook && *hook)
    damage_ = std::make_unique<MessageDamage>(hook, rank_);
  control_bytes_ = control_receive_bytes(std::getenv("PLEXUS_MPI_TEST_RECEIVE_BYTES"), rank_);
  post_control_receive();
}

Engine::~Engine() { cancel_control_receive(); }

void Engine::post_control_receive() {
  repost_control_ = false;
  if (!control_buffer_)
    control_buffer_ = std::make_unique_for_overwrite<std::byte[]>(control_bytes_);
  if (MPI_Irecv(control_buffer_.get(), static_cast<int>(control_bytes_), MPI_BYTE, MPI_ANY_SOURCE,
                control_tag, comm_, &control_request_) != MPI_SUCCESS)
    control_request_ = MPI_REQUEST_NULL;
}

void Engine::cancel_control_receive() {
  repost_control_ = false;
  if (control_request_ == MPI_REQUEST_NULL) return;
  MPI_Cancel(&control_request_);
  MPI_Wait(&control_request_, MPI_STATUS_IGNORE);
  control_request_ = MPI_REQUEST_NULL;
}

void Engine::watch(int rank, std::string name) {
  std::lock_guard lock(names_mutex_);
  Peer& peer = peers_.at(static_cast<std::size_t>(rank));
  peer.name = std::move(name);
  peer.watched = true;
  peer.last_heard = peer.last_sent = std::chrono::steady_clock::now();
}

void Engine::name(int rank, std::string name) {
  std::lock_guard lock(names_mutex_);
  peers_.at(static_cast<std::size_t>(rank)).name = std::move(name);
}

std::string Engine::reason(int rank) const {
  if (failures_.load(std::memory_order_acquire) == 0) return {};
  std::lock_guard lock(names_mutex_);
  if (rank < 0 || rank >= size_ || !peers_[static_cast<std::size_t>(rank)].failed) return {};
  return peers_[static_cast<std::size_t>(rank)].why;
}

std::string Engine::name_of(int rank) const {
  std::lock_guard lock(names_mutex_);
  if (rank < 0 || rank >= size_) return "rank " + std::to_string(rank);
  return peers_[static_cast<std::size_t>(rank)].name;
}

bool Engine::failed(int rank) const {
  if (failures_.load(std::memory_order_acquire) == 0) return false;
  std::lock_guard lock(names_mutex_);
  return rank >= 0 && rank < size_ && peers_[static_cast<std::size_t>(rank)].failed;
}

std::string Engine::failure(int rank) const {
  if (failures_.load(std::memory_order_acquire) == 0) return {};
  std::lock_guard lock(names_mutex_);
  if (rank < 0 || rank >= size_ || !peers_[static_cast<std::size_t>(rank)].failed) return {};
  const Peer& peer = peers_[static_cast<std::size_t>(rank)];
  return "mpi: " + peer.name + " failed: " + peer.why;
}

std::uint64_t Engine::data_bytes_sent(int peer) const { return sent_[static_cast<std::size_t>(peer)]; }
std::uint64_t Engine::data_bytes_received(int peer) const {
  return received_[static_cast<std::size_t>(peer)];
}

void Engine::send(int destination, std::vector<std::byte> message) {
  if (failed(destination)) return;
  std::optional<std::vector<std::byte>> again;
  if (damage_) {
    std::uint32_t type = 0;
    std::memcpy(&type, message.data() + 8, 4);
    if (type != static_cast<std::uint32_t>(MessageType::heartbeat))
      again = damage_->apply(message, destination);
  }
  if (damage_ && damage_->take_short())
    send_announced(destination, std::move(message), control_capacity + 1);  // overstated
  else
    send_control(destination, std::move(message));
  if (again) send_control(destination, std::move(*again));
}

void Engine::send_control(int destination, std::vector<std::byte> message) {
  if (failed(destination)) return;
  if (message.size() > control_capacity) {
    const std::size_t size = message.size();
    return send_announced(destination, std::move(message), size);
  }
  Pending pending;
  pending.peer = destination;
  const int code = MPI_Isend(message.data(), static_cast<int>(message.size()), MPI_BYTE,
                             destination, control_tag, comm_, &pending.request);
  if (code != MPI_SUCCESS) return fail_peer(destination, "MPI_Isend: " + mpi_error_text(code));
  // A small message usually leaves at once (eager): then nothing is left to poll for.
  int done = 0;
  if (MPI_Test(&pending.request, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && done)
    return Writer::recycle(std::move(message));
  // Kept until sent (a vector's move keeps its buffer where MPI reads it).
  pending.message = std::make_shared<std::vector<std::byte>>(std::move(message));
  pending_.push_back(std::move(pending));
}

void Engine::send_announced(int destination, std::vector<std::byte> message, std::size_t announced) {
  // Over the receiver's posted receive: announced, then on a tag of its own (the same
  // pair's messages on one tag keep their order).
  Writer announce(protocol_version, static_cast<std::uint32_t>(MessageType::follows), 0);
  announce.u64(announced);
  send_control(destination, std::move(announce).finish());
  Pending pending;
  pending.peer = destination;
  const int code = MPI_Isend(message.data(), static_cast<int>(message.size()), MPI_BYTE,
                             destination, large_control_tag, comm_, &pending.request);
  if (code != MPI_SUCCESS) return fail_peer(destination, "MPI_Isend: " + mpi_error_text(code));
  pending.message = std::make_shared<std::vector<std::byte>>(std::move(message));
  pending_.push_back(std::move(pending));
}

void Engine::send_data(int destination, int tag, const std::byte* data, std::size_t bytes, Done done,
                       std::size_t cut) {
  post_chunks(destination, tag, const_cast<std::byte*>(data), bytes, std::move(done), false,
              cut > 0 ? cut : this->cut(bytes));
}

void Engine::recv_data(int source, int tag, std::byte* data, std::size_t bytes, Done done,
                       std::size_t cut) {
  post_chunks(source, tag, data, bytes, std::move(done), true, cut > 0 ? cut : this->cut(bytes));
}

std::size_t Engine::cut(std::size_t bytes) const {
  return transfer_cut(bytes, options_.chunk_bytes, options_.piece_bytes);
}

void Engine::post_chunks(int peer, int tag, std::byte* data, std::size_t bytes, Done done,
                         bool receive, std::size_t cut) {
  auto transfer = std::make_shared<Transfer>();
  transfer->peer = peer;
  transfer->done = std::move(done);
  if (failed(peer)) {
    transfer->done(std::make_exception_ptr(error(error_category::device, failure(peer))));
    return;
  }
  for_each_chunk(bytes, cut, [&](std::size_t at, std::size_t chunk) {
    Pending pending;
    pending.peer = peer;
    pending.transfer = transfer;
    pending.bytes = chunk;
    pending.receive = receive;
    const int code =
        receive ? MPI_Irecv(data + at, static_cast<int>(chunk), MPI_BYTE, peer, tag, comm_,
                            &pending.request)
                : MPI_Isend(data + at, static_cast<int>(chunk), MPI_BYTE, peer, tag, comm_,
                            &pending.request);
    if (code != MPI_SUCCESS) {
      transfer->failure = peer_failure(
          name_of(peer), std::string(receive ? "MPI_Irecv: " : "MPI_Isend: ") + mpi_error_text(code));
      return false;
    }
    ++transfer->outstanding;
    pending_.push_back(std::move(pending));
    return true;
  });
  if (transfer->outstanding == 0) transfer->done(transfer->failure);
}

void Engine::finish(Pending& pending, std::exception_ptr failure) {
  if (!pending.transfer) return;
  Transfer& transfer = *pending.transfer;
  if (failure && !transfer.failure) transfer.failure = failure;
  if (--transfer.outstanding == 0 && transfer.done) {
    Done done = std::move(transfer.done);
    done(transfer.failure);
  }
}

void Engine::fail_peer(int rank, const std::string& why) {
  {
    std::lock_guard lock(names_mutex_);
    Peer& peer = peers_.at(static_cast<std::size_t>(rank));
    if (peer.failed) return;
    peer.failed = true;
    peer.why = why;
  }
  failures_.fetch_add(1, std::memory_order_release);
  const std::exception_ptr failure = peer_failure(name_of(rank), why);
  logger().error("mpi: {} failed: {}", name_of(rank), why);
  // Its requests will never complete: cancel receives, abandon sends (MPI frees them).
  std::vector<Pending> gone;
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (it->peer != rank) {
      ++it;
      continue;
    }
    if (it->receive) MPI_Cancel(&it->request);
    MPI_Request_free(&it->request);
    gone.push_back(std::move(*it));
    it = pending_.erase(it);
  }
  for (Pending& pending : gone) finish(pending, failure);
  handler_.on_peer_failed(rank, why);
}

bool Engine::receive_control(std::chrono::steady_clock::time_point now) {
  // The receive is posted in advance: a message that arrives matches it at once, and one
  // MPI_Test both moves it in and finds it (a probe would find it only on a second call).
  if (repost_control_) post_control_receive();
  if (control_request_ == MPI_REQUEST_NULL) return false;
  int flag = 0;
  MPI_Status status;
  status.MPI_SOURCE = MPI_ANY_SOURCE;
  int code = MPI_Test(&control_request_, &flag, &status);
  if (code != MPI_SUCCESS) {
    // Completed in error (a message over the receive's size, unannounced: a sender of
    // another protocol): its sender fails, the others go on.
    control_request_ = MPI_REQUEST_NULL;
    post_control_receive();
    const int source = status.MPI_SOURCE;
    if (source >= 0 && source < size_) {
      const std::string why = "a control message it sent did not fit the " +
                              std::to_string(control_bytes_) + "-byte receive (" +
                              mpi_error_text(code) + ")";
      handler_.on_bad_message(source, why);
      fail_peer(source, why);
    } else
      logger().error("mpi: the control receive failed: {}", mpi_error_text(code));
    return true;
  }
  if (!flag) return false;
  const int source = status.MPI_SOURCE;
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  const auto bytes = static_cast<std::size_t>(std::max(count, 0));
  // Read where it landed (no copy; a handler keeps nothing of a payload past on_message):
  // the receive is posted again at the next poll (repost_control_).
  repost_control_ = true;
  if (source < 0 || source >= size_) return true;
  if (failed(source)) return true;  // a peer given up on stays given up on
  peers_[static_cast<std::size_t>(source)].last_heard = now;
  std::span<const std::byte> message(control_buffer_.get(), bytes);
  // The sender's name only for an error: a valid message builds no strings.
  const std::function<std::string()> from = [this, source] { return name_of(source); };
  std::unique_ptr<std::byte[]> large;  // an announced message's own buffer
  try {
    Header header = read_header(message, protocol_version, from);
    if (header.type == static_cast<std::uint32_t>(MessageType::follows)) {
      Reader announce(message.subspan(header_bytes), header.type, from);
      const std::uint64_t size = announce.bounded(max_message_bytes, "the size");
      announce.end();
      if (size <= control_capacity) announce.fail("a message that fits the control receive");
      large = receive_large(source, size, from);
      if (!large) return true;  // the peer failed meanwhile
      message = std::span<const std::byte>(large.get(), size);
      header = read_header(message, protocol_version, from);
    }
    if (header.type == static_cast<std::uint32_t>(MessageType::heartbeat)) return true;
    Reader payload(message.subspan(header_bytes), header.type, from);
    handler_.on_message(source, header, payload);
  } catch (const std::exception& e) {
    handler_.on_bad_message(source, e.what());
    fail_peer(source, e.what());
  }
  return true;
}

std::unique_ptr<std::byte[]> Engine::receive_large(int source, std::uint64_t size,
                                                   const std::function<std::string()>& from) {
  // Sent right after its announcement: received here, within the heartbeat timeout (a
  // sender that dies meanwhile is failed, never waited for). One of another size is a
  // corrupt message (thrown: the caller fails the sender, telling it why).
  auto kept = std::make_unique_for_overwrite<std::byte[]>(size);
  MPI_Request request = MPI_REQUEST_NULL;
  int code = MPI_Irecv(kept.get(), static_cast<int>(size), MPI_BYTE, source, large_control_tag,
                       comm_, &request);
  MPI_Status status;
  const auto start = std::chrono::steady_clock::now();
  for (int done = 0; code == MPI_SUCCESS && !done;) {
    code = MPI_Test(&request, &done, &status);
    if (done || code != MPI_SUCCESS) break;
    if (std::chrono::steady_clock::now() - start > options_.timeout) {
      MPI_Cancel(&request);
      MPI_Request_free(&request);
      fail_peer(source, "its announced " + std::to_string(size) + "-byte message did not come within " +
                            std::to_string(options_.timeout.count()) + " ms");
      return nullptr;
    }
    std::this_thread::yield();
  }
  if (code != MPI_SUCCESS) {
    fail_peer(source, "MPI_Irecv of a " + std::to_string(size) + "-byte message from " + from() +
                          ": " + mpi_error_text(code));
    return nullptr;
  }
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  if (static_cast<std::uint64_t>(count) != size)
    throw error(error_category::device, "mpi: corrupt message from " + from() + ": its announced " +
                                            std::to_string(size) + "-byte message came with " +
                                            std::to_string(count) + " bytes");
  return kept;
}

bool Engine::complete_requests() {
  bool any = false;
  for (auto it = pending_.begin(); it != pending_.end();) {
    int done = 0;
    MPI_Status status;
    const int code = MPI_Test(&it->request, &done, &status);
    if (code != MPI_SUCCESS) {
      const int peer = it->peer;
      fail_peer(peer, std::string(it->receive ? "receive" : "send") + ": " + mpi_error_text(code));
      return true;  // fail_peer changed the list
    }
    if (!done) {
      ++it;
      continue;
    }
    any = true;
    std::exception_ptr failure;
    if (it->receive) {
      int count = 0;
      MPI_Get_count(&status, MPI_BYTE, &count);
      if (static_cast<std::size_t>(count) != it->bytes)
        failure = std::make_exception_ptr(error(
            error_category::device, "mpi: truncated data from " + name_of(it->peer) + ": " +
                                        std::to_string(count) + " bytes of a " +
                                        std::to_string(it->bytes) + "-byte chunk arrived"));
      received_[static_cast<std::size_t>(it->peer)] += static_cast<std::uint64_t>(count);
    } else if (it->transfer) {
      sent_[static_cast<std::size_t>(it->peer)] += it->bytes;
    }
    Pending finished = std::move(*it);
    it = pending_.erase(it);
    finish(finished, failure);
  }
  return any;
}

void Engine::heartbeats(std::chrono::steady_clock::time_point now) {
  // Checked every millisecond at most (a step may come every microsecond).
  if (now < next_heartbeats_) return;
  next_heartbeats_ = now + std::chrono::milliseconds(1);
  const auto interval = options_.timeout / 5;
  for (int r = 0; r < size_; ++r) {
    Peer& peer = peers_[static_cast<std::size_t>(r)];
    if (!peer.watched || peer.failed) continue;
    if (now - peer.last_heard > options_.timeout) {
      const double seconds = std::chrono::duration<double>(now - peer.last_heard).count();
      fail_peer(r, "no message for " + std::to_string(seconds).substr(0, 4) +
                       " s (timeout " + std::to_string(options_.timeout.count()) +
                       " ms): the process died, was killed or hangs");
      continue;
    }
    if (now - peer.last_sent > interval) {
      peer.last_sent = now;  // every interval, whatever else went (no clock read per send)
      send(r, Writer(protocol_version, static_cast<std::uint32_t>(MessageType::heartbeat), 0).finish());
    }
  }
}

bool Engine::run_posted() {
  if (posted_count_.load(std::memory_order_acquire) == 0) return false;
  std::deque<std::function<void()>> work;
  {
    std::lock_guard lock(posted_mutex_);
    work.swap(posted_);
    posted_count_.store(0, std::memory_order_relaxed);
  }
  for (auto& each : work) each();
  return !work.empty();
}

bool Engine::progress(int messages, std::chrono::steady_clock::time_point now) {
  bool any = run_posted();
  for (int i = 0; i < messages && receive_control(now); ++i) any = true;
  if (!pending_.empty() && complete_requests()) any = true;
  heartbeats(now);
  return any;
}

bool Engine::step(bool& in_flight, bool& expecting, int messages,
                  std::chrono::steady_clock::time_point now) {
  const Inside here(this);
  const bool any = progress(messages, now);
  in_flight = !pending_.empty();
  expecting = handler_.expects_messages();
  return any;
}

void Engine::post(std::function<void()> work) {
  {
    std::lock_guard lock(posted_mutex_);
    posted_.push_back(std::move(work));
    posted_count_.store(posted_.size(), std::memory_order_release);
  }
  // A driver runs it (it leaves waking the owner when work is left); else the owner.
  if (drivers_.load() == 0) posted_cv_.notify_one();
}

bool Engine::run_here(const std::function<void()>& work, bool will_drive) {
  if (inside == this) {
    work();
    return true;
  }
  if (drivable_.load(std::memory_order_relaxed) && drive_mutex_.try_lock()) {
    std::unique_lock lock(drive_mutex_, std::adopt_lock);
    if (!closed_) {
      bool left = false;
      {
        const Inside here(this);
        run_posted();  // what was posted before goes first
        work();
        // Transfers it started go on without polling here (shared memory moves them; the
        // owner's idle polls and the next driver complete them): only an awaited answer
        // needs someone to poll for it now.
        left = !will_drive && handler_.expects_messages();
      }
      lock.unlock();
      // Nobody polls for what it left unless the owner does (it may sleep).
      if (left && drivers_.load() == 0) wake_owner();
      return true;
    }
  }
  return false;
}

bool Engine::drive_until(const std::function<bool()>& done, std::chrono::nanoseconds limit,
                         bool returning) {
  if (inside == this) return done();
  if (!drivable_.load(std::memory_order_relaxed))
    return spin_for(limit, Spin::yielding, done);
  drivers_.fetch_add(1);
  auto now = std::chrono::steady_clock::now();
  auto last_busy = now;
  bool finished = false, in_flight = false, expecting = false, timed_out = false, closed = false;
  while (!(finished = done())) {
    bool busy = false;
    if (!closed && drive_mutex_.try_lock()) {
      std::lock_guard lock(drive_mutex_, std::adopt_lock);
      if (closed_)
        closed = true;
      else
        busy = step(in_flight, expecting, 1, now);  // one message: then `done` is checked
    }
    now = std::chrono::steady_clock::now();
    if (busy) {
      driven_at_.store(now.time_since_epoch().count(), std::memory_order_relaxed);
      last_busy = now;
      continue;
    }
    if (now - last_busy > limit) {
      timed_out = true;
      finished = done();
      break;
    }
    // Just after progress an answer is near: keep the core (a yield may hand it to another
    // process for a whole time slice); later, yield, as the peer may share this core.
    if (now - last_busy < pause_window)
      cpu_pause();
    else
      std::this_thread::yield();
  }
  // The owner sleeps while others drive; it must take over at once when work is left or
  // this thread will now block. Otherwise it resumes within its sleep's bound.
  if (drivers_.fetch_sub(1) == 1) {
    bool wake = timed_out || expecting || (in_flight && !returning);
    {
      std::lock_guard lock(posted_mutex_);
      wake = wake || !posted_.empty();  // posted while this thread drove, after its last step
      wake_ = wake_ || wake;
    }
    if (wake) posted_cv_.notify_all();
  }
  return finished;
}

bool Engine::poll(int messages) {
  if (inside == this || !drivable_.load(std::memory_order_relaxed) || !drive_mutex_.try_lock())
    return false;
  bool expecting = false;
  {
    std::lock_guard lock(drive_mutex_, std::adopt_lock);
    if (closed_) return false;
    bool in_flight = false;
    step(in_flight, expecting, messages, std::chrono::steady_clock::now());
  }
  if (expecting && drivers_.load() == 0) wake_owner();
  return true;
}

void Engine::wake_owner() {
  {
    std::lock_guard lock(posted_mutex_);
    wake_ = true;
  }
  posted_cv_.notify_all();
}

void Engine::close() {
  std::lock_guard lock(drive_mutex_);
  closed_ = true;
}

void Engine::finish() {
  std::lock_guard lock(drive_mutex_);
  cancel_control_receive();
}

bool Engine::run_until(const std::function<bool()>& until, std::chrono::milliseconds limit) {
  using namespace std::chrono_literals;
  const auto start = std::chrono::steady_clock::now();
  auto last_busy = start, woken_at = start - 1h;
  for (;;) {
    bool busy = false, in_flight = false, expecting = false;
    {
      // While another thread drives, the lock is taken only when free (no wait behind a
      // driver's step, no futex hand-off on every one of its steps).
      std::unique_lock lock(drive_mutex_, std::defer_lock);
      if (drivers_.load() == 0)
        lock.lock();
      else
        (void)lock.try_lock();
      if (lock.owns_lock()) {
        {
          const Inside here(this);
          if (until()) return true;
        }
        busy = step(in_flight, expecting, 64, std::chrono::steady_clock::now());
      }
    }
    const auto now = std::chrono::steady_clock::now();
    if (now - start > limit) return false;
    if (busy) last_busy = now;
    // While other threads drive (now, or within the last millisecond: a queue thread
    // between two operations), this thread sleeps rather than compete with them for a
    // core; they wake it when they leave work behind, and it checks every 4 ms while one
    // drives, every millisecond otherwise.
    // A thread that drives now always has the engine to itself (after a wake-up too: it
    // came back, and polling beside it would take its core); one that drove within the last
    // millisecond, unless this thread was woken since (work was left to it).
    const bool others =
        drivers_.load() > 0 ||
        (now - woken_at > 2ms && now.time_since_epoch().count() -
                                         driven_at_.load(std::memory_order_relaxed) <
                                     std::chrono::nanoseconds(1ms).count());
    if (busy && !others) continue;
    // Poll hard just after activity (replies follow requests) and while transfers are in
    // flight (MPI moves their data only when polled), else sleep between polls: the
    // machine may run more ranks than cores.
    if (!others && (now - last_busy < 2ms || in_flight)) {
      std::this_thread::yield();
      continue;
    }
    std::unique_lock lock(posted_mutex_);
    posted_cv_.wait_for(lock,
                        others ? std::chrono::microseconds(drivers_.load() > 0 ? 4ms : 1ms) : 500us,
                        [&] { return wake_ || !posted_.empty(); });
    if (wake_) woken_at = last_busy = std::chrono::steady_clock::now();
    wake_ = false;
  }
}

void Engine::run(const std::atomic<bool>& stop) {
  while (!run_until([&] { return stop.load(); }, std::chrono::hours(24))) {
  }
}

}  // namespace plexus::mpi

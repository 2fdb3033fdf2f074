// Engine: the MPI calls of a process and the state they touch (rank 0's session, a worker).
// It sends control messages and chunked data without blocking, receives and checks control
// messages, completes transfers, exchanges heartbeats with the peers it watches and declares
// a watched peer failed when it falls silent past the timeout, when an MPI call to it fails
// (the communicator returns errors: MPI_ERRORS_RETURN) or when it sends a message that
// cannot be decoded.
//
// Driving: one thread owns the engine (rank 0's progress thread, a worker's main thread) and
// runs it (run, run_until). When MPI allows calls from any thread, one at a time
// (MPI_THREAD_SERIALIZED: allow_driving), a thread that waits for the engine's work (a
// remote queue's wait(), a worker's idle queue thread) drives it itself (drive_until), and
// a thread that hands it work runs that work at once when nobody else drives (run_or_post):
// an operation and its answer then need no hand-off between threads, and the owner sleeps
// meanwhile instead of competing for a core. Whoever drives holds the engine's lock, so
// the engine's state and the handler's callbacks still run on one thread at a time.
//
// Thread-safety: post(), run_or_post(), drive_until(), the counters and name_of()
// from any thread (never from inside the engine's own work, except post() and
// run_or_post()); everything else inside the engine's work (handler callbacks, posted work)
// or on the owner thread before allow_driving() / after close().
// Ownership: the caller owns the communicator and the buffers it passes to send_data and
// recv_data, which must stay valid until their `done` is called.
#pragma once

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "message_damage.hpp"
#include "messages.hpp"
#include "wire.hpp"

namespace plexus::mpi {

struct EngineOptions {
  std::chrono::milliseconds timeout{20000};  // silence after which a watched peer has failed
  std::size_t chunk_bytes = std::size_t{4} << 20;
  // Transfers of at most piecewise_transfer_bytes go in pieces of this size (chunks.hpp), each
  // under the transport's eager limit; 0: in chunks of chunk_bytes like any other.
  std::size_t piece_bytes = 0;
};

class Engine {
 public:
  using Done = std::function<void(std::exception_ptr)>;

  class Handler {
   public:
    virtual ~Handler() = default;
    // A control message whose header read_header accepted (never heartbeats). An exception
    // thrown here is a protocol failure of `source` (on_peer_failed follows).
    virtual void on_message(int source, const Header& header, Reader& payload) = 0;
    // A message from `source` that could not be accepted (read_header or on_message threw),
    // just before the engine fails `source`; the default does nothing.
    virtual void on_bad_message(int source, const std::string& why) { (void)source, (void)why; }
    // `rank` failed, `why` says how; its transfers have already failed.
    virtual void on_peer_failed(int rank, const std::string& why) = 0;
    // True while the handler awaits messages (a reply to a request): a thread that stops
    // driving then wakes the owner at once. The default: false.
    virtual bool expects_messages() const { return false; }
  };

  Engine(MPI_Comm comm, EngineOptions options, Handler& handler);
  ~Engine();  // finish(), when not called before
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  const EngineOptions& options() const { return options_; }
  // Engine thread: a worker takes rank 0's options from its greeting.
  void set_options(const EngineOptions& options) { options_ = options; }
  int tag_upper_bound() const { return tag_upper_bound_; }

  // A peer whose silence past the timeout is a failure; `name` names it in messages
  // ("node 'vm' rank 2").
  void watch(int rank, std::string name);
  std::string name_of(int rank) const;
  bool failed(int rank) const;
  // Empty while `rank` has not failed; else "mpi: node 'vm' rank 2 failed: why".
  std::string failure(int rank) const;
  // Empty while `rank` has not failed; else why it failed (failure()'s `why`).
  std::string reason(int rank) const;
  // Names a peer in messages without watching it (a worker names another worker that
  // rank 0 found failed).
  void name(int rank, std::string name);

  // Owner thread: from now on (true) other threads may drive the engine, as MPI allows
  // calls from any thread one at a time; close() ends that (before MPI is finalized).
  void allow_driving(bool allowed) { drivable_ = allowed; }
  void close();
  // Owner thread, after close(): cancels the engine's posted control receive (before the
  // communicator is freed or MPI finalized); nothing is received from then on.
  void finish();

  // Inside the engine's work. send() takes the message as Writer::finish() made it.
  void send(int destination, std::vector<std::byte> message);
  // A transfer of `bytes` on `tag`, cut into messages of cut(bytes), or of `cut` when given
  // (a caller that sends or receives a transfer chunk by chunk: each chunk one message).
  void send_data(int destination, int tag, const std::byte* data, std::size_t bytes, Done done,
                 std::size_t cut = 0);
  void recv_data(int source, int tag, std::byte* data, std::size_t bytes, Done done,
                 std::size_t cut = 0);
  // The size of the messages a transfer of `bytes` is cut into (chunks.hpp), the same on
  // every rank (a worker takes rank 0's options with its greeting). Any thread, once greeted.
  std::size_t cut(std::size_t bytes) const;
  void fail_peer(int rank, const std::string& why);
  // Owner thread. Runs until `stop` is set, sleeping when idle or while another thread
  // drives; what post() queues runs here.
  void run(const std::atomic<bool>& stop);
  // Runs what post() queued so far (run() may return with some left); the owner after
  // close(), or inside the engine's work.
  bool run_posted();  // true when there was some
  // Owner thread: runs until `until` (called inside the engine's work) returns true or
  // `limit` passes (false then).
  bool run_until(const std::function<bool()>& until, std::chrono::milliseconds limit);

  // Any thread.
  void post(std::function<void()> work);
  // `work` now, on this thread, when run_here can; else post(work) (no std::function is
  // made for work that runs here).
  template <class Work>
  void run_or_post(Work&& work, bool will_drive = false) {
    if (!run_here([&work] { work(); }, will_drive)) post(std::function<void()>(std::forward<Work>(work)));
  }
  // `work` now, on this thread, after what was posted before, when the engine may be driven
  // from here and nobody drives it now (true); else false, and nothing ran. After running it here, the owner
  // is woken when the handler awaits an answer (expects_messages), unless `will_drive` (the
  // caller calls drive_until next); transfers it started complete at the owner's next poll
  // or the next driver's (shared memory and single-copy transports move their data
  // meanwhile).
  bool run_here(const std::function<void()>& work, bool will_drive);
  // Any thread but the owner, outside the engine's work: drives the engine while waiting
  // for `done` (read without the engine's lock) for at most `limit` after the last progress
  // made; returns done(). Without driving allowed (or after close()) it only spins on done
  // (yielding). A thread that then blocks must leave the engine to its owner: it does.
  // `returning`: the caller, once `done`, does a short piece of work and drives again (a
  // worker's queue thread between operations): the owner is then woken only for work left
  // to it (posted, or answers awaited) or when this call timed out, not for transfers in
  // flight, which the caller comes back to (or the owner's periodic poll, within 4 ms):
  // waking it for them made it poll beside the caller, each taking the other's core and the
  // engine's lock (a stream of small copies out of a worker: 17 % of its queue thread in
  // futex wake-ups, and its sends posted to the owner for want of the lock).
  bool drive_until(const std::function<bool()>& done, std::chrono::nanoseconds limit,
                   bool returning = false);
  // Any thread but the owner, outside the engine's work: when the engine may be driven from
  // here and nobody drives it now, one step that takes in up to `messages` control messages
  // already arrived (and completes what finished); false, and nothing done, otherwise. It
  // never waits and never wakes the owner, except for answers the handler awaits. A worker's
  // queue thread calls it before it reports itself idle: an operation that has arrived keeps
  // it busy (a stream of copies then ends with one report, not one per copy).
  bool poll(int messages);
  // Payload bytes moved by transfers, and sent inside control messages that carry data
  // (count_inline_data). Any thread.
  std::uint64_t data_bytes_sent(int peer) const;
  std::uint64_t data_bytes_received(int peer) const;
  // Inside the engine's work: `bytes` of payload (a copy's) went to `peer` inside a control
  // message.
  void count_inline_data(int peer, std::size_t bytes) {
    sent_[static_cast<std::size_t>(peer)] += bytes;
  }

 private:
  struct Transfer {
    int peer = 0;
    std::size_t outstanding = 0;
    std::exception_ptr failure;
    Done done;
  };
  struct Pending {
    MPI_Request request = MPI_REQUEST_NULL;
    int peer = -1;
    std::shared_ptr<Transfer> transfer;         // null: a control message send
    std::shared_ptr<std::vector<std::byte>> message;  // what a control send keeps alive
    std::size_t bytes = 0;
    bool receive = false;
  };
  struct Peer {
    std::string name;
    bool watched = false;
    bool failed = false;
    std::string why;  // when failed
    std::chrono::steady_clock::time_point last_heard;
    std::chrono::steady_clock::time_point last_sent;
  };

  void wake_owner();
  // One step of the engine's work, the lock held: whether anything happened; `in_flight`:
  // transfers or sends are pending; `expecting`: the handler awaits messages.
  // At most `messages` control messages are received; `now`: the caller's last clock read.
  bool step(bool& in_flight, bool& expecting, int messages, std::chrono::steady_clock::time_point now);
  // Posts the chunks of one transfer (sends, or receives when `receive`), `cut` bytes each.
  void post_chunks(int peer, int tag, std::byte* data, std::size_t bytes, Done done, bool receive,
                   std::size_t cut);
  bool progress(int messages, std::chrono::steady_clock::time_point now);
  bool receive_control(std::chrono::steady_clock::time_point now);
  void post_control_receive();
  void cancel_control_receive();
  // The message a `follows` announced (null, with `source` failed, when it does not come).
  std::unique_ptr<std::byte[]> receive_large(int source, std::uint64_t size,
                                             const std::function<std::string()>& from);
  bool complete_requests();
  void heartbeats(std::chrono::steady_clock::time_point now);
  void check(int code, int peer, const char* call);
  void finish(Pending& pending, std::exception_ptr failure);
  // send() after the test hook.
  void send_control(int destination, std::vector<std::byte> message);
  // `follows` (claiming `announced` bytes), then the message on large_control_tag.
  void send_announced(int destination, std::vector<std::byte> message, std::size_t announced);

  MPI_Comm comm_;
  EngineOptions options_;
  Handler& handler_;
  int rank_ = 0, size_ = 0, tag_upper_bound_ = 32767;
  std::vector<Peer> peers_;
  mutable std::mutex names_mutex_;
  std::atomic<int> failures_{0};  // peers failed: failure() takes no lock while none
  std::list<Pending> pending_;
  // The control receive, posted in advance (control_bytes_, any source): control_capacity
  // unless the test hook PLEXUS_MPI_TEST_RECEIVE_BYTES says less.
  MPI_Request control_request_ = MPI_REQUEST_NULL;
  std::size_t control_bytes_ = control_capacity;
  // A message is read where it landed; the receive is posted again at the next poll
  // (repost_control_), off the path from a message to the work it starts (an operation,
  // a waiter's return): one that arrives meanwhile waits in MPI's unexpected queue.
  std::unique_ptr<std::byte[]> control_buffer_;
  bool repost_control_ = false;
  std::unique_ptr<std::atomic<std::uint64_t>[]> sent_, received_;

  std::mutex posted_mutex_;
  std::condition_variable posted_cv_;  // the owner sleeps here
  std::deque<std::function<void()>> posted_;
  std::atomic<std::size_t> posted_count_{0};  // posted_.size(), read without the lock
  std::chrono::steady_clock::time_point next_heartbeats_;  // inside the engine's work
  bool wake_ = false;  // under posted_mutex_: the owner must poll again

  // Whoever holds drive_mutex_ makes the engine's calls (the owner, or a driver).
  std::mutex drive_mutex_;
  std::atomic<bool> drivable_{false};
  bool closed_ = false;           // under drive_mutex_
  std::atomic<int> drivers_{0};   // threads in drive_until
  std::atomic<std::int64_t> driven_at_{0};  // steady_clock ticks of a driver's last progress

  // Test hook PLEXUS_MPI_TEST_CORRUPT (message_damage.hpp); null when unset.
  std::unique_ptr<MessageDamage> damage_;
};

}  // namespace plexus::mpi

// Session: rank 0's side of the MPI job, one per process. Its progress thread initializes
// MPI, greets every worker (versions checked both ways), then makes every MPI call of the
// process (engine.hpp) until the process exits, when it tells the workers to stop and
// finalizes MPI. Other threads never block on a remote device except in call(), which
// waits for one reply and fails, naming the node, when the node fails (bounded by the
// heartbeat timeout).
//
// Thread-safety: every member is safe from any thread; callbacks run on the progress thread
// and must not block. Ownership: process-wide (shared by every mpi backend the process
// creates; MPI cannot be initialized twice), kept until exit.
#pragma once

#include <atomic>
#include <condition_variable>
#include <thread>
#include <cstdint>
#include <exception>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine.hpp"
#include "messages.hpp"
#include "staging_pool.hpp"
#include "plexus/device_info.hpp"

namespace plexus::mpi {

struct RemoteDevice {
  int rank = 0;
  std::uint32_t index = 0;  // on its worker
  std::string backend;      // the worker's backend that has it
  std::string native_backend;  // its Device::native_backend() there
  DeviceInfo info;          // as its worker reports it
};

struct Node {
  int rank = 0;
  std::string host;
  std::string name;  // "node 'vm' rank 2"
  std::vector<RemoteDevice> devices;
};

// How far a remote queue's worker has got, as its `done` reports say (queue.hpp's fast
// wait). Thread-safety: atomics; `sent` written by the queue's user, the rest inside the
// engine's work.
struct QueueProgress {
  int rank = 0;
  std::atomic<std::uint64_t> sent{0};   // operations sent (numbered from 1)
  std::atomic<std::uint64_t> done{0};   // operations the worker reported finished
  std::atomic<bool> failed{false};      // its last report: a failure waits to be reported
};

struct SessionOptions {
  EngineOptions engine;
  // engine.piece_bytes as configured; unset: shared_memory_eager_bytes() (mpi_environment.hpp),
  // read once MPI is initialized.
  bool piece_bytes_configured = false;
};

class Session final : public Engine::Handler {
 public:
  using Reply = std::function<void(std::exception_ptr failure, Reader* payload)>;

  // The process's session, started by the first call with `options`. Unavailable (nullptr)
  // when this process was not started by mpirun, is not rank 0, runs without workers, or
  // every worker refused: `why_not` says so and how to launch.
  static std::shared_ptr<Session> open(const SessionOptions& options, std::string& why_not);

  ~Session() override;

  const std::vector<Node>& nodes() const { return nodes_; }
  // Workers that refused or failed the handshake, each with why.
  const std::vector<std::string>& refusals() const { return refusals_; }
  const EngineOptions& options() const { return options_.engine; }
  int tag_upper_bound() const { return tag_upper_bound_; }
  std::string name_of(int rank) const { return engine_->name_of(rank); }
  // Empty while the node of `rank` works; else how it failed, naming it. failed(): the
  // same question, no string built.
  std::string failure(int rank) const { return engine_->failure(rank); }
  bool failed(int rank) const { return engine_->failed(rank); }

  // Runs `work` inside the engine: at once on this thread when it may drive the engine and
  // nobody else does, else on the progress thread (in the order posted either way); when
  // the session has ended, `ended` instead (on the caller's thread). Unless `will_drive`
  // (the caller drives next: drive_until), the progress thread is woken when `work` left
  // an answer to wait for. Never from inside the engine's work.
  // Work: callable as work(Engine&), copyable (it becomes a std::function only when posted).
  template <class Work>
  void post(Work&& work, const std::function<void()>& ended = {}, bool will_drive = false) {
    posting_.fetch_add(1);
    if (ended_.load()) {
      posting_.fetch_sub(1);
      if (ended) ended();
      return;
    }
    try {
      engine_->run_or_post([this, work = std::forward<Work>(work)]() mutable { work(*engine_); },
                           will_drive);
    } catch (...) {
      posting_.fetch_sub(1);
      throw;
    }
    posting_.fetch_sub(1);
  }
  // Any thread but the progress thread, outside the engine's work: drives the engine while
  // waiting for `done`, at most `limit` after its last progress (Engine::drive_until).
  bool drive_until(const std::function<bool()>& done, std::chrono::nanoseconds limit) {
    return engine_->drive_until(done, limit);
  }
  std::uint64_t next_id() { return next_id_++; }
  // Host buffers for strided regions packed for the wire, kept for reuse. Any thread.
  StagingPool& packing_pool() { return packing_pool_; }

  // Progress thread: sends a request; `reply` runs once with the answer or the failure
  // (the worker's error, or the node's).
  void request(Engine& engine, int rank, MessageType type, const std::function<void(Writer&)>& body,
               Reply reply);
  // Progress thread: a message without answer.
  void tell(Engine& engine, int rank, MessageType type, const std::function<void(Writer&)>& body);
  // Any thread but the progress thread: request() and wait for the answer; `read` decodes it.
  void call(int rank, MessageType type, const std::function<void(Writer&)>& body,
            const std::function<void(Reader&)>& read);

  // Runs `callback` on the session's callback thread, in order: completions reach the
  // application there, free to enqueue more work or call() (never on the progress thread,
  // which must not block).
  void deliver(std::function<void()> callback);
  bool on_callback_thread() const { return std::this_thread::get_id() == callback_thread_.get_id(); }

  // Counters of bulk data between rank 0 and the workers (bytes).
  std::uint64_t data_bytes_to_workers() const;
  std::uint64_t data_bytes_from_workers() const;

  // Inside the engine's work: `done` reports of queue `id` update `progress` until
  // forget_queue(id).
  void track_queue(std::uint64_t id, std::shared_ptr<QueueProgress> progress);
  void forget_queue(std::uint64_t id);

  // Engine::Handler (inside the engine's work).
  void on_message(int source, const Header& header, Reader& payload) override;
  void on_peer_failed(int rank, const std::string& why) override;
  void on_bad_message(int source, const std::string& why) override;
  // Whether `rank` answered the greeting (welcome or refuse, or an answer given up on).
  bool greeted(int rank) const;
  // Gives up on `source`, whose answer to the greeting was not one: listed with the
  // refusals, told to stop, failed.
  void refuse_answer(int source, const std::string& why);
  bool expects_messages() const override { return !waiting_.empty(); }

 private:
  explicit Session(const SessionOptions& options);
  void thread_main();
  void handshake();
  void finish_at_exit();
  static void at_exit();

  void callback_main();

  SessionOptions options_;
  std::thread thread_;
  std::thread callback_thread_;
  std::mutex callback_mutex_;
  std::condition_variable callback_cv_;
  std::deque<std::function<void()>> callbacks_;
  bool callbacks_stop_ = false;
  std::unique_ptr<Engine> engine_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  bool initialized_mpi_ = false;
  int tag_upper_bound_ = 32767;
  std::atomic<bool> stop_{false};
  std::mutex finished_mutex_;  // the progress thread has finalized MPI
  std::condition_variable finished_cv_;
  bool finished_ = false;
  std::atomic<bool> ended_{false};   // later posts run their `ended` instead
  std::atomic<int> posting_{0};      // post() calls under way
  std::atomic<std::uint64_t> next_id_{1};
  StagingPool packing_pool_{std::size_t{64} << 20};

  // Set up by the progress thread before `ready_` is signalled, then immutable.
  std::vector<Node> nodes_;
  std::vector<std::string> refusals_;
  std::string unavailable_;
  std::mutex ready_mutex_;
  std::condition_variable ready_cv_;
  bool ready_ = false;

  // Inside the engine's work only.
  std::unordered_map<std::uint64_t, std::pair<int, Reply>> waiting_;
  std::unordered_map<std::uint64_t, std::shared_ptr<QueueProgress>> queues_;
  std::vector<int> greeted_;  // ranks that answered the hello
};

}  // namespace plexus::mpi

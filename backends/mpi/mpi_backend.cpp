#include "mpi_backend.hpp"

#include "chunks.hpp"
#include "mpi_device.hpp"

namespace plexus::mpi {

MpiBackend::MpiBackend(PluginContext& context) {
  SessionOptions options;
  options.engine.timeout = std::chrono::milliseconds(
      std::max<std::int64_t>(100, context.options.get_non_negative("timeout_ms", 20000)));
  options.engine.chunk_bytes = static_cast<std::size_t>(std::clamp<std::int64_t>(
      context.options.get_non_negative("chunk_bytes", std::int64_t{4} << 20), 4096,
      std::int64_t{1} << 30));
  if (context.options.contains("piece_bytes")) {
    // 0: no pieces; else within what a worker accepts.
    const std::int64_t piece = context.options.get_non_negative("piece_bytes", 0);
    options.engine.piece_bytes =
        piece == 0 ? 0
                   : static_cast<std::size_t>(std::clamp<std::int64_t>(
                         piece, min_piece_bytes, static_cast<std::int64_t>(piecewise_transfer_bytes)));
    options.piece_bytes_configured = true;
  }
  std::string why_not;
  session_ = Session::open(options, why_not);
  if (!session_) {
    status_ = {false, why_not};
    return;
  }
  std::string note;
  for (const Node& node : session_->nodes()) {
    note += (note.empty() ? "" : ", ") + node.name + ": " + std::to_string(node.devices.size()) +
            " device(s)";
    for (const RemoteDevice& remote : node.devices)
      devices_.push_back(std::make_unique<MpiDevice>(*this, session_, node, remote));
  }
  for (const std::string& refusal : session_->refusals()) note += "; " + refusal;
  status_ = {true, note};
}

MpiBackend::~MpiBackend() = default;

BackendStatus MpiBackend::status() const { return status_; }
std::size_t MpiBackend::device_count() const { return devices_.size(); }
Device& MpiBackend::device_at(std::size_t index) const { return *devices_[index]; }

bool MpiBackend::first_send(int rank, const std::array<std::uint8_t, 32>& hash) {
  std::lock_guard lock(sent_mutex_);
  return sent_.emplace(rank, hash).second;
}

void MpiBackend::forget_send(int rank, const std::array<std::uint8_t, 32>& hash) {
  std::lock_guard lock(sent_mutex_);
  sent_.erase({rank, hash});
}

std::vector<BackendCounter> MpiBackend::counters() const {
  if (!session_) return {};
  std::vector<BackendCounter> counters = {
      {"bytes_to_workers", session_->data_bytes_to_workers()},
      {"bytes_from_workers", session_->data_bytes_from_workers()},
  };
  // Each worker's own count of what it exchanged with the other workers, directly.
  std::uint64_t sent = 0, received = 0;
  for (const Node& node : session_->nodes()) {
    try {
      session_->call(node.rank, MessageType::counters, {}, [&](Reader& in) {
        sent += in.u64();
        received += in.u64();
      });
    } catch (const error&) {
      // A failed node counts nothing more.
    }
  }
  counters.push_back({"worker_to_worker_bytes_sent", sent});
  counters.push_back({"worker_to_worker_bytes_received", received});
  return counters;
}

}  // namespace plexus::mpi

#include "messages.hpp"

#include <cstdlib>

#include "plexus/build_fingerprint.hpp"
#include "plexus/version.hpp"

namespace plexus::mpi {

namespace {

constexpr std::uint64_t max_list = 1 << 16;  // devices, formats, kernels, arguments

}  // namespace

int data_tag(std::uint64_t transfer, int tag_upper_bound) {
  const std::uint64_t span = static_cast<std::uint64_t>(tag_upper_bound) - first_data_tag;
  return first_data_tag + static_cast<int>(transfer % span);
}

std::string_view to_string(MessageType type) {
  switch (type) {
    case MessageType::hello: return "hello";
    case MessageType::welcome: return "welcome";
    case MessageType::refuse: return "refuse";
    case MessageType::heartbeat: return "heartbeat";
    case MessageType::shutdown: return "shutdown";
    case MessageType::reply: return "reply";
    case MessageType::allocate: return "allocate";
    case MessageType::deallocate: return "deallocate";
    case MessageType::create_queue: return "create_queue";
    case MessageType::destroy_queue: return "destroy_queue";
    case MessageType::copy_in: return "copy_in";
    case MessageType::copy_out: return "copy_out";
    case MessageType::copy_pull: return "copy_pull";
    case MessageType::copy_push: return "copy_push";
    case MessageType::copy_local: return "copy_local";
    case MessageType::load_module: return "load_module";
    case MessageType::release_module: return "release_module";
    case MessageType::launch: return "launch";
    case MessageType::notify: return "notify";
    case MessageType::counters: return "counters";
    case MessageType::protocol_error: return "protocol_error";
    case MessageType::done: return "done";
    case MessageType::copy_within: return "copy_within";
    case MessageType::fill_within: return "fill_within";
    case MessageType::follows: return "follows";
    case MessageType::native_call: return "native_call";
    case MessageType::peer_failed: return "peer_failed";
  }
  return "unknown";
}

std::string describe(std::uint32_t type, const std::string& from) {
  return "message '" + std::string(to_string(static_cast<MessageType>(type))) + "' (" +
         std::to_string(type) + ") from " + from;
}

Versions this_side_versions() {
  Versions versions;
  const char* claimed = std::getenv("PLEXUS_MPI_TEST_VERSION");
  versions.plexus = claimed && *claimed ? claimed : PLEXUS_VERSION_STRING;
  versions.fingerprint = PLEXUS_BUILD_FINGERPRINT;
  return versions;
}

void write(Writer& out, const Versions& versions) {
  out.u32(versions.protocol);
  out.text(versions.plexus);
  out.text(versions.fingerprint);
}

Versions read_versions(Reader& in) {
  Versions versions;
  versions.protocol = in.u32();
  versions.plexus = in.text(256);
  versions.fingerprint = in.text(4096);
  return versions;
}

std::string version_mismatch(const Versions& rank0, const Versions& worker) {
  const auto both = [&](std::string_view what, const std::string& a, const std::string& b) {
    return std::string(what) + ": rank 0 has " + a + ", the worker has " + b;
  };
  if (rank0.protocol != worker.protocol)
    return both("mpi protocol versions differ", std::to_string(rank0.protocol),
                std::to_string(worker.protocol));
  if (rank0.plexus != worker.plexus)
    return both("Plexus versions differ", "Plexus " + rank0.plexus, "Plexus " + worker.plexus) +
           " (run the same Plexus build on every node)";
  if (rank0.fingerprint != worker.fingerprint)
    return both("builds differ (compiler, C++ ABI or sanitizer)", "'" + rank0.fingerprint + "'",
                "'" + worker.fingerprint + "'");
  return {};
}

std::string unexpected_greeting_answer(std::uint32_t type, std::uint32_t protocol,
                                       const std::string& said) {
  std::string text = "it answered rank 0's greeting with message '" +
                     std::string(to_string(static_cast<MessageType>(type))) + "' (" +
                     std::to_string(type) + ")" + (said.empty() ? "" : ": '" + said + "',") +
                     " not a welcome or a refusal";
  if (protocol == protocol_version)
    return text + " (of rank 0's mpi protocol, " + std::to_string(protocol) + ")";
  return text + ": mpi protocol versions differ: rank 0 has " + std::to_string(protocol_version) +
         " (Plexus " + this_side_versions().plexus + "), the worker has " +
         std::to_string(protocol) +
         " (its answer's header says so: a worker of protocol 7 or earlier answers a greeting "
         "of another protocol with a protocol error); run the same Plexus build on every node";
}

void write(Writer& out, const DeviceInfo& info) {
  out.text(info.name);
  out.text(info.vendor);
  out.text(info.version);
  out.text(info.driver_version);
  out.text(info.architecture);
  out.u32(static_cast<std::uint32_t>(info.type));
  out.u32(info.compute_units);
  out.u64(info.global_memory_bytes);
  out.u64(info.local_memory_bytes);
  out.u64(info.max_work_group_size);
  out.u64(info.formats.size());
  for (BinaryFormat format : info.formats) out.u32(static_cast<std::uint32_t>(format));
  out.text(info.spirv_version);
}

DeviceInfo read_device_info(Reader& in) {
  DeviceInfo info;
  info.name = in.text(4096);
  info.vendor = in.text(4096);
  info.version = in.text(4096);
  info.driver_version = in.text(4096);
  info.architecture = in.text(4096);
  const std::uint32_t type = in.u32();
  if (type > static_cast<std::uint32_t>(DeviceType::other))
    in.fail("device type " + std::to_string(type) + " is unknown");
  info.type = static_cast<DeviceType>(type);
  info.compute_units = in.u32();
  info.global_memory_bytes = in.u64();
  info.local_memory_bytes = in.u64();
  info.max_work_group_size = in.u64();
  const std::uint64_t formats = in.bounded(64, "the number of binary formats");
  for (std::uint64_t i = 0; i < formats; ++i) {
    const std::uint32_t format = in.u32();
    if (format > static_cast<std::uint32_t>(BinaryFormat::native))
      in.fail("binary format " + std::to_string(format) + " is unknown");
    info.formats.push_back(static_cast<BinaryFormat>(format));
  }
  info.spirv_version = in.text(64);
  return info;
}

void write(Writer& out, const KernelInfo& info) {
  out.text(info.name);
  out.u64(info.args.size());
  for (const KernelArgInfo& arg : info.args) {
    out.text(arg.name);
    out.u32(static_cast<std::uint32_t>(arg.kind));
    out.u64(arg.size);
    out.boolean(arg.written);
  }
  for (std::size_t size : info.required_work_group_size) out.u64(size);
  out.boolean(info.uses_barriers);
  out.boolean(info.uses_local_memory);
  out.boolean(info.bounds_checked);
  out.boolean(info.cancellable);
}

KernelInfo read_kernel_info(Reader& in) {
  KernelInfo info;
  info.name = in.text(4096);
  const std::uint64_t args = in.bounded(max_list, "the number of kernel arguments");
  for (std::uint64_t i = 0; i < args; ++i) {
    KernelArgInfo arg;
    arg.name = in.text(4096);
    const std::uint32_t kind = in.u32();
    if (kind > static_cast<std::uint32_t>(KernelArgKind::image))
      in.fail("kernel argument kind " + std::to_string(kind) + " is unknown");
    arg.kind = static_cast<KernelArgKind>(kind);
    arg.size = in.bounded(1 << 20, "a kernel argument's size");
    arg.written = in.boolean();
    info.args.push_back(std::move(arg));
  }
  for (std::size_t& size : info.required_work_group_size)
    size = in.bounded(std::uint64_t{1} << 32, "a required work-group size");
  info.uses_barriers = in.boolean();
  info.uses_local_memory = in.boolean();
  info.bounds_checked = in.boolean();
  info.cancellable = in.boolean();
  return info;
}

void write(Writer& out, const CopyLayout& layout) {
  out.u64(layout.offset);
  out.u64(layout.row_bytes);
  out.u64(layout.rows);
  out.u64(layout.slices);
  out.u64(layout.row_pitch);
  out.u64(layout.slice_pitch);
}

CopyLayout read_layout(Reader& in) {
  CopyLayout layout;
  layout.offset = in.u64();
  layout.row_bytes = in.u64();
  layout.rows = in.u64();
  layout.slices = in.u64();
  layout.row_pitch = in.u64();
  layout.slice_pitch = in.u64();
  // Sizes whose product overflows are refused here; validate_copy checks the rest.
  const unsigned __int128 bytes = static_cast<unsigned __int128>(layout.row_bytes) * layout.rows *
                                  layout.slices;
  if (bytes > max_message_bytes * 64) in.fail("a copy of more than 128 GiB");
  return layout;
}

namespace {

// An NdRange's array as its leading entries up to the last that is not `fallback` (NdRange's
// default there): a count byte, then the entries. A 1-D launch's range takes 12 bytes, not
// 80: fewer cache lines for a launch's message to cross between cores.
void write_entries(Writer& out, const std::array<std::size_t, 3>& values, std::size_t fallback) {
  std::uint8_t count = 3;
  while (count > 0 && values[count - 1] == fallback) --count;
  out.u8(count);
  for (std::size_t i = 0; i < count; ++i) out.u64(values[i]);
}

void read_entries(Reader& in, std::array<std::size_t, 3>& values, const char* field) {
  const std::uint8_t count = in.u8();
  if (count > 3)
    in.fail(std::string(field) + " of " + std::to_string(count) + " entries, more than 3");
  for (std::size_t i = 0; i < count; ++i) values[i] = in.u64();
}

}  // namespace

void write(Writer& out, const NdRange& range) {
  out.u8(static_cast<std::uint8_t>(range.dimensions));
  const NdRange defaults;
  write_entries(out, range.global, defaults.global[2]);
  write_entries(out, range.local, defaults.local[2]);
  write_entries(out, range.offset, defaults.offset[2]);
}

NdRange read_range(Reader& in) {
  NdRange range;
  range.dimensions = in.u8();
  if (range.dimensions > 3)
    in.fail("the range's dimensions are " + std::to_string(range.dimensions) + ", more than 3");
  read_entries(in, range.global, "the range's global size");
  read_entries(in, range.local, "the range's local size");
  read_entries(in, range.offset, "the range's offset");
  return range;
}

void write_failure(Writer& out, std::exception_ptr failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const error& e) {
    out.u32(static_cast<std::uint32_t>(e.category()));
    out.text(e.what());
  } catch (const std::exception& e) {
    out.u32(static_cast<std::uint32_t>(error_category::internal));
    out.text(e.what());
  } catch (...) {
    out.u32(static_cast<std::uint32_t>(error_category::internal));
    out.text("an unknown exception");
  }
}

error read_failure(Reader& in) {
  const std::uint32_t category = in.u32();
  if (category > static_cast<std::uint32_t>(error_category::cancelled))
    in.fail("error category " + std::to_string(category) + " is unknown");
  return error(static_cast<error_category>(category), in.text());
}

}  // namespace plexus::mpi

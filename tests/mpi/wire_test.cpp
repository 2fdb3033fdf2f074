// The mpi backend's message checks, without MPI: every truncation and every damaged byte of
// a message is refused by read_header, and the payload decoders turn random bytes into
// plexus::error or a value, never a crash. And without mpirun the backend is unavailable,
// saying how to launch.
#include <catch2/catch.hpp>

#include <random>

#include "backend_loader.hpp"
#include "message_damage.hpp"
#include "messages.hpp"
#include "plexus/error.hpp"
#include "wire.hpp"

using namespace plexus;
using namespace plexus::mpi;

namespace {

std::vector<std::byte> sample_message() {
  Writer out(protocol_version, static_cast<std::uint32_t>(MessageType::welcome), 42);
  write(out, this_side_versions());
  out.text("node-a");
  out.u64(1);
  out.text("host");
  DeviceInfo info;
  info.name = "cpu";
  info.formats = {BinaryFormat::llvm_bitcode};
  write(out, info);
  return std::move(out).finish();
}

}  // namespace

TEST_CASE("a message decodes back to what was written", "[mpi][wire]") {
  const auto message = sample_message();
  const Header header = read_header(message, protocol_version, "rank 1");
  CHECK(header.id == 42);
  CHECK(header.type == static_cast<std::uint32_t>(MessageType::welcome));
  Reader in(std::span<const std::byte>(message).subspan(header_bytes), "welcome");
  CHECK(read_versions(in).plexus == this_side_versions().plexus);
  CHECK(in.text() == "node-a");
  CHECK(in.bounded(10, "devices") == 1);
  CHECK(in.text() == "host");
  const DeviceInfo info = read_device_info(in);
  CHECK(info.name == "cpu");
  REQUIRE(info.formats.size() == 1);
  CHECK_NOTHROW(in.end());
}

TEST_CASE("a kernel's info keeps its flags through a message", "[mpi][wire]") {
  KernelInfo kernel;
  kernel.name = "k";
  kernel.args = {{"x", KernelArgKind::global_pointer, 8}};
  kernel.uses_barriers = true;
  kernel.cancellable = true;  // its cancel cell is passed by the worker's backend
  Writer out(protocol_version, static_cast<std::uint32_t>(MessageType::welcome), 1);
  write(out, kernel);
  const auto message = std::move(out).finish();
  CHECK(read_header(message, protocol_version, "rank 1").id == 1);
  Reader in(std::span<const std::byte>(message).subspan(header_bytes), "kernel info");
  const KernelInfo back = read_kernel_info(in);
  CHECK_NOTHROW(in.end());
  CHECK(back.name == "k");
  REQUIRE(back.args.size() == 1);
  CHECK(back.uses_barriers);
  CHECK_FALSE(back.bounds_checked);
  CHECK(back.cancellable);
}

TEST_CASE("a launch's range travels compact and comes back exactly", "[mpi][wire]") {
  NdRange plain;
  plain.global = {1 << 20, 1, 1};
  NdRange every;  // every field off its default, beyond the dimensions too
  every.dimensions = 2;
  every.global = {64, 32, 3};
  every.local = {8, 4, 1};
  every.offset = {0, 7, 0};
  NdRange unset_middle;  // local's last entry default, offset's first
  unset_middle.dimensions = 3;
  unset_middle.global = {4, 1, 2};
  unset_middle.local = {2, 1, 0};
  for (const NdRange& range : {plain, every, unset_middle, NdRange{}}) {
    Writer out(protocol_version, static_cast<std::uint32_t>(MessageType::launch), 0);
    write(out, range);
    const auto message = std::move(out).finish();
    Reader in(std::span<const std::byte>(message).subspan(header_bytes), "range");
    const NdRange back = read_range(in);
    CHECK_NOTHROW(in.end());
    CHECK(back.dimensions == range.dimensions);
    CHECK(back.global == range.global);
    CHECK(back.local == range.local);
    CHECK(back.offset == range.offset);
  }
  // A 1-D range without a local size: 12 bytes (dimensions, three counts, one size).
  Writer out(protocol_version, static_cast<std::uint32_t>(MessageType::launch), 0);
  write(out, plain);
  CHECK(out.size() == header_bytes + 12);
  // More than 3 entries or dimensions: errors naming the field.
  for (const std::uint8_t bad : {std::uint8_t{0}, std::uint8_t{1}}) {
    Writer damaged(protocol_version, static_cast<std::uint32_t>(MessageType::launch), 0);
    damaged.u8(bad == 0 ? 4 : 1);
    damaged.u8(bad == 0 ? 0 : 9);
    const auto message = std::move(damaged).finish();
    Reader in(std::span<const std::byte>(message).subspan(header_bytes), "message 'launch'");
    CHECK_THROWS_WITH(read_range(in), Catch::Contains(bad == 0 ? "dimensions are 4"
                                                               : "global size of 9 entries"));
  }
}

TEST_CASE("every truncation and every damaged byte of a message is refused", "[mpi][wire]") {
  const auto message = sample_message();
  for (std::size_t size = 0; size < message.size(); ++size) {
    const std::vector<std::byte> cut(message.begin(), message.begin() + static_cast<long>(size));
    CHECK_THROWS_AS(read_header(cut, protocol_version, "rank 1"), error);
  }
  for (std::size_t at = 0; at < message.size(); ++at) {
    auto damaged = message;
    damaged[at] ^= std::byte{0x01};
    INFO("byte " << at);
    CHECK_THROWS_AS(read_header(damaged, protocol_version, "rank 1"), error);
  }
  // Another protocol: refused, naming both, except for the greeting's messages (their
  // layout never changes, so that a mismatch is refused with both versions named).
  CHECK_NOTHROW(read_header(message, protocol_version + 1, "rank 1"));
  Writer reply(protocol_version, static_cast<std::uint32_t>(MessageType::reply), 7);
  reply.boolean(true);
  const auto later = std::move(reply).finish();
  CHECK_THROWS_WITH(read_header(later, protocol_version + 1, "rank 1"),
                    Catch::Contains("protocol " + std::to_string(protocol_version)) &&
                        Catch::Contains("protocol " + std::to_string(protocol_version + 1)));
  // Nor a protocol error (a reason, in every protocol): so that rank 0 can name the
  // protocol of a worker that answers its greeting with one.
  Writer refused(protocol_version, static_cast<std::uint32_t>(MessageType::protocol_error), 0);
  refused.text("1 unexpected bytes after the end");
  const auto protocol_error = std::move(refused).finish();
  CHECK(read_header(protocol_error, protocol_version + 1, "rank 1").protocol == protocol_version);
}

// A worker of protocol 7 or earlier answers a greeting of protocol 8 with a protocol error
// (its greeting had no piece size: "1 unexpected bytes..."), not a refusal naming both
// versions: rank 0 names both protocols itself, from the answer's header.
TEST_CASE("an answer to the greeting that is not one names both protocols", "[mpi][wire]") {
  const auto type = static_cast<std::uint32_t>(MessageType::protocol_error);
  const std::string older =
      unexpected_greeting_answer(type, protocol_version - 1, "8 unexpected bytes after the end");
  CHECK_THAT(older, Catch::Contains("message 'protocol_error'") &&
                        Catch::Contains("8 unexpected bytes after the end") &&
                        Catch::Contains("mpi protocol versions differ: rank 0 has " +
                                        std::to_string(protocol_version) + " (Plexus " +
                                        this_side_versions().plexus + "), the worker has " +
                                        std::to_string(protocol_version - 1)));
  // Of the same protocol: no claim about versions.
  const std::string same = unexpected_greeting_answer(
      static_cast<std::uint32_t>(MessageType::done), protocol_version, "");
  CHECK_THAT(same, Catch::Contains("message 'done'") && !Catch::Contains("differ"));
}

TEST_CASE("random payloads are errors or values, never crashes", "[mpi][wire]") {
  std::mt19937_64 random(17);
  std::size_t errors = 0;
  for (int round = 0; round < 3000; ++round) {
    std::vector<std::byte> payload(random() % 300);
    for (auto& byte : payload) byte = static_cast<std::byte>(random() % 4 == 0 ? random() : random() % 3);
    for (int decoder = 0; decoder < 6; ++decoder) {
      Reader in(payload, "a random message");
      try {
        switch (decoder) {
          case 0: read_device_info(in); break;
          case 1: read_kernel_info(in); break;
          case 2: read_layout(in); break;
          case 3: read_range(in); break;
          case 4: read_versions(in); break;
          case 5: read_failure(in); break;
        }
        in.end();
      } catch (const error& e) {
        ++errors;
        CHECK_THAT(e.what(), Catch::Contains("a random message"));
      }
    }
  }
  CHECK(errors > 0);
}

TEST_CASE("the damage test hook keeps resealed messages readable up to the payload's checks",
          "[mpi][wire]") {
  const auto done = [](std::uint64_t finished) {
    Writer out(protocol_version, static_cast<std::uint32_t>(MessageType::done), 0);
    out.u64(7);
    out.u64(finished);
    out.boolean(false);
    return std::move(out).finish();
  };
  // The 2nd `done` to rank 0 is cut, the 3rd of any message padded; none for rank 1.
  MessageDamage damage("done.2>0:cut@1,3:pad@1,1:flip@2", 1);
  auto first = done(1), second = done(2), third = done(3);
  CHECK_FALSE(damage.apply(first, 0));
  CHECK(first == done(1));
  CHECK_FALSE(damage.apply(second, 0));
  const Header cut = read_header(second, protocol_version, "rank 1");  // header and checksum right
  Reader cut_payload(std::span<const std::byte>(second).subspan(header_bytes), "message 'done'");
  CHECK(cut_payload.u64() == 7);
  CHECK(cut_payload.u64() == 2);
  CHECK_THROWS_WITH(cut_payload.boolean(), Catch::Contains("truncated"));
  CHECK(cut.payload_bytes == 16);
  CHECK_FALSE(damage.apply(third, 0));
  Reader padded(std::span<const std::byte>(third).subspan(header_bytes), "message 'done'");
  CHECK_NOTHROW(read_header(third, protocol_version, "rank 1"));
  padded.u64(), padded.u64(), padded.boolean();
  CHECK_THROWS_WITH(padded.end(), Catch::Contains("1 unexpected bytes after the end"));
  // ahead: the operation number; dup: a second copy.
  MessageDamage more("done.1:ahead,done.2:dup", 4);
  auto ahead = done(5), twice = done(6);
  CHECK_FALSE(more.apply(ahead, 0));
  Reader moved(std::span<const std::byte>(ahead).subspan(header_bytes), "message 'done'");
  CHECK_NOTHROW(read_header(ahead, protocol_version, "rank 4"));
  moved.u64();
  CHECK(moved.u64() == 1005);
  const auto again = more.apply(twice, 0);
  REQUIRE(again);
  CHECK(*again == done(6));
  CHECK(twice == done(6));
  // older: the header claims the protocol before this one, the message still sealed.
  MessageDamage aged("done.1:older", 0);
  auto old = done(7);
  CHECK_FALSE(aged.apply(old, 0));
  CHECK(read_header(old, protocol_version - 1, "rank 1").protocol == protocol_version - 1);
  CHECK_THROWS_WITH(read_header(old, protocol_version, "rank 1"),
                    Catch::Contains("protocol " + std::to_string(protocol_version - 1)));
  // late: the message whole, sent late_by later (a lower bound: the hold).
  MessageDamage held("done.1:late", 0);
  auto late = done(8);
  const auto before = std::chrono::steady_clock::now();
  CHECK_FALSE(held.apply(late, 0));
  CHECK(std::chrono::steady_clock::now() - before >= late_by);
  CHECK(late == done(8));
  // A spec that cannot be read is an error naming the item.
  for (const char* bad : {"done.1:melt", "nothing.1:cut", "0:cut", "done.1:cut@x", "x:flip"})
    CHECK_THROWS_WITH(MessageDamage(bad, 0), Catch::Contains(bad));
}

TEST_CASE("the mpi backend is unavailable without mpirun, saying how to launch", "[mpi]") {
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    unsetenv(variable);
  const auto backend = test::load_backend("mpi");
  const BackendStatus status = backend->status();
  CHECK_FALSE(status.available);
  CHECK(backend->device_count() == 0);
  CHECK_THAT(status.reason, Catch::Contains("not started by mpirun") &&
                                Catch::Contains("mpirun -np 1 ./app : -np 2 plexus worker"));
}

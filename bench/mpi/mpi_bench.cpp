// plexus-bench-mpi: the mpi backend's copies and task round trip against raw MPI, in the same
// MPI job shape (bench/mpi/run.sh starts both jobs and sets the ratios side by side).
//
//   --mode raw    (every rank runs it; 3 ranks): MPI ping-pong between ranks 0 and 1 and
//                 between ranks 1 and 2 at each size (bandwidth = size / half a round trip),
//                 the same size answered by 8 bytes (size / the round trip: what a copy +
//                 wait does), the ping-pong 0-1 of sizes up to 16 KiB in the pieces the mpi
//                 backend cuts them into (chunks.hpp: each under the eager limit), and the round trip of an 8-byte message between ranks 0 and 1. A rank
//                 with nothing to do waits without spinning (the machine may have fewer
//                 cores than ranks). --max-kib K: ping-pongs up to K KiB only (sizes
//                 start at 4 KiB: --max-kib 1 measures the round trip alone).
//                 --serialized 1: MPI initialized at MPI_THREAD_SERIALIZED, the level the
//                 mpi backend asks for (its threads take turns in MPI), not
//                 MPI_THREAD_SINGLE: the same figures, named with "_serialized" (Open MPI
//                 4.1 turns its internal locking on at any level above SINGLE).
//                 --floor 1: the round trip also at 32, 64, 128 and 256 bytes, and each
//                 size moved as the backend's engine moves a control message
//                 ("raw_engine_round_trip": MPI_Isend, a receive of any source posted in
//                 advance, MPI_Test): the MPI part of a remote operation's round trip.
//   --mode plexus (rank 0 of `mpirun -np 1 plexus-bench-mpi : -np 2 plexus worker`): the
//                 mpi backend alone (no runtime), two remote devices on ranks 1 and 2:
//                 host->remote (copy_to_device + wait), remote->host (copy_to_host + wait)
//                 and remote->remote (copy_from_device rank 1 -> rank 2 + wait) at each size,
//                 8 copies in a row and one wait in each of these directions (to 16 MiB),
//                 a strided 8 MiB tile (1024 rows of 8 KiB, 32 KiB apart) to and from rank
//                 1's device when --max-kib allows 8 MiB ("tile_host_to_remote",
//                 "tile_remote_to_host": the path a tiled algorithm's copies take),
//                 and an empty kernel's launch + wait on rank 1's device (alone with
//                 --task-only 1, or copies up to --max-kib only, for profiling; with
//                 --streams-only MASK only the streams of 8 copies, each the median of
//                 --reps waits, in the directions of MASK: 1 host->remote, 2 remote->host,
//                 4 remote->remote, 7 all: a direction's own cost under perf). --native 1
//                 (the workers loading libplexus_bench_native.so, --native-library): then
//                 an empty native function's call + wait on the same queue and accessor
//                 (DeviceQueue::enqueue_native_call), in blocks alternating with the empty
//                 kernel's, each figure the median of its blocks.
//
// Each figure is the median over repetitions (at least --reps, more for small sizes) of
// one synchronous operation. Lines are "name size value" for the script to read.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "bench_support.hpp"
#include "chunks.hpp"
#include "mpi/empty_native.hpp"
#include "mpi_environment.hpp"
#include "plexus/backend.hpp"
#include "plexus/compiler.hpp"
#include "plexus/device.hpp"
#include "plexus/error.hpp"
#include "standalone_plugin.hpp"

namespace {

const std::vector<std::size_t> sizes = {std::size_t{4} << 10, std::size_t{64} << 10,
                                        std::size_t{1} << 20, std::size_t{16} << 20,
                                        std::size_t{64} << 20};

// Repetitions for one size: about 256 MiB moved, between `reps` and 2000.
long repetitions(std::size_t bytes, long reps) {
  return std::clamp<long>(static_cast<long>((std::size_t{256} << 20) / bytes), reps, 2000);
}

// Waits for every rank without spinning (Open MPI's blocking calls poll a core).
void quiet_barrier() {
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  for (int done = 0; !done;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (!done) std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

// `bytes` of `buffer` between this rank and `peer` on `tag` (sent when `send`, else
// received): one message, or messages of `piece` bytes when `piece` is set (the mpi
// backend's cut of a small transfer, chunks.hpp).
void move(std::vector<char>& buffer, bool send, int peer, int tag, std::size_t piece) {
  if (piece == 0) {
    const int count = static_cast<int>(buffer.size());
    if (send)
      MPI_Send(buffer.data(), count, MPI_BYTE, peer, tag, MPI_COMM_WORLD);
    else
      MPI_Recv(buffer.data(), count, MPI_BYTE, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return;
  }
  std::vector<MPI_Request> requests;
  plexus::mpi::for_each_chunk(buffer.size(), piece, [&](std::size_t at, std::size_t chunk) {
    MPI_Request request;
    if (send)
      MPI_Isend(buffer.data() + at, static_cast<int>(chunk), MPI_BYTE, peer, tag, MPI_COMM_WORLD, &request);
    else
      MPI_Irecv(buffer.data() + at, static_cast<int>(chunk), MPI_BYTE, peer, tag, MPI_COMM_WORLD, &request);
    requests.push_back(request);
    return true;
  });
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
}

// Ping-pong of `bytes` between ranks a and b (each way one message, or pieces of `piece`
// bytes); a returns size / half the median round trip.
double ping_pong(int rank, int a, int b, std::size_t bytes, long reps, std::size_t piece = 0) {
  std::vector<char> buffer(bytes, 1);
  std::vector<double> trips;
  const int peer = rank == a ? b : a;
  for (long i = -2; i < reps; ++i) {  // two warm-up trips
    const auto start = bench::clock::now();
    move(buffer, rank == a, peer, 7, piece);
    move(buffer, rank != a, peer, 7, piece);
    if (i >= 0) trips.push_back(bench::seconds_since(start));
  }
  return static_cast<double>(bytes) / (bench::median(trips) / 2);
}

// `bytes` from a to b, answered by 8 bytes: what a copy + wait is (the data one way, its
// completion back). a returns size / the median round trip.
double send_and_answer(int rank, int a, int b, std::size_t bytes, long reps) {
  std::vector<char> buffer(bytes, 1);
  char answer[8] = {};
  std::vector<double> trips;
  const int count = static_cast<int>(bytes);
  for (long i = -2; i < reps; ++i) {
    const auto start = bench::clock::now();
    if (rank == a) {
      MPI_Send(buffer.data(), count, MPI_BYTE, b, 9, MPI_COMM_WORLD);
      MPI_Recv(answer, 8, MPI_BYTE, b, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buffer.data(), count, MPI_BYTE, a, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(answer, 8, MPI_BYTE, a, 9, MPI_COMM_WORLD);
    }
    if (i >= 0) trips.push_back(bench::seconds_since(start));
  }
  return static_cast<double>(bytes) / bench::median(trips);
}

// The median round trip (us) of `bytes` between ranks 0 and 1: MPI_Send and MPI_Recv, or
// (`engine_like`) as the mpi backend's engine moves a control message: MPI_Isend tested to
// its end, into a receive of any source posted in advance (32 KiB) and tested until it
// completes, then posted again.
double round_trip(int rank, int bytes, bool engine_like) {
  std::vector<char> out(static_cast<std::size_t>(bytes), 1), in(32 << 10);
  std::vector<double> trips;
  MPI_Request posted = MPI_REQUEST_NULL;
  const auto post = [&] {
    MPI_Irecv(in.data(), static_cast<int>(in.size()), MPI_BYTE, MPI_ANY_SOURCE, 8, MPI_COMM_WORLD,
              &posted);
  };
  if (engine_like) post();
  for (long i = -100; i < 20000; ++i) {
    const auto start = bench::clock::now();
    for (int leg = 0; leg < 2; ++leg) {
      const bool sending = (leg == 0) == (rank == 0);
      if (!engine_like) {
        if (sending)
          MPI_Send(out.data(), bytes, MPI_BYTE, 1 - rank, 8, MPI_COMM_WORLD);
        else
          MPI_Recv(in.data(), bytes, MPI_BYTE, 1 - rank, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        continue;
      }
      int done = 0;
      if (sending) {
        MPI_Request request;
        MPI_Isend(out.data(), bytes, MPI_BYTE, 1 - rank, 8, MPI_COMM_WORLD, &request);
        while (!done) MPI_Test(&request, &done, MPI_STATUS_IGNORE);
      } else {
        while (!done) MPI_Test(&posted, &done, MPI_STATUS_IGNORE);
        post();
      }
    }
    if (i >= 0) trips.push_back(bench::seconds_since(start));
  }
  if (engine_like) {
    MPI_Cancel(&posted);
    MPI_Wait(&posted, MPI_STATUS_IGNORE);
  }
  return bench::median(trips) * 1e6;
}

int raw(long reps, long max_kib, bool serialized, bool floor) {
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, serialized ? MPI_THREAD_SERIALIZED : MPI_THREAD_SINGLE,
                  &provided);
  // One line "name[_serialized] size value" for the scripts.
  const auto report = [serialized](const char* name, auto size, double value) {
    std::cout << name << (serialized ? "_serialized" : "") << ' ' << size << ' ' << value
              << std::endl;
  };
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 3) {
    if (rank == 0) std::cerr << "plexus-bench-mpi --mode raw: run it on 3 ranks (mpirun -np 3)\n";
    MPI_Finalize();
    return 2;
  }
  for (const auto& [a, b, name] : {std::tuple{0, 1, "raw_0_1"}, std::tuple{1, 2, "raw_1_2"}}) {
    for (std::size_t bytes : sizes) {
      if (bytes > (static_cast<std::size_t>(max_kib) << 10)) break;
      quiet_barrier();
      if (rank != a && rank != b) continue;
      const double bandwidth = ping_pong(rank, a, b, bytes, repetitions(bytes, reps));
      if (rank == a) report(name, bytes, bandwidth / 1e9);
    }
  }
  for (std::size_t bytes : sizes) {
    if (bytes > (static_cast<std::size_t>(max_kib) << 10)) break;
    quiet_barrier();
    if (rank > 1) continue;
    const double bandwidth = send_and_answer(rank, 0, 1, bytes, repetitions(bytes, reps));
    if (rank == 0) report("raw_answered_0_1", bytes, bandwidth / 1e9);
  }
  // The same ping-pong cut as the mpi backend cuts a small transfer: pieces under the
  // transport's eager limit (what raw MPI gains from the backend's own protocol).
  const std::size_t piece = plexus::mpi::shared_memory_eager_bytes();
  for (std::size_t bytes : sizes) {
    if (piece == 0 || bytes > plexus::mpi::piecewise_transfer_bytes ||
        bytes > (static_cast<std::size_t>(max_kib) << 10))
      break;
    quiet_barrier();
    if (rank > 1) continue;
    const double bandwidth = ping_pong(rank, 0, 1, bytes, repetitions(bytes, reps), piece);
    if (rank == 0) report("raw_pieces_0_1", bytes, bandwidth / 1e9);
  }
  quiet_barrier();
  if (rank < 2)
    for (const int bytes : floor ? std::vector<int>{8, 32, 64, 128, 256} : std::vector<int>{8}) {
      const double blocking = round_trip(rank, bytes, false);
      if (rank == 0) report("raw_round_trip", bytes, blocking);
      if (!floor) continue;
      const double engine_like = round_trip(rank, bytes, true);
      if (rank == 0) report("raw_engine_round_trip", bytes, engine_like);
    }
  quiet_barrier();
  MPI_Finalize();
  return 0;
}

// The median time of `reps` runs of `operation` (after two warm-up runs).
template <class F>
double median_time(long reps, F&& operation) {
  std::vector<double> times;
  for (long i = -2; i < reps; ++i) {
    const auto start = bench::clock::now();
    operation();
    if (i >= 0) times.push_back(bench::seconds_since(start));
  }
  return bench::median(times);
}

// Streams up to this size (8 host buffers each for remote->host); larger copies are
// pipelined in chunks on their own.
constexpr std::size_t max_stream_bytes = std::size_t{16} << 20;
constexpr int stream_length = 8;

// Copies in a row sharing one wait, as a runtime's copies before a kernel share their
// completion: host->remote (q1, into on_first), remote->host (q2, from on_second, into
// distinct host buffers: receives in flight together never share memory) and
// remote->remote (first -> second); `directions` a mask of these (1, 2, 4: host->remote,
// remote->host, remote->remote). Prints "<direction>_8 size GB/s"; false when the data that
// came back is wrong.
bool streams(plexus::DeviceQueue& q1, plexus::DeviceQueue& q2, plexus::Device& first, void* on_first,
             void* on_second, const std::vector<std::byte>& host, long reps, long directions = 7) {
  const std::size_t bytes = host.size();
  const auto layout = plexus::CopyLayout::contiguous(0, bytes);
  const double moved = static_cast<double>(stream_length * bytes) / 1e9;
  std::vector<std::vector<std::byte>> backs(stream_length, std::vector<std::byte>(bytes));
  if (directions & 1)
    std::cout << "host_to_remote_8 " << bytes << ' ' << moved / median_time(reps, [&] {
      for (int i = 0; i < stream_length; ++i) q1.copy_to_device(on_first, host.data(), layout);
      q1.wait();
    }) << std::endl;
  if (directions & 4)
    std::cout << "remote_to_remote_8 " << bytes << ' ' << moved / median_time(reps, [&] {
      for (int i = 0; i < stream_length; ++i) q2.copy_from_device(on_second, first, on_first, layout);
      q2.wait();
    }) << std::endl;
  if (!(directions & 2)) return true;
  std::cout << "remote_to_host_8 " << bytes << ' ' << moved / median_time(reps, [&] {
    for (auto& back : backs) q2.copy_to_host(back.data(), on_second, layout);
    q2.wait();
  }) << std::endl;
  // What came back went host -> first -> second -> host (when all three ran).
  return (directions & 5) != 5 ||
         std::all_of(backs.begin(), backs.end(), [&](const auto& back) { return back == host; });
}

// A tile of a matrix as a tiled algorithm copies it: 1024 rows of 8 KiB, 32 KiB apart (an
// 8 MiB tile of a 4096-wide double matrix), host->remote and remote->host (copy + wait),
// strided on both sides. Prints "tile_<direction> 8388608 GB/s"; false when the data that
// came back differs.
constexpr std::size_t tile_rows = 1024, tile_row_bytes = 8 << 10, tile_pitch = 32 << 10;

bool tile_copies(plexus::DeviceQueue& queue, plexus::Device& device, long reps) {
  const plexus::CopyLayout layout{0,          tile_row_bytes, tile_rows, 1,
                                  tile_pitch, tile_rows * tile_pitch};
  const std::size_t span = tile_rows * tile_pitch, bytes = tile_rows * tile_row_bytes;
  std::vector<std::byte> host(span), back(span, std::byte{0});
  for (std::size_t i = 0; i < span; ++i) host[i] = static_cast<std::byte>(i * 13 + i / 4096);
  void* on_device = device.allocate(span);
  const long n = std::max(reps / 4, 5L);
  const double to = median_time(n, [&] {
    queue.copy_to_device(on_device, host.data(), layout);
    queue.wait();
  });
  const double from = median_time(n, [&] {
    queue.copy_to_host(back.data(), on_device, layout);
    queue.wait();
  });
  device.deallocate(on_device);
  bool same = true;
  for (std::size_t row = 0; row < tile_rows && same; ++row)
    same = std::memcmp(back.data() + row * tile_pitch, host.data() + row * tile_pitch,
                       tile_row_bytes) == 0;
  std::cout << "tile_host_to_remote " << bytes << ' ' << bytes / to / 1e9 << '\n'
            << "tile_remote_to_host " << bytes << ' ' << bytes / from / 1e9 << std::endl;
  return same;
}

int plexus_side(long reps, long chunk_kib, bool task_only, long max_kib, bool native,
                long streams_only) {
  const bench::CompilerOnlyLookup none;
  const auto backend = bench::load_plugin<plexus::Backend>(
      "backend", "mpi", none, chunk_kib > 0 ? "chunk_bytes = " + std::to_string(chunk_kib << 10) : "");
  if (!backend->status().available || backend->device_count() < 2) {
    std::cerr << "plexus-bench-mpi: the mpi backend needs two remote devices ("
              << backend->status().reason << "): mpirun -np 1 plexus-bench-mpi --mode plexus : "
                 "-np 2 plexus worker --backends host\n";
    return 2;
  }
  plexus::Device& first = backend->device(0);
  plexus::Device* second = nullptr;
  for (std::size_t i = 1; i < backend->device_count() && !second; ++i)
    if (backend->device(i).info().name.substr(0, backend->device(i).info().name.find(':')) !=
        first.info().name.substr(0, first.info().name.find(':')))
      second = &backend->device(i);
  if (!second) {
    std::cerr << "plexus-bench-mpi: both remote devices are on one rank\n";
    return 2;
  }
  std::cout << "# devices: " << first.info().name << " | " << second->info().name << std::endl;
  const auto q1 = first.create_queue(), q2 = second->create_queue();
  bool correct = true;
  for (std::size_t bytes : sizes) {
    if (task_only || bytes > (static_cast<std::size_t>(max_kib) << 10)) break;
    const long n = repetitions(bytes, reps);
    std::vector<std::byte> host(bytes), back(bytes);
    for (std::size_t i = 0; i < bytes; ++i) host[i] = static_cast<std::byte>(i * 7 + bytes);
    void* on_first = first.allocate(bytes);
    void* on_second = second->allocate(bytes);
    const auto layout = plexus::CopyLayout::contiguous(0, bytes);
    if (streams_only) {
      correct &= streams(*q1, *q2, first, on_first, on_second, host, reps, streams_only);
      first.deallocate(on_first);
      second->deallocate(on_second);
      continue;
    }
    const double to = median_time(n, [&] {
      q1->copy_to_device(on_first, host.data(), layout);
      q1->wait();
    });
    const double across = median_time(n, [&] {
      if (!q2->copy_from_device(on_second, first, on_first, layout))
        throw plexus::error(plexus::error_category::internal, "no direct remote->remote copy");
      q2->wait();
    });
    const double from = median_time(n, [&] {
      q2->copy_to_host(back.data(), on_second, layout);
      q2->wait();
    });
    correct &= back == host;
    std::cout << "host_to_remote " << bytes << ' ' << bytes / to / 1e9 << '\n'
              << "remote_to_host " << bytes << ' ' << bytes / from / 1e9 << '\n'
              << "remote_to_remote " << bytes << ' ' << bytes / across / 1e9 << std::endl;
    if (bytes <= max_stream_bytes)
      correct &= streams(*q1, *q2, first, on_first, on_second, host, std::max(n / stream_length, 5L));
    first.deallocate(on_first);
    second->deallocate(on_second);
  }

  if (streams_only) {
    if (!correct) std::cerr << "plexus-bench-mpi: WRONG DATA after the copies\n";
    return correct ? 0 : 1;
  }
  if (!task_only && static_cast<std::size_t>(max_kib) >= (tile_rows * tile_row_bytes >> 10))
    correct &= tile_copies(*q1, first, reps);
  // The empty task: one launch of an empty kernel and the wait for its completion.
  bench::CompilerOnlyLookup lookup;
  const auto compiler = bench::load_plugin<plexus::Compiler>("compiler", "clang", lookup);
  plexus::CompileRequest request;
  request.source = "__kernel void empty(__global int* unused) {}";
  request.target = first.info().formats.at(0);
  const plexus::CompileResult compiled = compiler->compile(request);
  if (!compiled.succeeded) {
    std::cerr << compiled.log;
    return 1;
  }
  const auto module = first.load_module(request.target, compiled.binary, compiled.kernels);
  void* unused = first.allocate(64);
  plexus::NdRange range;
  range.global = {1, 1, 1};
  const plexus::KernelArgument arguments[] = {plexus::KernelArgument::of_allocation(unused)};
  const double task = median_time(std::max(reps, 5000L), [&] {
    q1->launch(module->kernel("empty"), range, arguments);
    q1->wait();
  });
  std::cout << "empty_task 0 " << task * 1e6 << std::endl;
  if (native) {
    const auto call = bench::empty_native({}).call;
    void* const allocations[] = {unused};
    const auto kernel_task = [&] {
      q1->launch(module->kernel("empty"), range, arguments);
      q1->wait();
    };
    const auto native_task = [&] {
      q1->enqueue_native_call("empty", *call, allocations);
      q1->wait();
    };
    std::vector<double> kernel_blocks, native_blocks;
    for (int block = 0; block < 6; ++block) {
      kernel_blocks.push_back(median_time(std::max(reps, 1000L), kernel_task));
      native_blocks.push_back(median_time(std::max(reps, 1000L), native_task));
    }
    std::cout << "empty_kernel_alternating 0 " << bench::median(kernel_blocks) * 1e6 << '\n'
              << "empty_native_task 0 " << bench::median(native_blocks) * 1e6 << std::endl;
  }
  first.deallocate(unused);
  if (!correct) std::cerr << "plexus-bench-mpi: WRONG DATA after the copies\n";
  return correct ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) try {
  std::string mode = "plexus";
  std::vector<char*> rest = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--mode") == 0 && i + 1 < argc)
      mode = argv[++i];
    else
      rest.push_back(argv[i]);
  }
  const auto options = bench::parse_options(static_cast<int>(rest.size()), rest.data(),
                                            {{"reps", 20}, {"chunk-kib", 0}, {"task-only", 0}, {"max-kib", 1 << 20},
                                             {"native", 0}, {"streams-only", 0},
                                             {"serialized", 0}, {"floor", 0}});
  if (mode == "raw")
    return raw(options.at("reps"), options.at("max-kib"), options.at("serialized") != 0,
               options.at("floor") != 0);
  if (mode == "plexus") return plexus_side(options.at("reps"), options.at("chunk-kib"), options.at("task-only") != 0,
                                           options.at("max-kib"), options.at("native") != 0,
                                           options.at("streams-only"));
  std::cerr << "plexus-bench-mpi: --mode raw or plexus\n";
  return 2;
} catch (const std::exception& e) {
  std::cerr << "plexus-bench-mpi: " << e.what() << "\n";
  return 1;
}

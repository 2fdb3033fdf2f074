// The GPU benchmarks of the devices issue, through Plexus's cuda backend and, in the same
// process and run, through the CUDA driver directly with the same PTX (the compiler
// component's output for the same source):
//   1. launch overhead: a chain of tiny kernels (64 work-items, read-modify-write of one
//      buffer) on an in-order queue, submit -> all done, per kernel; raw: cuLaunchKernel
//      N times on a stream, then cuStreamSynchronize.
//   2. vector add c = a + b and a copy kernel b = a over n floats (data resident on the GPU
//      after a warm-up): Plexus (submit -> event done) vs raw (launch + synchronize), GB/s,
//      against cuMemcpyDtoD of the same bytes (the copy ceiling).
//   3. command graphs (issue 16), the same chain: an explicit graph of --per-graph kernels
//      replayed, the plain chain with automatic replay on ([graphs] auto), and raw: a CUDA
//      graph of --per-graph kernel nodes (cuGraphAddKernelNode chain) instantiated once and
//      launched kernels / per-graph times.
// Exits 0 with a note when there is no CUDA device. PLEXUS_BENCH_BREAKDOWN=1 also prints
// the host time per submission, and the cuda queue its stage times (CudaQueueStats).
//   4. the Jacobi example's sweep at --jacobi n (0: skipped), --kernels sweeps: Plexus with
//      automatic replay off and on, raw stream launches and a raw CUDA graph (the floor).
//   5. the latency of one small operation and its wait, what a remote GPU's copy and empty task
//      cost on their worker (issue 17): copy_to_device / copy_to_host of --copy-kib sizes
//      from the device's page-locked host memory (Device::allocate_host) on a DeviceQueue +
//      wait(), as `plexus worker` does, against cuMemcpyHtoDAsync / cuMemcpyDtoHAsync from
//      cuMemHostAlloc memory + cuStreamSynchronize; one empty kernel's submit + wait against
//      cuLaunchKernel + cuStreamSynchronize. Medians of --latency-reps operations.
//   plexus-bench-cuda [--kernels 10000] [--mi 256] [--reps 5] [--per-graph 100] [--jacobi 256]
//                     [--latency-reps 2000]
#include <cuda.h>
#include <dlfcn.h>

#include <array>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <plexus/compiler.hpp>
#include <plexus/device.hpp>
#include <plexus/device_queue.hpp>
#include <plexus/launch_validation.hpp>
#include <plexus/plexus.hpp>

#include "../examples/jacobi/jacobi_kernel.hpp"
#include "bench_support.hpp"

namespace {

const char* const source = R"(
__kernel void bump(__global int* x) { x[get_global_id(0)] += 1; }
__kernel void vector_add(__global const float* a, __global const float* b, __global float* c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
__kernel void copy(__global const float* a, __global float* b) {
  size_t i = get_global_id(0);
  b[i] = a[i];
}
)";

// The few driver entry points the raw side needs, from libcuda.so.1 (versioned names).
struct RawDriver {
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  template <class F>
  F get(const char* name) {
    void* symbol = library ? dlsym(library, name) : nullptr;
    if (!symbol) throw std::runtime_error(std::string("libcuda.so.1 has no ") + name);
    return reinterpret_cast<F>(symbol);
  }
  decltype(&cuInit) init = get<decltype(&cuInit)>("cuInit");
  decltype(&cuDeviceGet) device_get = get<decltype(&cuDeviceGet)>("cuDeviceGet");
  decltype(&cuDevicePrimaryCtxRetain) retain =
      get<decltype(&cuDevicePrimaryCtxRetain)>("cuDevicePrimaryCtxRetain");
  decltype(&cuCtxSetCurrent) set_current = get<decltype(&cuCtxSetCurrent)>("cuCtxSetCurrent");
  decltype(&cuModuleLoadData) load = get<decltype(&cuModuleLoadData)>("cuModuleLoadData");
  decltype(&cuModuleGetFunction) function =
      get<decltype(&cuModuleGetFunction)>("cuModuleGetFunction");
  decltype(&cuMemAlloc) alloc = get<decltype(&cuMemAlloc)>("cuMemAlloc_v2");
  decltype(&cuMemFree) free = get<decltype(&cuMemFree)>("cuMemFree_v2");
  decltype(&cuMemsetD32Async) memset = get<decltype(&cuMemsetD32Async)>("cuMemsetD32Async");
  decltype(&cuMemcpyDtoDAsync) copy = get<decltype(&cuMemcpyDtoDAsync)>("cuMemcpyDtoDAsync_v2");
  decltype(&cuMemAllocHost) alloc_host = get<decltype(&cuMemAllocHost)>("cuMemAllocHost_v2");
  decltype(&cuMemFreeHost) free_host = get<decltype(&cuMemFreeHost)>("cuMemFreeHost");
  decltype(&cuMemcpyHtoDAsync) htod = get<decltype(&cuMemcpyHtoDAsync)>("cuMemcpyHtoDAsync_v2");
  decltype(&cuMemcpyDtoHAsync) dtoh = get<decltype(&cuMemcpyDtoHAsync)>("cuMemcpyDtoHAsync_v2");
  decltype(&cuStreamCreate) stream_create = get<decltype(&cuStreamCreate)>("cuStreamCreate");
  decltype(&cuStreamSynchronize) sync = get<decltype(&cuStreamSynchronize)>("cuStreamSynchronize");
  decltype(&cuLaunchKernel) launch = get<decltype(&cuLaunchKernel)>("cuLaunchKernel");
  decltype(&cuGraphCreate) graph_create = get<decltype(&cuGraphCreate)>("cuGraphCreate");
  decltype(&cuGraphAddKernelNode) graph_add_kernel =
      get<decltype(&cuGraphAddKernelNode)>("cuGraphAddKernelNode_v2");
  decltype(&cuGraphInstantiate) graph_instantiate =
      get<decltype(&cuGraphInstantiate)>("cuGraphInstantiateWithFlags");
  decltype(&cuGraphLaunch) graph_launch = get<decltype(&cuGraphLaunch)>("cuGraphLaunch");
  decltype(&cuGraphExecDestroy) graph_exec_destroy =
      get<decltype(&cuGraphExecDestroy)>("cuGraphExecDestroy");
  decltype(&cuGraphDestroy) graph_destroy = get<decltype(&cuGraphDestroy)>("cuGraphDestroy");
};

void check(CUresult result, const char* what) {
  if (result != CUDA_SUCCESS)
    throw std::runtime_error(std::string(what) + " failed: CUresult " + std::to_string(result));
}

struct Raw {
  RawDriver driver;
  CUcontext context = nullptr;
  CUmodule module = nullptr;
  CUstream stream = nullptr;

  explicit Raw(const std::vector<std::byte>& ptx) {
    CUdevice device = 0;
    check(driver.init(0), "cuInit");
    check(driver.device_get(&device, 0), "cuDeviceGet");
    check(driver.retain(&context, device), "cuDevicePrimaryCtxRetain");
    check(driver.set_current(context), "cuCtxSetCurrent");
    module = load(ptx);
    check(driver.stream_create(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  }
  CUfunction kernel(const char* name, CUmodule from = nullptr) {
    CUfunction f = nullptr;
    check(driver.function(&f, from ? from : module, name), "cuModuleGetFunction");
    return f;
  }
  CUmodule load(const std::vector<std::byte>& ptx) {
    CUmodule loaded = nullptr;
    const std::string text(reinterpret_cast<const char*>(ptx.data()), ptx.size());
    check(driver.load(&loaded, text.c_str()), "cuModuleLoadData");
    return loaded;
  }
  void launch(CUfunction f, std::size_t global, void** args) {
    const unsigned block = 256 < global ? 256 : static_cast<unsigned>(global);
    check(driver.launch(f, static_cast<unsigned>((global + block - 1) / block), 1, 1, block, 1, 1,
                        0, stream, args, nullptr),
          "cuLaunchKernel");
  }
  void sync() { check(driver.sync(stream), "cuStreamSynchronize"); }
  // One kernel node: the function, its grid and block, its arguments.
  struct Node {
    CUfunction f;
    std::array<unsigned, 3> grid, block;
    void** args;
  };
  // A CUDA graph of `nodes`, each after the one before, instantiated.
  CUgraphExec graph_of(const std::vector<Node>& nodes) {
    CUgraph graph = nullptr;
    check(driver.graph_create(&graph, 0), "cuGraphCreate");
    CUgraphNode previous = nullptr;
    for (const Node& node : nodes) {
      CUDA_KERNEL_NODE_PARAMS parameters{};
      parameters.func = node.f;
      parameters.gridDimX = node.grid[0], parameters.gridDimY = node.grid[1];
      parameters.gridDimZ = node.grid[2];
      parameters.blockDimX = node.block[0], parameters.blockDimY = node.block[1];
      parameters.blockDimZ = node.block[2];
      parameters.kernelParams = node.args;
      CUgraphNode added = nullptr;
      check(driver.graph_add_kernel(&added, graph, previous ? &previous : nullptr,
                                    previous ? 1 : 0, &parameters),
            "cuGraphAddKernelNode");
      previous = added;
    }
    CUgraphExec exec = nullptr;
    check(driver.graph_instantiate(&exec, graph, 0), "cuGraphInstantiate");
    driver.graph_destroy(graph);
    return exec;
  }
  // A CUDA graph of `count` launches of `f` over `global` work-items, each after the one
  // before, instantiated.
  CUgraphExec chain_graph(CUfunction f, std::size_t global, void** args, std::size_t count) {
    const unsigned block = 256 < global ? 256 : static_cast<unsigned>(global);
    const unsigned grid = static_cast<unsigned>((global + block - 1) / block);
    return graph_of(std::vector<Node>(count, Node{f, {grid, 1, 1}, {block, 1, 1}, args}));
  }
};

template <class Body>
double timed(Body&& body) {
  const auto start = bench::clock::now();
  body();
  return bench::seconds_since(start);
}


// Median seconds of `reps` calls of `operation` (each timed alone), after 10 untimed.
template <class Operation>
double latency(long reps, Operation&& operation) {
  for (int i = 0; i < 10; ++i) operation();
  std::vector<double> each;
  each.reserve(static_cast<std::size_t>(reps));
  for (long i = 0; i < reps; ++i) each.push_back(timed(operation));
  return bench::median(std::move(each));
}

// 5. One small operation + its wait, Plexus's device queue (the worker's calls) against the
// driver's. Prints us per operation and the ratio.
void operation_latency(Raw& raw, plexus::Device& gpu, plexus::Queue& queue,
                       const plexus::Kernel& bump, plexus::Buffer<int>& counter,
                       CUfunction raw_bump, CUdeviceptr raw_counter, long reps) {
  const auto print = [](const std::string& what, double plexus_s, double raw_s) {
    std::cout << "  " << what << ": plexus " << plexus_s * 1e6 << " us, raw " << raw_s * 1e6
              << " us, ratio " << plexus_s / raw_s << "\n";
  };
  std::cout << "one operation + wait, median of " << reps << " (us):\n";
  const double launch_p = latency(reps, [&] {
    queue
        .submit([&](plexus::Handler& h) {
          h.parallel_for(bump, plexus::Range{std::size_t{64}}, counter.access(h, plexus::read_write));
        })
        .wait();
  });
  const double launch_r = latency(reps, [&] {
    void* args[] = {&raw_counter};
    raw.launch(raw_bump, 64, args);
    raw.sync();
  });
  print("empty kernel (submit + wait / cuLaunchKernel + cuStreamSynchronize)", launch_p, launch_r);
  const std::unique_ptr<plexus::DeviceQueue> local = gpu.create_queue();
  for (const std::size_t kib : {std::size_t{4}, std::size_t{64}, std::size_t{1024}}) {
    const std::size_t bytes = kib << 10;
    void* memory = gpu.allocate(bytes);
    void* pinned = gpu.allocate_host(bytes);
    void* raw_pinned = nullptr;
    CUdeviceptr raw_memory = 0;
    check(raw.driver.alloc_host(&raw_pinned, bytes), "cuMemAllocHost");
    check(raw.driver.alloc(&raw_memory, bytes), "cuMemAlloc");
    const plexus::CopyLayout whole = plexus::CopyLayout::contiguous(0, bytes);
    const double in_p = latency(reps, [&] {
      local->copy_to_device(memory, pinned, whole);
      local->wait();
    });
    const double in_r = latency(reps, [&] {
      check(raw.driver.htod(raw_memory, raw_pinned, bytes, raw.stream), "cuMemcpyHtoDAsync");
      raw.sync();
    });
    const double out_p = latency(reps, [&] {
      local->copy_to_host(pinned, memory, whole);
      local->wait();
    });
    const double out_r = latency(reps, [&] {
      check(raw.driver.dtoh(raw_pinned, raw_memory, bytes, raw.stream), "cuMemcpyDtoHAsync");
      raw.sync();
    });
    print(std::to_string(kib) + " KiB to the device (page-locked)", in_p, in_r);
    print(std::to_string(kib) + " KiB to the host (page-locked)", out_p, out_r);
    raw.driver.free(raw_memory);
    raw.driver.free_host(raw_pinned);
    gpu.deallocate_host(pinned);
    gpu.deallocate(memory);
  }
}

// 4. The Jacobi example's sweep on an n x n grid, `sweeps` sweeps ping-ponging two buffers,
// us per sweep: Plexus with automatic replay off and on (the example's loop, without its
// host copies), and raw: cuLaunchKernel per sweep, and a CUDA graph of `per_graph` sweeps
// replayed; the raw graph is the floor automatic replay can reach. Same work-group shape as
// the cuda backend chooses (work_group_for).
void jacobi_sweeps(Raw& raw, plexus::Runtime& compiler_runtime, std::size_t n, std::size_t sweeps,
                   std::size_t per_graph, long reps) {
  plexus::CompileRequest request;
  request.source = examples::jacobi_source;
  request.target = plexus::BinaryFormat::ptx;
  const plexus::CompileResult ptx = compiler_runtime.components().compiler()->compile(request);
  if (!ptx.succeeded) throw std::runtime_error(ptx.log);
  const CUfunction sweep = raw.kernel("jacobi", raw.load(ptx.binary));
  plexus::NdRange interior;
  interior.dimensions = 2;
  interior.global = {n - 2, n - 2, 1};
  const std::array<std::size_t, 3> block = plexus::work_group_for(interior, 256, 1024, [] { return std::string("jacobi"); });
  const std::array<unsigned, 3> grid_dims{unsigned(interior.global[0] / block[0]),
                                          unsigned(interior.global[1] / block[1]), 1};
  const std::array<unsigned, 3> block_dims{unsigned(block[0]), unsigned(block[1]), unsigned(block[2])};
  CUdeviceptr grids[2] = {0, 0};
  for (CUdeviceptr& g : grids) {
    check(raw.driver.alloc(&g, n * n * sizeof(float)), "cuMemAlloc");
    check(raw.driver.memset(g, 0, n * n, raw.stream), "cuMemsetD32Async");
  }
  int width = static_cast<int>(n);
  void* forward[] = {&grids[0], &grids[1], &width};
  void* backward[] = {&grids[1], &grids[0], &width};
  std::vector<Raw::Node> nodes;
  for (std::size_t k = 0; k < per_graph; ++k)
    nodes.push_back({sweep, grid_dims, block_dims, k % 2 == 0 ? forward : backward});
  const CUgraphExec raw_graph = raw.graph_of(nodes);
  const std::size_t replays = std::max<std::size_t>(sweeps / per_graph, 1);

  const std::vector<float> initial(n * n, 0.5f);
  struct Variant {
    std::unique_ptr<plexus::Runtime> runtime;
    std::optional<plexus::Kernel> kernel;
    std::unique_ptr<plexus::Buffer<float, 2>> a, b;
  };
  std::vector<Variant> variants;
  for (const char* automatic : {"false", "true"}) {
    Variant v;
    v.runtime = std::make_unique<plexus::Runtime>(
        bench::config_with({{"backends", "cuda"}, {"graphs.auto", automatic}}));
    v.kernel = v.runtime->build(examples::jacobi_source).kernel("jacobi");
    v.a = std::make_unique<plexus::Buffer<float, 2>>(initial.data(), plexus::Range{n, n});
    v.b = std::make_unique<plexus::Buffer<float, 2>>(initial.data(), plexus::Range{n, n});
    variants.push_back(std::move(v));
  }
  const plexus::Range<2> inner{n - 2, n - 2}, one{1, 1};
  const auto plexus_sweeps = [&](Variant& v) {
    plexus::Queue queue = v.runtime->queue(*v.runtime->devices().front());
    for (std::size_t k = 0; k < replays * per_graph; ++k) {
      plexus::Buffer<float, 2>& in = k % 2 == 0 ? *v.a : *v.b;
      plexus::Buffer<float, 2>& out = k % 2 == 0 ? *v.b : *v.a;
      queue.submit([&](plexus::Handler& h) {
        h.parallel_for(*v.kernel, interior, in.access(h, plexus::read),
                       out.access(h, plexus::discard_write, inner, one), width);
      });
    }
    queue.wait();
  };
  std::vector<double> plain, automatic, raw_launches, raw_graphs;
  for (long rep = 0; rep <= reps; ++rep) {
    const double p = timed([&] { plexus_sweeps(variants[0]); });
    const double a = timed([&] { plexus_sweeps(variants[1]); });
    const double l = timed([&] {
      for (std::size_t k = 0; k < replays * per_graph; ++k)
        check(raw.driver.launch(sweep, grid_dims[0], grid_dims[1], 1, block_dims[0], block_dims[1],
                                1, 0, raw.stream, k % 2 == 0 ? forward : backward, nullptr),
              "cuLaunchKernel");
      raw.sync();
    });
    const double g = timed([&] {
      for (std::size_t r = 0; r < replays; ++r)
        check(raw.driver.graph_launch(raw_graph, raw.stream), "cuGraphLaunch");
      raw.sync();
    });
    if (rep == 0) continue;
    const double count = double(replays * per_graph);
    plain.push_back(p / count), automatic.push_back(a / count);
    raw_launches.push_back(l / count), raw_graphs.push_back(g / count);
  }
  raw.driver.graph_exec_destroy(raw_graph);
  for (CUdeviceptr g : grids) raw.driver.free(g);
  const double floor = bench::median(raw_graphs);
  std::cout << "jacobi " << n << "x" << n << ", " << replays * per_graph << " sweeps, block "
            << block[0] << "x" << block[1] << ", us/sweep: raw CUDA graph of " << per_graph
            << " sweeps " << floor * 1e6 << "; raw stream launches " << bench::median(raw_launches) * 1e6
            << "; plexus automatic replay off " << bench::median(plain) * 1e6 << ", on "
            << bench::median(automatic) * 1e6 << " (speed-up "
            << bench::median(plain) / bench::median(automatic) << "x; the raw graph's "
            << bench::median(plain) / floor << "x is the most any replay can give)\n";
}

}  // namespace

int main(int argc, char** argv) try {
  const auto options =
      bench::parse_options(argc, argv, {{"kernels", 10000}, {"mi", 256}, {"reps", 5}, {"per-graph", 100}, {"jacobi", 256},
                                      {"latency-reps", 2000}});
  const auto per_graph = static_cast<std::size_t>(options.at("per-graph"));
  const auto kernels = static_cast<std::size_t>(options.at("kernels"));
  const std::size_t n = static_cast<std::size_t>(options.at("mi")) << 20;
  const char* breakdown_env = std::getenv("PLEXUS_BENCH_BREAKDOWN");
  const bool breakdown = breakdown_env && std::string(breakdown_env) == "1";
  // Plain launches: automatic replay (on by default) off here; section 3 measures it.
  plexus::Runtime runtime(bench::config_with({{"backends", "cuda"}, {"graphs.auto", "false"}}));
  if (runtime.devices().empty()) {
    std::cout << "plexus-bench-cuda: no CUDA device (see `plexus info`): nothing measured\n";
    return 0;
  }
  plexus::Device& gpu = *runtime.devices().front();
  plexus::Queue queue = runtime.queue(gpu);
  const plexus::KernelBundle bundle = runtime.build(source);
  plexus::CompileRequest request;
  request.source = source;
  request.target = plexus::BinaryFormat::ptx;
  const plexus::CompileResult ptx = runtime.components().compiler()->compile(request);
  if (!ptx.succeeded) throw std::runtime_error(ptx.log);
  Raw raw(ptx.binary);

  // 1. Launch overhead.
  plexus::Buffer<int> counter(std::vector<int>(64, 0).data(), 64);
  const plexus::Kernel bump = bundle.kernel("bump");
  CUdeviceptr raw_counter = 0;
  check(raw.driver.alloc(&raw_counter, 64 * sizeof(int)), "cuMemAlloc");
  check(raw.driver.memset(raw_counter, 0, 64, raw.stream), "cuMemsetD32Async");
  CUfunction raw_bump = raw.kernel("bump");
  std::vector<double> plexus_launch, raw_launch, plexus_submit;
  for (long rep = 0; rep <= options.at("reps"); ++rep) {
    double submitted = 0;  // seconds until the last submit() returned
    const double p = timed([&] {
      const auto start = bench::clock::now();
      for (std::size_t k = 0; k < kernels; ++k)
        queue.submit([&](plexus::Handler& h) {
          h.parallel_for(bump, plexus::Range{std::size_t{64}},
                         counter.access(h, plexus::read_write));
        });
      submitted = bench::seconds_since(start);
      queue.wait();
    });
    const double r = timed([&] {
      void* args[] = {&raw_counter};
      for (std::size_t k = 0; k < kernels; ++k) raw.launch(raw_bump, 64, args);
      raw.sync();
    });
    if (rep == 0) continue;
    plexus_launch.push_back(p / kernels);
    plexus_submit.push_back(submitted / kernels);
    raw_launch.push_back(r / kernels);
  }
  if (counter.host_access(plexus::read)[63] != static_cast<int>(kernels * (options.at("reps") + 1)))
    throw std::runtime_error("the Plexus chain counted wrong");
  std::cout << std::fixed << std::setprecision(2);

  // 3. Command graphs: explicit replay, automatic replay, a raw CUDA graph; the same chain.
  const std::size_t replays = std::max<std::size_t>(kernels / per_graph, 1);
  plexus::CommandGraph recorded;
  recorded.begin_recording(queue);
  for (std::size_t k = 0; k < per_graph; ++k)
    queue.submit([&](plexus::Handler& h) {
      h.parallel_for(bump, plexus::Range{std::size_t{64}}, counter.access(h, plexus::read_write));
    });
  recorded.end_recording();
  const plexus::ExecutableGraph replay = recorded.finalize();
  plexus::Runtime automatic(
      bench::config_with({{"backends", "cuda"}, {"graphs.auto", "true"}}));
  plexus::Queue auto_queue = automatic.queue(*automatic.devices().front());
  const plexus::Kernel auto_bump = automatic.build(source).kernel("bump");
  plexus::Buffer<int> auto_counter(std::vector<int>(64, 0).data(), 64);
  void* raw_args[] = {&raw_counter};
  const CUgraphExec raw_chain = raw.chain_graph(raw_bump, 64, raw_args, per_graph);
  std::vector<double> graph_launch, auto_launch, raw_graph_launch;
  for (long rep = 0; rep <= options.at("reps"); ++rep) {
    const double g = timed([&] {
      for (std::size_t r = 0; r < replays; ++r) queue.submit(replay);
      queue.wait();
    });
    const double a = timed([&] {
      for (std::size_t k = 0; k < replays * per_graph; ++k)
        auto_queue.submit([&](plexus::Handler& h) {
          h.parallel_for(auto_bump, plexus::Range{std::size_t{64}},
                         auto_counter.access(h, plexus::read_write));
        });
      auto_queue.wait();
    });
    const double r = timed([&] {
      for (std::size_t k = 0; k < replays; ++k)
        check(raw.driver.graph_launch(raw_chain, raw.stream), "cuGraphLaunch");
      raw.sync();
    });
    if (rep == 0) continue;
    graph_launch.push_back(g / double(replays * per_graph));
    auto_launch.push_back(a / double(replays * per_graph));
    raw_graph_launch.push_back(r / double(replays * per_graph));
  }
  raw.driver.graph_exec_destroy(raw_chain);
  const int counted = static_cast<int>((kernels + replays * per_graph) * (options.at("reps") + 1));
  if (counter.host_access(plexus::read)[63] != counted)
    throw std::runtime_error("the Plexus graph replays counted wrong");
  if (auto_counter.host_access(plexus::read)[63] !=
      static_cast<int>(replays * per_graph * (options.at("reps") + 1)))
    throw std::runtime_error("the automatic replay counted wrong");

  // 2. Vector add and copy at n floats.
  plexus::Buffer<float> a(std::vector<float>(n, 1.0f).data(), n),
      b(std::vector<float>(n, 2.0f).data(), n), c(n);
  const plexus::Kernel add = bundle.kernel("vector_add"), copy = bundle.kernel("copy");
  CUdeviceptr ra = 0, rb = 0, rc = 0;
  for (CUdeviceptr* p : {&ra, &rb, &rc})
    check(raw.driver.alloc(p, n * sizeof(float)), "cuMemAlloc");
  CUfunction raw_add = raw.kernel("vector_add"), raw_copy = raw.kernel("copy");
  std::vector<double> p_add, r_add, p_copy, r_copy, dtod;
  for (long rep = 0; rep <= options.at("reps"); ++rep) {
    const double pa = timed([&] {
      queue
          .submit([&](plexus::Handler& h) {
            h.parallel_for(add, plexus::Range{n}, a.access(h, plexus::read),
                           b.access(h, plexus::read), c.access(h, plexus::discard_write));
          })
          .wait();
    });
    const double pc = timed([&] {
      queue
          .submit([&](plexus::Handler& h) {
            h.parallel_for(copy, plexus::Range{n}, a.access(h, plexus::read),
                           c.access(h, plexus::discard_write));
          })
          .wait();
    });
    const double ra_t = timed([&] {
      void* args[] = {&ra, &rb, &rc};
      raw.launch(raw_add, n, args);
      raw.sync();
    });
    const double rc_t = timed([&] {
      void* args[] = {&ra, &rc};
      raw.launch(raw_copy, n, args);
      raw.sync();
    });
    const double d = timed([&] {
      check(raw.driver.copy(rc, ra, n * sizeof(float), raw.stream), "cuMemcpyDtoDAsync");
      raw.sync();
    });
    if (rep == 0) continue;
    p_add.push_back(pa), r_add.push_back(ra_t), p_copy.push_back(pc), r_copy.push_back(rc_t),
        dtod.push_back(d);
  }
  if (c.host_access(plexus::read)[n - 1] != 1.0f)
    throw std::runtime_error("the Plexus copy kernel is wrong");
  for (CUdeviceptr p : {ra, rb, rc}) raw.driver.free(p);

  const double bytes_add = 3.0 * n * sizeof(float), bytes_copy = 2.0 * n * sizeof(float);
  const auto gbs = [](double bytes, double seconds) { return bytes / seconds / 1e9; };
  std::cout << std::fixed << std::setprecision(2) << "device: " << gpu.info().name << " ("
            << gpu.info().architecture << "), medians of " << options.at("reps") << " repetitions\n"
            << "launch overhead, chain of " << kernels << " tiny kernels: plexus (automatic replay off) "
            << bench::median(plexus_launch) * 1e6 << " us/kernel, raw cuLaunchKernel "
            << bench::median(raw_launch) * 1e6 << " us/kernel, ratio "
            << bench::median(plexus_launch) / bench::median(raw_launch) << "\n";
  const double raw_graph_median = bench::median(raw_graph_launch);
  std::cout << "command graphs, the same chain as " << replays << " replays of " << per_graph
            << " kernels, us/kernel: raw CUDA graph " << raw_graph_median * 1e6
            << "; plexus explicit graph " << bench::median(graph_launch) * 1e6 << " ("
            << bench::median(graph_launch) / raw_graph_median << "x raw graph); plexus automatic replay "
            << bench::median(auto_launch) * 1e6 << " ("
            << bench::median(auto_launch) / raw_graph_median << "x raw graph); raw stream launches "
            << bench::median(raw_launch) * 1e6 << "; plexus in-order, automatic replay off "
            << bench::median(plexus_launch) * 1e6 << "\n";
  if (breakdown)  // the queue's own stage times follow on stderr when it goes
    std::cout << "  breakdown: plexus submit() returns after " << bench::median(plexus_submit) * 1e6
              << " us/kernel (host time per submission; the rest is waiting for the device)\n";
  std::cout << "vector add, " << options.at("mi") << " Mi floats: plexus "
            << gbs(bytes_add, bench::median(p_add)) << " GB/s, raw "
            << gbs(bytes_add, bench::median(r_add)) << " GB/s, plexus/raw "
            << bench::median(r_add) / bench::median(p_add) << "\n"
            << "copy kernel, " << options.at("mi") << " Mi floats: plexus "
            << gbs(bytes_copy, bench::median(p_copy)) << " GB/s, raw "
            << gbs(bytes_copy, bench::median(r_copy)) << " GB/s, plexus/raw "
            << bench::median(r_copy) / bench::median(p_copy) << "\n"
            << "copy ceiling, cuMemcpyDtoD: " << gbs(bytes_copy, bench::median(dtod)) << " GB/s\n";
  operation_latency(raw, gpu, queue, bump, counter, raw_bump, raw_counter,
                    options.at("latency-reps"));
  raw.driver.free(raw_counter);
  if (options.at("jacobi") >= 3)
    jacobi_sweeps(raw, runtime, static_cast<std::size_t>(options.at("jacobi")), kernels, per_graph,
                  options.at("reps"));
  return 0;
} catch (const std::exception& e) {
  std::cerr << "plexus-bench-cuda: " << e.what() << "\n";
  return 1;
}

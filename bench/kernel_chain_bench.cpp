// Per-kernel runtime overhead: a chain of tiny kernels (each one read-modify-writes the same
// 64-element buffer, so each depends on the one before), submit -> complete, through
// Plexus with the inorder and dag schedulers on the host device and on PoCL, and the same
// kernel chained directly through OpenCL on PoCL (clEnqueueNDRangeKernel N times, then
// clFinish) in the same process and run. Rounds interleave the variants.
// The plain chain runs under the config in force: automatic replay (issue 16) is on by
// default, so it is replayed as graphs unless PLEXUS_AUTO_GRAPH=0 or [graphs] auto = false.
// Command graphs, on every Plexus device: the same chain recorded once as a graph of
// --per-graph kernels and replayed kernels / per-graph times (an explicit graph), and the
// plain chain again with automatic replay off ([graphs] auto = false).
// Cancellable kernels (issue 22): the chain on PoCL with automatic replay off again with the
// kernel built cancellable ([compiler.clang] cancel = "work_group"), against it.
// Each timed chain starts after a 2 ms sleep, and the order of the variants rotates from
// round to round (see main: a fixed order made the variant after the longest ones slower).
//   plexus-bench-chain [--kernels 2000] [--rounds 5] [--per-graph 100] [--host-only 1]
//                      [--raw-gap-us N]
// (--host-only 1: the host device's variants alone, for profiling them. --raw-gap-us N: the
// raw OpenCL chain again with N microseconds of host work, a busy wait, before each
// clEnqueueNDRangeKernel, as a runtime's per-kernel bookkeeping puts between its enqueues:
// what PoCL's launch costs when its workers run out of work between kernels.)
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <algorithm>
#include <iomanip>
#include <optional>
#include <thread>

#include <plexus/plexus.hpp>

#include "bench_support.hpp"

namespace {

const char* const source = "__kernel void bump(__global int* x) { x[get_global_id(0)] += 1; }";
constexpr std::size_t elements = 64;

void check(cl_int status, const char* what) {
  if (status != CL_SUCCESS) throw std::runtime_error(std::string(what) + " failed: " + std::to_string(status));
}

// The raw OpenCL chain on the first PoCL device; nullopt when there is none.
class RawOpenclChain {
 public:
  static std::optional<RawOpenclChain> on_pocl() {
    cl_uint count = 0;
    if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0) return std::nullopt;
    std::vector<cl_platform_id> platforms(count);
    clGetPlatformIDs(count, platforms.data(), nullptr);
    for (cl_platform_id platform : platforms) {
      char name[256] = {};
      clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, nullptr);
      if (std::string(name).find("Portable Computing Language") == std::string::npos) continue;
      cl_device_id device = nullptr;
      if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) != CL_SUCCESS) continue;
      return RawOpenclChain(device);
    }
    return std::nullopt;
  }
  RawOpenclChain(RawOpenclChain&& other) noexcept { *this = std::move(other); }
  RawOpenclChain& operator=(RawOpenclChain&& other) noexcept {
    std::swap(context_, other.context_);
    std::swap(queue_, other.queue_);
    std::swap(program_, other.program_);
    std::swap(kernel_, other.kernel_);
    std::swap(buffer_, other.buffer_);
    return *this;
  }
  ~RawOpenclChain() {
    if (buffer_) clReleaseMemObject(buffer_);
    if (kernel_) clReleaseKernel(kernel_);
    if (program_) clReleaseProgram(program_);
    if (queue_) clReleaseCommandQueue(queue_);
    if (context_) clReleaseContext(context_);
  }
  // Seconds per kernel of a chain of `kernels`, with `gap` of host work before each enqueue.
  double run(std::size_t kernels, std::chrono::nanoseconds gap = {}) {
    std::vector<int> zeros(elements, 0);
    check(clEnqueueWriteBuffer(queue_, buffer_, CL_TRUE, 0, sizeof(int) * elements, zeros.data(), 0,
                               nullptr, nullptr),
          "clEnqueueWriteBuffer");
    const std::size_t global = elements;
    const auto start = bench::clock::now();
    for (std::size_t k = 0; k < kernels; ++k) {
      if (gap.count() > 0) {
        const auto until = bench::clock::now() + gap;
        while (bench::clock::now() < until) {
        }
      }
      check(clEnqueueNDRangeKernel(queue_, kernel_, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
            "clEnqueueNDRangeKernel");
    }
    check(clFinish(queue_), "clFinish");
    const double seconds = bench::seconds_since(start);
    std::vector<int> out(elements);
    check(clEnqueueReadBuffer(queue_, buffer_, CL_TRUE, 0, sizeof(int) * elements, out.data(), 0,
                              nullptr, nullptr),
          "clEnqueueReadBuffer");
    if (out[elements - 1] != static_cast<int>(kernels)) throw std::runtime_error("raw OpenCL chain: wrong result");
    return seconds / static_cast<double>(kernels);
  }

 private:
  explicit RawOpenclChain(cl_device_id device) {
    cl_int status = CL_SUCCESS;
    context_ = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
    check(status, "clCreateContext");
    queue_ = clCreateCommandQueueWithProperties(context_, device, nullptr, &status);
    check(status, "clCreateCommandQueueWithProperties");
    const char* text = source;
    program_ = clCreateProgramWithSource(context_, 1, &text, nullptr, &status);
    check(status, "clCreateProgramWithSource");
    check(clBuildProgram(program_, 1, &device, "", nullptr, nullptr), "clBuildProgram");
    kernel_ = clCreateKernel(program_, "bump", &status);
    check(status, "clCreateKernel");
    buffer_ = clCreateBuffer(context_, CL_MEM_READ_WRITE, sizeof(int) * elements, nullptr, &status);
    check(status, "clCreateBuffer");
    check(clSetKernelArg(kernel_, 0, sizeof(cl_mem), &buffer_), "clSetKernelArg");
  }
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  cl_program program_ = nullptr;
  cl_kernel kernel_ = nullptr;
  cl_mem buffer_ = nullptr;
};

// The same chain through Plexus on `device` of `runtime`: seconds per kernel.
double plexus_chain(plexus::Runtime& runtime, plexus::Device& device, std::size_t kernels) {
  plexus::Queue queue = runtime.queue(device);
  const plexus::Kernel kernel = runtime.build(source).kernel("bump");
  plexus::Buffer<int> buffer(std::vector<int>(elements, 0).data(), elements);
  const auto start = bench::clock::now();
  for (std::size_t k = 0; k < kernels; ++k)
    queue.submit([&](plexus::Handler& h) {
      h.parallel_for(kernel, plexus::Range{elements}, buffer.access(h, plexus::read_write));
    });
  queue.wait();
  const double seconds = bench::seconds_since(start);
  if (buffer.host_access(plexus::read)[elements - 1] != static_cast<int>(kernels))
    throw std::runtime_error("plexus chain: wrong result");
  return seconds / static_cast<double>(kernels);
}

// The same chain as replays of one recorded graph of `per_graph` kernels (explicit graph).
double graph_chain(plexus::Runtime& runtime, plexus::Device& device, std::size_t kernels,
                   std::size_t per_graph) {
  plexus::Queue queue = runtime.queue(device);
  const plexus::Kernel kernel = runtime.build(source).kernel("bump");
  plexus::Buffer<int> buffer(std::vector<int>(elements, 0).data(), elements);
  plexus::CommandGraph graph;
  graph.begin_recording(queue);
  for (std::size_t k = 0; k < per_graph; ++k)
    queue.submit([&](plexus::Handler& h) {
      h.parallel_for(kernel, plexus::Range{elements}, buffer.access(h, plexus::read_write));
    });
  graph.end_recording();
  const plexus::ExecutableGraph replay = graph.finalize();
  const std::size_t replays = kernels / per_graph;
  const auto start = bench::clock::now();
  for (std::size_t r = 0; r < replays; ++r) queue.submit(replay);
  queue.wait();
  const double seconds = bench::seconds_since(start);
  if (buffer.host_access(plexus::read)[elements - 1] != static_cast<int>(replays * per_graph))
    throw std::runtime_error("plexus graph chain: wrong result");
  return seconds / static_cast<double>(replays * per_graph);
}

}  // namespace

int main(int argc, char** argv) try {
  const auto options = bench::parse_options(argc, argv, {{"kernels", 2000}, {"rounds", 5}, {"per-graph", 100}, {"host-only", 0}, {"raw-gap-us", 0}});
  const std::chrono::microseconds raw_gap(options.at("raw-gap-us"));
  const bool host_only = options.at("host-only") != 0;
  const auto kernels = static_cast<std::size_t>(options.at("kernels"));
  const auto per_graph = std::min(kernels, static_cast<std::size_t>(options.at("per-graph")));
  std::optional<RawOpenclChain> raw;
  if (!host_only) raw = RawOpenclChain::on_pocl();

  struct Variant {
    std::string name;
    plexus::Runtime* runtime = nullptr;
    plexus::Device* device = nullptr;
    std::vector<double> samples;
    bool graph = false;      // replays of a recorded graph
    bool replay_off = false;  // the plain chain with automatic replay off
  };
  std::vector<std::unique_ptr<plexus::Runtime>> runtimes;
  std::vector<Variant> variants;
  const char* const backends = host_only ? "host" : "host,opencl";
  for (const char* scheduler : {"inorder", "dag"}) {
    plexus::Runtime* runtime = runtimes.emplace_back(std::make_unique<plexus::Runtime>(
        bench::config_with({{"scheduler", scheduler}, {"backends", backends}}))).get();
    plexus::Runtime* replay_off = runtimes.emplace_back(std::make_unique<plexus::Runtime>(bench::config_with(
        {{"scheduler", scheduler}, {"backends", backends}, {"graphs.auto", "false"}}))).get();
    plexus::Runtime* cancellable = host_only ? nullptr : runtimes.emplace_back(
        std::make_unique<plexus::Runtime>(bench::config_with(
            {{"scheduler", scheduler}, {"backends", "opencl"}, {"graphs.auto", "false"},
             {"compiler.clang.cancel", "work_group"}}))).get();
    for (plexus::Device* device : runtime->devices()) {
      // Here: the host device, and PoCL (an OpenCL CPU device with its own memory).
      const bool opencl_cpu = !device->shares_host_memory() && device->info().type == plexus::DeviceType::cpu;
      const std::string where = device->shares_host_memory() ? "host" : (opencl_cpu ? "PoCL" : "");
      if (where.empty()) continue;
      variants.push_back({std::string("plexus ") + scheduler + " on " + where, runtime,
                          device, {}});
      variants.push_back({std::string("plexus ") + scheduler + " on " + where +
                              ", graph of " + std::to_string(per_graph) + " replayed",
                          runtime, device, {}, true});
      // The same device of the runtime without automatic replay (devices in the same order).
      const auto& same = runtime->devices();
      const auto index = std::find(same.begin(), same.end(), device) - same.begin();
      variants.push_back({std::string("plexus ") + scheduler + " on " + where +
                              ", automatic replay off",
                          replay_off, replay_off->devices()[index], {}, false, true});
      if (opencl_cpu && cancellable && !cancellable->devices().empty())
        variants.push_back({std::string("plexus ") + scheduler +
                                " on PoCL, automatic replay off, cancellable",
                            cancellable, cancellable->devices().front(), {}});
    }
  }
  std::vector<double> raw_samples, raw_gap_samples;
  // Each timed chain starts after a short sleep, and the variants' order rotates from round
  // to round: on a loaded machine, a thread that has run for a while without sleeping is
  // the one the kernel preempts (milliseconds), so a variant that always followed the long
  // ones (the chains with automatic replay off) paid for their time (inorder's replayed chain
  // took 2x its time when it came right after them: docs/benchmarks.md).
  const auto settle = [] { std::this_thread::sleep_for(std::chrono::milliseconds(2)); };
  for (long round = 0; round <= options.at("rounds"); ++round) {  // round 0 warms up
    for (std::size_t i = 0; i < variants.size(); ++i) {
      Variant& variant = variants[(i + static_cast<std::size_t>(round)) % variants.size()];
      settle();
      const double per_kernel =
          variant.graph ? graph_chain(*variant.runtime, *variant.device, kernels, per_graph)
                        : plexus_chain(*variant.runtime, *variant.device, kernels);
      if (round > 0) variant.samples.push_back(per_kernel);
    }
    if (raw) {
      settle();
      const double per_kernel = raw->run(kernels);
      if (round > 0) raw_samples.push_back(per_kernel);
      if (raw_gap.count() > 0) {
        settle();
        const double with_gap = raw->run(kernels, raw_gap);
        if (round > 0) raw_gap_samples.push_back(with_gap);
      }
    }
  }
  const double raw_median = bench::median(raw_samples);
  std::cout << "chain of " << kernels << " tiny kernels (" << elements << " work-items), "
            << options.at("rounds") << " rounds, median microseconds per kernel (automatic "
            << "replay " << (runtimes.front()->config().auto_graph().enabled ? "on" : "off")
            << " in the config in force):\n";
  std::cout << std::fixed << std::setprecision(2);
  if (raw) std::cout << "  raw OpenCL on PoCL: " << raw_median * 1e6 << "\n";
  if (raw && raw_gap.count() > 0)
    std::cout << "  raw OpenCL on PoCL, " << raw_gap.count() << " us of host work before each "
              << "enqueue: " << bench::median(raw_gap_samples) * 1e6 << " ("
              << bench::median(raw_gap_samples) / raw_median << "x raw PoCL)\n";
  for (const Variant& variant : variants) {
    const double value = bench::median(variant.samples);
    std::cout << "  " << variant.name << ": " << value * 1e6;
    if (raw) std::cout << " (" << value / raw_median << "x raw PoCL)";
    if (variant.graph || variant.replay_off) {
      const Variant& plain = *(&variant - (variant.graph ? 1 : 2));
      std::cout << " (" << value / bench::median(plain.samples)
                << (variant.graph ? "x the plain chain)" : "x the plain chain under the config in force)");
    }
    std::cout << "\n";
  }
  // Issue 21's goals: dag within 1.2x of inorder on the dependent chain, per device, and
  // Plexus on PoCL within 1.5x of raw PoCL. Besides the ratio of the medians: the median of
  // the ratios within each round (the two ran seconds apart: a loaded machine's drift hits
  // both) and the ratio of the fastest rounds (the least disturbed).
  const auto ratios = [](const std::vector<double>& a, const std::vector<double>& b) {
    std::vector<double> per_round;
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) per_round.push_back(a[i] / b[i]);
    return " (per round: median " + std::to_string(bench::median(per_round)).substr(0, 4) +
           "x; fastest rounds: " +
           std::to_string(*std::min_element(a.begin(), a.end()) /
                          *std::min_element(b.begin(), b.end()))
               .substr(0, 4) +
           "x)";
  };
  for (const Variant& dag : variants) {
    if (dag.name.rfind("plexus dag on ", 0) != 0) continue;
    const std::string where = dag.name.substr(std::string("plexus dag on ").size());
    for (const Variant& inorder : variants) {
      if (inorder.name == "plexus inorder on " + where)
        std::cout << "  dag / inorder on " << where << ": "
                  << bench::median(dag.samples) / bench::median(inorder.samples) << "x"
                  << ratios(dag.samples, inorder.samples) << "\n";
    }
  }
  for (const Variant& cancel : variants) {  // cancellable against plain, per scheduler
    const std::string suffix = ", cancellable";
    if (cancel.name.size() < suffix.size() || !cancel.name.ends_with(suffix)) continue;
    const std::string plain_name = cancel.name.substr(0, cancel.name.size() - suffix.size());
    for (const Variant& plain : variants) {
      if (plain.name == plain_name)
        std::cout << "  " << cancel.name << " / plain: "
                  << bench::median(cancel.samples) / bench::median(plain.samples) << "x"
                  << ratios(cancel.samples, plain.samples) << "; fastest rounds "
                  << *std::min_element(plain.samples.begin(), plain.samples.end()) * 1e6
                  << " -> "
                  << *std::min_element(cancel.samples.begin(), cancel.samples.end()) * 1e6
                  << " us\n";
    }
  }
  if (raw) {
    for (const Variant& variant : variants) {
      if (variant.name == "plexus dag on PoCL" || variant.name == "plexus inorder on PoCL")
        std::cout << "  " << variant.name << " / raw PoCL: "
                  << bench::median(variant.samples) / raw_median << "x"
                  << ratios(variant.samples, raw_samples) << "\n";
    }
  }
  return 0;
} catch (const std::exception& e) {
  std::cerr << "plexus-bench-chain: " << e.what() << "\n";
  return 1;
}

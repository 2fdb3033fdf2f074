// Helpers for the fusion engine's tests: fusion/llvm loaded through the core's plugin loader
// next to compiler/clang; programs of float buffers and scalars run kernel by kernel
// (unfused) or as the fused kernel on a device (host, PoCL, CUDA: first_device_of), so that
// results can be compared; a program of kernels over different ranges. Not thread-safe
// (test set-up).
#pragma once

#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../backend_host/host_test_support.hpp"
#include "fusion_test_kernels.hpp"
#include "plexus/fusion_engine.hpp"

namespace plexus::test {

// The compiler is the one of compiler_test_support; the rest is not used by fusion.
class CompilerLookup final : public ComponentLookup {
 public:
  std::size_t backend_count() const override { return 0; }
  Backend& backend(std::size_t) const override {
    throw error(error_category::internal, "no backends in this test");
  }
  CacheStore* cache() const override { return nullptr; }
  Compiler* compiler() const override { return &clang_compiler(); }
  FusionEngine* fusion() const override { return nullptr; }
  MemoryModel* memory() const override { return nullptr; }
  Scheduler* scheduler() const override { return nullptr; }
};

inline FusionEngine& fusion_engine() {
  static const std::shared_ptr<FusionEngine> engine = [] {
    const PluginListing listing = PluginRegistry::inspect(plugin_file("fusion", "llvm"));
    REQUIRE(listing.kind == ComponentKind::fusion);
    const auto library = PluginLibrary::load(listing);
    const Config config = Config::from_string("[fusion]\nuse = \"llvm\"\n", "fusion_test.toml");
    static CompilerLookup lookup;
    PluginContext context{config.options_for(ComponentKind::fusion, "llvm"), lookup};
    const std::shared_ptr<Component> component = library->create(context);
    auto* typed = dynamic_cast<FusionEngine*>(component.get());
    REQUIRE(typed != nullptr);
    return std::shared_ptr<FusionEngine>(component, typed);
  }();
  return *engine;
}

template <class T>
std::vector<std::byte> bytes_of(const T& value) {
  std::vector<std::byte> bytes(sizeof value);
  std::memcpy(bytes.data(), &value, sizeof value);
  return bytes;
}

struct TestArg {
  std::uint32_t identity = 0;
  Promotion promotion = Promotion::none;
  bool constant = false;  // declare the scalar's value constant
};

struct TestKernel {
  std::string name;
  NdRange range;
  std::vector<TestArg> args;
};

// Buffers (float) and scalars, by identity; the kernels of one OpenCL C source.
struct TestProgram {
  std::string source;
  std::vector<TestKernel> kernels;
  std::map<std::uint32_t, std::vector<float>> buffers;
  std::map<std::uint32_t, std::vector<std::byte>> scalars;
};

// Kernels of different ranges: x -> scale (by 2.5, the first `items` of 512) -> t ->
// add_one (the same items) -> y, then fill2d over all of y as 16 x 32; t promoted as asked.
inline TestProgram scale_add_one_fill2d(std::size_t items, Promotion t = Promotion::none) {
  TestProgram program;
  program.source = std::string(scale_add_one_kernels) + fill2d_kernel;
  std::vector<float> x(512);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  program.buffers = {{1, x}, {2, std::vector<float>(512, 9.0f)}, {3, std::vector<float>(512)}};
  program.scalars = {{4, bytes_of(2.5f)}};
  program.kernels = {{"scale", range1(items), {{1}, {2, t}, {4}}},
                     {"add_one", range1(items), {{2, t}, {3}}},
                     {"fill2d", range3({16, 32, 1}, {0, 0, 0}, {0, 0, 0}, 2), {{3}}}};
  return program;
}

// The first device of backend `name` ("opencl", "cuda"), loaded once; nullptr, with a WARN
// that says why, where the backend was not built or has no device here.
inline Device* first_device_of(const std::string& name) {
  static std::map<std::string, std::shared_ptr<Backend>> backends;
  std::shared_ptr<Backend>& backend = backends[name];
  if (!backend) {
    if (!std::filesystem::exists(plugin_file("backend", name))) {
      WARN("skipped: the " << name << " backend was not built");
      return nullptr;
    }
    backend = load_backend(name);
  }
  if (!backend->status().available || backend->device_count() == 0) {
    WARN("skipped: no " << name << " device here: " << backend->status().reason);
    return nullptr;
  }
  return &backend->device(0);
}

inline CompileResult compile_for(const std::string& source, BinaryFormat format) {
  const CompileResult result = clang_compiler().compile(request(source, format));
  INFO(result.log);
  REQUIRE(result.succeeded);
  return result;
}

// The program's kernels as compiled (in `input`, the FusionKernels' format), fused into
// `target`.
inline FusionRequest fusion_request_of(const TestProgram& program, const CompileResult& compiled,
                                       BinaryFormat input, BinaryFormat target) {
  FusionRequest request;
  request.target = target;
  request.keep_ir = true;
  for (const TestKernel& kernel : program.kernels) {
    FusionKernel fused;
    fused.format = input;
    fused.binary = compiled.binary;
    for (const KernelInfo& info : compiled.kernels)
      if (info.name == kernel.name) fused.info = info;
    REQUIRE(fused.info.name == kernel.name);
    fused.range = kernel.range;
    for (const TestArg& arg : kernel.args) {
      FusionArgument given;
      given.identity = arg.identity;
      given.promotion = arg.promotion;
      if (auto buffer = program.buffers.find(arg.identity); buffer != program.buffers.end())
        given.buffer_bytes = buffer->second.size() * sizeof(float);
      if (arg.constant) given.constant_value = program.scalars.at(arg.identity);
      fused.args.push_back(given);
    }
    request.kernels.push_back(std::move(fused));
  }
  return request;
}

inline FusionRequest fusion_request(const TestProgram& program, BinaryFormat input,
                                    BinaryFormat target) {
  return fusion_request_of(program, compile_for(program.source, input), input, target);
}

// Runs launches of `module` (kernel name, range, argument identities) over the program's
// buffers on `device`; returns the buffers afterwards.
inline std::map<std::uint32_t, std::vector<float>> run_launches(
    Device& device, const DeviceModule& module, const TestProgram& program,
    const std::vector<std::tuple<std::string, NdRange, std::vector<std::uint32_t>>>& launches) {
  std::map<std::uint32_t, void*> allocations;
  const auto queue = device.create_queue();
  for (const auto& [identity, data] : program.buffers) {
    allocations[identity] = device.allocate(data.size() * sizeof(float));
    queue->copy_to_device(allocations[identity], data.data(),
                          CopyLayout::contiguous(0, data.size() * sizeof(float)));
  }
  for (const auto& [name, range, identities] : launches) {
    std::vector<KernelArgument> arguments;
    for (std::uint32_t identity : identities) {
      if (allocations.count(identity)) {
        arguments.push_back(KernelArgument::of_allocation(allocations[identity]));
      } else {
        const std::vector<std::byte>& value = program.scalars.at(identity);
        arguments.push_back(KernelArgument::of_scalar(value.data(), value.size()));
      }
    }
    queue->launch(module.kernel(name), range, arguments);
  }
  std::map<std::uint32_t, std::vector<float>> results = program.buffers;
  for (auto& [identity, data] : results)
    queue->copy_to_host(data.data(), allocations[identity],
                        CopyLayout::contiguous(0, data.size() * sizeof(float)));
  queue->wait();
  for (auto& [identity, allocation] : allocations) device.deallocate(allocation);
  return results;
}

inline std::map<std::uint32_t, std::vector<float>> run_unfused(Device& device, BinaryFormat format,
                                                               const TestProgram& program) {
  const CompileResult compiled = compile_for(program.source, format);
  const auto module = device.load_module(format, compiled.binary, compiled.kernels);
  std::vector<std::tuple<std::string, NdRange, std::vector<std::uint32_t>>> launches;
  for (const TestKernel& kernel : program.kernels) {
    std::vector<std::uint32_t> identities;
    for (const TestArg& arg : kernel.args) identities.push_back(arg.identity);
    launches.emplace_back(kernel.name, kernel.range, identities);
  }
  return run_launches(device, *module, program, launches);
}

inline std::map<std::uint32_t, std::vector<float>> run_fused(Device& device,
                                                             const FusionResult& fused,
                                                             const TestProgram& program) {
  REQUIRE(fused.fused);
  const auto module = device.load_module(fused.format, fused.binary, {fused.kernel});
  return run_launches(device, *module, program,
                      {{fused.kernel.name, fused.range, fused.arg_identities}});
}

// Fuses `program` for the host, runs it fused and unfused, and checks that every buffer
// but the promoted ones is equal; the promoted ones must keep their contents. Returns the
// fusion result.
inline FusionResult check_fused_equals_unfused_on_host(
    const TestProgram& program, FusionBarrier barrier = FusionBarrier::local_and_global) {
  FusionRequest request =
      fusion_request(program, BinaryFormat::llvm_bitcode, BinaryFormat::llvm_bitcode);
  request.barrier = barrier;
  const FusionResult fused = fusion_engine().fuse(request);
  INFO(fused.reason);
  REQUIRE(fused.fused);
  const auto expected = run_unfused(host_device(), BinaryFormat::llvm_bitcode, program);
  const auto actual = run_fused(host_device(), fused, program);
  for (const auto& [identity, data] : expected) {
    INFO("buffer " << identity);
    if (std::find(fused.promoted.begin(), fused.promoted.end(), identity) != fused.promoted.end()) {
      CHECK(actual.at(identity) == program.buffers.at(identity));
      continue;
    }
    CHECK(actual.at(identity) == data);
  }
  return fused;
}

}  // namespace plexus::test

// fusion/llvm for PTX (the CUDA backend, NVIDIA OpenCL): kernels given as NVPTX LLVM
// bitcode (the compiler's output for ptx with CompileRequest::emit_ir) fused and lowered to
// PTX through the compiler. Checked in the PTX text everywhere (one .entry; a promoted
// intermediate is neither loaded from nor stored to global memory); run fused against
// unfused on the CUDA backend where a GPU is (skipped with the reason elsewhere).
#include <algorithm>
#include <regex>

#include "fusion_chain_kernels.hpp"
#include "fusion_test_support.hpp"

using namespace plexus;
using namespace plexus::test;

namespace {

std::size_t count(const std::string& text, const std::string& pattern) {
  const std::regex expression(pattern);
  return static_cast<std::size_t>(
      std::distance(std::sregex_iterator(text.begin(), text.end(), expression), {}));
}

// The program's kernels as NVPTX IR.
CompileResult nvptx_ir(const std::string& source,
                       SourceLanguage language = SourceLanguage::opencl_c) {
  CompileRequest compile = request(source, BinaryFormat::ptx, {}, language);
  compile.emit_ir = true;
  const CompileResult result = clang_compiler().compile(compile);
  INFO(result.log);
  REQUIRE(result.succeeded);
  REQUIRE(result.format == BinaryFormat::llvm_bitcode);
  return result;
}

FusionResult fuse_for_ptx(const TestProgram& program,
                          FusionBarrier barrier = FusionBarrier::local_and_global) {
  FusionRequest fuse = fusion_request_of(program, nvptx_ir(program.source),
                                         BinaryFormat::llvm_bitcode, BinaryFormat::ptx);
  fuse.barrier = barrier;
  FusionResult fused = fusion_engine().fuse(fuse);
  INFO(fused.reason);
  REQUIRE(fused.fused);
  CHECK(fused.format == BinaryFormat::ptx);
  return fused;
}

// x -> t1 -> t2 -> t3 -> y, element-wise; t1..t3 promoted to private memory when asked.
TestProgram element_wise_chain(Promotion intermediates) {
  TestProgram program;
  program.source = plexus::kernels::fusion_chain_float_source();  // the benchmarks' chain
  const std::size_t n = 1024;
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<float>(i % 97);
  program.buffers = {{1, x},
                     {2, std::vector<float>(n, 7.0f)},
                     {3, std::vector<float>(n, 7.0f)},
                     {4, std::vector<float>(n, 7.0f)},
                     {5, std::vector<float>(n)}};
  program.kernels = {{"affine", range1(n), {{1}, {2, intermediates}}},
                     {"square", range1(n), {{2, intermediates}, {3, intermediates}}},
                     {"shift", range1(n), {{3, intermediates}, {4, intermediates}}},
                     {"root", range1(n), {{4, intermediates}, {5}}}};
  return program;
}

// NVPTX IR as it is after libclc is linked: the global id from the special registers.
constexpr const char* register_reading_kernel = R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-nvcl"

define void @increment(ptr addrspace(1) %p) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %ctaid, %ntid
  %id = add i32 %base, %tid
  %index = zext i32 %id to i64
  %address = getelementptr inbounds float, ptr addrspace(1) %p, i64 %index
  %value = load float, ptr addrspace(1) %address, align 4
  %more = fadd float %value, 1.0
  store float %more, ptr addrspace(1) %address, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @increment, !"kernel", i32 1}
!1 = !{i32 1}
!2 = !{!"none"}
!3 = !{!"float*"}
!4 = !{!""}
)";

void check_on_cuda(const TestProgram& program, const FusionResult& fused) {
  Device* device = first_device_of("cuda");
  if (!device) return;
  INFO(device->info().name);
  const auto expected = run_unfused(*device, BinaryFormat::ptx, program);
  const auto actual = run_fused(*device, fused, program);
  for (const auto& [identity, data] : expected) {
    INFO("buffer " << identity);
    if (std::find(fused.promoted.begin(), fused.promoted.end(), identity) != fused.promoted.end()) {
      CHECK(actual.at(identity) == program.buffers.at(identity));  // never written back
      continue;
    }
    CHECK(actual.at(identity) == data);
  }
}

}  // namespace

TEST_CASE("compiler emit_ir for ptx: NVPTX bitcode with the work-item calls, no libclc",
          "[fusion][compiler]") {
  const CompileResult ir = nvptx_ir(element_wise_chain(Promotion::none).source);
  const std::string text = as_text(ir.binary);
  CHECK(text.find("nvptx64-nvidia-nvcl") != std::string::npos);
  CHECK(text.find("_Z13get_global_idj") != std::string::npos);
  CHECK(text.find("llvm.nvvm.read.ptx.sreg") == std::string::npos);
  CHECK(ir.kernels.size() == 4);
}

TEST_CASE(
    "fusion ptx: a chain with promoted intermediates is one .entry without their "
    "global traffic",
    "[fusion]") {
  const TestProgram program = element_wise_chain(Promotion::private_memory);
  const FusionResult fused = fuse_for_ptx(program, FusionBarrier::none);
  const std::string ptx = as_text(fused.binary);
  INFO(ptx);
  CHECK(count(ptx, R"(\.entry\s)") == 1);
  CHECK(count(ptx, R"(\.entry\s+plexus_fused\s*\()") == 1);
  CHECK(fused.arg_identities == std::vector<std::uint32_t>{1, 5});
  CHECK(fused.promoted == std::vector<std::uint32_t>{2, 3, 4});
  // x read once, y written once: t1..t3 live in registers.
  CHECK(count(ptx, R"(ld\.global)") == 1);
  CHECK(count(ptx, R"(st\.global)") == 1);
  CHECK(count(ptx, R"(\.param\s+\.u64)") == 2);
  check_on_cuda(program, fused);
}

TEST_CASE("fusion ptx: without promotion every intermediate is still written", "[fusion]") {
  const TestProgram program = element_wise_chain(Promotion::none);
  const FusionResult fused = fuse_for_ptx(program);
  const std::string ptx = as_text(fused.binary);
  INFO(ptx);
  CHECK(count(ptx, R"(\.entry\s)") == 1);
  CHECK(fused.promoted.empty());
  CHECK(count(ptx, R"(st\.global)") == 4);
  check_on_cuda(program, fused);
}

TEST_CASE("fusion ptx: kernels of different ranges are remapped in the NVPTX IR", "[fusion]") {
  const TestProgram program = scale_add_one_fill2d(256);  // 1D shorter, then 2D
  const FusionResult fused = fuse_for_ptx(program);
  const std::string ptx = as_text(fused.binary);
  INFO(ptx);
  CHECK(count(ptx, R"(\.entry\s)") == 1);
  CHECK(fused.range.dimensions == 2);
  check_on_cuda(program, fused);
}

TEST_CASE(
    "fusion ptx: IR that reads the work-item registers fuses for identical ranges and "
    "is refused for remapping",
    "[fusion]") {
  const CompileResult ir = nvptx_ir(register_reading_kernel, SourceLanguage::llvm_ir_text);
  TestProgram program;
  program.source = register_reading_kernel;
  program.buffers = {{1, std::vector<float>(256, 1.0f)}};
  program.kernels = {{"increment", range1(256, 64), {{1}}}, {"increment", range1(256, 64), {{1}}}};
  {
    const FusionRequest fuse =
        fusion_request_of(program, ir, BinaryFormat::llvm_bitcode, BinaryFormat::ptx);
    const FusionResult fused = fusion_engine().fuse(fuse);
    INFO(fused.reason);
    REQUIRE(fused.fused);
    CHECK(count(as_text(fused.binary), R"(\.entry\s)") == 1);
  }
  program.kernels[1].range = range1(128, 64);
  const FusionResult refused = fusion_engine().fuse(
      fusion_request_of(program, ir, BinaryFormat::llvm_bitcode, BinaryFormat::ptx));
  CHECK_FALSE(refused.fused);
  CHECK_THAT(refused.reason,
             Catch::Contains("llvm.nvvm.read.ptx.sreg") && Catch::Contains("different nd-range"));
}

TEST_CASE("fusion ptx: SPIR inputs and an amdgcn target are refused with the reason", "[fusion]") {
  const TestProgram program = element_wise_chain(Promotion::none);
  FusionRequest spir =
      fusion_request(program, BinaryFormat::spir_bitcode, BinaryFormat::spir_bitcode);
  spir.target = BinaryFormat::ptx;
  CHECK_THROWS_WITH(fusion_engine().fuse(spir),
                    Catch::Contains("NVPTX") && Catch::Contains("emit_ir"));
  FusionRequest amd = fusion_request_of(program, nvptx_ir(program.source),
                                        BinaryFormat::llvm_bitcode, BinaryFormat::ptx);
  amd.target = BinaryFormat::amdgcn;
  CHECK_THROWS_WITH(fusion_engine().fuse(amd), Catch::Contains("no AMD backend"));
}

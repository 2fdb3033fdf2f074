// SYCL free-function kernels (SourceLanguage::sycl) through both compilers (compiler/clang
// in process, compiler/process with clang-15): every target, the kernels and their
// arguments, registered names, diagnostics at the user's line, the caches keyed on the
// language.
#include <catch2/catch.hpp>

#include <string>

#include "compiler_test_support.hpp"
#include "plexus/sycl_names.hpp"
#include "sycl_sources.hpp"

using namespace plexus;
using plexus::test::find_kernel;
using plexus::test::first_error;

namespace {

CompileRequest sycl_request(std::string source, BinaryFormat target) {
  return test::request(std::move(source), target, {}, SourceLanguage::sycl);
}

struct Named {
  std::string name;
  std::shared_ptr<Compiler> compiler;
  Compiler* operator->() const { return compiler.get(); }
};

// compiler/clang, and compiler/process where it is built: both take SYCL source.
std::vector<Named> compilers_under_test() {
  std::vector<Named> all = {{"clang", test::load_compiler("clang")}};
#ifdef PLEXUS_TEST_HAVE_PROCESS_COMPILER
  all.push_back({"process", test::load_compiler("process")});
#endif
  return all;
}

bool mentions_headers(const CompileResult& result) {
  for (const Diagnostic& diagnostic : result.diagnostics)
    if (diagnostic.file.find("__plexus_sycl") != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("the seed's vec_add compiles for every target with both compilers") {
  for (const auto& compiler : compilers_under_test()) {
    for (BinaryFormat target : compiler->targets()) {
      DYNAMIC_SECTION(compiler.name << " " << to_string(target)) {
        const CompileResult result =
            compiler->compile(sycl_request(test::seed_vec_add_source(), target));
        INFO(result.log);
        REQUIRE(result.succeeded);
        REQUIRE(result.kernels.size() == 1);
        const KernelInfo& kernel = result.kernels[0];
        CHECK(kernel.name == "vec_add");
        REQUIRE(kernel.args.size() == 3);
        for (const KernelArgInfo& arg : kernel.args)
          CHECK(arg.kind == KernelArgKind::global_pointer);
        if (target == BinaryFormat::spirv) test::require_valid_spirv(result);
        if (target == BinaryFormat::ptx) {
          const std::string ptx = test::as_text(result.binary);
          CHECK(ptx.find(".entry vec_add") != std::string::npos);
          CHECK(ptx.find("__plexus_sycl") == std::string::npos);  // the free function inlined
        }
      }
    }
  }
}

TEST_CASE("our SYCL kernels compile for every target with both compilers") {
  for (const auto& compiler : compilers_under_test()) {
    for (BinaryFormat target : compiler->targets()) {
      DYNAMIC_SECTION(compiler.name << " " << to_string(target)) {
        CompileRequest request = sycl_request(test::own_kernels_source(), target);
        request.registered_names = {"ops::scale<float>", "ops::scale<int>"};
        const CompileResult result = compiler->compile(request);
        INFO(result.log);
        REQUIRE(result.succeeded);
        for (const char* name : {"reduce", "reverse_in_group", "affine", "sub_group_sum", "math",
                                 "index_2d", "single"})
          CHECK(find_kernel(result, name) != nullptr);
        CHECK(find_kernel(result, registered_kernel_symbol("ops::scale<float>")) != nullptr);
        CHECK(find_kernel(result, registered_kernel_symbol("ops::scale<int>")) != nullptr);
        CHECK(result.kernels.size() == 9);  // the template itself is no kernel
        if (const KernelInfo* reverse = find_kernel(result, "reverse_in_group")) {
          REQUIRE(reverse->args.size() == 3);
          CHECK(reverse->args[2].kind == KernelArgKind::local_pointer);
        }
        if (const KernelInfo* affine = find_kernel(result, "affine")) {
          REQUIRE(affine->args.size() == 2);
          CHECK(affine->args[0].kind == KernelArgKind::scalar);
          CHECK(affine->args[0].size == 12);  // the struct, by value
        }
        if (target == BinaryFormat::spirv) test::require_valid_spirv(result);
      }
    }
  }
}

TEST_CASE("a kernel that calls get_work_group_scratch_memory gets its scratch parameter on every target") {
  for (const auto& compiler : compilers_under_test()) {
    for (BinaryFormat target : compiler->targets()) {
      DYNAMIC_SECTION(compiler.name << " " << to_string(target)) {
        const CompileResult result = compiler->compile(sycl_request(test::scratch_source, target));
        INFO(result.log);
        REQUIRE(result.succeeded);
        const KernelInfo* sums = find_kernel(result, "scratch_sums");
        REQUIRE(sums != nullptr);
        REQUIRE(sums->args.size() == 4);
        CHECK(sums->args[3].name == "work_group_scratch_size");
        CHECK(sums->args[3].kind == KernelArgKind::local_pointer);
        const KernelInfo* none = find_kernel(result, "no_scratch");
        REQUIRE(none != nullptr);
        CHECK(none->args.size() == 1);
        if (target == BinaryFormat::spirv) test::require_valid_spirv(result);
        CHECK(test::as_text(result.binary).find("__plexus_sycl_work_group_scratch") ==
              std::string::npos);
      }
    }
  }
}

TEST_CASE("group collectives, work_group_static and half compile for every target") {
  for (const auto& compiler : compilers_under_test()) {
    for (BinaryFormat target : compiler->targets()) {
      DYNAMIC_SECTION(compiler.name << " " << to_string(target)) {
        const CompileResult result =
            compiler->compile(sycl_request(test::group_kernels_source(), target));
        INFO(result.log);
        REQUIRE(result.succeeded);
        for (const char* name :
             {"work_group_collectives", "sub_group_collectives", "typed_collectives", "halves"})
          CHECK(find_kernel(result, name) != nullptr);
        if (target == BinaryFormat::spirv) test::require_valid_spirv(result);
        if (target == BinaryFormat::ptx) {
          const std::string ptx = test::as_text(result.binary);
          // work_group_static variables and the collectives' scratch are shared memory, the
          // kernel's own (kernel_local_variables.hpp)
          CHECK(ptx.find(".shared .align 4 .b8 work_group_collectives_$_reversed[") !=
                std::string::npos);
          CHECK(ptx.find("\n.global ") == std::string::npos);  // no variable in global memory
          CHECK(ptx.find("shfl.sync") != std::string::npos);
        }
        if (target == BinaryFormat::spir_bitcode) {
          // SPIR 1.2 consumers (PoCL) take a local variable for a kernel's own only when it
          // is named "<kernel>.<name>"; otherwise one memory serves every work-group. The
          // names are in the bitcode's string table as they are.
          const std::string bitcode = test::as_text(result.binary);
          CHECK(bitcode.find("work_group_collectives.reversed") != std::string::npos);
          CHECK(bitcode.find("typed_collectives._ZZN4sycl6detail11scratch_for") != std::string::npos);
        }
      }
    }
  }
}

TEST_CASE("work_group_static with automatic storage, and atomic_ref on half, are errors") {
  const std::string prefix =
      "#include <sycl/sycl.hpp>\nnamespace syclexp = sycl::ext::oneapi::experimental;\n"
      "extern \"C\" SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))\n";
  for (const auto& compiler : compilers_under_test()) {
    for (BinaryFormat target : compiler->targets()) {
      DYNAMIC_SECTION(compiler.name << " " << to_string(target)) {
        const CompileResult automatic = compiler->compile(sycl_request(
            prefix + "void k(int* out) { syclexp::work_group_static<int> x; x = 1; out[0] = x; }\n",
            target));
        INFO(automatic.log);
        CHECK_FALSE(automatic.succeeded);
        CHECK(automatic.log.find("work_group_static in 'k' is not a variable of its own at "
                                 "namespace scope or static") != std::string::npos);
        const CompileResult atomic = compiler->compile(sycl_request(
            prefix + "void k(sycl::half* out) {\n  sycl::atomic_ref<sycl::half, "
                     "sycl::memory_order::relaxed, sycl::memory_scope::device> a(out[0]);\n}\n",
            target));
        INFO(atomic.log);
        CHECK_FALSE(atomic.succeeded);
        CHECK(atomic.log.find("sycl::atomic_ref takes int, unsigned int, long, unsigned long, "
                              "float or double") != std::string::npos);
        CHECK(atomic.log.find("kernel.cpp:5:") != std::string::npos);  // the user's line
      }
    }
  }
}

TEST_CASE("a plain C++ error in SYCL source is clang's message at the user's line") {
  const std::string source = test::plain_cpp_error_source();
  for (const auto& compiler : compilers_under_test()) {
    DYNAMIC_SECTION(compiler.name) {
      const CompileResult result =
          compiler->compile(sycl_request(source, BinaryFormat::spir_bitcode));
      INFO(result.log);
      REQUIRE_FALSE(result.succeeded);
      const Diagnostic* error = first_error(result);
      REQUIRE(error != nullptr);
      CHECK(error->file == "kernel.cpp");
      CHECK(error->line == 5);
      CHECK(error->column == 7);
      CHECK(error->message.find("cannot initialize a variable of type") != std::string::npos);
      CHECK(result.log.find("kernel.cpp:5:7: error:") != std::string::npos);
      CHECK(result.log.find("  int value = \"text\";") != std::string::npos);
      // The second error (no sqrt for a pointer) is at line 6; its candidates in the
      // headers are not shown.
      CHECK(result.log.find("kernel.cpp:6:") != std::string::npos);
      CHECK_FALSE(mentions_headers(result));
    }
  }
}

TEST_CASE("SYCL kernel declarations that cannot be kernels are errors at their line") {
  for (const auto& compiler : compilers_under_test()) {
    DYNAMIC_SECTION(compiler.name) {
      SECTION("a reference parameter") {
        const CompileResult result = compiler->compile(sycl_request(
            "#include <sycl/sycl.hpp>\n\nextern \"C\" "
            "SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((sycl::ext::oneapi::experimental::nd_range_kernel<1>))"
            " void k(int& out) { out = 1; }\n",
            BinaryFormat::spir_bitcode));
        INFO(result.log);
        REQUIRE_FALSE(result.succeeded);
        const Diagnostic* error = first_error(result);
        REQUIRE(error != nullptr);
        CHECK(error->file == "kernel.cpp");
        CHECK(error->line == 3);
        CHECK(error->message.find("parameter 1 of SYCL kernel '::k' must be a pointer") !=
              std::string::npos);
      }
      SECTION("a property that is no kernel property") {
        const CompileResult result = compiler->compile(sycl_request(
            "#include <sycl/sycl.hpp>\nextern \"C\" "
            "SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((sycl::ext::oneapi::experimental::nd_range_kernl<1>))"
            " void k(int* out) { *out = 1; }\n",
            BinaryFormat::spir_bitcode));
        INFO(result.log);
        REQUIRE_FALSE(result.succeeded);
        CHECK(result.log.find("kernel.cpp:2: the kernel property") != std::string::npos);
      }
      SECTION("a registered name that names no kernel") {
        CompileRequest request = sycl_request(test::seed_vec_add_source(), BinaryFormat::spir_bitcode);
        request.registered_names = {"ops::nothing<int>"};
        const CompileResult result = compiler->compile(request);
        REQUIRE_FALSE(result.succeeded);
        CHECK(result.log.find("the registered name 'ops::nothing<int>' names no free-function "
                              "kernel") != std::string::npos);
      }
      SECTION("a -cl-std of the user's") {
        CompileRequest request = sycl_request(test::seed_vec_add_source(), BinaryFormat::spir_bitcode);
        request.options = {"-cl-std=CL2.0"};
        const CompileResult result = compiler->compile(request);
        REQUIRE_FALSE(result.succeeded);
        CHECK(result.log.find("is not accepted for SYCL source") != std::string::npos);
      }
    }
  }
}

TEST_CASE("SYCL source takes virtual include files and build options") {
  const std::string source = "#include <sycl/sycl.hpp>\n#include \"params.hpp\"\n"
                             "extern \"C\" SYCL_EXT_ONEAPI_FUNCTION_PROPERTY(("
                             "sycl::ext::oneapi::experimental::nd_range_kernel<1>))\n"
                             "void fill(float* out) { out[0] = FACTOR * SCALE; }\n";
  for (const auto& compiler : compilers_under_test()) {
    DYNAMIC_SECTION(compiler.name) {
      CompileRequest request = sycl_request(source, BinaryFormat::llvm_bitcode);
      request.includes = {{"params.hpp", "constexpr float FACTOR = 2.0f;\n"}};
      request.options = {"-DSCALE=3.0f"};
      const CompileResult result = compiler->compile(request);
      INFO(result.log);
      REQUIRE(result.succeeded);
      CHECK(find_kernel(result, "fill") != nullptr);
    }
  }
}

TEST_CASE("printf in SYCL source: on the host, and an error naming it on PTX") {
  const std::string source =
      "#include <sycl/sycl.hpp>\nnamespace syclexp = sycl::ext::oneapi::experimental;\n"
      "extern \"C\" SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::single_task_kernel))\n"
      "void hello(int* v) { syclexp::printf(\"value %d\\n\", v[0]); }\n";
  for (const auto& compiler : compilers_under_test()) {
    DYNAMIC_SECTION(compiler.name) {
      const CompileResult host = compiler->compile(sycl_request(source, BinaryFormat::llvm_bitcode));
      INFO(host.log);
      CHECK(host.succeeded);
      const CompileResult ptx = compiler->compile(sycl_request(source, BinaryFormat::ptx));
      INFO(ptx.log);
      CHECK_FALSE(ptx.succeeded);
      CHECK(ptx.log.find("printf") != std::string::npos);
    }
  }
}

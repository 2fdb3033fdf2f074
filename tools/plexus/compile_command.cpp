// `plexus compile`: compiles one kernel file through the configured compiler component and
// writes the device binary, printing diagnostics the way a compiler does.
#include <algorithm>
#include <array>
#include <cstring>
#include <span>
#include <fstream>
#include <iostream>
#include <sstream>

#include "command_line.hpp"
#include "commands.hpp"
#include "config_option.hpp"
#include "file_io.hpp"
#include "plexus/compiler.hpp"
#include "plexus/error.hpp"
#include "plexus/runtime.hpp"
#include "plexus/syclbin/kernel_metadata.hpp"
#include "plexus/syclbin/offload_binary.hpp"
#include "plexus/syclbin/syclbin.hpp"

namespace plexus::tool {

namespace {

constexpr const char* compile_usage = R"(usage: plexus compile FILE [--target T] [-o OUT] [--kernel NAME]
                      [--arch ARCH] [--language L] [--compiler NAME] [--config FILE]
                      [--register NAME]... [--syclbin] [-- BUILD OPTIONS...]

Compiles FILE with the configured compiler component (PLEXUS_COMPILER or --compiler to
choose another) and writes the device binary. Diagnostics go to stderr as
FILE:LINE:COLUMN: severity: message. Exit status: 0 written, 1 when FILE does not compile
or defines no kernels, 2 for a mistake in the command line.

  --target T      spirv (default), spir-bc, ptx, amdgcn, host
  -o, --output    output file (default: FILE with the target's extension; - writes the
                  binary to standard output)
  --kernel NAME   keep only this kernel (an error if FILE does not define it)
  --arch ARCH     target architecture (ptx: sm_80 by default; amdgcn: gfx90a, ...;
                  spirv: the highest SPIR-V version the device takes, spirv1.2; 1.4 by
                  default, the module gets the lowest version it needs)
  --language L    cl, clcpp, sycl, bc, ll, spv (default: from FILE's extension: .clcpp,
                  .cpp/.cxx/.cc (sycl), .bc, .ll, .spv; OpenCL C otherwise)
  --register NAME SYCL: a kernel that is not extern "C", named as a C++ expression
                  ("ns::scale<float>"); repeat it for more (the kernel is
                  __plexus_registered_..., see docs/api.md)
  --compiler NAME the compiler component to use (e.g. clang, process)
  --config FILE   the project file (instead of PLEXUS_CONFIG or ./plexus.toml), on top of
                  the built-in default and the system and user files
  --syclbin       write a SYCLBIN file (default: FILE.syclbin) with one abstract module
                  holding every --target given (repeat it: --target spirv --target ptx);
                  spirv, ptx, spir-bc and host become IR modules, amdgcn a native image;
                  the kernels go in its [SYCL/kernel names]
  -- OPTIONS      build options for the compiler: -D, -I, -cl-std=, -O, ...
  -h, --help      show this help
)";

struct TargetName {
  const char* name;
  BinaryFormat format;
  const char* extension;
};

constexpr std::array<TargetName, 5> target_names = {{
    {"spirv", BinaryFormat::spirv, ".spv"},
    {"spir-bc", BinaryFormat::spir_bitcode, ".spir.bc"},
    {"ptx", BinaryFormat::ptx, ".ptx"},
    {"amdgcn", BinaryFormat::amdgcn, ".hsaco"},  // an HSA code object
    {"host", BinaryFormat::llvm_bitcode, ".host.bc"},
}};

const TargetName& parse_target(const std::string& text) {
  std::string names;
  for (const auto& target : target_names) {
    if (text == target.name) return target;
    names += (names.empty() ? "" : ", ") + std::string(target.name);
  }
  throw usage_error("unknown target '" + text + "' (expected one of: " + names + ")");
}

SourceLanguage parse_language(const std::string& text) {
  if (text == "cl") return SourceLanguage::opencl_c;
  if (text == "clcpp") return SourceLanguage::cpp_for_opencl;
  if (text == "bc") return SourceLanguage::llvm_bitcode;
  if (text == "ll") return SourceLanguage::llvm_ir_text;
  if (text == "spv") return SourceLanguage::spirv;
  if (text == "sycl") return SourceLanguage::sycl;
  throw usage_error("unknown language '" + text +
                    "' (expected one of: cl, clcpp, sycl, bc, ll, spv)");
}

SourceLanguage language_of(const std::filesystem::path& file) {
  const std::string extension = file.extension().string();
  if (extension == ".clcpp" || extension == ".clc++") return SourceLanguage::cpp_for_opencl;
  if (extension == ".cpp" || extension == ".cxx" || extension == ".cc") return SourceLanguage::sycl;
  if (extension == ".bc") return SourceLanguage::llvm_bitcode;
  if (extension == ".ll") return SourceLanguage::llvm_ir_text;
  if (extension == ".spv") return SourceLanguage::spirv;
  return SourceLanguage::opencl_c;
}

// Refuses an input that is not source or IR: a SYCLBIN file (already compiled), or any file
// with NUL bytes read as OpenCL C or C++ for OpenCL (the compiler would print its bytes).
void check_input(const std::filesystem::path& input, const std::string& content,
                 SourceLanguage language) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(content.data()),
                                         content.size());
  std::uint32_t first_word = 0;
  if (content.size() >= 4) std::memcpy(&first_word, content.data(), 4);
  if (syclbin::offload_binary::has_magic(bytes) || first_word == syclbin::magic) {
    throw error(error_category::invalid_argument,
                input.string() + " is a SYCLBIN file (device code compiled already), not a "
                                 "kernel source: `plexus syclbin dump " + input.filename().string() +
                                 "` shows what it holds, and programs load it as it is "
                                 "(plexus::syclbin::load_bundle)");
  }
  const bool text_language = language == SourceLanguage::opencl_c ||
                             language == SourceLanguage::cpp_for_opencl ||
                             language == SourceLanguage::sycl;
  if (text_language && content.find('\0') != std::string::npos) {
    throw error(error_category::invalid_argument,
                input.string() + " is a binary file, not OpenCL C source; give --language bc, "
                                 "ll or spv for LLVM bitcode, LLVM IR or SPIR-V");
  }
}

std::string kernel_list(const std::vector<KernelInfo>& kernels) {
  std::string text;
  for (const auto& kernel : kernels) text += (text.empty() ? "" : ", ") + kernel.name;
  return text.empty() ? "none" : text;
}

// The triple LLVM gives the host (what compiler/clang compiles host bitcode for).
std::string host_triple() {
#ifdef PLEXUS_HOST_TRIPLE
  return PLEXUS_HOST_TRIPLE;
#elif defined(__x86_64__)
  return "x86_64-pc-linux-gnu";
#elif defined(__aarch64__)
  return "aarch64-unknown-linux-gnu";
#else
  return "unknown-unknown-linux-gnu";
#endif
}

// Adds one compiled target to a SYCLBIN abstract module: an IR module with its type and
// triple, or (amdgcn, a linked code object) a native image for its architecture.
void add_to_syclbin(syclbin::Syclbin& out, syclbin::AbstractModule& module, const TargetName& target,
                    const std::string& arch, std::vector<std::byte> binary) {
  namespace sb = plexus::syclbin;
  const sb::Bytes bytes = out.keep(std::move(binary));
  switch (target.format) {
    case BinaryFormat::spirv:
      module.ir_modules.push_back(sb::Syclbin::make_ir_module(sb::IRType::spirv, "spir64-unknown-unknown", bytes));
      return;
    case BinaryFormat::spir_bitcode:
      module.ir_modules.push_back(
          sb::Syclbin::make_ir_module(sb::IRType::llvm_bitcode, "spir64-unknown-unknown", bytes));
      return;
    case BinaryFormat::ptx:
      module.ir_modules.push_back(sb::Syclbin::make_ir_module(sb::IRType::ptx, "nvptx64-nvidia-cuda", bytes));
      return;
    case BinaryFormat::llvm_bitcode:
      module.ir_modules.push_back(sb::Syclbin::make_ir_module(sb::IRType::llvm_bitcode, host_triple(), bytes));
      return;
    case BinaryFormat::amdgcn:
      module.native_images.push_back(
          sb::Syclbin::make_native_image(arch.empty() ? "gfx906" : arch, "amdgcn-amd-amdhsa", bytes));
      return;
    default:
      throw error(error_category::unsupported,
                  std::string("target '") + target.name + "' cannot go into a SYCLBIN");
  }
}

}  // namespace

int compile_command(const std::vector<std::string>& raw_args) {
  std::vector<std::string> args = raw_args;
  for (auto& arg : args) {
    if (arg == "-o") arg = "--output";  // the compiler-style short form
  }
  CommandLine line(args,
                   {"target", "output", "kernel", "arch", "language", "compiler", "config",
                    "register"},
                   {"help", "syclbin"});
  if (line.flag("help")) {
    std::cout << compile_usage;
    return 0;
  }
  if (line.positional().size() != 1) {
    throw usage_error("plexus compile takes exactly one input file (see --help)");
  }
  const std::filesystem::path input = std::filesystem::absolute(line.positional()[0]);
  const TargetName& target = parse_target(line.value("target").value_or("spirv"));
  // --syclbin compiles every --target given; otherwise the last one counts.
  std::vector<const TargetName*> syclbin_targets;
  if (line.flag("syclbin")) {
    for (const auto& name : line.values("target")) {
      const TargetName* next = &parse_target(name);
      if (std::find(syclbin_targets.begin(), syclbin_targets.end(), next) != syclbin_targets.end()) {
        throw usage_error("--target " + name + " is given twice");
      }
      syclbin_targets.push_back(next);
    }
    if (syclbin_targets.empty()) syclbin_targets.push_back(&target);
  }

  CompileRequest request;
  request.language =
      line.value("language") ? parse_language(*line.value("language")) : language_of(input);
  request.source = read_input(input);
  if (request.source.empty()) {
    throw error(error_category::invalid_argument, input.string() + " is empty: nothing to compile");
  }
  check_input(input, request.source, request.language);
  request.source_name = input.string();
  request.options = line.passthrough();
  request.target = target.format;
  request.target_architecture = line.value("arch").value_or("");
  request.kernel_name = line.value("kernel").value_or("");
  request.registered_names = line.values("register");
  if (!request.registered_names.empty() && request.language != SourceLanguage::sycl)
    throw usage_error("--register is for SYCL source (--language sycl or a .cpp file)");

  Config config = config_from(line);
  if (auto compiler = line.value("compiler")) config.set("compiler", *compiler, "--compiler");
  Runtime runtime(std::move(config));
  Compiler* compiler = runtime.components().compiler();
  if (!compiler) {
    throw error(error_category::config, runtime.config().origin().path +
                                            ": no compiler is selected; set [compiler] use = "
                                            "\"clang\" or pass --compiler clang");
  }
  if (!syclbin_targets.empty()) {
    syclbin::Syclbin syclbin;
    syclbin.set_state(syclbin::State::executable);
    syclbin::AbstractModule* module = nullptr;
    std::string names, kernels;
    for (const TargetName* each : syclbin_targets) {
      request.target = each->format;
      CompileResult result = compiler->compile(request);
      std::cerr << result.log;
      if (!result.log.empty() && result.log.back() != '\n') std::cerr << '\n';
      if (!result.succeeded) {
        std::cerr << "plexus compile: " << input.filename().string() << " did not compile for "
                  << each->name << "\n";
        return 1;
      }
      if (result.kernels.empty()) {
        std::cerr << "plexus compile: " << input.string() << " defines no kernels (__kernel "
                  << "functions); nothing to write\n";
        return 1;
      }
      if (!module) {  // the kernels are the same for every target
        std::vector<std::string> kernel_names;
        for (const auto& kernel : result.kernels) kernel_names.push_back(kernel.name);
        if (!request.kernel_name.empty() &&
            std::find(kernel_names.begin(), kernel_names.end(), request.kernel_name) ==
                kernel_names.end()) {
          throw error(error_category::invalid_argument,
                      "no kernel '" + request.kernel_name + "' in " + input.string() +
                          " (kernels: " + kernel_list(result.kernels) + ")");
        }
        module = &syclbin.add_abstract_module(kernel_names);
        syclbin::set_kernel_info(module->metadata, result.kernels);  // runtime loading
        kernels = kernel_list(result.kernels);
      }
      add_to_syclbin(syclbin, *module, *each, request.target_architecture, std::move(result.binary));
      names += (names.empty() ? "" : ", ") + std::string(each->name);
    }
    std::string output = line.value("output").value_or("");
    if (output.empty()) output = (input.parent_path() / (input.stem().string() + ".syclbin")).string();
    const std::vector<std::byte> bytes = syclbin.write();
    write_output(output, bytes);
    report_stream(output) << "wrote " << output_name(output) << " (" << bytes.size()
                          << " bytes, SYCLBIN: " << names << "; kernels: " << kernels << ")\n";
    return 0;
  }
  CompileResult result = compiler->compile(request);
  std::cerr << result.log;
  if (!result.log.empty() && result.log.back() != '\n') std::cerr << '\n';
  if (!result.succeeded) {
    std::cerr << "plexus compile: " << input.filename().string() << " did not compile\n";
    return 1;
  }
  if (result.kernels.empty()) {
    std::cerr << "plexus compile: " << input.string() << " defines no kernels (__kernel "
              << "functions); nothing to write\n";
    return 1;
  }
  if (!request.kernel_name.empty()) {
    bool found = false;
    for (const auto& kernel : result.kernels) found = found || kernel.name == request.kernel_name;
    if (!found) {
      throw error(error_category::invalid_argument,
                  "no kernel '" + request.kernel_name + "' in " + input.string() +
                      " (kernels: " + kernel_list(result.kernels) + ")");
    }
  }
  std::string output = line.value("output").value_or("");
  if (output.empty()) output = (input.parent_path() / (input.stem().string() + target.extension)).string();
  write_output(output, result.binary);
  report_stream(output) << "wrote " << output_name(output) << " (" << result.binary.size()
                        << " bytes, " << target.name << "; kernels: "
                        << kernel_list(result.kernels) << ")\n";
  return 0;
}

}  // namespace plexus::tool

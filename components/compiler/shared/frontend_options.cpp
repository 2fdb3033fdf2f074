#include "frontend_options.hpp"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/Allocator.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/StringSaver.h>

#include <string_view>

#include "sycl_source.hpp"

namespace plexus::compiler_shared {

namespace {

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// -O, -O0..-O3, -Os, -Oz: what optimization_level() reads.
bool is_level_option(std::string_view token) {
  return token == "-O" || token == "-Os" || token == "-Oz" ||
         (token.size() == 3 && starts_with(token, "-O") && token[2] >= '0' && token[2] <= '3');
}

// Translates the user's (driver-style) options to frontend options.
bool translate_options(const std::vector<std::string>& tokens, std::vector<std::string>& args,
                       bool& has_cl_std, bool& default_header, bool sycl, DiagnosticLog& log) {
  bool ok = true;
  for (const std::string& token : tokens) {
    if (sycl && starts_with(token, "-cl-std=")) {
      log.error("option '" + token +
                "' is not accepted for SYCL source: it is compiled as C++ for OpenCL 1.0 "
                "(-cl-std=clc++1.0)");
      ok = false;
    } else if (starts_with(token, "-mllvm") || starts_with(token, "-Xclang")) {
      log.error("option '" + token +
                "' is not accepted: LLVM command-line options are process-wide and a plugin "
                "must not set them");
      ok = false;
    } else if (token == "-x" || starts_with(token, "-target") || starts_with(token, "--target") ||
               token == "-triple" || token == "-cc1" || starts_with(token, "-march") ||
               starts_with(token, "-mcpu")) {
      log.error("option '" + token +
                "' is not accepted: the target is chosen by CompileRequest::target and "
                "target_architecture, the language by CompileRequest::language");
      ok = false;
    } else if (starts_with(token, "-emit-")) {
      log.error("option '" + token + "' is not accepted: the compiler chooses its outputs");
      ok = false;
    } else if (token == "-g") {
      args.insert(args.end(), {"-debug-info-kind=limited", "-dwarf-version=4"});
    } else if (token == "-cl-no-stdinc") {
      default_header = false;
    } else if (token == "-cl-opt-disable" || is_level_option(token)) {
      // in the -O level arguments() passes (optimization_level)
    } else if (token == "-cl-denorms-are-zero") {
      args.push_back("-fdenormal-fp-math-f32=preserve-sign,preserve-sign");
    } else {
      if (starts_with(token, "-cl-std=")) has_cl_std = true;
      args.push_back(token);
    }
  }
  return ok;
}

}  // namespace

std::vector<std::string> FrontendOptions::user_tokens(const CompileRequest& request) {
  std::vector<std::string> tokens;
  for (const std::string& option : request.options) {
    llvm::BumpPtrAllocator allocator;
    llvm::StringSaver saver(allocator);
    llvm::SmallVector<const char*, 8> pieces;
    llvm::cl::TokenizeGNUCommandLine(option, saver, pieces);  // splits only; parses nothing
    for (const char* piece : pieces) tokens.emplace_back(piece);
  }
  return tokens;
}

unsigned FrontendOptions::optimization_level(const CompileRequest& request) {
  unsigned level = 2;
  for (const std::string& token : user_tokens(request)) {
    if (token == "-cl-opt-disable") {
      level = 0;
    } else if (is_level_option(token)) {
      level = token.size() == 3 && token[2] >= '0' && token[2] <= '3'
                  ? static_cast<unsigned>(token[2] - '0')
                  : 2;
    }
  }
  return level;
}

std::optional<std::vector<std::string>> FrontendOptions::arguments(const CompileRequest& request,
                                                                   const TargetSpec& target,
                                                                   const std::string& resource_dir,
                                                                   std::int64_t max_errors,
                                                                   DiagnosticLog& log) {
  const bool sycl = request.language == SourceLanguage::sycl;
  const bool cpp = request.language == SourceLanguage::cpp_for_opencl || sycl;
  std::vector<std::string> args = {"-triple",
                                   target.triple,
                                   "-x",
                                   cpp ? "clcpp" : "cl",
                                   "-resource-dir",
                                   resource_dir,
                                   "-nostdsysteminc",
                                   "-nobuiltininc",
                                   "-internal-isystem",
                                   resource_dir + "/include",
                                   // -cl-opt-disable and the user's -O (the last one wins);
                                   // an explicit -O would override -cl-opt-disable in clang.
                                   "-O" + std::to_string(optimization_level(request)),
                                   "-ferror-limit",
                                   std::to_string(max_errors)};
  if (!target.cpu.empty()) args.insert(args.end(), {"-target-cpu", target.cpu});
  for (const std::string& feature : target.features)
    args.insert(args.end(), {"-target-feature", feature});
  if (target.typed_pointers) args.push_back("-no-opaque-pointers");
  if (target.fake_address_space_map) args.push_back("-ffake-address-space-map");
  for (const std::string& name : target.opencl_extensions) args.push_back("-D" + name + "=1");
  bool has_cl_std = false, default_header = true;
  if (sycl)
    args.insert(args.end(), {"-cl-std=clc++1.0", "-D__SYCL_DEVICE_ONLY__=1",
                             "-DSYCL_LANGUAGE_VERSION=202012", "-D__PLEXUS_SYCL__=1"});
  if (!translate_options(user_tokens(request), args, has_cl_std, default_header, sycl, log))
    return std::nullopt;
  // The OpenCL builtins from Clang's tables; the header only for types and macros.
  if (default_header)
    args.insert(args.end(), {"-finclude-default-header", "-fdeclare-opencl-builtins"});
  if (cpp && !sycl && !has_cl_std) args.push_back("-cl-std=clc++2021");
  return args;
}

std::string FrontendOptions::too_many_errors(const std::string& component,
                                             std::int64_t max_errors) {
  return "too many errors emitted, stopping now: the frontend stops after " +
         std::to_string(max_errors) + " errors (max_errors of [" + component + "])";
}

bool FrontendOptions::is_too_many_errors(const std::string& message) {
  return starts_with(message, "too many errors emitted, stopping now");
}

std::vector<std::string> FrontendOptions::include_arguments(const CompileRequest& request,
                                                            const std::string& virtual_dir) {
  std::vector<std::string> args;
  if (request.language == SourceLanguage::sycl)
    args.insert(args.end(),
                {"-internal-isystem", virtual_dir + "/" + SyclSource::header_dir});
  args.insert(args.end(), {"-I", virtual_dir});
  return args;
}

}  // namespace plexus::compiler_shared

// DeviceLibraries: the device bitcode libraries (libclc's nvptx64/amdgcn builds, the host
// work-item library), each read and parsed once per component and kept.
//
// LLVM modules belong to one LLVMContext, and every compilation has its own context (so
// compilations run in parallel), so a parsed library cannot be linked into a compilation
// directly. Each library is therefore parsed once, lazily, into a context of its own; a
// compilation asks for the definitions its module needs (the functions and variables it
// declares that the library defines, and everything those use). That part is cut out once
// per distinct set of needed names (only those function bodies are ever materialized),
// kept as a few KB of bitcode, and parsed into the compilation's context: the 8 MB libclc
// is never parsed again.
//
// Ownership/thread-safety: subset_for() may be called from many threads; a library's
// context and module are touched only under that library's mutex.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "diagnostic_log.hpp"

namespace llvm {
class Module;
}  // namespace llvm

namespace plexus::clang_compiler {

class DeviceLibraries {
 public:
  DeviceLibraries();
  ~DeviceLibraries();
  DeviceLibraries(const DeviceLibraries&) = delete;
  DeviceLibraries& operator=(const DeviceLibraries&) = delete;

  // What `module` needs from the library at `path`, as a module in `module`'s context
  // (nullptr when it needs nothing from it). False, with an error in the log, when the
  // library cannot be read or parsed.
  bool subset_for(const llvm::Module& module, const std::string& path,
                  std::unique_ptr<llvm::Module>& subset, DiagnosticLog& log);

 private:
  struct Library;
  Library& library(const std::string& path);

  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<Library>> libraries_;  // guarded by mutex_
};

}  // namespace plexus::clang_compiler

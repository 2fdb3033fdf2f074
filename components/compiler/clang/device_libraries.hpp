// DeviceLibraries: the device bitcode libraries (libclc's nvptx64/amdgcn builds, the host
// work-item library) read from disk once per component and kept in memory.
//
// LLVM modules belong to one LLVMContext and every compilation has its own context (so
// compilations run in parallel without locks), so a parsed module cannot be shared between
// compilations. What is shared is the file's bytes; load() parses them lazily into the
// caller's context (only the module-level records; the linker materializes the function
// bodies it needs), which is a small part of the cost of a full parse of the 8 MB libclc.
//
// Ownership/thread-safety: load() may be called from many threads. The bytes live as long
// as this object; modules returned by load() refer to them and must be destroyed first.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "diagnostic_log.hpp"

namespace llvm {
class LLVMContext;
class MemoryBuffer;
class Module;
}  // namespace llvm

namespace plexus::clang_compiler {

class DeviceLibraries {
 public:
  DeviceLibraries();
  ~DeviceLibraries();
  DeviceLibraries(const DeviceLibraries&) = delete;
  DeviceLibraries& operator=(const DeviceLibraries&) = delete;

  // The library at `path` as a lazily materialized module in `context`; nullptr (with an
  // error in the log) when the file cannot be read or is not bitcode.
  std::unique_ptr<llvm::Module> load(const std::string& path, llvm::LLVMContext& context,
                                     DiagnosticLog& log);

 private:
  const llvm::MemoryBuffer* bytes(const std::string& path, std::string& why);

  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> files_;  // guarded by mutex_
};

}  // namespace plexus::clang_compiler

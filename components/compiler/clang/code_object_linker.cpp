#include "code_object_linker.hpp"

#if PLEXUS_HAVE_LLD
#include <lld/Common/Driver.h>
#endif
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <mutex>
#include <string>

namespace plexus::clang_compiler {
namespace {

std::mutex lld_mutex;  // lld 15 keeps its state in globals

// A directory made for one link, removed with everything in it.
class ScratchDirectory {
 public:
  explicit ScratchDirectory(std::error_code& failed) {
    llvm::SmallString<128> path;
    failed = llvm::sys::fs::createUniqueDirectory("plexus-code-object", path);
    path_ = std::string(path);
  }
  ~ScratchDirectory() {
    if (!path_.empty()) llvm::sys::fs::remove_directories(path_);
  }
  std::string file(const char* name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace

bool code_object_linker_available() { return PLEXUS_HAVE_LLD != 0; }

std::optional<std::vector<std::byte>> link_code_object(std::span<const std::byte> object,
                                                       compiler_shared::DiagnosticLog& log) {
#if !PLEXUS_HAVE_LLD
  (void)object;
  log.error("this build has no lld libraries to link AMDGCN code objects (liblld-15-dev)");
  return std::nullopt;
#else
  std::error_code failed;
  ScratchDirectory scratch(failed);
  if (failed) {
    log.error("linking the AMDGCN code object: cannot make a temporary directory: " +
              failed.message());
    return std::nullopt;
  }
  const std::string input = scratch.file("kernels.o"), output = scratch.file("kernels.hsaco");
  {
    llvm::raw_fd_ostream stream(input, failed);
    if (!failed) stream.write(reinterpret_cast<const char*>(object.data()), object.size());
    stream.close();
    if (failed || stream.has_error()) {
      log.error("linking the AMDGCN code object: cannot write " + input + ": " +
                (failed ? failed.message() : stream.error().message()));
      return std::nullopt;
    }
  }
  std::string messages;
  bool linked = false;
  {
    std::lock_guard lock(lld_mutex);
    llvm::raw_string_ostream out(messages), err(messages);
    // One thread: a code object is small, and lld's thread pool would stay in the process.
    const char* arguments[] = {"ld.lld",       "-shared", "--no-undefined", "--threads=1",
                               input.c_str(), "-o",      output.c_str()};
    linked = lld::elf::link(arguments, out, err, /*exitEarly=*/false, /*disableOutput=*/false);
    lld::CommonLinkerContext::destroy();
  }
  if (!linked) {
    log.error("lld could not link the AMDGCN code object (ld.lld -shared):\n" + messages);
    return std::nullopt;
  }
  auto buffer = llvm::MemoryBuffer::getFile(output, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    log.error("linking the AMDGCN code object: cannot read " + output + ": " +
              buffer.getError().message());
    return std::nullopt;
  }
  const auto* first = reinterpret_cast<const std::byte*>((*buffer)->getBufferStart());
  return std::vector<std::byte>(first, first + (*buffer)->getBufferSize());
#endif
}

}  // namespace plexus::clang_compiler

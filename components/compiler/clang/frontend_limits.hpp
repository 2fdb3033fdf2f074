// Limits on what one frontend run (preprocess or compile) may take, so that no input can
// end or hang the process (issue 22): the options of [compiler.clang] (README.md).
// - Files: the frontend reads regular files only (a device such as /dev/zero, a FIFO or a
//   socket is refused without being opened), none larger than max_source_bytes (the source
//   and the virtual include files neither).
// - Tokens and time: after max_tokens tokens, or timeout (0: none) since the run began,
//   the preprocessor reports a fatal error and ends the input (as it does after any fatal
//   error: max_errors reached, a missing include); so does a parse that has
//   used more than stack_budget of the frontend thread's stack (deep nesting: a million
//   nested unary '-'). The run happens on a thread of its own with frontend_stack bytes of
//   stack, so that what the parse leaves is enough for the phases after it.
// Thread-safety: FrontendLimits is a plain value; RegularFilesOnly's refusals are guarded.
#pragma once

#include <llvm/Support/VirtualFileSystem.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace clang {
class Preprocessor;
}

namespace plexus::clang_compiler {

struct FrontendLimits {
  std::uint64_t max_source_bytes = std::uint64_t{64} << 20;
  std::uint64_t max_tokens = std::uint64_t{1} << 22;
  std::chrono::seconds timeout{0};  // 0: none
  std::int64_t max_errors = 20;      // ToolchainOptions::max_errors (-ferror-limit)
  static constexpr std::size_t frontend_stack = std::size_t{512} << 20;
  static constexpr std::size_t stack_budget = std::size_t{96} << 20;  // for the parse
};

// The real file system, refusing (with an error the log shows) what is not a regular file
// or directory, and regular files larger than the limit.
class RegularFilesOnly final : public llvm::vfs::ProxyFileSystem {
 public:
  RegularFilesOnly(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> real, std::uint64_t max_bytes);

  llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine& path) override;
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine& path) override;

  // What was refused, one sentence each ("'/dev/zero' is not a regular file ...").
  std::vector<std::string> refusals() const;

 private:
  std::uint64_t max_bytes_;
  mutable std::mutex mutex_;
  std::vector<std::string> refusals_;  // under mutex_
};

// Counts the preprocessor's tokens and checks time and stack on each; past a limit, reports
// a fatal error saying which and turns the token (and every later one) into the end of the
// input; after any other fatal error, ends the input too. Install with watch() after the
// preprocessor exists (BeginSourceFileAction).
class TokenLimits {
 public:
  explicit TokenLimits(const FrontendLimits& limits);
  void watch(clang::Preprocessor& preprocessor);

 private:
  FrontendLimits limits_;
  std::chrono::steady_clock::time_point start_;
  std::uint64_t tokens_ = 0;
  bool stopped_ = false;
};

// Runs `work` on a new thread with FrontendLimits::frontend_stack bytes of stack and waits
// for it; rethrows what `work` throws. No thread to be had: plexus::error(resource).
void run_on_frontend_thread(const std::function<void()>& work);

}  // namespace plexus::clang_compiler

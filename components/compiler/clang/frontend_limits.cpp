#include "frontend_limits.hpp"

#include <clang/Basic/Diagnostic.h>
#include <clang/Lex/Preprocessor.h>
#include <pthread.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <system_error>

#include "plexus/error.hpp"

namespace plexus::clang_compiler {

namespace {
// The highest address of the frontend thread's stack in use when it began (nullptr on other
// threads): how much stack the parse has used is the distance from here.
thread_local const char* stack_top = nullptr;

std::size_t stack_used() {
  const char here = 0;
  return stack_top ? static_cast<std::size_t>(stack_top - &here) : 0;
}
}  // namespace

RegularFilesOnly::RegularFilesOnly(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> real,
                                   std::uint64_t max_bytes)
    : ProxyFileSystem(std::move(real)), max_bytes_(max_bytes) {}

llvm::ErrorOr<llvm::vfs::Status> RegularFilesOnly::status(const llvm::Twine& path) {
  llvm::ErrorOr<llvm::vfs::Status> found = ProxyFileSystem::status(path);
  if (!found || found->isDirectory()) return found;
  std::string refused;
  if (!found->isRegularFile()) {
    refused = "'" + path.str() +
              "' is not a regular file (a device, FIFO or socket): only regular files can be "
              "included";
  } else if (found->getSize() > max_bytes_) {
    refused = "'" + path.str() + "' has " + std::to_string(found->getSize()) +
              " bytes, more than max_source_bytes (" + std::to_string(max_bytes_) +
              ") of [compiler.clang]";
  } else {
    return found;
  }
  std::lock_guard lock(mutex_);
  if (std::find(refusals_.begin(), refusals_.end(), refused) == refusals_.end())
    refusals_.push_back(std::move(refused));
  return std::make_error_code(std::errc::operation_not_permitted);
}

llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> RegularFilesOnly::openFileForRead(
    const llvm::Twine& path) {
  // Checked before opening: opening a FIFO would block, reading /dev/zero would not end.
  llvm::ErrorOr<llvm::vfs::Status> found = status(path);
  if (!found) return found.getError();
  if (found->isDirectory()) return std::make_error_code(std::errc::is_a_directory);
  return ProxyFileSystem::openFileForRead(path);
}

std::vector<std::string> RegularFilesOnly::refusals() const {
  std::lock_guard lock(mutex_);
  return refusals_;
}

TokenLimits::TokenLimits(const FrontendLimits& limits)
    : limits_(limits), start_(std::chrono::steady_clock::now()) {}

void TokenLimits::watch(clang::Preprocessor& preprocessor) {
  preprocessor.setTokenWatcher([this, &preprocessor](const clang::Token& seen) {
    // The watcher sees the token the preprocessor is about to return, a non-const object of
    // its caller's: past a limit it becomes the end of the input, which ends the parse.
    auto& token = const_cast<clang::Token&>(seen);
    // After a fatal error (ours, max_errors reached, a missing include) clang shows nothing
    // more but would go on parsing to the end: a macro bomb then still took max_tokens.
    if (stopped_ || preprocessor.getDiagnostics().hasFatalErrorOccurred()) {
      stopped_ = true;
      token.setKind(clang::tok::eof);
      return;
    }
    std::string why;
    if (++tokens_ > limits_.max_tokens) {
      why = "the input expands to more than " + std::to_string(limits_.max_tokens) +
            " tokens (max_tokens of [compiler.clang])";
    } else if (stack_used() > FrontendLimits::stack_budget) {
      why = "the source nests too deeply (the parse used more than " +
            std::to_string(FrontendLimits::stack_budget >> 20) + " MiB of stack)";
    } else if (limits_.timeout.count() > 0 && tokens_ % 1024 == 0 &&
               std::chrono::steady_clock::now() - start_ > limits_.timeout) {
      why = "the frontend ran longer than " + std::to_string(limits_.timeout.count()) +
            " s (timeout_s of [compiler.clang])";
    } else {
      return;
    }
    stopped_ = true;
    clang::DiagnosticsEngine& diagnostics = preprocessor.getDiagnostics();
    const unsigned id = diagnostics.getCustomDiagID(clang::DiagnosticsEngine::Fatal, "%0");
    diagnostics.Report(token.getLocation(), id) << why;
    token.setKind(clang::tok::eof);
  });
}

namespace {
struct ThreadWork {
  const std::function<void()>* work;
  std::exception_ptr failure;
};

void* frontend_thread(void* argument) {
  auto& job = *static_cast<ThreadWork*>(argument);
  const char top = 0;
  stack_top = &top;
  try {
    (*job.work)();
  } catch (...) {
    job.failure = std::current_exception();
  }
  return nullptr;
}
}  // namespace

void run_on_frontend_thread(const std::function<void()>& work) {
  ThreadWork job{&work, nullptr};
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, FrontendLimits::frontend_stack);
  pthread_t thread;
  const int result = pthread_create(&thread, &attributes, frontend_thread, &job);
  pthread_attr_destroy(&attributes);
  if (result != 0) {
    throw error(error_category::internal,
                std::string("compiler clang: no thread for the frontend (") +
                    std::strerror(result) + "): the process is at its thread limit or out of "
                                            "memory for a " +
                    std::to_string(FrontendLimits::frontend_stack >> 20) + " MiB stack");
  }
  pthread_join(thread, nullptr);
  if (job.failure) std::rethrow_exception(job.failure);
}

}  // namespace plexus::clang_compiler

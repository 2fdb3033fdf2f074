// run_isolated: runs one step that a library may end the process in (an assertion, exit(),
// a segfault on malformed input: LLVM's bitcode reader, the SPIR-V translator) in a forked
// child process, so that whatever the step does, the caller gets its bytes or a message.
//
// The child is a fork of the caller: it sees the caller's memory as it was (no copying of
// inputs), runs `step` on the forking thread only, sends back what `step` wrote, and ends
// with _exit. Its stdout and stderr are captured (what an assertion or the library prints
// becomes the failure's message); exit() from inside the step is turned into _exit with
// the same status, so no atexit handler or static destructor of the caller's runs there;
// crash signals are reset to their defaults and core dumps are off.
//
// Cost: one fork and the pipe transfer of the result. The fork copies the caller's page
// tables, so it grows with the caller's resident memory: about 1 ms for a small process,
// 60 ms with 256 MiB more, 0.65 s with 4 GiB more on the 2-core development VM
// (plexus-bench-isolation, docs/benchmarks.md).
//
// Thread-safety: may be called from many threads at once. The step must not use other
// threads' locks (the child has only the forking thread): LLVM work on a module and
// context of the caller's own is fine. A child that takes longer than `timeout` is
// killed.
#pragma once

#include <chrono>
#include <functional>
#include <string>

#include "plexus/export.hpp"

namespace plexus {

struct IsolatedResult {
  // The step returned true and the child ended normally.
  bool succeeded = false;
  // What the step wrote to `output` (complete only when succeeded).
  std::string output;
  // When not succeeded: what went wrong, e.g. the step's own message, "it was ended by
  // signal 6 (Aborted)" or "it called exit(15)", followed by the child's last output lines
  // (the library's message).
  std::string failure;
};

// Runs step(output, message) in a child process. The step returns true on success (its
// `output` is sent back), false on a failure it detected (its `message` is sent back).
PLEXUS_API IsolatedResult run_isolated(
    const std::function<bool(std::string& output, std::string& message)>& step,
    std::chrono::seconds timeout = std::chrono::seconds(600));

}  // namespace plexus

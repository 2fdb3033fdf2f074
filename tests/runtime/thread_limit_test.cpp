// Threads the system refuses: a child process whose address space is limited (RLIMIT_AS:
// each thread's stack must fit) makes a Runtime that asks for 1000 dag workers and 1000 host
// launch threads (values inside their documented ranges). The runtime must start with fewer
// threads and a warning and work, or say plexus::error(resource); before, std::thread's std::system_error escaped the
// constructors and ended the process in std::terminate.
#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "runtime_test_support.hpp"

namespace {

std::size_t virtual_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t pages = 0;
  statm >> pages;
  return pages * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

std::string config(const std::string& scheduler, int workers, int threads) {
  return "[log]\nlevel = \"error\"\n[backends]\nuse = [\"host\"]\n[backends.host]\nthreads = " +
         std::to_string(threads) + "\n[scheduler]\nuse = \"" + scheduler + "\"\n[scheduler." +
         scheduler + "]\nworkers = " + std::to_string(workers) + "\n[cache]\nuse = \"memory\"\n";
}

// In a child process limited to its current address space plus `headroom` bytes: makes the
// runtime and runs a host task. The child's exit status: 0 worked, 2 a plexus::error of
// category resource, 3 another plexus::error, 4 the task did not run.
int run_limited(const std::string& toml, std::size_t headroom) {
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const rlimit limit{virtual_bytes() + headroom, virtual_bytes() + headroom};
    if (setrlimit(RLIMIT_AS, &limit) != 0) _exit(5);
    try {
      plexus::Runtime rt(plexus::Config::from_string(toml, "limit.toml"));
      int ran = 0;
      rt.host_task([&] { ran = 1; })->wait();
      _exit(ran == 1 ? 0 : 4);
    } catch (const plexus::error& failure) {
      _exit(failure.category() == plexus::error_category::resource ? 2 : 3);
    }
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);  // SIGABRT: std::terminate
  return WEXITSTATUS(status);
}

}  // namespace

TEST_CASE("a runtime whose threads the system refuses starts fewer, or says so") {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  WARN("skipped under ASan/TSan: their shadow memory does not fit an RLIMIT_AS");
  return;
#else
  for (const std::string scheduler : {"dag", "heft"}) {
    INFO("scheduler " << scheduler);
    // Loaded once here: the child shares the mapped plugins, so its headroom is for threads.
    plexus::Runtime loaded(plexus::Config::from_string(config(scheduler, 1, 1), "limit.toml"));
    // Room for a few 8 MiB stacks: far fewer than the 2 x 1000 threads asked for. The host
    // backend starts first and may take them all: then the scheduler, with none, is a
    // plexus::error(resource) (2). Before: SIGABRT (std::terminate), 128 + 6.
    const int result = run_limited(config(scheduler, 1000, 1000), std::size_t{96} << 20);
    CHECK((result == 0 || result == 2));
  }
#endif
}

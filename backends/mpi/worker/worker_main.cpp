// `plexus worker`: the process on every rank but 0 of an MPI job (worker.hpp).
#include <mpi.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include "../mpi_environment.hpp"
#include "plexus/config.hpp"
#include "native_libraries.hpp"
#include "plexus/error.hpp"
#include "worker.hpp"

namespace plexus::mpi {

namespace {

// MPI_Finalize on this (the main) thread, bounded as rank 0's (finalize_limit; seen waiting
// on a worker whose copy's source was killed). Past it the worker exits with `code`.
void finalize_within(std::chrono::seconds limit, int code) {
  std::mutex mutex;
  std::condition_variable finished_cv;
  bool finished = false;
  std::thread watchdog([&] {
    std::unique_lock lock(mutex);
    if (finished_cv.wait_for(lock, limit, [&] { return finished; })) return;
    std::cerr << "plexus worker: MPI_Finalize did not return within " << limit.count()
              << " s (a failed peer?): exiting without it" << std::endl;
    std::_Exit(code);
  });
  MPI_Finalize();
  {
    std::lock_guard lock(mutex);
    finished = true;
  }
  finished_cv.notify_one();
  watchdog.join();
}

constexpr const char* usage = R"(usage: plexus worker [--backends LIST] [--config FILE] [--native-library LIB.so]...
                     [--init-timeout SECONDS]

Serves this node's devices to rank 0 of an MPI job, the application, whose mpi backend
(PLEXUS_BACKENDS=mpi, or mpi beside local backends) lists them as its own devices. Start
it on every rank but 0, with mpirun:

  mpirun -np 1 ./app : -np 2 plexus worker

(--oversubscribe for more ranks than cores; --enable-recovery so that a worker's death does
not end the job: rank 0 then reports the tasks placed on it as failed, naming the node.)

  --backends LIST        the local backends to serve, comma-separated (default: the config's
                         backends without mpi, else host)
  --config FILE          the worker's config (default: PLEXUS_CONFIG, ./plexus.toml, ...)
  --native-library LIB   a shared library whose native functions (plexus::NativeFunction)
                         rank 0's native tasks call by name on this worker's devices; repeat
                         for several
  --init-timeout SECONDS how long to wait for rank 0 to start MPI (default 120)
  -h, --help             show this help
)";

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> names;
  std::stringstream in(list);
  for (std::string name; std::getline(in, name, ',');)
    if (!name.empty()) names.push_back(name);
  return names;
}

}  // namespace

int worker_main(const std::vector<std::string>& args) {
  std::vector<std::string> backends;
  std::optional<std::filesystem::path> config_path;
  std::vector<std::string> native_libraries;
  long init_timeout = 120;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) {
        std::cerr << "plexus worker: " << arg << " needs a value\n" << usage;
        std::exit(2);
      }
      return args[++i];
    };
    if (arg == "-h" || arg == "--help") {
      std::cout << usage;
      return 0;
    } else if (arg == "--backends") {
      backends = split(value());
    } else if (arg == "--config") {
      config_path = value();
    } else if (arg == "--native-library") {
      native_libraries.push_back(value());
    } else if (arg == "--init-timeout") {
      init_timeout = std::strtol(value().c_str(), nullptr, 10);
    } else {
      std::cerr << "plexus worker: unknown option '" << arg << "'\n" << usage;
      return 2;
    }
  }
  if (!launched_by_mpirun()) {
    std::cerr << "plexus worker: not started by mpirun: a worker serves rank 0 of an MPI job; "
              << launch_hint << '\n';
    return 2;
  }
  // MPI_Init waits for every rank; an application that never starts the mpi backend never
  // calls it. Bounded: say so and end (mpirun then ends the job).
  std::mutex init_mutex;
  std::condition_variable init_cv;
  bool init_done = false;
  std::thread watchdog([&] {
    std::unique_lock lock(init_mutex);
    if (!init_cv.wait_for(lock, std::chrono::seconds(init_timeout), [&] { return init_done; })) {
      std::cerr << "plexus worker: rank 0 did not start MPI within " << init_timeout
                << " s: does the application use the mpi backend (PLEXUS_BACKENDS=mpi or "
                   "mpi,host)? "
                << launch_hint << '\n';
      std::_Exit(1);
    }
  });
  int provided = 0;
  // Serialized: the worker's idle queue threads drive its engine (worker_queue.hpp).
  const int init = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided);
  {
    std::lock_guard lock(init_mutex);
    init_done = true;
  }
  init_cv.notify_one();
  watchdog.join();
  if (init != MPI_SUCCESS) {
    std::cerr << "plexus worker: MPI_Init failed\n";
    return 1;
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int code = 0;
  if (rank == 0) {
    std::cerr << "plexus worker: this is rank 0, where the application runs, not a worker; "
              << launch_hint << '\n';
    code = 1;
  } else {
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    std::string startup_failure;
    std::unique_ptr<LocalBackends> local;
    try {
      const Config config = Config::load(config_path);
      local = std::make_unique<LocalBackends>(config, backends);
      for (const std::string& each : local->unavailable())
        std::cerr << "plexus worker (rank " << rank << "): backend unavailable: " << each << '\n';
      if (local->devices().empty()) startup_failure = "the worker has no available device";
    } catch (const std::exception& e) {
      startup_failure = std::string("the worker cannot open its backends: ") + e.what();
      local = std::make_unique<LocalBackends>();
    }
    std::unique_ptr<NativeLibraries> natives;
    try {
      natives = std::make_unique<NativeLibraries>(native_libraries);
    } catch (const std::exception& e) {
      startup_failure += std::string(startup_failure.empty() ? "" : "; ") + e.what();
    }
    {
      Worker worker(*local, startup_failure);
      code = worker.serve(comm);
    }
    local.reset();
    natives.reset();  // after every queue that may have called its functions
    MPI_Comm_free(&comm);
  }
  finalize_within(finalize_limit, code);
  return code;
}

}  // namespace plexus::mpi

// How this process stands with MPI: whether a launcher (mpirun) started it, and making the
// MPI library usable from a plugin loaded with RTLD_LOCAL. Thread-safety: free functions,
// call from one thread at a time.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace plexus::mpi {

// True when mpirun (Open MPI, or a PMI/PMIx launcher) started this process. MPI_Init is
// never called otherwise: a singleton MPI process would start a daemon of its own.
bool launched_by_mpirun();

// Re-opens the MPI library with RTLD_GLOBAL (Open MPI's own components resolve libmpi's
// symbols globally) and keeps `anchor`'s library (this plugin) loaded until the process
// ends, so that MPI can be finalized at exit. Returns what went wrong, empty on success.
std::string pin_mpi_libraries(const void* anchor);

// The largest piece of a transfer that Open MPI's shared-memory transport sends eagerly (the
// send leaves at once; a larger message waits for the receiver's single-copy read and its
// acknowledgement): the eager limit the user's MCA settings give (btl_vader_eager_limit, read
// through MPI_T) less the ob1 header that shares it, rounded down to 64 bytes (4032 of the
// default 4096). 0 when that parameter cannot be read (another MPI, no vader transport).
// Call after MPI_Init.
std::size_t shared_memory_eager_bytes();

// How long a process waits for MPI_Finalize before it exits without it: the call may wait
// for a failed peer's process (Open MPI's last fence), and no exit may hang on a dead node.
inline constexpr std::chrono::seconds finalize_limit{10};

// The launch line, for messages.
inline constexpr const char* launch_hint =
    "launch the application as rank 0 and workers on the other ranks: mpirun -np 1 ./app : "
    "-np 2 plexus worker (add --oversubscribe for more ranks than cores, and "
    "--enable-recovery so that a worker's death does not end the job)";

}  // namespace plexus::mpi

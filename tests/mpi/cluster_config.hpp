// The config of the mpi tests' runtimes: the mpi backend alone (every device a worker's),
// `scheduler` and `memory`, the clang compiler, the memory cache store.
#pragma once

#include <string>

#include "plexus/config.hpp"

namespace plexus::test {

inline Config cluster_config(const std::string& scheduler, const std::string& memory) {
  return Config::from_string("[log]\nlevel = \"warn\"\n[backends]\nuse = [\"mpi\"]\n"
                             "[scheduler]\nuse = \"" + scheduler + "\"\n[memory]\nuse = \"" +
                                 memory + "\"\n[compiler]\nuse = \"clang\"\n"
                                 "[cache]\nuse = \"memory\"\n",
                             "cluster-test.toml");
}

}  // namespace plexus::test

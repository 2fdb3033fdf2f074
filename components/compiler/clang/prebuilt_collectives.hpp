// PrebuiltCollectives: the precompiled SYCL collectives (collectives_library.hpp) that the
// build made for the default command lines (tools/precompile_collectives: one per target
// the compiler offers), found the way the host device library is: option
// `sycl_collectives_dir`, else PLEXUS_SYCL_COLLECTIVES_DIR, else the build tree's
// lib/plexus/sycl_collectives when it exists, else the installed one ("" or none: nothing
// prebuilt; every library is built on demand, as for other command lines).
//
// One file per library, named by the Frontend's key of it (a hash of everything its bytes
// come from) and holding a CacheEntryFormat PCH entry of that key (checksum, the files it
// read from disk and their identity): a file that does not decode, names another key or
// whose disk files changed is not used (debug log) and the library is built instead.
// With `output_dir` set (option `sycl_collectives_output`, what the build step passes),
// every library the compiler builds is also written there (atomically: a temporary file
// renamed).
//
// Thread-safety: immutable after construction; load() and save() may run on many threads.
#pragma once

#include <memory>
#include <string>

#include "plexus/component_options.hpp"

namespace plexus::clang_compiler {

struct PrecompiledHeader;

class PrebuiltCollectives {
 public:
  PrebuiltCollectives() = default;
  PrebuiltCollectives(std::string dir, std::string output_dir)
      : dir_(std::move(dir)), output_dir_(std::move(output_dir)) {}
  // From [compiler.clang] sycl_collectives_dir and sycl_collectives_output (above).
  static PrebuiltCollectives from_options(const ComponentOptions& options);

  // The library of `key` from the directory, or nullptr (none there, or not usable).
  std::shared_ptr<const PrecompiledHeader> load(const std::string& key) const;
  // Writes `library` to output_dir (nothing without one); a failure is a warning.
  void save(const PrecompiledHeader& library) const;

  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;         // "" none
  std::string output_dir_;  // "" none
};

}  // namespace plexus::clang_compiler

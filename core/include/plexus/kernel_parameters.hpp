// kernel_parameters: a launch's arguments as the parameter array of a driver that takes one
// pointer per kernel parameter (CUDA's cuLaunchKernel and graph kernel nodes, HIP's
// hipModuleLaunchKernel): allocations and USM pass their address (held in `words`), scalars
// point at their bytes, and __local arguments get consecutive 16-byte-aligned parts of the
// launch's dynamic shared memory, each passed as its shared-memory address (in `words`):
// local_base() (called once, at the first __local argument) plus the part's offset.
// Pure function over the caller's storage: thread-safe.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "plexus/export.hpp"
#include "plexus/kernel_argument.hpp"

namespace plexus {

// `words` and `params` hold arguments.size() entries each; params[i] points into `words` or
// at argument i's value (valid as long as both). Returns the dynamic shared memory bytes the
// __local arguments take (0 without any).
PLEXUS_API std::size_t kernel_parameters(std::span<const KernelArgument> arguments,
                                         const std::function<std::uint64_t()>& local_base,
                                         std::uint64_t* words, void** params);

// The bytes of a laid-out launch's parameter values, one after another: a scalar's own bytes,
// the 8-byte word of any other argument. A graph's kernel node compares them to tell whether
// a replay changed its launch.
PLEXUS_API std::vector<std::byte> parameter_value_bytes(std::span<const KernelArgument> arguments,
                                                        void* const* params);

// kernel_parameters over storage of its own: up to 16 arguments in place (a launch allocates
// nothing), more on the heap. Not copyable or movable (params() points into it).
class KernelParameterArray {
 public:
  KernelParameterArray() = default;
  KernelParameterArray(const KernelParameterArray&) = delete;
  KernelParameterArray& operator=(const KernelParameterArray&) = delete;

  // Lays out `arguments` as kernel_parameters does; returns the dynamic shared memory bytes.
  std::size_t lay_out(std::span<const KernelArgument> arguments,
                      const std::function<std::uint64_t()>& local_base) {
    std::uint64_t* words = inline_words_.data();
    params_ = inline_params_.data();
    if (arguments.size() > inline_words_.size()) {
      heap_words_.resize(arguments.size());
      heap_params_.resize(arguments.size());
      words = heap_words_.data();
      params_ = heap_params_.data();
    }
    return kernel_parameters(arguments, local_base, words, params_);
  }
  void** params() const { return params_; }

 private:
  void** params_ = nullptr;
  std::array<std::uint64_t, 16> inline_words_;
  std::array<void*, 16> inline_params_;
  std::vector<std::uint64_t> heap_words_;
  std::vector<void*> heap_params_;
};

// `value` rounded up to a multiple of `alignment` (> 0).
inline std::size_t align_up(std::size_t value, std::size_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

}  // namespace plexus

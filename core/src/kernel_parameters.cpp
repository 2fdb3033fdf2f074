#include "plexus/kernel_parameters.hpp"

namespace plexus {
namespace {
constexpr std::size_t local_alignment = 16;
}  // namespace

std::size_t kernel_parameters(std::span<const KernelArgument> arguments,
                              const std::function<std::uint64_t()>& local_base,
                              std::uint64_t* words, void** params) {
  std::size_t dynamic_shared = 0;
  std::uint64_t base = 0;
  bool have_base = false;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const KernelArgument& argument = arguments[i];
    switch (argument.kind) {
      case KernelArgumentKind::allocation:
        words[i] = reinterpret_cast<std::uint64_t>(argument.allocation);
        params[i] = &words[i];
        break;
      case KernelArgumentKind::scalar:
        params[i] = const_cast<void*>(argument.value);
        break;
      case KernelArgumentKind::local:
        if (!have_base) {
          base = local_base();
          have_base = true;
        }
        words[i] = base + dynamic_shared;  // little-endian: a 4-byte pointer reads this too
        params[i] = &words[i];
        dynamic_shared += align_up(argument.size, local_alignment);
        break;
    }
  }
  return dynamic_shared;
}

std::vector<std::byte> parameter_value_bytes(std::span<const KernelArgument> arguments,
                                             void* const* params) {
  std::vector<std::byte> bytes;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::size_t size = arguments[i].kind == KernelArgumentKind::scalar
                                 ? arguments[i].size
                                 : sizeof(std::uint64_t);
    const auto* first = static_cast<const std::byte*>(params[i]);
    bytes.insert(bytes.end(), first, first + size);
  }
  return bytes;
}

}  // namespace plexus

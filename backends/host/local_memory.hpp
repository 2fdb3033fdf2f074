// place_local_variables: gives a kernel's __local variables (addrspace(3) globals under the
// fake address-space map) per-work-group storage. Inside `function` (a flat kernel entry
// whose parameter `state` is the work-item state), every use of such a global becomes an
// address inside the work-group's local block (state->local_base + offset), so concurrent
// work-groups never share them. Returns the bytes the variables take at the start of the
// block (a multiple of local_block_alignment).
// Thread-safety: touches only `function` and the globals it uses (one module per thread).
#pragma once

#include <cstddef>
#include <cstdint>

namespace llvm {
class Function;
class Value;
}  // namespace llvm

namespace plexus::host {

inline constexpr std::size_t local_block_alignment = 128;

// The address space of __local variables and pointers in kernels' bitcode (the fake
// address-space map of the compiler's llvm_bitcode target).
inline constexpr unsigned local_address_space = 3;

std::uint64_t place_local_variables(llvm::Function& function, llvm::Value& state);

// The pointer to the byte `offset` into the work-group's local block, as an addrspace(3)
// pointer, loaded from `state` at the start of `function`'s entry block.
llvm::Value* local_block_address(llvm::Function& function, llvm::Value& state, llvm::Value* offset);

}  // namespace plexus::host

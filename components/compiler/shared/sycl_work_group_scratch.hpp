// give_kernels_work_group_scratch: sycl_ext_oneapi_work_group_scratch_memory. The headers'
// get_work_group_scratch_memory() calls __plexus_sycl_work_group_scratch() (an opaque
// declaration returning a __local pointer). Here the functions between a kernel and those
// calls are inlined into it (kernel_inlining.hpp), and each kernel that calls it gets a last
// __local parameter, `scratch_parameter_name` (char*), that the calls become: a launch
// passes its size like any __local argument (plexus::work_group_scratch_size(bytes), last),
// and every target allocates it per work-group. Calls that no kernel reaches become null.
// Thread-safety: stateless; changes only `module`.
#pragma once

namespace llvm {
class Module;
}

namespace plexus::compiler_shared {

inline constexpr const char* scratch_function_name = "__plexus_sycl_work_group_scratch";
inline constexpr const char* scratch_parameter_name = "work_group_scratch_size";

// True when it changed `module`.
bool give_kernels_work_group_scratch(llvm::Module& module);

}  // namespace plexus::compiler_shared

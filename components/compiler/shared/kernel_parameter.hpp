// with_last_parameter: a kernel again with one parameter more at the end, its OpenCL argument
// metadata (kernel_arg_*) extended to match, so that KernelInspector, the SPIR-V translator
// and PoCL see the parameter like one the source declared. Used for the check record
// (bounds_checks.hpp) and the SYCL work-group scratch memory (sycl_work_group_scratch.hpp).
// Thread-safety: stateless; changes only the kernel's module.
#pragma once

#include <string>

namespace llvm {
class Function;
class Type;
}  // namespace llvm

namespace plexus::compiler_shared {

struct AddedParameter {
  llvm::Type* type = nullptr;      // a pointer type
  unsigned address_space = 0;      // as kernel_arg_addr_space names it (1 global, 3 local)
  std::string type_name;           // kernel_arg_type and kernel_arg_base_type ("uchar*")
  std::string name;                // the argument's and kernel_arg_name's
};

// The new kernel takes `kernel`'s name, body, attributes and uses; `kernel` is erased.
llvm::Function* with_last_parameter(llvm::Function& kernel, const AddedParameter& added);

}  // namespace plexus::compiler_shared

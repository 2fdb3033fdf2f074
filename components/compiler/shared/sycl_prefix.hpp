// SyclPrefix: which SYCL sources a compiler may compile with <sycl/sycl.hpp> precompiled
// (a Clang PCH of `text()`, given to the frontend as -include-pch), so that the result is
// the one a compile without it gives: the source's first line that is not blank or a
// comment must be `#include <sycl/sycl.hpp>` (nothing before it that could change how the
// headers parse), and nothing of the request may change which files the headers resolve
// to: no include-path or forced-include options (-I..., -i..., --include..., -F..., -nostdinc,
// --sysroot) and no virtual include file that could shadow a header the PCH holds (names
// under sycl/, CL/ or SyclSource::header_dir, Clang's opencl-c*.h, or absolute names).
// The user's other options are part of the PCH's key (they are its command line), so a
// change of any of them makes another PCH.
//
// Thread-safety: stateless (pure functions).
#pragma once

#include <string>
#include <string_view>

#include "plexus/compiler.hpp"

namespace plexus::compiler_shared {

class SyclPrefix {
 public:
  // The file compiled to the PCH, in the compiler's virtual directory.
  static constexpr const char* file_name = "__plexus_sycl_prefix.hpp";
  static constexpr std::string_view text = "#include <sycl/sycl.hpp>\n";

  // Whether `request` (SYCL source, with or without SyclSource's headers and entry points)
  // may use the PCH; `why` gets the reason when not.
  static bool applies(const CompileRequest& request, std::string& why);
};

}  // namespace plexus::compiler_shared

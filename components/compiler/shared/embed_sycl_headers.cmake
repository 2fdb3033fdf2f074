# Writes OUTPUT: a C++ source defining plexus::compiler_shared::sycl_header_files() with the
# content of every header under HEADER_DIR (run at build time; see CMakeLists.txt).
file(GLOB_RECURSE _headers RELATIVE ${HEADER_DIR} ${HEADER_DIR}/*.hpp)
list(SORT _headers)
set(_body "")
foreach(_header IN LISTS _headers)
  file(READ ${HEADER_DIR}/${_header} _content)
  string(APPEND _body "    {\"${_header}\", R\"pxsycl(${_content})pxsycl\"},\n")
endforeach()
file(WRITE ${OUTPUT}
"// Generated from components/compiler/shared/sycl_include by embed_sycl_headers.cmake.
#include \"sycl_source.hpp\"

namespace plexus::compiler_shared {

const std::vector<SyclHeaderFile>& sycl_header_files() {
  static const std::vector<SyclHeaderFile> files = {
${_body}  };
  return files;
}

}  // namespace plexus::compiler_shared
")

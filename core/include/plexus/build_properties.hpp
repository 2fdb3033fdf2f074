// BuildProperties: how Runtime::build compiles a source, as DPC++'s kernel_compiler
// properties say it (seed runtime-compilation.txt): the source language, build options,
// virtual include files and, for SYCL, the registered names of kernels that are not
// `extern "C"`.
//
//   plexus::BuildProperties properties;
//   properties.language = plexus::SourceLanguage::sycl;
//   properties.include_files = {{"params.hpp", "constexpr int N = 4;"}};
//   properties.build_options = {"-DSCALE=2"};
//   properties.registered_names = {"scale<float>"};
//   plexus::KernelBundle bundle = rt.build(source, properties);
//   bundle.kernel("vec_add");        // extern "C"
//   bundle.kernel("scale<float>");   // registered
//
// Plain data.
#pragma once

#include <string>
#include <vector>

#include "plexus/compiler.hpp"

namespace plexus {

struct BuildProperties {
  SourceLanguage language = SourceLanguage::opencl_c;  // opencl_c, cpp_for_opencl or sycl
  std::vector<std::string> build_options;               // each one or more options
  std::vector<VirtualFile> include_files;               // found by #include "name" and <name>
  std::vector<std::string> registered_names;            // sycl only
};

}  // namespace plexus

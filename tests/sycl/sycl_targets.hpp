// The devices the SYCL runtime tests run on: the host device, PoCL's where the opencl
// backend is built, and CUDA's where there is a CUDA device (the GPU machine; quietly
// absent elsewhere), in one runtime (memory/whole; scheduler/inorder unless given).
#pragma once

#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "runtime_test_support.hpp"

namespace plexus::test {

struct SyclTargets {
  std::unique_ptr<plexus::Runtime> runtime;
  std::vector<plexus::Device*> devices;
};

inline SyclTargets sycl_targets(const std::string& scheduler = "inorder") {
  SyclTargets t;
  std::string backends = "\"host\"";
#ifdef PLEXUS_TEST_HAVE_OPENCL_BACKEND
  backends += ", \"opencl\"";
#endif
#ifdef PLEXUS_TEST_HAVE_CUDA_BACKEND
  backends += ", \"cuda\"";
#endif
  t.runtime = make_runtime({scheduler, "whole"}, backends);
  t.devices = t.runtime->devices();
  REQUIRE(!t.devices.empty());
#ifdef PLEXUS_TEST_HAVE_OPENCL_BACKEND
  REQUIRE(t.devices.size() >= 2);  // PoCL is installed wherever Plexus builds
#endif
  return t;
}

inline plexus::BuildProperties sycl_properties(std::vector<std::string> registered = {}) {
  plexus::BuildProperties properties;
  properties.language = plexus::SourceLanguage::sycl;
  properties.registered_names = std::move(registered);
  return properties;
}

// `source` (SYCL) built for every device of `t`.
inline plexus::KernelBundle build_sycl(const SyclTargets& t, const std::string& source) {
  return t.runtime->build(source, sycl_properties());
}

}  // namespace plexus::test

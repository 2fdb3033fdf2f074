// USM copies in a trace ([trace] file): a memcpy into device memory is a host->device copy,
// one out of it a device->host copy, on the device that ran them (PoCL).
#include <catch2/catch.hpp>

#include <boost/json.hpp>
#include <boost/json/src.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "runtime_test_support.hpp"

TEST_CASE("USM copies are traced in their direction") {
  plexus::test::TempDir dir;
  const auto file = dir.path() / "usm-trace.json";
  {
    auto rt = plexus::test::make_runtime({"inorder", "whole"}, "\"host\", \"opencl\"",
                                         "[trace]\nfile = \"" + file.string() + "\"\n");
    plexus::Device* pocl = plexus::test::device_with_own_memory(*rt);
    if (!pocl) {
      WARN("skipped: no device with its own memory (PoCL)");
      return;
    }
    plexus::Queue q = rt->queue(*pocl);
    std::vector<int> host(1024, 5), back(1024);
    int* data = plexus::malloc_device<int>(host.size(), q);
    q.memcpy(data, host.data(), host.size() * sizeof(int));
    q.memcpy(back.data(), data, back.size() * sizeof(int)).wait();
    CHECK(back == host);
    plexus::free(data, q);
  }  // the trace is written at shutdown
  std::ifstream in(file);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  int to_device = 0, to_host = 0;
  const boost::json::value trace = boost::json::parse(text.str());
  for (const auto& value : trace.at("traceEvents").as_array()) {
    const auto& event = value.as_object();
    if (event.at("ph").as_string() != "X" || event.at("cat").as_string() != "copy") continue;
    to_device += event.at("name").as_string() == "copy host->device";
    to_host += event.at("name").as_string() == "copy device->host";
  }
  CHECK(to_device == 1);
  CHECK(to_host == 1);
}

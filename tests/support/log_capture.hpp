// LogCapture: everything the plexus logger prints while it lives (warnings and above by
// default), for tests that check what was logged. Not thread-safe itself: make and read it
// on the test's thread (the sink it adds is, so any thread may log meanwhile).
#pragma once

#include <spdlog/sinks/ostream_sink.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <sstream>
#include <string>

#include "plexus/log.hpp"

namespace plexus::test {

class LogCapture {
 public:
  LogCapture() : sink_(std::make_shared<spdlog::sinks::ostream_sink_mt>(text_)) {
    plexus::logger().sinks().push_back(sink_);
  }
  ~LogCapture() {
    auto& sinks = plexus::logger().sinks();
    sinks.erase(std::remove(sinks.begin(), sinks.end(), sink_), sinks.end());
  }
  LogCapture(const LogCapture&) = delete;
  LogCapture& operator=(const LogCapture&) = delete;

  std::string text() const { return text_.str(); }
  // How many times `part` occurs.
  std::size_t count(const std::string& part) const {
    const std::string all = text();
    std::size_t n = 0;
    for (auto at = all.find(part); at != std::string::npos; at = all.find(part, at + part.size())) ++n;
    return n;
  }

 private:
  std::ostringstream text_;
  std::shared_ptr<spdlog::sinks::ostream_sink_mt> sink_;
};

}  // namespace plexus::test

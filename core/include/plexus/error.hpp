// plexus::error: the one exception type Plexus throws on bad input or failed operations.
// Each carries a category (what part of the system refused) and a message that says
// what went wrong, where, and what to do. Thread-safety: immutable after construction.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "plexus/export.hpp"

namespace plexus {

enum class error_category {
  config,        // configuration file or environment override
  plugin,        // plugin discovery, loading, ABI handshake
  unsupported,   // a feature the selected component or device does not offer
  invalid_argument,
  device,        // a driver or device reported a failure
  build,         // kernel compilation or linking
  io,            // files, directories, locks
  internal,
  resource,      // the system refused a resource: a thread, memory, a time limit
  cancelled,     // the work was cancelled (TaskEvent::cancel, Event::cancel)
};

PLEXUS_API std::string_view to_string(error_category category);

class PLEXUS_API error : public std::runtime_error {
 public:
  error(error_category category, const std::string& message);
  ~error() override;

  error_category category() const noexcept { return category_; }

 private:
  error_category category_;
};

}  // namespace plexus

// switch_option: an instrumentation a compiler component turns on by an option, "none" (the
// default) or `on` (`checks = "bounds"`, `cancel = "work_group"`), which an environment
// variable overrides whatever the file says (`1` or `on`: on; `0` or `none`: off). Another
// value of either is a plexus::error(config) naming it and the values allowed, with
// `what_on` / `what_off` saying what each means ("checked kernels", "unchecked").
// Thread-safety: reads the options and the environment only.
#pragma once

#include <string>

#include "plexus/component_options.hpp"

namespace plexus::compiler_shared {

bool switch_option(const ComponentOptions& options, const std::string& key, const std::string& on,
                   const char* variable, const std::string& what_on, const std::string& what_off);

}  // namespace plexus::compiler_shared

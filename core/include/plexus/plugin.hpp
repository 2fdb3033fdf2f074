// plugin.hpp: what a plugin's registration.cpp includes. One line registers a component:
//
//   #include "plexus/plugin.hpp"
//   PLEXUS_PLUGIN(scheduler, fifo, FifoScheduler, "1.0.0", "runs tasks in submission order")
//
// KIND is one of: backend scheduler memory cache compiler fusion; NAME is [a-z0-9_]
// without "__"; CLASS derives from that kind's interface and has a constructor taking
// plexus::PluginContext&. The macro emits the descriptor and the Boost.DLL alias
// plexus_plugin_abi<ABI>__<KIND>__<NAME> in the "plexus" section (see plugin_abi.h).
// Use it exactly once per plugin library.
//
// Options: CLASS may declare `static void check_options(const plexus::ComponentOptions&)`,
// which reads every option the constructor reads, the same way (share one function with
// the constructor), and nothing else: the core calls it for `[<kind>.<name>]` tables of an
// implementation the config does not select, so that their mistakes are reported with
// file:line:col as a selected one's are, and unknown keys are warned about. Without it,
// such a table gets a warning that its options cannot be checked.
#pragma once

#include <boost/dll/alias.hpp>

#include "plexus/build_fingerprint.hpp"
#include "plexus/component.hpp"
#include "plexus/component_kind.hpp"
#include "plexus/plugin_abi.h"
#include "plexus/plugin_context.hpp"

namespace plexus::detail {
// CLASS::check_options as the descriptor's C entry, or nullptr when CLASS declares none.
template <class Class>
constexpr void (*plugin_options_check())(const void*) {
  if constexpr (requires(const ComponentOptions& options) { Class::check_options(options); }) {
    return [](const void* options) {
      Class::check_options(*static_cast<const ComponentOptions*>(options));
    };
  } else {
    return nullptr;
  }
}
}  // namespace plexus::detail

#define PLEXUS_PLUGIN_CAT3(a, b, c) a##b##c
#define PLEXUS_PLUGIN_SYMBOL(abi, kind, name) \
  PLEXUS_PLUGIN_CAT3(plexus_plugin_abi, abi, __##kind##__##name)

#define PLEXUS_PLUGIN(KIND, NAME, CLASS, VERSION, DESCRIPTION) \
  PLEXUS_PLUGIN_WITH_ABI(PLEXUS_PLUGIN_ABI_TOKEN, KIND, NAME, CLASS, VERSION, DESCRIPTION)

// The same with an explicit ABI number: only for tests of the core's ABI check.
#define PLEXUS_PLUGIN_WITH_ABI(ABI, KIND, NAME, CLASS, VERSION, DESCRIPTION)                   \
  static_assert(CLASS::kind == ::plexus::ComponentKind::KIND,                                   \
                #CLASS " does not implement the " #KIND " interface");                          \
  namespace {                                                                                   \
  void* plexus_plugin_create(void* context) {                                                   \
    ::plexus::Component* component =                                                            \
        new CLASS(*static_cast<::plexus::PluginContext*>(context));                              \
    return static_cast<void*>(component);                                                       \
  }                                                                                             \
  const plexus_plugin_descriptor plexus_plugin_descriptor_value = {                             \
      static_cast<uint32_t>(ABI), sizeof(plexus_plugin_descriptor), #KIND, #NAME, VERSION,      \
      DESCRIPTION, PLEXUS_BUILD_FINGERPRINT, &plexus_plugin_create,                             \
      ::plexus::detail::plugin_options_check<CLASS>()};                                         \
  const plexus_plugin_descriptor* plexus_plugin_entry(uint32_t) {                               \
    return &plexus_plugin_descriptor_value;                                                     \
  }                                                                                             \
  }                                                                                             \
  BOOST_DLL_ALIAS_SECTIONED(plexus_plugin_entry, PLEXUS_PLUGIN_SYMBOL(ABI, KIND, NAME), plexus)

// PluginLibrary: one loaded plugin: its shared library (RTLD_LOCAL | RTLD_NOW, never
// RTLD_DEEPBIND) and its checked descriptor.
//
// load() checks, before any C++ object of the plugin is touched: the entry symbol is
// present, the descriptor's ABI version and size match this core, kind and name match the
// listing, and the build fingerprint is compatible (libstdc++ ABI, sanitizer). Every
// failure throws plexus::error(plugin) naming the file and the cause.
//
// Ownership: objects made by create() keep the library loaded (they hold a shared_ptr to
// it) and are destroyed before it is unloaded. Thread-safety: safe from any thread.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "plexus/component.hpp"
#include "plexus/export.hpp"
#include "plexus/plugin_context.hpp"
#include "plexus/plugin_listing.hpp"

namespace plexus {

class PLEXUS_API PluginLibrary : public std::enable_shared_from_this<PluginLibrary> {
 public:
  class Impl;

  static std::shared_ptr<PluginLibrary> load(const PluginListing& listing);
  ~PluginLibrary();

  const PluginListing& listing() const;
  std::string version() const;
  std::string description() const;
  std::string build_fingerprint() const;

  // Calls the plugin's factory. The component keeps this library loaded.
  std::shared_ptr<Component> create(PluginContext& context);
  // Whether the plugin declares an option check (plugin.hpp: CLASS::check_options).
  bool checks_options() const;
  // Reads `options` as the component would, without creating it: plexus::error(config) for a
  // bad value (as create() reports one); does nothing when the plugin declares no check.
  void check_options(const ComponentOptions& options) const;

 private:
  explicit PluginLibrary(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace plexus

#include "plexus/plugin_library.hpp"

#include <boost/dll/shared_library.hpp>

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

#include "build_fingerprint.hpp"
#include "plexus/build_fingerprint.hpp"
#include "plexus/error.hpp"
#include "plexus/plugin_abi.h"

namespace plexus {

class PluginLibrary::Impl {
 public:
  boost::dll::shared_library library;
  PluginListing listing;
  const plexus_plugin_descriptor* descriptor = nullptr;
  void (*check_options)(const void*) = nullptr;  // nullptr: none, or an older descriptor
  std::string version, description, fingerprint;  // copied out of the plugin's memory
};

namespace {

[[noreturn]] void refuse(const PluginListing& listing, const std::string& why) {
  throw error(error_category::plugin, "plugin file " + listing.path.string() + ": " + why);
}

// Boost wraps dlerror() in its own text; keep the part a user can act on.
std::string dlopen_reason(const std::exception& failure) {
  std::string text = failure.what();
  const std::string marker = "dlerror system message: ";
  if (auto at = text.find(marker); at != std::string::npos) {
    text = text.substr(at + marker.size());
    if (!text.empty() && text.back() == ')') text.pop_back();
  }
  return text;
}

std::string text_or_empty(const char* text) { return text ? text : ""; }

// PLEXUS_KEEP_PLUGINS_LOADED=1: plugin libraries stay mapped until the process exits
// (RTLD_NODELETE), so that LeakSanitizer and other tools that report at exit can name code
// in plugins (an unloaded plugin's frames show as "<unknown module>").
void keep_loaded_if_asked(const std::filesystem::path& path) {
  const char* keep = std::getenv("PLEXUS_KEEP_PLUGINS_LOADED");
  if (!keep || std::strcmp(keep, "1") != 0) return;
  // A second reference with RTLD_NODELETE (RTLD_NOLOAD: the library is already loaded);
  // never closed, so the library stays.
  dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD | RTLD_NODELETE);
}

}  // namespace

std::shared_ptr<PluginLibrary> PluginLibrary::load(const PluginListing& listing) {
  auto impl = std::make_unique<Impl>();
  impl->listing = listing;
  try {
    // RTLD_LOCAL keeps each plugin's symbols to itself; RTLD_NOW reports unresolved
    // symbols here, as an error, rather than as a crash at first use.
    impl->library.load(listing.path, boost::dll::load_mode::rtld_local |
                                         boost::dll::load_mode::rtld_now);
  } catch (const std::exception& failure) {
    refuse(listing, "cannot be loaded: " + dlopen_reason(failure) +
                        " (a library it needs may be missing: check `ldd " +
                        listing.path.string() + "`)");
  }
  keep_loaded_if_asked(listing.path);
  if (!impl->library.has(listing.entry_symbol)) {
    refuse(listing, "its entry symbol '" + listing.entry_symbol + "' is not exported");
  }
  auto& entry = impl->library.get_alias<const plexus_plugin_descriptor*(std::uint32_t)>(
      listing.entry_symbol);
  const plexus_plugin_descriptor* descriptor = entry(PLEXUS_PLUGIN_ABI_VERSION);
  if (!descriptor) refuse(listing, "its entry returned no descriptor");
  if (descriptor->abi_version != PLEXUS_PLUGIN_ABI_VERSION) {
    refuse(listing, "built for plugin ABI " + std::to_string(descriptor->abi_version) +
                        ", but this core implements plugin ABI " +
                        std::to_string(PLEXUS_PLUGIN_ABI_VERSION) +
                        ": rebuild the plugin against this Plexus SDK");
  }
  // A plugin built before check_options was added has the shorter descriptor: loaded, with
  // no option check.
  if (descriptor->descriptor_size != sizeof(plexus_plugin_descriptor) &&
      descriptor->descriptor_size != PLEXUS_PLUGIN_DESCRIPTOR_SIZE_WITHOUT_OPTIONS) {
    refuse(listing, "descriptor size " + std::to_string(descriptor->descriptor_size) +
                        " does not match this core's " +
                        std::to_string(sizeof(plexus_plugin_descriptor)));
  }
  if (text_or_empty(descriptor->kind) != to_string(listing.kind) ||
      text_or_empty(descriptor->name) != listing.name) {
    refuse(listing, "descriptor says " + text_or_empty(descriptor->kind) + " '" +
                        text_or_empty(descriptor->name) + "' but its entry symbol says " +
                        std::string(to_string(listing.kind)) + " '" + listing.name + "'");
  }
  if (auto mismatch = detail::fingerprint_mismatch(PLEXUS_BUILD_FINGERPRINT,
                                                   text_or_empty(descriptor->build_fingerprint))) {
    refuse(listing, "incompatible build: " + *mismatch);
  }
  if (!descriptor->create) refuse(listing, "descriptor has no factory");
  impl->descriptor = descriptor;
  if (descriptor->descriptor_size == sizeof(plexus_plugin_descriptor))
    impl->check_options = descriptor->check_options;
  impl->version = text_or_empty(descriptor->version);
  impl->description = text_or_empty(descriptor->description);
  impl->fingerprint = text_or_empty(descriptor->build_fingerprint);
  return std::shared_ptr<PluginLibrary>(new PluginLibrary(std::move(impl)));
}

PluginLibrary::PluginLibrary(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PluginLibrary::~PluginLibrary() = default;

const PluginListing& PluginLibrary::listing() const { return impl_->listing; }
std::string PluginLibrary::version() const { return impl_->version; }
std::string PluginLibrary::description() const { return impl_->description; }
std::string PluginLibrary::build_fingerprint() const { return impl_->fingerprint; }

bool PluginLibrary::checks_options() const { return impl_->check_options != nullptr; }

void PluginLibrary::check_options(const ComponentOptions& options) const {
  if (!impl_->check_options) return;
  const std::string who = std::string(to_string(impl_->listing.kind)) + " '" +
                          impl_->listing.name + "' (not selected; " +
                          impl_->listing.path.string() + ")";
  try {
    impl_->check_options(&options);
  } catch (const error& failure) {
    throw error(failure.category(), who + ": " + failure.what());
  } catch (const std::exception& failure) {
    throw error(error_category::plugin, who + ": its option check failed: " + failure.what());
  }
}

std::shared_ptr<Component> PluginLibrary::create(PluginContext& context) {
  void* raw = nullptr;
  const std::string who = std::string(to_string(impl_->listing.kind)) + " '" +
                          impl_->listing.name + "' (" + impl_->listing.path.string() + ")";
  try {
    raw = impl_->descriptor->create(&context);
  } catch (const error& failure) {
    throw error(failure.category(), who + ": " + failure.what());
  } catch (const std::exception& failure) {
    throw error(error_category::plugin, who + " failed to start: " + failure.what());
  }
  if (!raw) throw error(error_category::plugin, who + ": its factory returned nothing");
  // The deleter holds the library: the object is destroyed first, then the library may go.
  return std::shared_ptr<Component>(static_cast<Component*>(raw),
                                    [library = shared_from_this()](Component* component) {
                                      delete component;
                                    });
}

}  // namespace plexus

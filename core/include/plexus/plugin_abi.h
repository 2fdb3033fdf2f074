/* plugin_abi.h: the one binary contract between libplexus-core and a plugin.
 *
 * Standalone C, no other Plexus header: the core reads a plugin's descriptor and
 * checks it before it touches any C++ object the plugin defines.
 *
 * A plugin exports exactly one entry, a Boost.DLL alias placed in the ELF section
 * PLEXUS_PLUGIN_SECTION_NAME, named
 *     plexus_plugin_abi<ABI>__<kind>__<name>
 * so that tools can list plugins (and refuse another ABI) without loading them.
 * The alias points to a function of type plexus_plugin_entry_fn.
 *
 * Thread-safety: the entry may be called from any thread, more than once; it returns
 * a pointer to static, immutable data that lives as long as the library is loaded.
 */
#ifndef PLEXUS_PLUGIN_ABI_H
#define PLEXUS_PLUGIN_ABI_H

#include <stddef.h>
#include <stdint.h>

/* The ABI as a bare token (for symbol names) and as a number. */
#define PLEXUS_PLUGIN_ABI_TOKEN 5
#define PLEXUS_PLUGIN_ABI_VERSION ((uint32_t)PLEXUS_PLUGIN_ABI_TOKEN)
#define PLEXUS_PLUGIN_SECTION_NAME "plexus"
#define PLEXUS_PLUGIN_SYMBOL_PREFIX "plexus_plugin_abi"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct plexus_plugin_descriptor {
  uint32_t abi_version;          /* PLEXUS_PLUGIN_ABI_VERSION the plugin was built with */
  uint32_t descriptor_size;      /* sizeof(plexus_plugin_descriptor) in that ABI */
  const char* kind;              /* "backend", "scheduler", "memory", "cache", "compiler", "fusion" */
  const char* name;              /* [a-z0-9_]+, unique per kind */
  const char* version;           /* the plugin's own version, free text ("1.2.0") */
  const char* description;       /* one line for `plexus info` */
  const char* build_fingerprint; /* "key=value;..." (see plexus/build_fingerprint.hpp) */
  /* ABI 1 and 2 (2: USM in Device and DeviceQueue): takes a plexus::PluginContext*, returns a new plexus::Component* that the
   * caller owns (delete through the virtual destructor); may throw plexus::error. */
  void* (*create)(void* plugin_context);
  /* Since the descriptor grew (descriptor_size covers it; plugins built before lack it):
   * takes a const plexus::ComponentOptions* (the component's `[<kind>.<name>]` table) and
   * reads every option as the component's constructor does, without creating the component:
   * throws plexus::error(config) for a bad value. NULL: the plugin declares no such check.
   * The core calls it for the option tables of implementations the config does not select. */
  void (*check_options)(const void* component_options);
} plexus_plugin_descriptor;

/* The size of a descriptor without check_options (plugins built before it; still loaded). */
#define PLEXUS_PLUGIN_DESCRIPTOR_SIZE_WITHOUT_OPTIONS \
  ((uint32_t)offsetof(plexus_plugin_descriptor, check_options))

/* host_abi_version: the ABI the loading core implements. */
typedef const plexus_plugin_descriptor* (*plexus_plugin_entry_fn)(uint32_t host_abi_version);

#ifdef __cplusplus
}
#endif

#endif /* PLEXUS_PLUGIN_ABI_H */

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

#include <stdint.h>

/* The ABI as a bare token (for symbol names) and as a number. */
#define PLEXUS_PLUGIN_ABI_TOKEN 2
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
} plexus_plugin_descriptor;

/* host_abi_version: the ABI the loading core implements. */
typedef const plexus_plugin_descriptor* (*plexus_plugin_entry_fn)(uint32_t host_abi_version);

#ifdef __cplusplus
}
#endif

#endif /* PLEXUS_PLUGIN_ABI_H */

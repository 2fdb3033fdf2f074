// compiler_source_digest: the SHA-256 of the compiler components' own sources (passes, SYCL
// headers, emitters), computed at build time (source_digest.cmake). Persistent compile
// caches key their entries with it: LLVM's version and the component's version do not
// change when a pass does, and an entry an older compiler stored must not be served by a
// newer one. Thread-safety: a constant.
#pragma once

namespace plexus::compiler_shared {

const char* compiler_source_digest();

}  // namespace plexus::compiler_shared

// The build fingerprint: the facts about how a binary was compiled that decide whether
// C++ objects can cross between the core and a plugin. Computed by the preprocessor in
// whichever binary includes this header, so the core and each plugin each carry their own.
//
// Fields that must match (a mismatch refuses the plugin): cxx11abi (libstdc++ dual ABI),
// sanitizer (except that a plugin built without one loads into a sanitized core, as the
// uninstrumented LLVM libraries do). Fields shown for information: compiler.
#pragma once

#define PLEXUS_FP_STR2(x) #x
#define PLEXUS_FP_STR(x) PLEXUS_FP_STR2(x)

#if defined(_GLIBCXX_USE_CXX11_ABI)
#define PLEXUS_FP_CXX11ABI PLEXUS_FP_STR(_GLIBCXX_USE_CXX11_ABI)
#else
#define PLEXUS_FP_CXX11ABI "none"
#endif

#if defined(__SANITIZE_ADDRESS__)
#define PLEXUS_FP_SANITIZER "address"
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PLEXUS_FP_SANITIZER "address"
#endif
#endif
#ifndef PLEXUS_FP_SANITIZER
#define PLEXUS_FP_SANITIZER "none"
#endif

#if defined(__clang__)
#define PLEXUS_FP_COMPILER "clang-" PLEXUS_FP_STR(__clang_major__)
#elif defined(__GNUC__)
#define PLEXUS_FP_COMPILER "gcc-" PLEXUS_FP_STR(__GNUC__)
#else
#define PLEXUS_FP_COMPILER "unknown"
#endif

#define PLEXUS_BUILD_FINGERPRINT \
  "cxx11abi=" PLEXUS_FP_CXX11ABI ";sanitizer=" PLEXUS_FP_SANITIZER ";compiler=" PLEXUS_FP_COMPILER

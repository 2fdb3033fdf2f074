// Plexus's SYCL device headers: what SYCL free-function kernels compiled at run time
// (SourceLanguage::sycl, DPC++'s kernel_compiler language) may use. Device code only: the
// compilers give these files to the frontend (C++ for OpenCL 1.0, see
// components/compiler/clang/README.md, "SYCL source"); there is no host side.
#pragma once

// C++ for OpenCL's unprefixed qualifiers are ordinary names in SYCL (`size_t local = ...`,
// `sycl::read_write`): renamed here, so they stay names (Plexus's headers use only the
// __-prefixed forms).
#define global __plexus_sycl_name_global
#define local __plexus_sycl_name_local
#define constant __plexus_sycl_name_constant
#define generic __plexus_sycl_name_generic
#define kernel __plexus_sycl_name_kernel
#define read_only __plexus_sycl_name_read_only
#define write_only __plexus_sycl_name_write_only
#define read_write __plexus_sycl_name_read_write
#define pipe __plexus_sycl_name_pipe
// OpenCL's half type is storage-only without cl_khr_fp16: `half` names sycl::half (half.hpp),
// and the builtin type stays reachable as __fp16.
#define half __plexus_sycl_name_half

#include <sycl/plexus/properties.hpp>
#include <sycl/plexus/id_range.hpp>
#include <sycl/plexus/functional.hpp>
#include <sycl/plexus/half.hpp>
#include <sycl/plexus/vec.hpp>
#include <sycl/plexus/math.hpp>
#include <sycl/plexus/atomic.hpp>
#include <sycl/plexus/nd_item.hpp>
#include <sycl/plexus/local_memory.hpp>
#include <sycl/plexus/group_algorithms.hpp>
#include <sycl/plexus/printf.hpp>

// The OpenCL C API as this backend uses it: version 3.0 headers plus the extension
// constants (cl_khr_icd, cl_nv_device_attribute_query). Include this, never <CL/cl.h>.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>
#include <CL/cl_ext.h>

// clatomics/opencl.hpp — OpenCL-CLHPP with the settings every clatomics translation unit shares.
// The CMake target sets these as PUBLIC definitions; the defaults here serve builds without it.
#pragma once

#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION 300
#endif
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
#define CL_HPP_MINIMUM_OPENCL_VERSION 110  // runs on OpenCL 1.2 platforms too
#endif
#ifndef CL_HPP_ENABLE_EXCEPTIONS
#define CL_HPP_ENABLE_EXCEPTIONS
#endif
#include <CL/opencl.hpp>

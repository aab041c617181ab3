# bench/cub_yardsticks.cu: CUB's figures for the rows of `clatomics bench --suite algorithms`.
# Built where a CUDA compiler is found, skipped (a status line) where none is: a machine without
# CUDA builds everything else as before.
option(CLATOMICS_BUILD_CUB_YARDSTICKS "Build bench/cub_yardsticks.cu where a CUDA compiler is found" ON)
if(NOT CLATOMICS_BUILD_CUB_YARDSTICKS)
  return()
endif()
if(CMAKE_VERSION VERSION_LESS 3.18)
  message(STATUS "cub_yardsticks: skipped (CUDA as C++17 needs CMake 3.18)")
  return()
endif()
include(CheckLanguage)
check_language(CUDA)
if(NOT CMAKE_CUDA_COMPILER)
  message(STATUS "cub_yardsticks: skipped (no CUDA compiler found)")
  return()
endif()
# CUB picks its tuning by the architecture it is compiled for, so the compiler's default (an old
# one) would time an untuned CUB: without a choice of the user's (CMAKE_CUDA_ARCHITECTURES or
# CUDAARCHS), sm_90, the H100 and H200 these figures are for.
set(clatomics_cub_architectures "")
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
  set(clatomics_cub_architectures 90)
endif()
enable_language(CUDA)
add_executable(cub_yardsticks "${PROJECT_SOURCE_DIR}/bench/cub_yardsticks.cu")
set_target_properties(cub_yardsticks PROPERTIES CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON)
if(clatomics_cub_architectures)
  set_target_properties(cub_yardsticks PROPERTIES CUDA_ARCHITECTURES "${clatomics_cub_architectures}")
endif()
message(STATUS "cub_yardsticks: built with ${CMAKE_CUDA_COMPILER}")

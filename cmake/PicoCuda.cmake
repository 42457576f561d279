# SPDX-License-Identifier: BSD-3-Clause
# CUDA and NCCL detection for the NCCL backend and the GPU compression kernels.
#
# PICO_WITH_NCCL: AUTO (default) builds the GPU parts when nvcc and NCCL are
# found; ON insists (configure fails with what is missing); OFF never looks.
# Sets PICO_NCCL_ENABLED and, when on, the imported targets pico::cuda (the
# CUDA runtime and the NCCL headers: enough to count devices and name the
# NCCL version, for the front end) and pico::nccl (adds libnccl: the workers).
set(PICO_WITH_NCCL AUTO CACHE STRING "Build the NCCL backend and CUDA kernels: AUTO, ON or OFF")
set_property(CACHE PICO_WITH_NCCL PROPERTY STRINGS AUTO ON OFF)
set(PICO_NCCL_ENABLED OFF)
if(PICO_WITH_NCCL STREQUAL "OFF")
  return()
endif()

# The toolkit's default prefix is not on PATH on most machines.
if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS /usr/local/cuda/bin/nvcc)
  set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
endif()
include(CheckLanguage)
check_language(CUDA)
set(_pico_nccl_missing "")
if(NOT CMAKE_CUDA_COMPILER)
  set(_pico_nccl_missing "nvcc (set CMAKE_CUDA_COMPILER or CUDACXX)")
else()
  # A100 (Leonardo, Perlmutter) and H100/H200; add yours with -DCMAKE_CUDA_ARCHITECTURES=...
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 80 90)
  endif()
  enable_language(CUDA)
  # CMake 3.25 does not know nvcc's C++20 flag; nvcc 12+ takes -std=c++20.
  set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
  set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
  set(CMAKE_CUDA_STANDARD 20)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  find_package(CUDAToolkit REQUIRED)
  find_path(PICO_NCCL_INCLUDE_DIR nccl.h HINTS ENV NCCL_HOME ${CUDAToolkit_INCLUDE_DIRS} PATH_SUFFIXES include)
  find_library(PICO_NCCL_LIBRARY nccl HINTS ENV NCCL_HOME ${CUDAToolkit_LIBRARY_DIR} PATH_SUFFIXES lib lib64)
  if(NOT PICO_NCCL_INCLUDE_DIR OR NOT PICO_NCCL_LIBRARY)
    set(_pico_nccl_missing "NCCL (nccl.h and libnccl; set NCCL_HOME)")
  endif()
endif()

if(_pico_nccl_missing)
  if(PICO_WITH_NCCL STREQUAL "ON")
    message(FATAL_ERROR "PICO_WITH_NCCL=ON but ${_pico_nccl_missing} was not found")
  endif()
  message(STATUS "NCCL backend: off (${_pico_nccl_missing} not found)")
  return()
endif()

set(PICO_NCCL_ENABLED ON)
# libnccl stays a shared library (found through its soname at run time, so a
# cluster's or a Python environment's NCCL can stand in); the CUDA runtime is
# linked statically, so a machine needs only its driver and libnccl.so.2.
add_library(pico::cuda INTERFACE IMPORTED)
target_include_directories(pico::cuda INTERFACE ${PICO_NCCL_INCLUDE_DIR})
target_link_libraries(pico::cuda INTERFACE CUDA::cudart_static)
add_library(pico::nccl INTERFACE IMPORTED)
target_link_libraries(pico::nccl INTERFACE pico::cuda ${PICO_NCCL_LIBRARY})
message(STATUS "NCCL backend: on (CUDA ${CUDAToolkit_VERSION}, ${PICO_NCCL_LIBRARY}, sm ${CMAKE_CUDA_ARCHITECTURES})")

// SPDX-License-Identifier: BSD-3-Clause
// Functions shared by host code and CUDA kernels (validation patterns, Philox)
// are marked PICO_HOST_DEVICE: compiled for both under nvcc, plain C++ for g++.
#pragma once

#if defined(__CUDACC__)
#define PICO_HOST_DEVICE __host__ __device__
#else
#define PICO_HOST_DEVICE
#endif

// SPDX-License-Identifier: BSD-3-Clause
// RAII owners for CUDA resources (device memory, streams, events) and the
// error check every CUDA call goes through, for every GPU part of pico (the
// compression kernels, the NCCL backends, tests, benchmarks). Plain C++:
// usable from g++ code and from the .cu files alike.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace pico::cuda {

// Throws std::runtime_error("<what>: <CUDA error string>") unless err is cudaSuccess.
inline void check_cuda(cudaError_t err, const char* what) {
  if (err != cudaSuccess) {
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(err));
  }
}

// `bytes` of device memory on the device current at construction, freed on
// destruction. Move-only. Zero bytes allocate nothing (data() is null).
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
    if (bytes > 0) {
      check_cuda(cudaMalloc(&ptr_, bytes), ("cudaMalloc of " + std::to_string(bytes) + " bytes").c_str());
    }
  }
  ~DeviceBuffer() { reset(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : ptr_(std::exchange(other.ptr_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      reset();
      ptr_ = std::exchange(other.ptr_, nullptr);
      bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
  }

  void* data() const { return ptr_; }
  template <typename T>
  T* as() const {
    return static_cast<T*>(ptr_);
  }
  std::size_t bytes() const { return bytes_; }

 private:
  void reset() noexcept {
    if (ptr_ != nullptr) {
      cudaFree(ptr_);  // a destructor cannot report; a failed free leaks at worst
      ptr_ = nullptr;
      bytes_ = 0;
    }
  }
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

// `count` elements of T in device memory (uninitialised).
template <typename T>
class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(std::size_t count) : buffer_(count * sizeof(T)), count_(count) {}
  T* data() const { return buffer_.as<T>(); }
  std::size_t size() const { return count_; }

 private:
  DeviceBuffer buffer_;
  std::size_t count_ = 0;
};

// Synchronous copies for tests, benchmarks and set-up (not for timed paths).
//
// copy_to_device returns when the data is on the device. cudaMemcpy alone
// does not promise that: from pageable memory it "returns once the pageable
// buffer has been copied to the staging memory ... the DMA to final
// destination may not have completed" (CUDA Runtime API, API synchronization
// behavior), and a kernel on a non-blocking stream does not wait for the
// legacy stream that DMA runs on. pico's kernels run on such streams: on an
// H100 a kernel read the first 2^20 floats of a fresh 4 MiB upload and the
// stale rest (issue 31's "tail bug").
template <typename T>
void copy_to_device(T* device, const T* host, std::size_t count, const char* what = "cudaMemcpy host to device") {
  if (count == 0) return;
  check_cuda(cudaMemcpy(device, host, count * sizeof(T), cudaMemcpyHostToDevice), what);
  check_cuda(cudaDeviceSynchronize(), what);
}

template <typename T>
DeviceArray<T> to_device(const std::vector<T>& host) {
  DeviceArray<T> device(host.size());
  copy_to_device(device.data(), host.data(), host.size());
  return device;
}

template <typename T>
std::vector<T> to_host(const T* device, std::size_t count) {
  std::vector<T> host(count);
  if (count > 0) {
    check_cuda(cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost),
               "cudaMemcpy device to host");
  }
  return host;
}

template <typename T>
std::vector<T> to_host(const DeviceArray<T>& device) {
  return to_host(device.data(), device.size());
}

// A non-blocking stream, destroyed with its owner.
class Stream {
 public:
  Stream() { check_cuda(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreateWithFlags"); }
  ~Stream() { cudaStreamDestroy(stream_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return stream_; }
  void synchronize() const { check_cuda(cudaStreamSynchronize(stream_), "cudaStreamSynchronize"); }

 private:
  cudaStream_t stream_ = nullptr;
};

// A timing event, destroyed with its owner.
class Event {
 public:
  Event() { check_cuda(cudaEventCreate(&event_), "cudaEventCreate"); }
  ~Event() {
    if (event_ != nullptr) cudaEventDestroy(event_);
  }
  Event(Event&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}  // so events fit a vector
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  Event& operator=(Event&&) = delete;
  cudaEvent_t get() const { return event_; }
  void record(cudaStream_t stream) { check_cuda(cudaEventRecord(event_, stream), "cudaEventRecord"); }
  void synchronize() const { check_cuda(cudaEventSynchronize(event_), "cudaEventSynchronize"); }
  // Milliseconds from `start` to this event (both recorded and completed).
  float since(const Event& start) const {
    float ms = 0.0f;
    check_cuda(cudaEventElapsedTime(&ms, start.event_, event_), "cudaEventElapsedTime");
    return ms;
  }

 private:
  cudaEvent_t event_ = nullptr;
};

// Work captured once from a stream into a CUDA graph and replayed as one
// launch (what a CUDA-graph training step does). capture() records whatever
// `enqueue` puts on `stream` (nothing runs then); replay() launches it.
// A failed capture leaves the graph empty and returns the error.
class Graph {
 public:
  Graph() = default;
  ~Graph() { clear(); }
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  template <class Enqueue>
  cudaError_t capture(cudaStream_t stream, Enqueue&& enqueue) {
    clear();
    // Thread-local mode, as nccl-tests captures: other threads (NCCL's proxy)
    // stay free to allocate while this one captures.
    if (const cudaError_t e = cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal); e != cudaSuccess)
      return e;
    cudaGraph_t graph = nullptr;
    try {
      enqueue();
    } catch (...) {  // leave the stream out of capture mode, then report
      cudaStreamEndCapture(stream, &graph);
      if (graph != nullptr) cudaGraphDestroy(graph);
      throw;
    }
    cudaError_t e = cudaStreamEndCapture(stream, &graph);
    if (e == cudaSuccess) e = cudaGraphInstantiate(&exec_, graph, 0);
    if (graph != nullptr) cudaGraphDestroy(graph);
    if (e != cudaSuccess) exec_ = nullptr;
    return e;
  }
  bool captured() const { return exec_ != nullptr; }
  cudaError_t replay(cudaStream_t stream) const { return cudaGraphLaunch(exec_, stream); }
  void clear() noexcept {
    if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
    exec_ = nullptr;
  }

 private:
  cudaGraphExec_t exec_ = nullptr;
};

}  // namespace pico::cuda

// The two timing loops of the GPU backends: calls enqueued on a CUDA stream
// and timed there with events (the host clock would time the enqueue). Calls
// are not checked one by one: `note` keeps the first CUDA error, the call
// keeps its own; the timed loop decides nothing.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include <mpi.h>

#include "backends/nccl/cuda_handles.hpp"
#include "worker/harness.hpp"

namespace pico::nccl {

// Latency: every rank's previous call has finished (event synchronised)
// before the barrier, so calls start together; the sample is the device time
// from the start event to the end of the call on this rank's stream.
template <class Call, class Note>
void time_with_barriers(std::vector<Event>& events, cudaStream_t stream, double* out, std::int64_t n,
                        MPI_Comm harness, Call&& call, Note&& note) {
  const cudaEvent_t start = events[0].get(), stop = events[1].get();
  for (std::int64_t i = 0; i < n; ++i) {
    harness::barrier(harness);
    note(cudaEventRecord(start, stream));
    call();
    note(cudaEventRecord(stop, stream));
    note(cudaEventSynchronize(stop));
    float ms = 0;
    note(cudaEventElapsedTime(&ms, start, stop));
    out[i] = ms * 1e-3;
  }
}

// Throughput: calls back to back, an event between consecutive calls; the
// stream serialises them, so each interval is one call's device time (gaps the
// host leaves between launches included). Every events.size() - 1 calls the
// host waits for the last event, to reuse the events.
template <class Call, class Note>
void time_back_to_back(std::vector<Event>& events, cudaStream_t stream, double* out, std::int64_t n, Call&& call,
                       Note&& note) {
  const auto per_batch = static_cast<std::int64_t>(events.size()) - 1;
  for (std::int64_t done = 0; done < n;) {
    const std::int64_t m = std::min(per_batch, n - done);
    note(cudaEventRecord(events[0].get(), stream));
    for (std::int64_t j = 0; j < m; ++j) {
      call();
      note(cudaEventRecord(events[j + 1].get(), stream));
    }
    note(cudaEventSynchronize(events[m].get()));
    for (std::int64_t j = 0; j < m; ++j) {
      float ms = 0;
      note(cudaEventElapsedTime(&ms, events[j].get(), events[j + 1].get()));
      out[done + j] = ms * 1e-3;
    }
    done += m;
  }
}

}  // namespace pico::nccl

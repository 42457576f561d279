// SPDX-License-Identifier: BSD-3-Clause
#include "backends/reference/reference_backend.hpp"

#include <algorithm>
#include <climits>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "collectives/reference/algorithms.hpp"
#include "collectives/reference/table.hpp"
#include "collectives/spec.hpp"

namespace pico {

void ReferenceBackend::prepare(const Case& c, MPI_Comm comm) {
  const auto* entry = reference::find_algorithm<Transport>(c.collective, c.algorithm);
  if (entry == nullptr)
    throw std::invalid_argument(fmt::format("no reference {} algorithm '{}' (known: {})", name(c.collective),
                                            c.algorithm, fmt::join(reference_algorithm_names(c.collective), ", ")));
  int np = 1, rank = 0;
  MPI_Comm_size(comm, &np);
  MPI_Comm_rank(comm, &rank);
  const CollectiveSpec& spec = spec_for(c.collective);
  // MPI counts are int. One message may carry a whole buffer (gather subtrees,
  // alltoall packs, allgather and reduce_scatter folds), never more.
  const BufferSizes sizes = spec.buffer_sizes(c, rank);
  const std::uint64_t largest_message = std::max(sizes.send, sizes.recv);
  if (largest_message > static_cast<std::uint64_t>(INT_MAX))
    throw std::invalid_argument("a message of this case would exceed MPI's int count range");
  MpiBackend::prepare(c, comm);

  const MpiCallArgs& m = call_args();
  const std::size_t element = c.dtype == Dtype::none ? 1 : dtype_size(c.dtype);
  const std::size_t segment = segment_bytes_ == 0 ? 0 : std::max<std::size_t>(1, segment_bytes_ / element);
  transport_.emplace(comm, c.dtype, m.type, spec.has_op ? c.op : Op::none);
  scratch_elements_ = entry->traits.scratch(c.count, np, segment);
  transport_->reserve(scratch_elements_, 2 * static_cast<std::size_t>(np));
  run_ = entry->run;
  const bool send_absent = m.send == MPI_IN_PLACE, recv_absent = m.recv == MPI_IN_PLACE;
  args_ = reference::CallArgs{
      .send = send_absent ? nullptr : m.send,
      .recv = recv_absent ? nullptr : m.recv,
      .count = c.count,
      .root = m.root,
      .in_place = send_absent || recv_absent,
      .segment = segment,
      .layout = spec.count_matrix ? &vector_layout() : nullptr,  // MpiBackend::prepare made it
  };
}

// A transport of its own whose phase hook records, built outside the timed loop.
bool ReferenceBackend::record_phases(int calls, PhaseRecorder& recorder, const std::function<void()>& before_each) {
  using Recording = transport::MpiTransport<PhaseHook>;
  const Case& c = current_case();
  const auto* entry = reference::find_algorithm<Recording>(c.collective, c.algorithm);
  if (entry == nullptr) return false;
  const MPI_Comm comm = call_args().comm;
  int np = 1;
  MPI_Comm_size(comm, &np);
  Recording t(comm, c.dtype, call_args().type, spec_for(c.collective).has_op ? c.op : Op::none, PhaseHook{&recorder});
  t.reserve(scratch_elements_, 2 * static_cast<std::size_t>(np));
  for (int i = 0; i < calls; ++i) {
    before_each();
    recorder.begin_call();
    entry->run(t, args_);
    recorder.end_call();
  }
  return true;
}

void ReferenceBackend::release() {
  transport_.reset();
  run_ = nullptr;
  MpiBackend::release();
}

}  // namespace pico

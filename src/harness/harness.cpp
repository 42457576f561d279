// SPDX-License-Identifier: BSD-3-Clause
#include "harness/harness.hpp"

#include <algorithm>

namespace pico::harness {
namespace {

// Tags of the harness communicator; it carries no other traffic.
constexpr int kBarrierTag = 101;
constexpr int kReduceTag = 102;
constexpr int kBcastTag = 103;
constexpr int kGatherTag = 104;
constexpr int kClockTag = 105;
constexpr int kLinkTag = 106;

int rank_of(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}
int size_of(MPI_Comm comm) {
  int s = 0;
  MPI_Comm_size(comm, &s);
  return s;
}

template <class T>
void combine(T* into, const T* from, int n, Reduction r) {
  for (int i = 0; i < n; ++i) {
    switch (r) {
      case Reduction::max: into[i] = std::max(into[i], from[i]); break;
      case Reduction::min: into[i] = std::min(into[i], from[i]); break;
      case Reduction::sum: into[i] += from[i]; break;
    }
  }
}

// Binomial tree rooted at 0: in round `mask`, ranks with that bit set send to rank - mask.
void binomial_bcast_bytes(MPI_Comm comm, void* data, int bytes) {
  const int rank = rank_of(comm), size = size_of(comm);
  int mask = 1;
  while (mask < size) mask <<= 1;
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (rank % (2 * mask) == 0 && rank + mask < size)
      MPI_Send(data, bytes, MPI_BYTE, rank + mask, kBcastTag, comm);
    else if (rank % (2 * mask) == mask)
      MPI_Recv(data, bytes, MPI_BYTE, rank - mask, kBcastTag, comm, MPI_STATUS_IGNORE);
  }
}

template <class T>
void allreduce_impl(MPI_Comm comm, T* values, int n, Reduction r) {
  const int rank = rank_of(comm), size = size_of(comm);
  std::vector<T> incoming(static_cast<std::size_t>(n));
  const int bytes = n * static_cast<int>(sizeof(T));
  for (int mask = 1; mask < size; mask <<= 1) {
    if (rank % (2 * mask) == mask) {
      MPI_Send(values, bytes, MPI_BYTE, rank - mask, kReduceTag, comm);
      break;
    }
    if (rank % (2 * mask) == 0 && rank + mask < size) {
      MPI_Recv(incoming.data(), bytes, MPI_BYTE, rank + mask, kReduceTag, comm, MPI_STATUS_IGNORE);
      combine(values, incoming.data(), n, r);
    }
  }
  binomial_bcast_bytes(comm, values, bytes);
}

}  // namespace

void barrier(MPI_Comm comm) {
  const int rank = rank_of(comm), size = size_of(comm);
  for (int distance = 1; distance < size; distance <<= 1)
    MPI_Sendrecv(nullptr, 0, MPI_BYTE, (rank + distance) % size, kBarrierTag, nullptr, 0, MPI_BYTE,
                 (rank - distance + size) % size, kBarrierTag, comm, MPI_STATUS_IGNORE);
}

void allreduce(MPI_Comm comm, double* values, int n, Reduction r) { allreduce_impl(comm, values, n, r); }
void allreduce(MPI_Comm comm, int* values, int n, Reduction r) { allreduce_impl(comm, values, n, r); }
void allreduce(MPI_Comm comm, unsigned long long* values, int n, Reduction r) { allreduce_impl(comm, values, n, r); }

std::vector<std::string> gather_strings(MPI_Comm comm, const std::string& mine) {
  const int rank = rank_of(comm), size = size_of(comm);
  if (rank != 0) {
    MPI_Send(mine.data(), static_cast<int>(mine.size()), MPI_CHAR, 0, kGatherTag, comm);
    return {};
  }
  std::vector<std::string> all{mine};
  for (int source = 1; source < size; ++source) {
    MPI_Status status;
    MPI_Probe(source, kGatherTag, comm, &status);
    int length = 0;
    MPI_Get_count(&status, MPI_CHAR, &length);
    std::string s(static_cast<std::size_t>(length), '\0');
    MPI_Recv(s.data(), length, MPI_CHAR, source, kGatherTag, comm, MPI_STATUS_IGNORE);
    all.push_back(std::move(s));
  }
  return all;
}

std::string broadcast_string(MPI_Comm comm, const std::string& value, int root) {
  // Rotate so the root is rank 0 of the binomial tree: send root's value to 0 first.
  const int rank = rank_of(comm);
  std::string s = rank == root ? value : std::string();
  if (root != 0) {
    if (rank == root) MPI_Send(s.data(), static_cast<int>(s.size()), MPI_CHAR, 0, kBcastTag, comm);
    if (rank == 0) {
      MPI_Status status;
      MPI_Probe(root, kBcastTag, comm, &status);
      int length = 0;
      MPI_Get_count(&status, MPI_CHAR, &length);
      s.assign(static_cast<std::size_t>(length), '\0');
      MPI_Recv(s.data(), length, MPI_CHAR, root, kBcastTag, comm, MPI_STATUS_IGNORE);
    }
  }
  int length = static_cast<int>(s.size());
  binomial_bcast_bytes(comm, &length, sizeof(length));
  s.resize(static_cast<std::size_t>(length));
  binomial_bcast_bytes(comm, s.data(), length);
  return s;
}

std::vector<double> gather_doubles(MPI_Comm comm, const double* mine, int n) {
  const int rank = rank_of(comm), size = size_of(comm);
  if (rank != 0) {
    MPI_Send(mine, n, MPI_DOUBLE, 0, kGatherTag, comm);
    return {};
  }
  std::vector<double> all(static_cast<std::size_t>(size) * static_cast<std::size_t>(n));
  std::copy(mine, mine + n, all.begin());
  for (int source = 1; source < size; ++source)
    MPI_Recv(all.data() + static_cast<std::size_t>(source) * static_cast<std::size_t>(n), n, MPI_DOUBLE, source,
             kGatherTag, comm, MPI_STATUS_IGNORE);
  return all;
}

std::vector<PingPong> clock_ping_pong(MPI_Comm comm, int rounds) {
  const int rank = rank_of(comm), size = size_of(comm);
  std::vector<PingPong> out;
  if (rank == 0) {
    for (int peer = 1; peer < size; ++peer)
      for (int k = 0; k < rounds; ++k) {
        MPI_Recv(nullptr, 0, MPI_BYTE, peer, kClockTag, comm, MPI_STATUS_IGNORE);
        const double now = MPI_Wtime();
        MPI_Send(&now, 1, MPI_DOUBLE, peer, kClockTag, comm);
      }
  } else {
    out.resize(static_cast<std::size_t>(rounds));
    for (auto& round : out) {
      round.sent_s = MPI_Wtime();
      MPI_Send(nullptr, 0, MPI_BYTE, 0, kClockTag, comm);
      MPI_Recv(&round.reference_s, 1, MPI_DOUBLE, 0, kClockTag, comm, MPI_STATUS_IGNORE);
      round.received_s = MPI_Wtime();
    }
  }
  barrier(comm);
  return out;
}

double exchange(MPI_Comm comm, int partner, const unsigned char* out, unsigned char* in, int bytes) {
  const double start = MPI_Wtime();
  MPI_Sendrecv(out, bytes, MPI_BYTE, partner, kLinkTag, in, bytes, MPI_BYTE, partner, kLinkTag, comm,
               MPI_STATUS_IGNORE);
  return MPI_Wtime() - start;
}

}  // namespace pico::harness

// SPDX-License-Identifier: BSD-3-Clause
#include "backends/nccl/nccl_session.hpp"

#include <unistd.h>

#include <fmt/format.h>

namespace pico::nccl {
namespace {

constexpr int kTimingEvents = 257;  // up to 256 back-to-back samples between two waits

std::unique_ptr<NcclSession>& current() {
  static std::unique_ptr<NcclSession> session;
  return session;
}

int set_device(int device) {
  check_cuda(cudaSetDevice(device), "cudaSetDevice");
  return device;
}

struct Placement {
  int first_device = 0;  // this process's lanes take devices first_device, first_device + 1, ...
  int first_rank = 0;    // and NCCL ranks first_rank, first_rank + 1, ...
};

// This process's devices: the lanes_per_process that follow those of the
// lower node-local ranks. Agreed over comm before any rank blocks in the NCCL
// bootstrap, so a node short of GPUs fails every rank with the same message
// instead of hanging the others.
Placement place(MPI_Comm comm, int lanes_per_process) {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int local_rank = 0, local_size = 0;
  MPI_Comm_rank(node, &local_rank);
  MPI_Comm_size(node, &local_size);
  MPI_Comm_free(&node);

  int devices = 0;
  const cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess) devices = 0;
  const int needed = local_size * lanes_per_process;
  int fits = devices >= needed ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &fits, 1, MPI_INT, MPI_MIN, comm);
  if (fits == 0) {
    if (devices == 0)
      throw std::runtime_error(e != cudaSuccess ? fmt::format("no CUDA device: {}", cudaGetErrorString(e))
                                                : std::string("no CUDA device"));
    throw std::runtime_error(fmt::format(
        "a node runs {} process(es) x {} GPU(s) but has {} CUDA device(s); NCCL needs one GPU per rank "
        "(lower the processes per node or gpus_per_process, or use CUDA_VISIBLE_DEVICES)",
        local_size, lanes_per_process, devices));
  }
  int process = 0;
  MPI_Comm_rank(comm, &process);
  return {local_rank * lanes_per_process, process * lanes_per_process};
}

}  // namespace

// device is set (and made current) before stream is created on it: declaration order.
Lane::Lane(int device_id, int nccl_rank) : device(set_device(device_id)), rank(nccl_rank) {
  events.reserve(kTimingEvents);
  for (int i = 0; i < kTimingEvents; ++i) events.emplace_back();
}

Lane::~Lane() {
  if (comm == nullptr) return;
  cudaSetDevice(device);  // a destructor cannot report a failure
  cudaStreamSynchronize(stream.get());
  ncclCommDestroy(comm);
}

void Lane::activate() const { check_cuda(cudaSetDevice(device), "cudaSetDevice"); }

NcclSession& NcclSession::for_comm(MPI_Comm comm, int lanes_per_process) {
  auto& session = current();
  if (session && session->mpi_comm_ == comm && std::ssize(session->lanes_) == lanes_per_process) return *session;
  session.reset();
  session.reset(new NcclSession(comm, lanes_per_process));  // private constructor: make_unique cannot reach it
  return *session;
}

void NcclSession::shutdown() { current().reset(); }

TuningLog& NcclSession::tuning_log() {
  static TuningLog log(std::filesystem::temp_directory_path() / fmt::format("pico-nccl-{}.log", getpid()));
  return log;
}

void NcclSession::discard() {
  auto& session = current();
  if (!session) return;
  for (auto& lane : session->lanes_) {
    if (lane->comm == nullptr) continue;
    ncclCommAbort(lane->comm);
    lane->comm = nullptr;
  }
  session.reset();
}

// Several communicators of one process are initialised inside one NCCL group
// (each ncclCommInitRank would otherwise wait for the others).
NcclSession::NcclSession(MPI_Comm comm, int lanes_per_process) : mpi_comm_(comm) {
  const Placement at = place(comm, lanes_per_process);
  int processes = 0, process = 0;
  MPI_Comm_size(comm, &processes);
  MPI_Comm_rank(comm, &process);
  size_ = processes * lanes_per_process;
  for (int l = 0; l < lanes_per_process; ++l) lanes_.push_back(std::make_unique<Lane>(at.first_device + l, at.first_rank + l));
  ncclUniqueId id{};
  if (process == 0) nccl_check(ncclGetUniqueId(&id), "ncclGetUniqueId");
  MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, comm);
  nccl_check(ncclGroupStart(), "ncclGroupStart");
  ncclResult_t init = ncclSuccess;
  for (auto& lane : lanes_) {
    lane->activate();
    init = ncclCommInitRank(&lane->comm, size_, id, lane->rank);
    if (init != ncclSuccess) break;
  }
  const ncclResult_t end = ncclGroupEnd();
  if (init == ncclSuccess && end == ncclSuccess) return;
  for (auto& lane : lanes_) {  // what a failed group left is aborted, not destroyed
    if (lane->comm != nullptr) ncclCommAbort(lane->comm);
    lane->comm = nullptr;
  }
  nccl_check(init != ncclSuccess ? init : end, "ncclCommInitRank");
}

// Finalizing is collective within a node: a thread's several ranks finalize in
// one group (NCCL's documented rule, or they can hang); each lane's destroy is
// then local.
NcclSession::~NcclSession() {
  for (const auto& lane : lanes_) cudaStreamSynchronize(lane->stream.get());
  ncclGroupStart();
  for (const auto& lane : lanes_)
    if (lane->comm != nullptr) ncclCommFinalize(lane->comm);
  ncclGroupEnd();
}

nlohmann::json NcclSession::describe() const {
  int version = 0;
  ncclGetVersion(&version);
  const Lane& first = lane();
  cudaDeviceProp p{};
  cudaGetDeviceProperties(&p, first.device);
  char bus[32] = {};
  cudaDeviceGetPCIBusId(bus, sizeof(bus), first.device);
  return {{"nccl_version", version},
          {"ranks", size_},
          {"gpus_per_process", lanes_.size()},
          {"device", first.device},
          {"device_name", p.name},
          {"pci_bus_id", bus},
          {"compute_capability", fmt::format("{}.{}", p.major, p.minor)}};
}

}  // namespace pico::nccl

#include "backends/nccl/nccl_session.hpp"

#include <unistd.h>

#include <fmt/format.h>

namespace pico::nccl {
namespace {

constexpr int kTimingEvents = 257;  // back-to-back batches of up to 256 calls

std::unique_ptr<NcclSession>& current() {
  static std::unique_ptr<NcclSession> session;
  return session;
}

// The device for this rank: its rank among the ranks of its node. Agreed over
// comm before any rank blocks in the NCCL bootstrap, so a node short of GPUs
// fails every rank with the same message instead of hanging the others.
int choose_device(MPI_Comm comm) {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int local_rank = 0, local_size = 0;
  MPI_Comm_rank(node, &local_rank);
  MPI_Comm_size(node, &local_size);
  MPI_Comm_free(&node);

  int devices = 0;
  const cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess) devices = 0;
  int fits = devices >= local_size ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &fits, 1, MPI_INT, MPI_MIN, comm);
  if (fits == 0) {
    if (devices == 0)
      throw std::runtime_error(e != cudaSuccess ? fmt::format("no CUDA device: {}", cudaGetErrorString(e))
                                                : std::string("no CUDA device"));
    throw std::runtime_error(fmt::format("a node runs {} ranks but has {} CUDA device(s); NCCL needs one GPU per rank "
                                         "(lower the ranks per node or use CUDA_VISIBLE_DEVICES)",
                                         local_size, devices));
  }
  return local_rank;
}

int set_device_for(MPI_Comm comm) {
  const int device = choose_device(comm);
  check_cuda(cudaSetDevice(device), "cudaSetDevice");
  return device;
}

}  // namespace

NcclSession& NcclSession::for_comm(MPI_Comm comm) {
  auto& session = current();
  if (session && session->mpi_comm_ == comm) return *session;
  session.reset();
  session.reset(new NcclSession(comm));  // private constructor: make_unique cannot reach it
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
  ncclCommAbort(session->comm_);
  session->comm_ = nullptr;
  session.reset();
}

// device_ is set (and made current) before stream_ is created on it: declaration order.
NcclSession::NcclSession(MPI_Comm comm) : mpi_comm_(comm), device_(set_device_for(comm)) {
  MPI_Comm_rank(comm, &rank_);
  MPI_Comm_size(comm, &size_);
  ncclUniqueId id{};
  if (rank_ == 0) nccl_check(ncclGetUniqueId(&id), "ncclGetUniqueId");
  MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, comm);
  nccl_check(ncclCommInitRank(&comm_, size_, id, rank_), "ncclCommInitRank");
  events_.reserve(kTimingEvents);
  for (int i = 0; i < kTimingEvents; ++i) events_.emplace_back();
}

NcclSession::~NcclSession() {
  if (comm_ != nullptr) {
    cudaStreamSynchronize(stream_.get());
    ncclCommDestroy(comm_);
  }
}

nlohmann::json NcclSession::describe() const {
  int version = 0;
  ncclGetVersion(&version);
  cudaDeviceProp p{};
  cudaGetDeviceProperties(&p, device_);
  char bus[32] = {};
  cudaDeviceGetPCIBusId(bus, sizeof(bus), device_);
  return {{"nccl_version", version},
          {"ranks", size_},
          {"device", device_},
          {"device_name", p.name},
          {"pci_bus_id", bus},
          {"compute_capability", fmt::format("{}.{}", p.major, p.minor)}};
}

}  // namespace pico::nccl

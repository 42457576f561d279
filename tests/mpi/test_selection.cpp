// SPDX-License-Identifier: BSD-3-Clause
// Proof that a forced algorithm really runs, not just that its variable was
// written: a two-rank-only algorithm forced on three ranks must make the
// library fail the call, and the library default must not. If selection were
// silently ignored, the forced call would succeed and these tests would fail.
// Hidden tests ([.]): CTest runs them with np=3 and the launch environment
// the plan would give (tests/CMakeLists.txt).
#include <catch2/catch.hpp>
#include <mpi.h>

#include <cstdlib>
#include <vector>

#include "worker/algorithm_selector.hpp"
#include "harness/mpi_handles.hpp"
#include "worker/launch_info.hpp"
#include "mpi_test_util.hpp"

namespace {

using namespace pico;

// One int from every rank, in each call form; errors returned, not fatal.
struct AllgatherOfOnes {
  explicit AllgatherOfOnes(MPI_Comm c) : comm(c) {
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    int size = 0;
    MPI_Comm_size(comm, &size);
    all.resize(static_cast<std::size_t>(size));
  }
  MPI_Comm comm;
  int mine = 1;
  std::vector<int> all;
};

int allgather_on(MPI_Comm comm) {
  AllgatherOfOnes a(comm);
  return MPI_Allgather(&a.mine, 1, MPI_INT, a.all.data(), 1, MPI_INT, a.comm);
}

// The same through the non-blocking call, completed at once.
int iallgather_on(MPI_Comm comm) {
  AllgatherOfOnes a(comm);
  MPI_Request request = MPI_REQUEST_NULL;
  const int started = MPI_Iallgather(&a.mine, 1, MPI_INT, a.all.data(), 1, MPI_INT, a.comm, &request);
  if (started != MPI_SUCCESS) return started;
  return MPI_Wait(&request, MPI_STATUS_IGNORE);
}

#if MPI_VERSION >= 4
// MPI 4.0's persistent form: MPICH chooses its schedule at MPI_Allgather_init.
int allgather_init_on(MPI_Comm comm) {
  AllgatherOfOnes a(comm);
  MPI_Request request = MPI_REQUEST_NULL;
  const int made =
      MPI_Allgather_init(&a.mine, 1, MPI_INT, a.all.data(), 1, MPI_INT, a.comm, MPI_INFO_NULL, &request);
  if (made != MPI_SUCCESS) return made;
  MPI_Start(&request);
  const int done = MPI_Wait(&request, MPI_STATUS_IGNORE);
  MPI_Request_free(&request);
  return done;
}
#endif

}  // namespace

TEST_CASE("Open MPI runs the algorithm forced through MPI_T", "[.][selection-openmpi]") {
  REQUIRE(detect_mpi_library().name == "openmpi");
  MpiToolsSession tools;
  {
    DupComm shared(MPI_COMM_WORLD);  // forced selections apply to duplicates of it
    AlgorithmSelector selector(test::harness(), shared.get());
    Selection two_proc;
    two_proc.mechanism = "mpi_t";
    two_proc.variable = "coll_tuned_allgather_algorithm";
    two_proc.value = "6";  // two_proc: Open MPI refuses it unless np == 2
    const AppliedSelection forced = selector.apply(two_proc);
    CHECK(forced.verified);
    CHECK(forced.applied == "6");
    CHECK(allgather_on(forced.comm) != MPI_SUCCESS);

    Selection ring = two_proc;
    ring.value = "4";
    CHECK(allgather_on(selector.apply(ring).comm) == MPI_SUCCESS);

    Selection library_default = two_proc;
    library_default.value = "0";
    const AppliedSelection restored = selector.apply(library_default);
    CHECK(restored.verified);
    CHECK(allgather_on(restored.comm) == MPI_SUCCESS);

    // coll/libnbc's variable for the non-blocking call takes MPI_T writes too
    // (libnbc reads it at every call; no algorithm of it fails to prove it).
    Selection nonblocking = two_proc;
    nonblocking.variable = "coll_libnbc_iallgather_algorithm";
    nonblocking.value = "2";  // recursive_doubling
    const AppliedSelection nb = selector.apply(nonblocking);
    CHECK(nb.verified);
    CHECK(nb.applied == "2");
    CHECK(iallgather_on(nb.comm) == MPI_SUCCESS);
  }
}

// MPICH, the launch-time proof, then the same for writes at run time in one
// process: MPICH reads its CVAR at every call, so the next MPI_Allgather runs
// what was written last; every step flips whether the call may succeed, so a
// write the library ignored would show. One MPI_T session for both: MPICH
// loses its control variables once MPI_T is finalized.
TEST_CASE("MPICH runs the algorithm chosen by its CVAR, at launch and through MPI_T", "[.][selection-mpich]") {
  REQUIRE(detect_mpi_library().name == "mpich");
  MpiToolsSession tools;
  {
    DupComm shared(MPI_COMM_WORLD);  // forced selections apply to duplicates of it
    AlgorithmSelector selector(test::harness(), shared.get());
    Selection recursive_doubling;
    recursive_doubling.mechanism = "env";
    recursive_doubling.variable = "MPIR_CVAR_ALLGATHER_INTRA_ALGORITHM";
    recursive_doubling.value = "recursive_doubling";
    recursive_doubling.readback = "3";
    const AppliedSelection applied = selector.apply(recursive_doubling);
    CHECK(applied.verified);
    // Recursive doubling needs a power-of-two np; with COLLECTIVE_FALLBACK=error MPICH fails the call.
    CHECK(allgather_on(applied.comm) != MPI_SUCCESS);

    Selection ring;
    ring.mechanism = "mpi_t";
    ring.takes_effect = "next_call";
    ring.variable = "MPIR_CVAR_ALLGATHER_INTRA_ALGORITHM";
    ring.value = "ring";  // the name is for the environment; MPI_T takes the id
    ring.readback = "4";
    const AppliedSelection over_launch = selector.apply(ring);
    INFO(over_launch.note);
    CHECK(over_launch.verified);
    CHECK(over_launch.applied == "4");
    CHECK(over_launch.comm == shared.get());  // no duplicate: MPICH does not need one
    CHECK(allgather_on(over_launch.comm) == MPI_SUCCESS);

    Selection forced = ring;
    forced.value = "recursive_doubling";
    forced.readback = "3";
    const AppliedSelection forced_again = selector.apply(forced);
    CHECK(forced_again.verified);
    CHECK(allgather_on(forced_again.comm) != MPI_SUCCESS);  // np = 3 is no power of two

    Selection library_default = ring;
    library_default.value = "auto";
    library_default.readback = "0";
    CHECK(allgather_on(selector.apply(library_default).comm) == MPI_SUCCESS);

    // The non-blocking call's own variable, the same way: its
    // sched_recursive_doubling needs a power-of-two np too, sched_ring does not.
    Selection nb_forced = ring;
    nb_forced.variable = "MPIR_CVAR_IALLGATHER_INTRA_ALGORITHM";
    nb_forced.value = "sched_recursive_doubling";
    nb_forced.readback = "4";
    const AppliedSelection nb = selector.apply(nb_forced);
    CHECK(nb.verified);
    CHECK(iallgather_on(nb.comm) != MPI_SUCCESS);
    Selection nb_ring = nb_forced;
    nb_ring.value = "sched_ring";
    nb_ring.readback = "2";
    CHECK(selector.apply(nb_ring).verified);
    CHECK(iallgather_on(shared.get()) == MPI_SUCCESS);
#if MPI_VERSION >= 4
    // The persistent form runs the same schedules, chosen by the same variable at MPI_Allgather_init.
    CHECK(allgather_init_on(shared.get()) == MPI_SUCCESS);
    CHECK(selector.apply(nb_forced).verified);
    CHECK(allgather_init_on(shared.get()) != MPI_SUCCESS);
#endif

    // A case of another collective puts the allgather variable back to its
    // launch value (recursive doubling), so the allgather fails again.
    Selection binomial_bcast = ring;
    binomial_bcast.variable = "MPIR_CVAR_BCAST_INTRA_ALGORITHM";
    binomial_bcast.value = "binomial";
    binomial_bcast.readback = "1";
    CHECK(selector.apply(binomial_bcast).verified);
    CHECK(allgather_on(shared.get()) != MPI_SUCCESS);
  }
}

// NCCL reports nothing back: a launch-time choice is verified as the
// environment this process holds (what NCCL reads when it starts).
TEST_CASE("selections NCCL reads at init are verified against the environment", "[selection-env]") {
  {
    DupComm shared(MPI_COMM_WORLD);  // forced selections apply to duplicates of it
    AlgorithmSelector selector(test::harness(), shared.get());
    Selection ring_ll;
    ring_ll.mechanism = "env";
    ring_ll.verify = "environment";
    ring_ll.variable = "PICO_TEST_NCCL_ALGO";
    ring_ll.value = "Ring";
    ring_ll.parameters = {{"PICO_TEST_NCCL_PROTO", "LL"}};
    setenv("PICO_TEST_NCCL_ALGO", "Ring", 1);
    setenv("PICO_TEST_NCCL_PROTO", "LL", 1);
    const AppliedSelection held = selector.apply(ring_ll);
    CHECK(held.verified);
    CHECK(held.applied == "PICO_TEST_NCCL_ALGO=Ring PICO_TEST_NCCL_PROTO=LL");
    CHECK(held.comm == shared.get());

    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    // One rank launched without the protocol: no rank may claim the choice held.
    if (rank == 0) unsetenv("PICO_TEST_NCCL_PROTO");
    const AppliedSelection partial = selector.apply(ring_ll);
    CHECK_FALSE(partial.verified);
    CHECK_THAT(partial.note, Catch::Matchers::Contains("does not hold"));
    unsetenv("PICO_TEST_NCCL_ALGO");
    unsetenv("PICO_TEST_NCCL_PROTO");
  }
}

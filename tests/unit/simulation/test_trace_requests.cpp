// SPDX-License-Identifier: BSD-3-Clause
// The request tables of traced programs (simulation/trace_requests.hpp): which request a wait or a cancel
// reaches, waits through a copy of a request, persistent requests started again.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "simulation/trace_requests.hpp"

using namespace pico;
using liballprof::Record;
using liballprof::Role;

namespace {

Record wait_on(Role role, std::uint64_t address, std::uint64_t count = 1, int line = 1) {
  Record r;
  r.role = role;
  r.request = address;
  r.count = count;
  r.line = line;
  return r;
}

using Ids = std::vector<std::uint32_t>;

}  // namespace

TEST_CASE("trace requests: a request completes at the wait naming its variable", "[trace]") {
  RequestTable t({"rank0.txt", "rank1.txt"}, 8);
  CHECK(t.start(0, 0x100) == 0);
  CHECK(t.start(0, 0x200) == 1);
  CHECK(t.start_unnamed(0) == 2);
  CHECK(t.start(1, 0x100) == 0);  // each rank counts its own
  CHECK(t.wait(0, wait_on(Role::wait, 0x200)) == Ids{1});
  CHECK(t.wait(0, wait_on(Role::wait, 0x200)).empty());  // done: MPI_REQUEST_NULL now
  CHECK(t.wait(1, wait_on(Role::waitall, 0x100, 1)) == Ids{0});
  // MPI_Waitall over an array: the library's request size apart.
  CHECK(t.start(0, 0x108) == 3);
  CHECK(t.wait(0, wait_on(Role::waitall, 0x100, 2)) == (Ids{0, 3}));
  CHECK(t.count(0) == 4);
  CHECK(t.count(1) == 1);
  CHECK(t.summary().lost == 0);
  CHECK(t.summary().through_copy == 0);
}

TEST_CASE("trace requests: MPI_Waitany completes the array's oldest active request", "[trace]") {
  RequestTable t({"rank0.txt"}, 4);
  t.start(0, 0x104);
  t.start(0, 0x100);
  CHECK(t.wait(0, wait_on(Role::waitany, 0x100, 2)) == Ids{0});
  CHECK(t.wait(0, wait_on(Role::waitany, 0x100, 2)) == Ids{1});
  CHECK(t.wait(0, wait_on(Role::waitany, 0x100, 2)).empty());
}

TEST_CASE("trace requests: a wait through a copy takes the oldest request only a copy can complete", "[trace]") {
  RequestTable t({"rank0.txt"}, 8);
  t.start(0, 0x100);  // 0
  t.start(0, 0x100);  // 1 displaces 0 from the variable
  CHECK(t.wait(0, wait_on(Role::wait, 0x100)) == Ids{1});
  CHECK(t.wait(0, wait_on(Role::wait, 0x900)) == Ids{0});  // a variable no request was started at
  CHECK(t.summary().through_copy == 1);
  t.start(0, 0x200);  // 2, never named by a wait
  CHECK(t.wait(0, wait_on(Role::wait, 0x900)) == Ids{2});
  CHECK(t.summary().through_copy == 2);
  // The request's own variable, waited on after the copy took it: completes nothing, counted.
  CHECK(t.wait(0, wait_on(Role::wait, 0x200, 1, 7)).empty());
  CHECK(t.summary().contradicted == 1);
  // Nothing left for a copy: a lost wait, the first one's place kept.
  CHECK(t.wait(0, wait_on(Role::wait, 0x900, 1, 9)).empty());
  CHECK(t.summary().lost == 1);
  CHECK(t.summary().first_file == "rank0.txt");
  CHECK(t.summary().first_line == 7);
}

TEST_CASE("trace requests: a request done at once, and cancels", "[trace]") {
  RequestTable t({"rank0.txt"}, 8);
  t.done_at_once(0, 0x300);  // to MPI_PROC_NULL
  CHECK(t.wait(0, wait_on(Role::wait, 0x300)).empty());
  CHECK(t.summary().lost == 0);
  const std::uint32_t receive = t.start(0, 0x100);
  t.receive(0, receive, 5);
  t.start(0, 0x200);  // a send
  CHECK(t.cancel(0, 0x200) == std::nullopt);
  CHECK(t.summary().uncancelled == 1);
  CHECK(t.cancel(0, 0x100) == std::optional<std::size_t>(5));
  CHECK(t.summary().cancelled == 1);
  CHECK(t.cancel(0, 0x100) == std::nullopt);  // no longer a receive to cancel
  CHECK(t.cancel(0, 0x400) == std::nullopt);  // nothing active there
  CHECK(t.summary().uncancelled == 2);
  CHECK(t.wait(0, wait_on(Role::wait, 0x100)) == Ids{0});  // MPI_Cancel does not complete it: the wait does
  CHECK(t.wait(0, wait_on(Role::wait, 0x200)) == Ids{1});
}

TEST_CASE("trace requests: a persistent request restarts as a new request each MPI_Start", "[trace]") {
  PersistentRequests persistent(2);
  Record init;
  init.role = Role::send_init;
  init.request = 0x500;
  init.peer = 1;
  init.tag = 9;
  init.line = 3;
  persistent.init(0, init);
  CHECK(persistent.find(1, 0x500) == nullptr);  // another rank's
  CHECK(persistent.find(0, 0x508) == nullptr);
  const Record* made = persistent.find(0, 0x500);
  REQUIRE(made != nullptr);
  CHECK(made->role == Role::send_init);
  CHECK(made->tag == 9);
  // MPI_Start, wait, MPI_Start again: two requests, each completed by its own wait.
  RequestTable t({"rank0.txt", "rank1.txt"}, 8);
  CHECK(t.start(0, 0x500) == 0);
  CHECK(t.wait(0, wait_on(Role::wait, 0x500)) == Ids{0});
  CHECK(t.start(0, 0x500) == 1);
  CHECK(t.wait(0, wait_on(Role::wait, 0x500)) == Ids{1});
  CHECK(t.wait(0, wait_on(Role::wait, 0x500)).empty());
  CHECK(t.summary().lost == 0);
  CHECK(t.summary().contradicted == 0);
  // MPI_Recv_init at the same variable replaces the send.
  Record again = init;
  again.role = Role::recv_init;
  persistent.init(0, again);
  CHECK(persistent.find(0, 0x500)->role == Role::recv_init);
}

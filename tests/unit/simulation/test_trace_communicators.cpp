// SPDX-License-Identifier: BSD-3-Clause
// The communicator table of traced programs (simulation/trace_communicators.hpp): communicators rebuilt from
// MPI_Comm_split and MPI_Comm_dup, handles bound to them, freed handles and freed copies of handles.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "simulation/trace_communicators.hpp"
#include "support/input_error.hpp"

using namespace pico;
using liballprof::CommRef;
using liballprof::Record;
using liballprof::Role;

namespace {

constexpr std::uint64_t kWorld = 91;

Record made(Role role, int rank, int size, std::uint64_t variable, std::int64_t color = 0, std::int64_t key = 0) {
  Record r;
  r.role = role;
  r.comm = {kWorld, rank, size};
  r.variable = variable;
  r.color = color;
  r.key = key;
  return r;
}

Record freed(std::uint64_t variable) {
  Record r;
  r.role = Role::comm_free;
  r.variable = variable;
  return r;
}

// `size` ranks, each with the records records_of(rank) gives, lines numbered from 1.
template <class F>
std::vector<RankRecords> ranks_of(int size, F records_of) {
  std::vector<RankRecords> ranks(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) {
    auto& rank = ranks[static_cast<std::size_t>(r)];
    rank.file = "rank" + std::to_string(r) + ".txt";
    rank.records = records_of(r);
    for (std::size_t k = 0; k < rank.records.size(); ++k) rank.records[k].line = static_cast<int>(k) + 1;
  }
  return ranks;
}

// Every rank makes communicator call `k` of its records; returns whether the last member completed it.
bool all_create(CommunicatorTable& t, const std::vector<RankRecords>& ranks, std::size_t k) {
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const bool done = t.create(static_cast<int>(r), ranks[r].records[k], k);
    if (r + 1 < ranks.size() && done) return false;  // complete before every member arrived
    if (r + 1 == ranks.size() && !done) return false;
  }
  for (std::size_t r = 0; r + 1 < ranks.size(); ++r)
    if (!t.create(static_cast<int>(r), ranks[r].records[k], k)) return false;
  return true;
}

}  // namespace

TEST_CASE("trace communicators: the world, and a communicator of the rank alone", "[trace]") {
  const auto ranks = ranks_of(2, [](int) { return std::vector<Record>{}; });
  CommunicatorTable t(ranks, TraceLibrary{}, {});
  CHECK(t.ranks(0) == std::vector<int>{0, 1});
  CHECK(t.bind(1, CommRef{kWorld, 1, 2}, 1, 0) == 0);
  CHECK(t.bind(1, CommRef{kWorld, 1, 2}, 2, 0) == 0);
  const int self = t.bind(1, CommRef{7, 0, 1}, 3, 0);
  CHECK(self == 1);
  CHECK(t.ranks(self) == std::vector<int>{1});
  CHECK_THROWS_AS(t.bind(0, CommRef{8, 0, 3}, 4, 0), InputError);  // made by no call pico follows
}

TEST_CASE("trace communicators: a split communicator maps its members' ranks by color and key", "[trace]") {
  // Colors 0 and 1 by parity; keys reverse the order.
  const auto ranks =
      ranks_of(4, [](int r) { return std::vector<Record>{made(Role::comm_split, r, 4, 777, r % 2, -r)}; });
  CommunicatorTable t(ranks, TraceLibrary{}, {});
  REQUIRE(all_create(t, ranks, 0));
  // Rank 2 has the lower key of color 0: comm rank 0; rank 0 is comm rank 1.
  const int even = t.bind(2, CommRef{500, 0, 2}, 2, 1);
  CHECK(t.ranks(even) == std::vector<int>{2, 0});
  CHECK(t.rank_in(even, 2) == 0);
  CHECK(t.rank_in(even, 0) == 1);
  CHECK(t.bind(0, CommRef{500, 1, 2}, 2, 1) == even);
  const int odd = t.bind(3, CommRef{501, 0, 2}, 2, 1);
  CHECK(odd != even);
  CHECK(t.ranks(odd) == std::vector<int>{3, 1});
  CHECK(t.bind(1, CommRef{501, 1, 2}, 2, 1) == odd);
  CHECK(!t.rank_field_note());
  CHECK(t.take().size() == 3);
}

TEST_CASE("trace communicators: MPI_Comm_dup's group is its parent's, MPI_UNDEFINED joins none", "[trace]") {
  const auto ranks = ranks_of(3, [](int r) {
    return std::vector<Record>{made(Role::comm_dup, r, 3, 10), made(Role::comm_split, r, 3, 20, r == 1 ? -32766 : 4)};
  });
  CommunicatorTable u(ranks, TraceLibrary{}, {});
  REQUIRE(all_create(u, ranks, 0));
  REQUIRE(all_create(u, ranks, 1));
  const int dup = u.bind(0, CommRef{600, 0, 3}, 3, 2);
  CHECK(u.ranks(dup) == std::vector<int>{0, 1, 2});
  const int split = u.bind(2, CommRef{601, 1, 2}, 3, 2);
  CHECK(u.ranks(split) == std::vector<int>{0, 2});
  CHECK(u.take().size() == 3);  // the world, the dup, one color
}

TEST_CASE("trace communicators: a handle freed through a copy resolves to the new communicator", "[trace]") {
  // Each rank dups the world into variable 0x10 and uses handle 55; frees a copy of it (variable 0x99, which no
  // call made); dups again into 0x20, which the library hands the same handle.
  const auto ranks = ranks_of(2, [](int r) {
    return std::vector<Record>{made(Role::comm_dup, r, 2, 0x10), freed(0x99), made(Role::comm_dup, r, 2, 0x20)};
  });
  CommunicatorTable t(ranks, TraceLibrary{}, {});
  REQUIRE(all_create(t, ranks, 0));
  const int first = t.bind(0, CommRef{55, 0, 2}, 2, 1);
  CHECK(t.bind(1, CommRef{55, 1, 2}, 2, 1) == first);
  for (int r = 0; r < 2; ++r) t.free(r, ranks[static_cast<std::size_t>(r)].records[1]);
  CHECK(t.untied_frees() == 2);
  REQUIRE(all_create(t, ranks, 2));
  const int second = t.bind(0, CommRef{55, 0, 2}, 4, 3);
  CHECK(second != first);
  CHECK(t.bind(1, CommRef{55, 1, 2}, 4, 3) == second);
  CHECK(t.ranks(second) == std::vector<int>{0, 1});
  CHECK(t.bind(0, CommRef{55, 0, 2}, 5, 3) == second);  // bound again: no free since
}

TEST_CASE("trace communicators: a handle freed by its variable comes back for the next communicator", "[trace]") {
  const auto ranks = ranks_of(2, [](int r) {
    return std::vector<Record>{made(Role::comm_dup, r, 2, 0x10), freed(0x10), made(Role::comm_dup, r, 2, 0x10)};
  });
  CommunicatorTable t(ranks, TraceLibrary{}, {});
  REQUIRE(all_create(t, ranks, 0));
  const int first = t.bind(0, CommRef{55, 0, 2}, 2, 1);
  CHECK(t.bind(1, CommRef{55, 1, 2}, 2, 1) == first);
  for (int r = 0; r < 2; ++r) t.free(r, ranks[static_cast<std::size_t>(r)].records[1]);
  REQUIRE(all_create(t, ranks, 2));
  const int second = t.bind(0, CommRef{55, 0, 2}, 4, 3);
  CHECK(second != first);
  CHECK(t.bind(1, CommRef{55, 1, 2}, 4, 3) == second);
  CHECK(t.untied_frees() == 0);
}

TEST_CASE("trace communicators: a member that never makes the call is named", "[trace]") {
  const auto ranks = ranks_of(3, [](int r) {
    return r == 1 ? std::vector<Record>{} : std::vector<Record>{made(Role::comm_split, r, 3, 7)};
  });
  CommunicatorTable t(ranks, TraceLibrary{}, {});
  CHECK(!t.create(0, ranks[0].records[0], 0));
  CHECK(!t.create(2, ranks[2].records[0], 0));
  try {
    t.stuck(0, ranks[0].records[0]);
    FAIL("not refused");
  } catch (const InputError& e) {
    CHECK(e.file == "rank0.txt");
    CHECK_THAT(e.message, Catch::Contains("never made by rank(s) 1 of its communicator"));
  }
}

TEST_CASE("trace communicators: a trace's own definitions bind every handle", "[trace]") {
  const auto ranks = ranks_of(3, [](int) { return std::vector<Record>{}; });
  const std::map<std::uint64_t, std::vector<int>> known{{1, {0, 1, 2}}, {2, {2, 0}}};
  CommunicatorTable t(ranks, TraceLibrary{}, known);
  const int c = t.bind(0, CommRef{2, 1, 2}, 1, 0);
  CHECK(t.ranks(c) == std::vector<int>{2, 0});
  CHECK(t.bind(2, CommRef{2, 0, 2}, 1, 0) == c);
  CHECK_THROWS_AS(t.bind(0, CommRef{3, 0, 1}, 1, 0), InputError);
}

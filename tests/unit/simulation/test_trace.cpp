// SPDX-License-Identifier: BSD-3-Clause
// liballprof lines (simulation/liballprof.hpp) and the traced program built from them
// (simulation/trace_builder.hpp): fields as liballprof prints them, matching, requests, communicators.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <string>
#include <vector>

#include "simulation/trace_builder.hpp"
#include "support/input_error.hpp"

using namespace pico;
using liballprof::parse_line;
using liballprof::Role;

namespace {

liballprof::Record line(const std::string& text) {
  std::string unknown;
  const auto r = parse_line(text, "t.txt", 1, &unknown);
  REQUIRE(r);
  return *r;
}

RankRecords rank_records(const std::vector<std::string>& lines) {
  RankRecords r;
  r.file = "rank.txt";
  int n = 0;
  for (const std::string& l : lines) {
    std::string unknown;
    auto rec = parse_line(l, r.file, ++n, &unknown);
    REQUIRE(rec);
    r.records.push_back(*rec);
  }
  return r;
}

}  // namespace

TEST_CASE("liballprof lines: the sample's fields, '-' and MPICH's handles", "[trace]") {
  const auto init = line("MPI_Init:-:140734714680652:140734714680640:1.0");
  CHECK(init.role == Role::init);
  CHECK(!init.start_us);
  CHECK(*init.end_us == 1.0);
  const auto fin = line("MPI_Finalize:13.0:-");
  CHECK(fin.role == Role::finalize);
  CHECK(*fin.start_us == 13.0);
  CHECK(!fin.end_us);
  const auto bcast = line("MPI_Bcast:3.0:5648928:12:13,1,1:0:5641280,0,4:4.0");
  CHECK(bcast.role == Role::collective);
  CHECK(bcast.collective == Collective::bcast);
  CHECK(bcast.bytes == 12);
  CHECK(bcast.comm.handle == 5641280);
  CHECK(bcast.comm.size == 4);
  // MPICH's user communicators are negative ints that liballprof prints with %lu.
  const auto send = line("MPI_Isend:10:1:3:10,8,8:1:77:18446744071562067968,1,2:1400:12");
  CHECK(send.comm.handle == 18446744071562067968ull);
  CHECK(send.comm.rank == 1);
  CHECK(send.bytes == 24);
  CHECK(!send.blocking);
  CHECK(send.request == 1400);
  const auto sr = line("MPI_Sendrecv:1:2:4:10,8,8:1:5:3:2:8,4,4:0:6:91,0,2:99:2");
  CHECK(sr.role == Role::sendrecv);
  CHECK(sr.bytes == 32);
  CHECK(sr.bytes2 == 8);
  CHECK(sr.peer == 1);
  CHECK(sr.tag == 5);
  CHECK(sr.peer2 == 0);
  CHECK(sr.tag2 == 6);
  // Gather: the root's receive side, another rank's send side.
  CHECK(line("MPI_Gather:1:2:4:8,4,4:3:4:8,4,4:0:91,0,2:2").bytes == 16);
  CHECK(line("MPI_Gather:1:2:4:8,4,4:3:4:8,4,4:1:91,0,2:2").bytes == 16);
  CHECK(line("MPI_Comm_rank:1:91,0,2:5:2").role == Role::time_only);
}

TEST_CASE("liballprof lines: what is refused, at its column", "[trace]") {
  std::string unknown;
  CHECK(!parse_line("MPI_Put:1:2:3:13,1,1:1:0:3:13,1,1:77:4", "t.txt", 1, &unknown));
  CHECK(unknown == "MPI_Put");
  const auto column_of = [](const std::string& text) {
    try {
      std::string u;
      parse_line(text, "t.txt", 3, &u);
    } catch (const InputError& e) {
      CHECK(e.line == 3);
      return e.column;
    }
    return -1;
  };
  CHECK(column_of("MPI_Barrier:1:91,0:2") == 15);           // no size
  CHECK(column_of("MPI_Barrier:x:91,0,2:2") == 13);         // tstart
  CHECK(column_of("MPI_Bcast:1:2:3:13,1,1:9:91,0,2:4") > 0);  // root outside the communicator
  CHECK(column_of("MPI_Send:1:2:3:13,1,1:1:91,0,2:4") == 1);   // five arguments
  CHECK(column_of("MPI_Allreduce:1:2:3:2199023255553:8,4,4:3:91,0,2:4") > 0);  // beyond 1 TiB
  CHECK(column_of("MPI_Barrier:5:91,0,2:4") > 0);             // ends before it starts
  // A datatype is code,size,extent: a fourth part, a negative extent or a code that is no number is refused
  // at the datatype's column (issue 66: docs said so, the reader took them).
  CHECK(column_of("MPI_Bcast:3.0:5648928:12:10,8,8,8:0:5641280,0,4:4.0") == 26);
  CHECK(column_of("MPI_Bcast:3.0:5648928:12:10,8,-1:0:5641280,0,4:4.0") == 26);
  CHECK(column_of("MPI_Bcast:3.0:5648928:12:x,8,8:0:5641280,0,4:4.0") == 26);
  CHECK(column_of("MPI_Bcast:3.0:5648928:12:10,8,8x:0:5641280,0,4:4.0") == 26);
  CHECK(line("MPI_Bcast:3.0:5648928:12:10,8:0:5641280,0,4:4.0").bytes == 96);  // no extent: as before
}

TEST_CASE("traced program: non-blocking point to point, matched, with its requests", "[trace]") {
  std::vector<RankRecords> ranks;
  ranks.push_back(rank_records({"MPI_Init:-:1:2:100", "MPI_Isend:110:1:4:10,8,8:1:3:91,0,2:5000:111",
                                "MPI_Recv:150:1:2:10,8,8:1:4:91,0,2:1:160", "MPI_Wait:170:5000:1:171",
                                "MPI_Finalize:200:-"}));
  ranks.push_back(rank_records({"MPI_Init:-:1:2:100", "MPI_Irecv:105:1:4:10,8,8:-1:-1:92,1,2:6000:106",
                                "MPI_Send:120:1:2:10,8,8:0:4:92,1,2:121", "MPI_Waitall:130:1:6000:1:131",
                                "MPI_Finalize:190:-"}));
  const TraceProgram t = build_trace_program(std::move(ranks), TraceMpi::automatic);
  REQUIRE(t.messages.size() == 2);
  const auto& r0 = t.ranks[0].ops;
  REQUIRE(r0.size() == 3);
  CHECK(r0[0].kind == TraceOpKind::send);
  CHECK(!r0[0].blocking);
  CHECK(r0[0].gap_s == Approx(10e-6));
  CHECK(r0[1].kind == TraceOpKind::recv);
  CHECK(r0[1].blocking);
  CHECK(r0[1].gap_s == Approx(39e-6));
  CHECK(r0[2].kind == TraceOpKind::wait);
  CHECK(t.ranks[0].waited[r0[2].index] == r0[0].request);
  CHECK(t.ranks[0].final_gap_s == Approx(29e-6));
  const auto& m = t.messages[r0[0].index];
  CHECK(m.src == 0);
  CHECK(m.dst == 1);
  CHECK(m.bytes == 32);
  // Rank 1's MPI_ANY_SOURCE/MPI_ANY_TAG receive took rank 0's message.
  CHECK(t.messages[t.ranks[1].ops[0].index].src == 0);
  CHECK(t.traced_runtime_s() == Approx(100e-6));
}

TEST_CASE("traced program: MPI_ANY_SOURCE takes the send that started first", "[trace]") {
  std::vector<RankRecords> ranks;
  ranks.push_back(rank_records({"MPI_Recv:500:1:1:13,1,1:-1:-1:91,0,3:1:510", "MPI_Recv:520:1:1:13,1,1:-1:-1:91,0,3:1:530"}));
  ranks.push_back(rank_records({"MPI_Send:300:1:1:13,1,1:0:1:91,1,3:301"}));
  ranks.push_back(rank_records({"MPI_Send:200:1:1:13,1,1:0:2:91,2,3:201"}));
  const TraceProgram t = build_trace_program(std::move(ranks), TraceMpi::openmpi);
  CHECK(t.messages[t.ranks[0].ops[0].index].src == 2);
  CHECK(t.messages[t.ranks[0].ops[1].index].src == 1);
}

TEST_CASE("traced program: MPI_Comm_split groups by color and key, handles bound to them", "[trace]") {
  std::vector<RankRecords> ranks;
  for (int r = 0; r < 4; ++r) {
    const int color = r % 2, key = -r, comm_rank = r < 2 ? 1 : 0;
    ranks.push_back(rank_records(
        {fmt::format("MPI_Comm_split:1:91,{},4:{}:{}:777:2", r, color, key),
         fmt::format("MPI_Allreduce:3:1:2:4:8,4,4:3:{},{},2:4", 500 + color, comm_rank)}));
  }
  const TraceProgram t = build_trace_program(std::move(ranks), TraceMpi::openmpi);
  REQUIRE(t.comms.size() == 3);
  CHECK(t.comms[1].ranks == std::vector<int>{2, 0});
  CHECK(t.comms[2].ranks == std::vector<int>{3, 1});
  REQUIRE(t.collectives.size() == 2);
  CHECK(t.collectives[0].bytes == 16);
}

TEST_CASE("traced program: refusals name the rank's file and line", "[trace]") {
  auto refused = [](std::vector<RankRecords> ranks) {
    try {
      build_trace_program(std::move(ranks), TraceMpi::openmpi);
    } catch (const InputError& e) {
      return e.message;
    }
    return std::string();
  };
  std::vector<RankRecords> a;
  a.push_back(rank_records({"MPI_Bcast:1:1:4:13,1,1:0:91,0,2:2"}));
  a.push_back(rank_records({"MPI_Allreduce:1:1:2:4:13,1,1:3:91,1,2:2"}));
  CHECK_THAT(refused(std::move(a)), Catch::Contains("where the communicator's other ranks call"));
  std::vector<RankRecords> b;
  b.push_back(rank_records({"MPI_Comm_split:1:91,0,2:0:0:7:2"}));
  b.push_back(rank_records({"MPI_Barrier:1:91,1,2:2"}));
  CHECK_THAT(refused(std::move(b)), Catch::Contains("never made by rank(s) 1"));
  // Gatherv whose root's counts take 3 doubles from rank 1, which sends 2 (issue 66: it replayed silently).
  const auto gatherv = [&](const std::string& sent_by_1) {
    std::vector<RankRecords> g;
    g.push_back(rank_records({"MPI_Gatherv:1:100:2:10,8,8:200:300:2,3:400:0,2:10,8,8:0:91,0,2:2"}));
    g.push_back(rank_records({"MPI_Gatherv:1:100:" + sent_by_1 + ":10,8,8:200:300:2,3:400:0,2:10,8,8:0:91,1,2:2"}));
    return refused(std::move(g));
  };
  CHECK_THAT(gatherv("2"), Catch::Contains("this rank's counts take 24 B from rank 1, whose counts send it 16 B"));
  CHECK(gatherv("3").empty());
}

TEST_CASE("liballprof lines: count arrays, freed variables, cancels, split types (real lines)", "[trace]") {
  // From the traces of issue 49 (synthetic C program and Quantum ESPRESSO through liballprof_f77).
  const auto gv = line("MPI_Gatherv:2891:140736594293328:2:10,8,8:140736594292816:140736594292800:1,2,3,4:"
                       "140736594292784:0,1,3,6:10,8,8:0:94590554400320,1,4:2927");
  CHECK(gv.role == Role::vcollective);
  CHECK(gv.vcollective == liballprof::VCollective::gatherv);
  CHECK(gv.send_bytes == std::vector<std::uint64_t>{16, 16, 16, 16});
  CHECK(gv.recv_bytes == std::vector<std::uint64_t>{8, 16, 24, 32});
  const auto a2av = line("MPI_Alltoallv:330286:139888698548240:93886362911312:17970,17805:93886362911376:0,17970:"
                         "11,8,8:139888695980048:93886362911344:17970,17973:93886363178000:0,17970:11,8,8:7,0,2:331304");
  CHECK(a2av.send_bytes == std::vector<std::uint64_t>{17970 * 8, 17805 * 8});
  CHECK(a2av.recv_bytes == std::vector<std::uint64_t>{17970 * 8, 17973 * 8});
  // MPI_DATATYPE_NULL (size 0) beside a count of 0, as QE passes it.
  CHECK(line("MPI_Gatherv:678901:1:0:139888785527008,0,0:2:3:16:4:0:93886363029664,256,512:0:8,0,1:678909").send_bytes ==
        std::vector<std::uint64_t>{0});
  CHECK_THROWS_WITH(line("MPI_Gatherv:1:1:1:10,8,8:2:3:1,2,3:4:0:10,8,8:0:5,0,4:2"),
                    Catch::Matchers::Contains("holds 3 counts for a communicator of 4 ranks"));
  // HPCC's PTRANS sends one derived struct of 1.28 MB (pico refused types over 1 MiB before).
  CHECK(line("MPI_Recv:36365207:94056710783872:1:94056708756176,1280648,1280648:0:2001:94056708592560,1,2:"
             "94056708901336:36366682").bytes == 1280648);
  const auto fr = line("MPI_Comm_free:19331:140732921321304:19347");
  CHECK(fr.role == Role::comm_free);
  CHECK(fr.variable == 140732921321304ull);
  const auto cart = line("MPI_Cart_create:14690:93878244622528,1,4:3:93878438760600:140732921321312:0:140732921321304:19291");
  CHECK(cart.role == Role::comm_cart);
  CHECK(cart.variable == 140732921321304ull);
  CHECK(line("MPI_Cancel:278549:140725319543232:278552").request == 140725319543232ull);
  const auto st = line("MPI_Comm_split_type:9157:94590554400320,1,4:0:1:94590554399040:140736594292680:10410");
  CHECK(st.role == Role::comm_split_type);
  CHECK(st.color == 0);
  CHECK(st.key == 1);
}

// SPDX-License-Identifier: BSD-3-Clause
// Issue 30, item 1: size bands fitted to point-to-point times (one line
// where one fits, a split where the regime changes), the jump that stands
// for S, a model's band per message size and its JSON; which messages of a
// step are pair exchanges, and what the evaluator charges them.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "collectives/pair_exchange.hpp"
#include "simulation/loggp_evaluator.hpp"
#include "simulation/size_bands.hpp"
#include "support/input_error.hpp"

using namespace pico;

namespace {

// Times of a line latency + (n - 1) G, in seconds, for n = 64 B .. 4 MiB, with a
// second line from `split` up when given; `wobble` adds +-x alternately.
std::vector<SizePoint> sendrecv_times(double latency_us, double G_ns, std::uint64_t split = 0, double latency2_us = 0,
                                      double G2_ns = 0, double wobble = 0) {
  std::vector<SizePoint> out;
  int k = 0;
  for (std::uint64_t n = 64; n <= (4u << 20); n *= 2, ++k) {
    const bool upper = split && n > split;
    const double t = (upper ? latency2_us : latency_us) * 1e-6 + static_cast<double>(n - 1) * (upper ? G2_ns : G_ns) * 1e-9;
    out.push_back({static_cast<double>(n), t * (1 + (k % 2 ? wobble : -wobble))});
  }
  return out;
}

}  // namespace

TEST_CASE("size bands: one line where one fits, noise included", "[bands]") {
  for (const double wobble : {0.0, 0.1}) {
    const auto bands = fit_size_bands(sendrecv_times(20, 1.0, 0, 0, 0, wobble));
    REQUIRE(bands.size() == 1);
    CHECK(bands[0].G == Approx(1000).epsilon(0.15));
    CHECK(!protocol_break(bands));
  }
}

TEST_CASE("size bands: a change of regime is split where it happens, the latency jump is S", "[bands]") {
  const auto bands = fit_size_bands(sendrecv_times(20, 1.0, 32768, 150, 8.0, 0.03));
  REQUIRE(bands.size() == 2);
  CHECK(bands[0].up_to == 32768);
  CHECK(bands[1].up_to == (4u << 20));
  CHECK(bands[0].latency_ps == Approx(20e6).epsilon(0.1));
  CHECK(bands[1].G == Approx(8000).epsilon(0.05));
  REQUIRE(protocol_break(bands));
  CHECK(*protocol_break(bands) == 32768);
  // A line that would start below 0 (a shaper's burst) is taken through latency 0, what LogGP can express.
  const auto burst = fit_size_bands(sendrecv_times(20, 1.0, 32768, -200, 9.0));
  REQUIRE(burst.size() == 2);
  CHECK(burst[1].latency_ps >= 0);
}

TEST_CASE("a model's band is the one holding the largest message, and bands survive JSON", "[bands]") {
  LogGPModel m;
  m.params = LogGPParams{.L = 50, .o = 5, .g = 0, .G = 3, .O = 0, .S = 100, .reduce_ps_per_byte = 1,
                         .exchange_factor = 1.4, .bands = {{.up_to = 1024, .L = 10, .o = 1, .G = 2},
                                                           {.up_to = 65536, .L = 90, .o = 1, .G = 7}}};
  CHECK(m.params.for_message(1024).L == 10);
  CHECK(m.params.for_message(1025).G == 7);
  CHECK(m.params.for_message(1u << 30).L == 90);  // past the last band: the last band
  CHECK(m.params.for_message(8).bands.empty());
  const LogGPModel back = model_from_json(to_json(m), "m.json");
  REQUIRE(back.params.bands.size() == 2);
  CHECK(back.params.bands[1].up_to == 65536);
  CHECK(back.params.exchange_factor == Approx(1.4));
  nlohmann::json j = to_json(m);
  std::swap(j["bands"][0], j["bands"][1]);
  CHECK_THROWS_AS(model_from_json(j, "m.json"), InputError);
  j = to_json(m);
  j.erase("bands");
  j.erase("exchange_factor");
  const LogGPModel old = model_from_json(j, "m.json");  // written before either
  CHECK(old.params.bands.empty());
  CHECK(old.params.exchange_factor == 1);
}

// Issue 53, finding 6: fractions were truncated, 1e300 became INT64_MIN, a
// band's up_to -1 read as 2^64-1, and held_out's counts were taken as given.
TEST_CASE("a model's numbers are whole and in range where they are counts, or it is refused", "[bands]") {
  LogGPModel m;
  m.params = LogGPParams{.L = 50, .o = 5, .g = 0, .G = 3, .O = 0, .S = 100, .reduce_ps_per_byte = 1,
                         .exchange_factor = 1, .bands = {{.up_to = 1024, .L = 10, .o = 1, .G = 2}}};
  m.held_out.error = {.points = 20, .median_rel = 0.1, .max_rel = 0.5};
  m.held_out.ranked = 9;
  m.held_out.best_matches = 7;
  const nlohmann::json good = to_json(m);
  CHECK(model_from_json(good, "m.json").held_out.best_matches == 7);
  const auto refused = [&](const char* pointer, const nlohmann::json& value, const char* message) {
    nlohmann::json j = good;
    j[nlohmann::json::json_pointer(pointer)] = value;
    INFO(pointer << " = " << value.dump());
    CHECK_THROWS_WITH(model_from_json(j, "m.json"), Catch::Matchers::Contains(message));
  };
  refused("/L", 1e300, "'L': 1e+300 is not a whole number from 0 to 2147483647");
  refused("/o", 2.5, "'o': 2.5 is not a whole number");
  refused("/G", -1, "'G': -1 is not a whole number");
  refused("/bands/0/up_to", -1, "'up_to': -1 is not a whole number from 0 to 9223372036854775807");
  refused("/bands/0/up_to", 1e30, "'up_to': 1e+30 is not a whole number");
  refused("/held_out/error/points", -3, "'points': -3 is not a whole number");
  refused("/held_out/error/median_rel_error", -1.0, "is not a relative error");
  refused("/held_out/error/max_rel_error", 0.05, "the median error 0.1 is above the largest 0.05");
  refused("/held_out/ranked_points", -2147483648LL, "'ranked_points': -2147483648 is not a whole number from 0 to 20");
  refused("/held_out/best_matches", 99, "'best_matches': 99 is not a whole number from 0 to 9");
}

TEST_CASE("pair exchanges: a step that sends to and receives from one peer", "[bands]") {
  using transport::OpKind;
  using transport::RecordedOp;
  const std::vector<RecordedOp> step{{OpKind::send, 0, 1, 0, 0, 100, 0, 0},
                                     {OpKind::recv, 0, 1, 0, 0, 100, 0, 0},
                                     {OpKind::send, 0, 2, 0, 0, 100, 0, 0},
                                     {OpKind::recv, 0, 3, 0, 0, 100, 0, 0}};
  PairExchanges pairs;
  pairs.scan(step.data(), step.data() + step.size());
  CHECK(pairs.contains(step[0]));
  CHECK(pairs.contains(step[1]));
  CHECK_FALSE(pairs.contains(step[2]));
  CHECK_FALSE(pairs.contains(step[3]));
  CHECK(pairs.charged_bytes(step[0], 1.5) == 150);
  CHECK(pairs.charged_bytes(step[2], 1.5) == 100);
}

TEST_CASE("the evaluator charges recursive doubling's exchanges, not the ring's distinct partners", "[bands]") {
  reference::ScheduleRequest req;
  req.collective = Collective::allgather;
  req.np = 4;
  req.dtype = Dtype::float32;
  req.count = 1 << 18;  // 1 MiB
  LogGPParams p{.L = 1000, .o = 100, .g = 0, .G = 100, .O = 0, .S = 0x7fffffff, .reduce_ps_per_byte = 0,
                .exchange_factor = 1, .bands = {}};
  LogGPParams charged = p;
  charged.exchange_factor = 2;
  req.algorithm = "ring";
  CHECK(evaluate_loggp(req, charged) == evaluate_loggp(req, p));
  req.algorithm = "recursive_doubling";
  const double ratio = static_cast<double>(evaluate_loggp(req, charged)) / static_cast<double>(evaluate_loggp(req, p));
  CHECK(ratio == Approx(2).epsilon(0.01));
}

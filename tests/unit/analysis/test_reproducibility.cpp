// SPDX-License-Identifier: BSD-3-Clause
// The platform's reproducibility every report states: split-half agreement
// of the fastest candidate, over rounds or over repetitions' launches.
#include <catch2/catch.hpp>

#include "analysis/reproducibility.hpp"
#include "tuning_fixtures.hpp"

using namespace pico;

namespace {

// A record measured in rounds with these round medians (repetition rep).
CaseResult in_rounds(const std::string& algorithm, std::uint64_t bytes, std::vector<double> medians, int rep = 0) {
  CaseResult r = test::allreduce_record(algorithm, bytes);
  r.c.repetition = rep;
  r.timing = compute_stats(medians);
  r.rounds = RoundsRecord{.seed = 1, .order = {}, .median_s = medians, .samples = std::vector<std::int64_t>(medians.size(), 5)};
  return r;
}

}  // namespace

TEST_CASE("reproducibility: even rounds against odd rounds, per choice") {
  const std::vector<CaseResult> cases{
      // 8 B: ring fastest in every round.
      in_rounds("default", 8, {2, 2, 2, 2}), in_rounds("ring", 8, {1, 1, 1, 1}),
      // 64 B: the even rounds say default, the odd ones ring, 3% apart: not the same best, but near.
      in_rounds("default", 64, {1.00, 1.03, 1.00, 1.03}), in_rounds("ring", 64, {1.03, 1.00, 1.03, 1.00}),
      // 1 KiB: the halves disagree by 2x.
      in_rounds("default", 1024, {1, 4, 1, 4}), in_rounds("ring", 1024, {2, 2, 2, 2}),
      // 4 KiB: one candidate only, nothing to choose between.
      in_rounds("default", 4096, {1, 1})};
  const Reproducibility r = split_half_agreement(cases);
  CHECK(r.split == "rounds");
  CHECK(r.choices == 3);
  CHECK(r.same_best == 1);
  CHECK(r.near_best == 2);
  CHECK_THAT(describe(r), Catch::Matchers::Contains("same best at 33% of 3 sizes"));
  CHECK_THAT(describe(r), Catch::Matchers::Contains("at 67%; split-half over rounds"));
  const Reproducibility back = reproducibility_from_json(to_json(r));
  CHECK(back.choices == 3);
  CHECK(back.near_best == 2);
}

TEST_CASE("reproducibility: repetitions split by launches before rounds") {
  std::vector<CaseResult> cases;
  for (int rep = 0; rep < 4; ++rep) {
    // The repetitions disagree: default fastest in even ones, ring in odd ones; rounds within each agree.
    const double d = rep % 2 == 0 ? 1.0 : 2.0;
    cases.push_back(in_rounds("default", 8, {d, d}, rep));
    cases.push_back(in_rounds("ring", 8, {1.5, 1.5}, rep));
  }
  const Reproducibility r = split_half_agreement(cases);
  CHECK(r.split == "launches");
  CHECK(r.choices == 1);
  CHECK(r.same_best == 0);
}

TEST_CASE("reproducibility: a sweep measured case by case in one launch cannot be split") {
  CaseResult a = test::allreduce_record("default", 8), b = test::allreduce_record("ring", 8);
  a.timing = compute_stats(std::vector<double>{1, 1, 1});
  b.timing = compute_stats(std::vector<double>{2, 2, 2});
  const Reproducibility r = split_half_agreement({a, b});
  CHECK(r.choices == 0);
  CHECK(r.split == "none");
  CHECK_THAT(describe(r), Catch::Matchers::Contains("not measured"));
}

// The results fuzz (issue 53) found `pico report` printing nlohmann's
// "type must be number, but is null" for a damaged reproducibility section.
TEST_CASE("reproducibility: a damaged record is refused naming its field") {
  Reproducibility r;
  r.split = "rounds";
  r.choices = 10;
  r.same_best = 7;
  r.near_best = 9;
  const nlohmann::json good = to_json(r);
  CHECK(reproducibility_from_json(good).near_best == 9);
  const auto refused = [&](const char* key, const nlohmann::json& value, const char* message) {
    nlohmann::json j = good;
    j[key] = value;
    INFO(key << " = " << value.dump());
    CHECK_THROWS_WITH(reproducibility_from_json(j), Catch::Matchers::Contains(message));
  };
  refused("near_best", nullptr, "near_best: is null, not a number");
  refused("split", 5, "split: is a number, not a string");
  refused("split", "halves", "split: unknown value 'halves'");
  refused("same_best", 10, "same_best 10 <= near_best 9 <= choices 10 does not hold");
  refused("choices", -1, "does not hold");
  refused("tolerance", 2, "tolerance 2 is not a fraction");
}

// SPDX-License-Identifier: BSD-3-Clause
// A tuned profile: per collective and communicator, which algorithm to run
// for which message sizes, with the evidence it was chosen on. `pico tune`
// writes it from reports; `pico export` turns it into each library's own
// tuning input; `pico run --profile`, `pico predict` and `pico replay` read it.
// Its JSON keys are spelled here and in profile.cpp alone (schema:
// docs/tuning.md#the-profile).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/types.hpp"

namespace pico {

inline constexpr const char* kProfileSchema = "pico-profile/1";

// The largest message size a profile holds (2^63 - 1): what the libraries'
// readers take (Open MPI's fscanf("%li"), JSON's int64), and room for a
// range's max_bytes + 1 without wrapping.
inline constexpr std::uint64_t kMaxProfileBytes = (std::uint64_t{1} << 63) - 1;

// The library whose algorithms the profile chooses. A profile never mixes
// libraries or versions: an export checks the library against its format.
struct ProfileLibrary {
  std::string backend;  // the experiment's backend: mpi, nccl, ...
  std::string name;     // openmpi, mpich, nccl, ...
  std::string version;  // as the report's provenance has it; "" when unknown
};

// The chosen algorithm's time relative to the library default's, as
// default / chosen: 1.25 means the choice is 25% faster. `low` and `high`
// bound it at the profile's confidence.
struct SpeedupInterval {
  double estimate = 1;
  double low = 1;
  double high = 1;
};

// One measured point a range's choice rests on.
struct ProfileEvidence {
  std::string report;   // the report's run id
  std::string case_id;  // the chosen algorithm's case in that report
  std::uint64_t bytes = 0;
  double seconds = 0;          // the chosen algorithm's objective (median or p95)
  double default_seconds = 0;  // the library default's, same size
};

// What the library's default ran at one measured size (its cases'
// selection.actual, catalogue names; the most frequent where launches differ).
struct DefaultRan {
  std::uint64_t bytes = 0;
  std::string algorithm;
};

// Message sizes [min_bytes, max_bytes] (inclusive; no max: unbounded) and
// the algorithm for them. Sizes are pico's case bytes: count x dtype size of
// one rank's block (Case::bytes); each export converts them to the size its
// library keys on.
struct ProfileRange {
  std::uint64_t min_bytes = 0;
  std::optional<std::uint64_t> max_bytes;
  std::string algorithm = "default";      // catalogue name; "default" keeps the library's own choice
  std::map<std::string, double> params;   // the algorithm's parameters (segment_size, fanout, ...)
  std::vector<std::uint64_t> measured_bytes;  // sizes measured inside the range, ascending
  std::optional<SpeedupInterval> speedup;     // over the library default; absent for "default"
  // The least, over its measured sizes, probability that the range's choice is
  // within 5% of the fastest candidate (pico tune's bootstrap); absent where
  // the reports allowed no bootstrap.
  std::optional<double> near_fastest;
  // Measured sizes whose data could not decide (near_fastest below the
  // profile's decide_from): the range keeps the library default there.
  std::vector<std::uint64_t> undecided_bytes;
  std::vector<ProfileEvidence> evidence;
  // What the library default ran at the measured sizes where the reports say
  // (selection.actual), ascending; empty for profiles of reports that do not.
  std::vector<DefaultRan> default_ran;

  bool covers(std::uint64_t bytes) const { return bytes >= min_bytes && (!max_bytes || bytes <= *max_bytes); }
  // The algorithm that runs at `bytes` (catalogue name): the range's own, or
  // for "default" what the library's default ran at the measured size whose
  // share of the range holds `bytes` (boundaries as pico tune draws them:
  // range_boundary); "default" where the reports did not say.
  std::string algorithm_at(std::uint64_t bytes) const;
  // What the library default ran at the measured size whose share of the
  // range holds `bytes` (whatever the range chose); "" where the reports did
  // not say.
  std::string default_ran_at(std::uint64_t bytes) const;
  // The same in words: "ring", or "default (ran ring)" where the library's
  // default ran it, or "default" where the reports did not say.
  std::string choice_at(std::uint64_t bytes) const;
  // The range cut where algorithm_at changes: [min, max] (no max: unbounded)
  // and what runs there, ascending; one span unless a "default" range's
  // default ran different algorithms at its measured sizes.
  struct Span {
    std::uint64_t min_bytes = 0;
    std::optional<std::uint64_t> max_bytes;
    std::string algorithm;
  };
  std::vector<Span> spans() const;
};

// Where a boundary between two measured sizes lies: the first byte count of
// the upper range, ceil(sqrt(lower * upper)) within (lower, upper].
std::uint64_t range_boundary(std::uint64_t lower, std::uint64_t upper);

// The choices for one collective on one communicator shape. Ranges are
// ascending and contiguous, the first starts at 0 and the last is unbounded,
// so every size has exactly one range (check_profile).
struct ProfileRule {
  Collective collective = Collective::allreduce;
  int comm_size = 0;
  int nodes = 0;  // 0: unknown (a report without placement)
  int ppn = 0;
  std::vector<ProfileRange> ranges;
  // A rule for a communicator size no report measured, filled in from the
  // rules of these measured sizes (tuning/comm_size_prediction.hpp); empty
  // for a measured rule.
  std::vector<int> predicted_from;

  // The range holding `bytes`; nullptr only for a profile that breaks the invariants.
  const ProfileRange* range_for(std::uint64_t bytes) const;
};

struct TunedProfile {
  ProfileLibrary library;
  std::string platform;             // the platform the reports ran on
  std::string objective = "median";  // median | p95
  double min_gain = 0.05;            // a choice must beat the default by more than this
  double confidence = 0.95;
  // A size's choice is kept when at least this share of bootstrap replicates
  // put it within 5% of the fastest; below it the size is undecided.
  double decide_from = 0.8;
  std::string test;                  // the statistical test the choices passed, in words
  std::vector<std::string> reports;  // run ids of the reports it came from
  // What makes its evidence doubtful, per report ("RUN: oversubscribed (...)"): exported with it, printed by
  // every verb that loads it.
  std::vector<std::string> warnings;
  std::string created;               // UTC, ISO 8601
  std::string pico_version;
  std::vector<ProfileRule> rules;

  // The range of the nearest rule for `bytes` of `collective` on a
  // communicator of comm_size ranks: the last rule with comm_size <= the
  // communicator's (a smaller communicator takes the first rule); with
  // several rules of one comm_size, the one with `nodes` when given, else the
  // first. nullptr when the profile has no rule for the collective. This is
  // not what a library runs with the profile loaded: its export leaves the
  // library's own decision below the smallest rule of some collectives,
  // between exact sizes and past a rule's reach, and every verb that answers
  // that reads exported_rule (tuning/exported_choice.hpp).
  const ProfileRange* choose(Collective collective, int comm_size, std::uint64_t bytes, int nodes = 0) const;
  // The rule choose() reads, by the same semantics; nullptr when the profile has no rule for the collective.
  const ProfileRule* rule_for(Collective collective, int comm_size, int nodes = 0) const;
};

nlohmann::json to_json(const TunedProfile& p);

// Reads and checks a profile. `where` names its source in errors (a file).
// Throws InputError naming the JSON path of what is wrong.
TunedProfile profile_from_json(const nlohmann::json& j, const std::string& where);

// Reads a profile file; InputError (exit 2) when it is not JSON, not a
// profile, of another schema, or breaks an invariant.
// `text`, when given, receives the bytes parsed (for a fingerprint of the file).
TunedProfile load_profile(const std::filesystem::path& path, std::string* text = nullptr);

// The invariants every reader and export relies on (throws InputError at
// `where`): a library with its version; per rule a collective and comm_size >= 1, no two
// rules for the same (collective, comm_size, nodes, ppn); ranges ascending,
// contiguous, first at 0, last unbounded, sizes below 2^63; parameters within
// what the library takes (segment_size and fan-outs 0 to 2^31-1, channels 1
// to 64); speedup intervals ordered. Reading a profile also refuses any
// string that is not one line of printable UTF-8 (support/plain_text.hpp).
void check_profile(const TunedProfile& p, const std::string& where);

}  // namespace pico

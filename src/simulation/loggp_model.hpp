// SPDX-License-Identifier: BSD-3-Clause
// A LogGP model of one platform, in the units LogGOPSim takes: integer
// picoseconds (LogGOPSim's parameters are integers and it has one time unit,
// so ps lets a fraction of a ns per byte be expressed), plus the local
// reduction's cost per byte, which becomes GOAL `calc` time.
//
// File: pico-model/1 JSON (docs/simulation.md), written by `pico fit` and
// read by `pico predict`, `pico schedule --model` and `pico replay`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pico {

// LogGOPSim reads -L -o -g -G -O -S as C ints: no parameter may pass this.
inline constexpr std::int64_t kMaxLogGOPSimParameter = 0x7fffffff;

// PLogP's idea in LogGOPSim's terms: where one line in message size does not
// fit (a token bucket's burst, a protocol switch), messages of at most
// `up_to` bytes get their own L, o and G. LogGOPSim takes one parameter set
// per run, so a schedule is simulated with the band of its largest message.
struct SizeBand {
  std::uint64_t up_to = 0;  // bytes; the last band holds every larger message too
  std::int64_t L = 0, o = 0, G = 0;
};

struct LogGPParams {
  std::int64_t L = 0;  // ps in flight
  std::int64_t o = 0;  // ps of CPU per message (send and receive)
  std::int64_t g = 0;  // ps between messages at a NIC
  std::int64_t G = 0;  // ps per byte at the NIC
  std::int64_t O = 0;  // ps of CPU per byte
  std::int64_t S = 0;  // bytes above which a message goes rendezvous
  double reduce_ps_per_byte = 0;  // local reduction (GOAL calc) per byte reduced
  // A message exchanged both ways between one pair in one step (recursive
  // doubling, pairwise) is charged this many times its bytes: the measured
  // slowdown of a same-pair exchange (docs/simulation.md), which LogGP's
  // per-NIC costs cannot express. 1: none.
  double exchange_factor = 1;
  std::vector<SizeBand> bands;  // by up_to, ascending; empty: L, o, G above for every size

  // These parameters with L, o and G of the band that holds `largest_message`.
  LogGPParams for_message(std::uint64_t largest_message) const;
};

// How well a part of the model reproduces the cases it was fitted to.
struct FitError {
  int points = 0;
  double median_rel = 0;  // median |predicted / measured - 1|
  double max_rel = 0;
};

struct LogGPModel {
  std::string platform;  // the report's platform name
  std::string library;   // the MPI library the cases ran on
  std::string scope;     // what links the cases crossed: "intra-node", "inter-node" or "unknown"
  std::string source;    // the report it was fitted from
  LogGPParams params;
  FitError p2p;          // sendrecv cases against L + 2o + (n-1)G
  FitError collectives;  // reference-algorithm cases simulated with the model
  // The last held-out check recorded into the model (pico predict --check
  // REPORT --record, on a report it was not fitted from): what every
  // prediction with it quotes as its accuracy. points 0: never checked.
  struct HeldOut {
    std::string report;  // the report checked against
    FitError error;
    int ranked = 0;        // (collective, size) points with two algorithms or more
    int best_matches = 0;  // of those, where the predicted best was the measured best
  } held_out;
};

// One line on how far to trust the model's predictions: its recorded
// held-out error, or that it has none (and how to get one).
std::string accuracy_text(const LogGPModel& m, const std::string& model_path);

nlohmann::json to_json(const LogGPModel& m);
// Throws InputError naming `where` on a malformed or foreign document.
LogGPModel model_from_json(const nlohmann::json& j, const std::string& where);
// Reads a model file; InputError on anything pico cannot use.
LogGPModel load_model(const std::string& path);

// ATLAHS's AI parameter set (L 3.7 us, o 200 ns, g 5 ns, G 0.04 ns/B, S 0),
// in ps, with reductions at 4 GB/s: what `pico predict` uses without --model.
LogGPModel default_model();

}  // namespace pico

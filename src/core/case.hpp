// SPDX-License-Identifier: BSD-3-Clause
// A case is one measurement. Its case_id is a stable hash of the fields that
// define it, so a re-run can recognise cases already measured.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/types.hpp"

namespace pico {

// How a case's algorithm is put in force, decided when the run is planned
// from the library's catalogue. Not part of the case's identity.
struct Selection {
  std::string mechanism = "none";  // none | mpi_t (written at run time) | env (set at launch) | builtin
  std::string variable;            // the cvar or environment variable
  std::string value;
  std::string readback;  // what the library reports for `variable` once it took effect, if not `value`
  std::map<std::string, std::string> parameters;  // further variables (segment size, fan-out) and values
  std::string fallback;  // why this is not the catalogue's mechanism (e.g. MPI_T writing was refused)
  // env: how the worker checks the library took it: mpi_t (the library reports
  // the variable) or environment (the variable is in the environment the
  // library reads at init; NCCL reports nothing back).
  std::string verify = "mpi_t";
  // mpi_t: when the library acts on a written value: new_communicator (Open
  // MPI's coll framework reads it when a communicator is created, so the
  // worker duplicates one) or next_call (MPICH reads it at every call).
  std::string takes_effect = "new_communicator";
};

struct Case {
  std::string case_id;
  int index = 0;                 // position in the plan, for stable ordering
  std::string backend = "mpi";   // the experiment's backend library name
  Collective collective = Collective::allreduce;
  std::string algorithm = "default";
  Dtype dtype = Dtype::float32;  // none for barrier
  Op op = Op::none;              // none for collectives without a reduction
  std::uint64_t count = 0;       // elements per rank block (see docs/methodology.md)
  std::uint64_t bytes = 0;       // count * dtype size
  int np = 1;
  bool in_place = false;
  TimingMode mode = TimingMode::latency;
  int root = 0;                  // for bcast, reduce, gather, scatter
  // Algorithm parameters (segment_size, bits, topk_ratio, ...): sizes and counts
  // are integral, ratios are not; see param_text.
  std::map<std::string, double> params;
  // Backend options that define the case but are not algorithm parameters
  // (compressed: the input distribution and its seed).
  std::map<std::string, std::string> options;
  Selection selection;
  // Which run of the plan this is (experiment `repetitions`): not a defining
  // field, so every repetition of a case has the same case_id; run_key tells them apart.
  int repetition = 0;
};

// The option that makes one process drive several GPUs (nccl backend only).
inline constexpr const char* kGpusPerProcess = "gpus_per_process";
// The nccl backend's cold-cache option, as nccl-tests times: each timed call
// uses buffers at the next offset within a span of this many bytes per buffer
// (docs/nccl.md#buffers).
inline constexpr const char* kRotateBuffers = "rotate_buffers";
// How the mpi backend calls the collective (its `call` option,
// docs/configuration.md#call-forms): the blocking MPI_<Coll>; MPI_I<Coll>
// then MPI_Wait; or the persistent form, MPI_<Coll>_init once per case, then
// MPI_Start and MPI_Wait per call. Blocking is the default and stays out of
// the case's options (and so out of its id).
enum class CallForm { blocking, nonblocking, persistent };
inline constexpr std::array kCallForms{CallForm::blocking, CallForm::nonblocking, CallForm::persistent};
inline constexpr const char* kCall = "call";
std::string_view name(CallForm f);
std::optional<CallForm> parse_call_form(std::string_view s);
CallForm call_form(const Case& c);
// The same from a backend entry's options (config's BackendSpec), before any case exists.
CallForm call_form(const std::map<std::string, std::string>& options);
// The ranks each worker process runs: the case's gpus_per_process, else 1.
// Its np ranks run in np / ranks_per_process processes.
int ranks_per_process(const Case& c);

// A parameter value as text: integral values without a decimal point
// ("65536"), others in shortest round-trip form ("0.01").
std::string param_text(double value);
// An algorithm with its parameters, as tune's summary and race records name
// a candidate: "chain chain_fanout=4 segment_size=8192".
std::string candidate_label(const std::string& algorithm, const std::map<std::string, double>& params);
// The params map as JSON: integral values as JSON integers.
nlohmann::json params_to_json(const std::map<std::string, double>& params);

// 16 hex digits of FNV-1a 64 over the canonical "key=value;" form of the
// defining fields (index and case_id excluded).
std::string compute_case_id(const Case& c);

// What a case is but for how it is computed (algorithm, parameters,
// selection, and its backend unless with_backend): the cases that share it
// are the candidates of one choice (worker/race_runner.hpp,
// analysis/reproducibility.hpp). Like case_id, it leaves the repetition out.
std::string choice_id(const Case& c, bool with_backend);

// What identifies one planned run of a case: its case_id, with "/R" for
// repetition R > 0 (so a plan without repetitions keys on the case_id alone).
// Resume and the report builder key results on it.
std::string run_key(const Case& c);

// The case's defining fields as they appear in plan.json, cases.jsonl and report.json.
nlohmann::json case_to_json(const Case& c);
// Inverse of case_to_json; throws std::runtime_error on a malformed object.
Case case_from_json(const nlohmann::json& j);

}  // namespace pico

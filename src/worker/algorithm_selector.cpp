#include "worker/algorithm_selector.hpp"

#include <cstdlib>

#include <fmt/format.h>

#include "harness/harness.hpp"

namespace pico {
namespace {

bool same_selection(const Selection& a, const Selection& b) {
  return a.mechanism == b.mechanism && a.variable == b.variable && a.value == b.value &&
         a.parameters == b.parameters;
}

// The library holds `wanted` for `variable`, as a number or as an enum item name.
bool holds(ControlVariables& cvars, const std::string& variable, const std::string& wanted, std::string& applied) {
  const auto value = cvars.read(variable);
  if (!value) return false;
  applied = *value;
  if (*value == wanted) return true;
  const auto enum_name = cvars.read_enum_name(variable);
  if (enum_name) applied = *enum_name;
  return enum_name && *enum_name == wanted;
}

bool all_ranks(MPI_Comm comm, bool mine) {
  int all = mine ? 1 : 0;
  harness::allreduce(comm, &all, 1, harness::Reduction::min);
  return all == 1;
}

}  // namespace

AlgorithmSelector::AlgorithmSelector(MPI_Comm harness, MPI_Comm shared) : harness_(harness), shared_(shared) {}

AppliedSelection AlgorithmSelector::apply(const Selection& s) {
  if (s.mechanism == "mpi_t") return apply_mpi_t(s);
  AppliedSelection a;
  a.comm = shared_;
  if (s.mechanism != "env" || s.variable.empty()) {
    a.verified = true;  // nothing was asked of the library
    return a;
  }
  if (s.verify == "environment") return check_environment(s, a);
  bool ok = holds(cvars_, s.variable, s.readback.empty() ? s.value : s.readback, a.applied);
  for (const auto& [var, value] : s.parameters) {
    std::string ignored;
    ok = ok && holds(cvars_, var, value, ignored);
  }
  a.verified = all_ranks(harness_, ok);
  if (!a.verified)
    a.note = a.applied.empty() ? fmt::format("the library does not report '{}' through MPI_T", s.variable)
                               : fmt::format("the library reports {}={}", s.variable, a.applied);
  return a;
}

// For libraries that report nothing back (NCCL): the variables are what this
// process's environment holds, which is what the library reads at init.
AppliedSelection AlgorithmSelector::check_environment(const Selection& s, AppliedSelection a) {
  auto holds_env = [](const std::string& var, const std::string& wanted) {
    const char* v = std::getenv(var.c_str());
    return v != nullptr && wanted == v;
  };
  bool ok = holds_env(s.variable, s.value);
  a.applied = s.variable + "=" + s.value;
  for (const auto& [var, value] : s.parameters) {
    ok = ok && holds_env(var, value);
    a.applied += " " + var + "=" + value;
  }
  a.verified = all_ranks(harness_, ok);
  a.note = a.verified ? "in the environment the library reads at init; it reports no choice back"
                      : "the launch environment does not hold these values on every rank";
  return a;
}

AppliedSelection AlgorithmSelector::apply_mpi_t(const Selection& s) {
  AppliedSelection a;
  if (forced_ && forced_selection_ && same_selection(*forced_selection_, s)) {
    // Same forcing as the communicator in hand: reuse it, but still check the library agrees.
    a.comm = forced_->get();
    a.verified = all_ranks(harness_, holds(cvars_, s.variable, s.value, a.applied));
    if (!a.verified) a.note = fmt::format("{} reads back {}, not {}", s.variable, a.applied, s.value);
    return a;
  }
  std::string error = cvars_.write(s.variable, s.value);
  for (const auto& [var, value] : s.parameters)
    if (error.empty()) error = cvars_.write(var, value);
  if (!all_ranks(harness_, error.empty())) {
    a.refused = true;
    a.note = error.empty() ? "another rank could not write the control variables" : error;
    return a;
  }
  bool ok = holds(cvars_, s.variable, s.value, a.applied);
  for (const auto& [var, value] : s.parameters) {
    std::string ignored;
    ok = ok && holds(cvars_, var, value, ignored);
  }
  // The coll framework reads the forced values when a communicator is created.
  forced_.reset();
  forced_ = std::make_unique<DupComm>(shared_);
  forced_selection_ = s;
  a.comm = forced_->get();
  a.verified = all_ranks(harness_, ok);
  if (!a.verified) a.note = fmt::format("wrote {}={} but read back {}", s.variable, s.value, a.applied);
  return a;
}

}  // namespace pico

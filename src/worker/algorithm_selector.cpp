// SPDX-License-Identifier: BSD-3-Clause
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

// What MPI_T is given: the library's id where the catalogue names one apart
// from the value (MPICH takes names only from the environment, and its
// control variables carry no MPI_T enumeration to map a name), else the value.
const std::string& mpi_t_value(const Selection& s) { return s.readback.empty() ? s.value : s.readback; }

std::set<std::string> variables_of(const Selection& s) {
  std::set<std::string> out{s.variable};
  for (const auto& [var, value] : s.parameters) out.insert(var);
  return out;
}

}  // namespace

AlgorithmSelector::AlgorithmSelector(MPI_Comm harness, MPI_Comm shared) : harness_(harness), shared_(shared) {}

AppliedSelection AlgorithmSelector::apply(const Selection& s) {
  if (s.mechanism == "mpi_t") return apply_mpi_t(s);
  AppliedSelection a;
  a.comm = shared_;
  // Nothing of this case's is written at run time: what earlier cases wrote goes back first.
  if (!launch_values_.empty()) {
    const std::string error = restore_all_but({});
    if (!all_ranks(harness_, error.empty())) {
      a.note = error.empty() ? "another rank could not restore the control variables an earlier case wrote" : error;
      return a;
    }
  }
  if (s.mechanism != "env" || s.variable.empty()) {
    a.verified = true;  // nothing was asked of the library
    return a;
  }
  if (s.verify == "environment") return check_environment(s, a);
  bool ok = holds(cvars_, s.variable, s.readback.empty() ? s.value : s.readback, a.applied);
  std::string unheld;  // the first parameter the library does not hold, as it reports it
  for (const auto& [var, value] : s.parameters) {
    std::string reported;
    if (ok && !holds(cvars_, var, value, reported)) {
      ok = false;
      unheld = reported.empty() ? fmt::format("the library does not report '{}' through MPI_T", var)
                                : fmt::format("the library reports {}={}, not {}", var, reported, value);
    }
  }
  a.verified = all_ranks(harness_, ok);
  if (!a.verified)
    a.note = !unheld.empty()      ? unheld
             : a.applied.empty() ? fmt::format("the library does not report '{}' through MPI_T", s.variable)
             : ok                ? "another rank does not hold every variable of the selection"
                                 : fmt::format("the library reports {}={}", s.variable, a.applied);
  return a;
}

std::string AlgorithmSelector::write(const std::string& variable, const std::string& value) {
  if (!launch_values_.contains(variable)) launch_values_[variable] = cvars_.read(variable);
  return cvars_.write(variable, value);
}

std::string AlgorithmSelector::restore_all_but(const std::set<std::string>& keep) {
  std::string error;
  for (auto it = launch_values_.begin(); it != launch_values_.end();) {
    if (keep.contains(it->first)) {
      ++it;
      continue;
    }
    const auto& [variable, launch_value] = *it;
    if (!launch_value) {
      if (error.empty()) error = fmt::format("cannot restore '{}': its launch value could not be read", variable);
    } else if (cvars_.read(variable) != launch_value) {
      if (std::string e = cvars_.write(variable, *launch_value); !e.empty() && error.empty())
        error = fmt::format("cannot restore '{}' to {}: {}", variable, *launch_value, e);
    }
    it = launch_values_.erase(it);  // tried or not, on every rank alike
    // A communicator made under the old values no longer matches the variables.
    forced_.reset();
    forced_selection_.reset();
  }
  return error;
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
  const std::string& wanted = mpi_t_value(s);
  const bool at_creation = s.takes_effect != "next_call";
  std::string error = restore_all_but(variables_of(s));
  if (at_creation && forced_ && forced_selection_ && same_selection(*forced_selection_, s)) {
    // Same forcing as the communicator in hand: reuse it, but still check the library agrees.
    a.comm = forced_->get();
    a.verified = all_ranks(harness_, error.empty() && holds(cvars_, s.variable, wanted, a.applied));
    if (!a.verified) a.note = error.empty() ? fmt::format("{} reads back {}, not {}", s.variable, a.applied, wanted) : error;
    return a;
  }
  if (error.empty()) error = write(s.variable, wanted);
  for (const auto& [var, value] : s.parameters)
    if (error.empty()) error = write(var, value);
  if (!all_ranks(harness_, error.empty())) {
    a.refused = true;
    a.note = error.empty() ? "another rank could not write the control variables" : error;
    return a;
  }
  bool ok = holds(cvars_, s.variable, wanted, a.applied);
  for (const auto& [var, value] : s.parameters) {
    std::string ignored;
    ok = ok && holds(cvars_, var, value, ignored);
  }
  if (at_creation) {
    // The coll framework reads the forced values when a communicator is created.
    forced_.reset();
    forced_ = std::make_unique<DupComm>(shared_);
    forced_selection_ = s;
    a.comm = forced_->get();
  } else {
    a.comm = shared_;  // the library reads the variable at its next call, on any communicator
  }
  a.verified = all_ranks(harness_, ok);
  if (!a.verified) a.note = fmt::format("wrote {}={} but read back {}", s.variable, wanted, a.applied);
  return a;
}

}  // namespace pico

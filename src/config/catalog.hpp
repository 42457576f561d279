// SPDX-License-Identifier: BSD-3-Clause
// Algorithm catalogues: per library, the algorithms of each collective, how
// each is selected, the library versions it exists in and its constraints.
// Data in configs/catalog/<library>.yaml; adding an algorithm is a data edit.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/constraint.hpp"
#include "core/case.hpp"
#include "core/ran_algorithm.hpp"
#include "core/types.hpp"

namespace pico {

struct AlgorithmConstraint {
  Constraint require;  // must hold for the algorithm to run as itself
  std::string reason;  // why, shown when a case is skipped
};

// How an experiment's `params` values of a parameter are read (the
// catalogue's `parameter_types`; docs/configuration.md#backends): a count or
// size (8, 64KiB), a fraction in (0, 1] (0.01, 1%), a duration longer than
// zero (5ms, 0.005) or a positive magnitude in the input's units (2.5).
enum class ParameterType { size, fraction, duration, magnitude };
std::string_view name(ParameterType t);
std::optional<ParameterType> parse_parameter_type(std::string_view s);

struct AlgorithmEntry {
  std::string name;
  std::string value;                    // what the selection variable is set to (id or name)
  std::string readback;                 // what MPI_T reports once it took effect, where that differs
  std::vector<std::string> parameters;  // parameter names it takes (segment_size, ...)
  std::vector<AlgorithmConstraint> constraints;
  std::string versions;                 // "" = all, else ">=5.0", "<6.0", ">=4.1,<6.0"
  std::string description;
  std::string cost;                     // alpha-beta cost, for humans
  std::map<std::string, std::string> env;  // env mechanism: further variables set with it (NCCL_PROTO)
  std::string function;  // the library function that runs it, where the interposer can see it (Open MPI)
  // A coll component other than the one the catalogue's variables drive (Open
  // MPI's han, adapt; Catalog::components): chosen at launch, not by `variable`.
  std::string component;
  // Of a component's algorithms, the one that hands the whole call to the
  // algorithm the collective's `variable` chooses (MPICH's flat ch4
  // compositions): where a profile loads the component, the sizes tuned to
  // the variable's algorithms run through it.
  bool flat = false;
  // Parameter -> the variable that sets it, where this algorithm's differs
  // from its collective's (a component's own segment size).
  std::map<std::string, std::string> parameter_variables;
};

// How a launch is made to use a component for every collective it serves:
// `variable` set to `value` in the environment at launch (Open MPI: han's
// priority above the catalogue's own component; MPICH: a ch4 selection file
// naming one composition), with `env` beside it, then checked as `verify`
// says: read back through MPI_T, or (where the library reports the variable
// back empty, as MPICH 4.0.2 does its file) the environment every rank holds.
struct ComponentSelection {
  std::string variable;
  std::string value;  // a `file` beside the catalogue is given as its absolute path
  std::string file;   // that file as the catalogue names it (configs/catalog/<file>), for listings
  std::map<std::string, std::string> env;
  std::string verify = "mpi_t";
  std::vector<AlgorithmConstraint> constraints;  // hold for each of its algorithms (han: several nodes)
};

struct CollectiveCatalog {
  std::string variable;                               // selection variable (cvar / env name)
  std::map<std::string, std::string> parameter_variables;  // segment_size -> its variable
  std::vector<AlgorithmEntry> algorithms;             // "default" not listed: always available
  std::vector<AlgorithmConstraint> constraints;       // hold for all its algorithms, "default" included
};

struct VersionedEnv {
  std::string versions;
  std::map<std::string, std::string> env;
  // Set only on launches that force one of the catalogue's own algorithms, never on those
  // of the library's default (and the mock-ups riding on it) or of a component's algorithm:
  // Open MPI 5's `coll ^han` keeps han out of a forced tuned algorithm's way, while the
  // default is measured as users get it, han included.
  bool forced_only = false;
};

// How a catalogue's algorithms are put in force: written through MPI_T at run
// time (mpi_t), set in the environment at launch (env), or pico's own code
// run directly (builtin). A case's Selection::mechanism is its name() once
// planned (or "none", where nothing is forced).
enum class SelectionMechanism { mpi_t, env, builtin };
std::string_view name(SelectionMechanism m);

struct Catalog {
  std::string library;
  std::string description;
  SelectionMechanism mechanism = SelectionMechanism::env;
  std::string default_value;                // mpi_t: value that restores the library's own choice
  std::string default_readback;             // what MPI_T reports for it, where that differs (MPICH: 0 for auto)
  std::string env_prefix;                   // env fallback for mpi_t: OMPI_MCA_ + variable
  // mpi_t: the library versions whose MPI_T values (`readback` ids) the
  // catalogue was checked against; "" = all. Other versions, or an unknown
  // one, select through the environment at launch (by name), one launch per algorithm.
  std::string mpi_t_versions;
  std::string takes_effect = "new_communicator";  // mpi_t: new_communicator | next_call (Selection::takes_effect)
  std::string verify = "mpi_t";             // env: how the worker checks it took effect (mpi_t | environment)
  std::string runtime = "mpi";              // what makes the calls: mpi | nccl (whose version `versions` names)
  std::vector<Dtype> dtypes;                // the datatypes the library has; empty: host_dtypes()
  std::map<Collective, std::string> unsupported;  // collectives the library lacks, with why
  // Collectives the library runs with no choice of algorithm, as `default`
  // only (MPI_Sendrecv), with why. A collective left out of `collectives`
  // runs so too; saying it lets a test tell it from one forgotten. Not in a
  // built-in catalogue, which has no default.
  std::map<Collective, std::string> default_only;
  std::map<std::string, std::string> launch_env;  // set on every launch using this catalogue
  std::vector<AlgorithmConstraint> constraints;   // hold for every algorithm but "default"
  std::vector<VersionedEnv> launch_env_by_version;
  std::map<std::string, ComponentSelection> components;  // by the name algorithms give in `component`
  // How the worker sees which algorithm ran (selection.actual): from the
  // algorithms' `function`s (interposer), pico's own code (builtin), or not at all.
  RanAlgorithmSource ran_algorithm;
  std::map<Collective, CollectiveCatalog> collectives;
  // The algorithms of the non-blocking calls (MPI_I<Coll>), which their own
  // variables choose (Open MPI's coll_libnbc_i<coll>_algorithm, MPICH's
  // MPIR_CVAR_I<COLL>_INTRA_ALGORITHM) under the same `selection`.
  std::map<Collective, CollectiveCatalog> nonblocking;
  // The values `algorithms: all` sweeps for a parameter the experiment gives
  // none for (segment sizes, fan-outs), so that segmented algorithms are measured.
  std::map<std::string, std::vector<double>> parameter_grid;
  // The type of each parameter that is not a size (`parameter_types`).
  std::map<std::string, ParameterType> parameter_types;
  std::string source_path;

  // The collectives whose algorithms a call form's variables choose:
  // `nonblocking` for MPI_I<Coll> and the persistent form (both run the
  // library's non-blocking schedules), `collectives` for the blocking call.
  const std::map<Collective, CollectiveCatalog>& collectives_of(CallForm form) const;
  const AlgorithmEntry* find(Collective c, const std::string& algorithm, CallForm form = CallForm::blocking) const;
  // How algorithms are selected on `version` of the library: `mechanism`,
  // but env where mpi_t_versions leaves the version out.
  SelectionMechanism mechanism_for(const std::string& version) const;
  bool has_dtype(Dtype d) const;
  // Algorithms of a collective available in `version` ("" = any), default first.
  std::vector<std::string> algorithm_names(Collective c, const std::string& version,
                                           CallForm form = CallForm::blocking) const;
  // `forced`: a launch of a forced algorithm of the catalogue's main selection (VersionedEnv::forced_only).
  std::map<std::string, std::string> launch_env_for(const std::string& version, bool forced = true) const;
  // Only the variables of the version's forced_only entries (Open MPI 5's OMPI_MCA_coll=^han): what a
  // launch forcing the catalogue's algorithms takes over the library's own default.
  std::map<std::string, std::string> forced_only_env_for(const std::string& version) const;
  // The functions that run the algorithms available in `version`, with what each runs.
  AlgorithmFunctions algorithm_functions(const std::string& version) const;
};

Catalog parse_catalog(const std::string& yaml_text, const std::string& file_for_messages);
// <library>.yaml in $PICO_CATALOG_DIR when it is set and holds one, else in
// pico's own configs/catalog/ (installed, then the source tree); the
// working directory's only when PICO_CATALOG_DIR names it. What stands in a
// catalogue file's place and is not one (a FIFO, a directory, a link to a
// device) is an InputError, never skipped for another catalogue.
const Catalog& catalog_for(const std::string& library);
std::vector<std::string> catalog_libraries();
// library -> the catalogue file read for it, for every catalogue this
// process has read (a run's provenance, `pico list algorithms`).
std::map<std::string, std::string> catalog_files_read();

// "4.1.4" satisfies ">=4.1,<6.0"? An empty range matches every version; an
// empty version matches every range.
bool version_in_range(const std::string& version, const std::string& range);

}  // namespace pico

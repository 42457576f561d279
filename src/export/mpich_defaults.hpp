// SPDX-License-Identifier: BSD-3-Clause
// MPICH's built-in collective selection tree (the MPIR level, read through
// MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE). A file given there replaces
// the whole tree, so an export starts from the library's own: libmpich
// embeds it as a NUL-terminated JSON string (maint/tuning/coll/mpir/*.json of
// the same release). Key order matters (siblings are tried in order), so
// the tree is an ordered_json.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tuning/profile.hpp"

namespace pico {

// Which of MPICH's trees: the MPIR level's algorithms, or the ch4 device's
// compositions above it (MPIR_CVAR_CH4_COLL_SELECTION_TUNING_JSON_FILE;
// maint/tuning/coll/ch4/generic.json), whose leaves name MPIDI_ compositions.
enum class MpichTree { mpir, ch4 };

struct MpichDefaults {
  nlohmann::ordered_json tree;
  std::string source;      // the library or file it came from
  std::string library_bytes;  // the library's contents when read from one (to check algorithm names); else ""
};

// From `defaults_file` when given, else the tree embedded in `library` (when
// given) or the installed libmpich.so.12. ExportRefusal when none is found or
// the text is not a selection tree.
MpichDefaults load_mpich_defaults(const std::string& defaults_file, const std::string& library,
                                  MpichTree which = MpichTree::mpir);

// The JSON strings embedded in a library image: every NUL-terminated run
// that starts with {"collective= and parses; the MPIR tree is the one whose
// leaves are MPIR_ algorithms, the ch4 tree the one whose leaves are MPIDI_ compositions.
// A candidate nesting deeper than kMaxJsonDepth is an InputError naming
// `library` (copying or walking it would exhaust the stack).
nlohmann::ordered_json embedded_tree(const std::string& library_bytes, MpichTree which,
                                     const std::string& library = "the library");

// The chain of one rule's comm size, from the collective's default intra subtree.
using MpichTunedChain =
    std::function<nlohmann::ordered_json(const ProfileRule& rule, const nlohmann::ordered_json& default_intra)>;

// Gives each collective of `rules` (ordered by collective, then comm size, as
// rules_by_collective gives them) its tuned comm_type=intra subtree in
// defaults.tree, the same shape in both trees:
//   op_guard(c): <default>       (collectives with an op: pico tuned built-in, commutative ones)
//   "comm_size<N": <default>, "comm_size<=N": chain(rule, <default>), ..., "comm_size=any": <default>
// under the tree's "collective=<MPICH's name>". ExportRefusal (with `hint`)
// where the tree has no intra subtree for one.
using MpichOpGuard = std::string_view (*)(Collective c);
void swap_tuned_subtrees(MpichDefaults& defaults, const std::vector<const ProfileRule*>& rules, MpichOpGuard op_guard,
                         const MpichTunedChain& chain, std::string_view hint);

// MPICH's name of the collective in its trees: the descriptor's mpich_csel in
// lower case where it has one (reduce_scatterv is MPICH's reduce_scatter),
// else pico's name.
std::string mpich_tree_collective(Collective c);

}  // namespace pico

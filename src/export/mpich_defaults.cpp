// SPDX-License-Identifier: BSD-3-Clause
#include "export/mpich_defaults.hpp"

#include <array>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "collectives/spec.hpp"
#include "export/export_support.hpp"
#include "support/json_file.hpp"
#include "support/whole_file.hpp"

namespace pico {

namespace {

constexpr std::array kLibraryPlaces{
    "/usr/lib/x86_64-linux-gnu/libmpich.so.12", "/usr/lib/aarch64-linux-gnu/libmpich.so.12",
    "/usr/lib64/libmpich.so.12", "/usr/local/lib/libmpich.so.12", "/usr/lib/libmpich.so.12"};

// How each tree's leaves start: MPIR algorithms, ch4 compositions.
constexpr const char* kMpirLeaf = "algorithm=MPIR_";
constexpr const char* kCh4Leaf = "composition=MPIDI_";

// A tree file is some KiB and libmpich some MiB: anything past this, or a FIFO or device, is not one.
constexpr std::uintmax_t kMaxMpichFileBytes = 256 * kMiB;

std::string read_bytes(const std::string& path) {
  if (const auto problem = whole_file_problem(path, kMaxMpichFileBytes))
    throw ExportRefusal(fmt::format("{} {}", path, *problem), "give MPICH's default tree with --mpich-defaults FILE");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ExportRefusal(fmt::format("cannot read {}", path), "give MPICH's default tree with --mpich-defaults FILE");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

nlohmann::ordered_json embedded_tree(const std::string& bytes, MpichTree which, const std::string& library) {
  const std::string start = "{\"collective=";
  const std::string leaf = std::string("\"") + (which == MpichTree::mpir ? kMpirLeaf : kCh4Leaf);
  for (std::size_t at = bytes.find(start); at != std::string::npos; at = bytes.find(start, at + 1)) {
    if (at > 0 && bytes[at - 1] != '\0') continue;  // inside another string
    const std::size_t end = bytes.find('\0', at);
    if (end == std::string::npos) break;
    const std::string text = bytes.substr(at, end - at);
    if (text.find(leaf) == std::string::npos) continue;  // another level's tree (posix, or the other of the two)
    // accept() builds nothing, so a string that is no JSON is skipped cheaply; the one reader then bounds the
    // nesting of one that is (a 100,000-deep tree parsed whole crashed the export as it was copied).
    if (!nlohmann::ordered_json::accept(text)) continue;
    auto tree = parse_ordered_json_text(text, library, "give MPICH's own libmpich.so.12, or the tree as a file");
    if (tree.is_object()) return tree;
  }
  return nullptr;
}

MpichDefaults load_mpich_defaults(const std::string& defaults_file, const std::string& library, MpichTree which) {
  const char* tree_file =
      which == MpichTree::mpir ? "maint/tuning/coll/mpir/generic.json" : "maint/tuning/coll/ch4/generic.json";
  MpichDefaults d;
  if (!defaults_file.empty()) {
    // The one JSON reader (support/json_file.hpp): a syntax error with its line and column, nesting bounded.
    auto tree = parse_ordered_json_text(read_bytes(defaults_file), defaults_file,
                                        fmt::format("give MPICH's {} of your release", tree_file));
    if (!tree.is_object() || !tree.contains("collective=allreduce"))
      throw ExportRefusal(fmt::format("{} is not an MPICH collective selection tree", defaults_file),
                          fmt::format("give MPICH's {} of your release, or leave the file out to read the "
                                      "installed libmpich", tree_file));
    // The MPIR tree's leaves name MPIR_ algorithms, the ch4 tree's MPIDI_ compositions: the other tree in its
    // place would load, and MPICH would abort at MPI_Init on leaves of the wrong level.
    const std::string text = tree.dump();
    // (fmt::format, not std::string("\"") + leaf: GCC 12 warns -Warray-bounds on it, falsely)
    const bool has_mpir = text.find(fmt::format("\"{}", kMpirLeaf)) != std::string::npos;
    const bool has_ch4 = text.find(fmt::format("\"{}", kCh4Leaf)) != std::string::npos;
    if (which == MpichTree::mpir ? has_ch4 || !has_mpir : has_mpir || !has_ch4)
      throw ExportRefusal(
          fmt::format("{} is {} where MPICH's {} tree is expected (its leaves are {}, not {})", defaults_file,
                      has_ch4 ? "the ch4 device's composition tree" : has_mpir ? "the MPIR algorithm tree"
                                                                              : "a tree with no algorithm leaves",
                      which == MpichTree::mpir ? "MPIR" : "ch4", has_ch4 ? kCh4Leaf : has_mpir ? kMpirLeaf : "none",
                      which == MpichTree::mpir ? kMpirLeaf : kCh4Leaf),
          fmt::format("give MPICH's {} of your release ({})", tree_file,
                      which == MpichTree::mpir ? "--mpich-defaults" : "--mpich-ch4-defaults"));
    d.tree = std::move(tree);
    d.source = defaults_file;
    return d;
  }
  std::string path = library;
  if (path.empty())
    for (const char* p : kLibraryPlaces)
      if (std::filesystem::exists(p)) {
        path = p;
        break;
      }
  if (path.empty())
    throw ExportRefusal("no libmpich.so.12 found to read MPICH's default selection tree from",
                        "give it with --mpich-library PATH, or the tree with --mpich-defaults FILE");
  d.library_bytes = read_bytes(path);
  d.tree = embedded_tree(d.library_bytes, which, path);
  if (d.tree.is_null())
    throw ExportRefusal(fmt::format("{} holds no embedded {} selection tree", path,
                                    which == MpichTree::mpir ? "MPIR" : "ch4"),
                        fmt::format("give the tree as a file ({})", tree_file));
  d.source = path;
  return d;
}

std::string mpich_tree_collective(Collective c) {
  const std::string_view csel = spec_for(c).names.mpich_csel;
  std::string out(csel.empty() ? name(c) : csel);
  for (char& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

void swap_tuned_subtrees(MpichDefaults& defaults, const std::vector<const ProfileRule*>& rules, MpichOpGuard op_guard,
                         const MpichTunedChain& chain, std::string_view hint) {
  for (std::size_t i = 0; i < rules.size();) {
    const Collective c = rules[i]->collective;
    const std::string coll_key = fmt::format("collective={}", mpich_tree_collective(c));
    if (!defaults.tree.contains(coll_key) || !defaults.tree[coll_key].contains("comm_type=intra"))
      throw ExportRefusal(fmt::format("{} has no {} intra subtree", defaults.source, coll_key), std::string(hint));
    const nlohmann::ordered_json default_intra = defaults.tree[coll_key]["comm_type=intra"];
    nlohmann::ordered_json intra = nlohmann::ordered_json::object();
    if (spec_for(c).has_op) intra[std::string(op_guard(c))] = default_intra;
    for (; i < rules.size() && rules[i]->collective == c; ++i) {
      const ProfileRule& rule = *rules[i];
      require_covering(rule);
      intra[fmt::format("comm_size<{}", rule.comm_size)] = default_intra;
      intra[fmt::format("comm_size<={}", rule.comm_size)] = chain(rule, default_intra);
    }
    intra["comm_size=any"] = default_intra;
    defaults.tree[coll_key]["comm_type=intra"] = intra;
  }
}

}  // namespace pico

// SPDX-License-Identifier: BSD-3-Clause
#include "reports/nccl_tests_table.hpp"

#include <map>
#include <optional>
#include <tuple>

#include <fmt/format.h>

#include "collectives/spec.hpp"
#include "reports/render.hpp"

namespace pico {
namespace {

// One line of the table: a size of one configuration, each side where it was planned.
struct Line {
  const CaseResult* out_of_place = nullptr;
  const CaseResult* in_place = nullptr;
};

// What tells two blocks of lines apart (nccl-tests runs one per invocation).
using Block = std::tuple<int, std::string, int, int, int, int>;  // collective, label, np, dtype, op, root

// time, algbw, busbw and #wrong of one side; "N/A" where nccl-tests prints it (unchecked), "-" where unmeasured.
std::string side(const CaseResult* r, std::uint64_t& wrong) {
  if (r == nullptr) return fmt::format("{:>8}  {:>6}  {:>6}  {:>6}", "-", "-", "-", "-");
  if (!r->measured())
    return fmt::format("{:>8}  {:>6}  {:>6}  {:>6}", r->status == CaseStatus::skipped ? "skipped" : "failed", "-", "-",
                       "-");
  std::string check = "N/A";
  if (r->validation.status == "passed" || r->validation.status == "failed") {
    check = fmt::format("{}", r->validation.mismatches);
    wrong += r->validation.mismatches;
  }
  return fmt::format("{:>8.2f}  {:>6.2f}  {:>6.2f}  {:>6}", r->timing->median_s * 1e6, r->algbw_GBps.value_or(0),
                     r->busbw_GBps.value_or(0), check);
}

// A header line of the 13 columns, as the rows align them, without trailing blanks.
template <class... Cells>
std::string header_line(const Cells&... cells) {
  std::string line = fmt::format("#{:>11}  {:>12}  {:>8}  {:>6}  {:>6}  {:>8}  {:>6}  {:>6}  {:>6}  {:>8}  {:>6}  {:>6}  {:>6}",
                                 cells...);
  return line.erase(line.find_last_not_of(' ') + 1) + "\n";
}

}  // namespace

std::string render_nccl_tests_table(const std::vector<CaseResult>& cases) {
  std::map<Block, std::map<std::uint64_t, Line>> blocks;
  for (const CaseResult& r : cases) {
    const Case& c = r.c;
    const int root = spec_for(c.collective).rooted() ? c.root : -1;
    Line& line = blocks[{static_cast<int>(c.collective), algorithm_label(c), c.np, static_cast<int>(c.dtype),
                         static_cast<int>(c.op), root}][c.bytes];
    (c.in_place ? line.in_place : line.out_of_place) = &r;
  }
  std::string out;
  std::uint64_t wrong = 0;
  double busbw_sum = 0;
  int busbw_count = 0;
  for (const auto& [block, lines] : blocks) {
    const auto& [collective, label, np, dtype, op, root] = block;
    out += fmt::format("# {} {} on {} ranks\n", name(static_cast<Collective>(collective)), label, np);
    out += fmt::format("#{:>51}{:>36}{:>36}\n", "", "out-of-place", "in-place");
    out += header_line("size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw",
                       "busbw", "#wrong");
    out += header_line("(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", "");
    for (const auto& [bytes, line] : lines) {
      const CaseResult* any = line.out_of_place ? line.out_of_place : line.in_place;
      out += fmt::format("{:>12}  {:>12}  {:>8}  {:>6}  {:>6}  {}  {}\n", bytes, any->c.count,
                         name(static_cast<Dtype>(dtype)), name(static_cast<Op>(op)), root, side(line.out_of_place, wrong),
                         side(line.in_place, wrong));
      for (const CaseResult* r : {line.out_of_place, line.in_place})
        if (r != nullptr && r->measured() && r->busbw_GBps) {
          busbw_sum += *r->busbw_GBps;
          ++busbw_count;
        }
    }
  }
  out += fmt::format("# Out of bounds values : {} {}\n", wrong, wrong == 0 ? "OK" : "FAILED");
  out += fmt::format("# Avg bus bandwidth    : {:g}\n", busbw_count ? busbw_sum / busbw_count : 0.0);
  out += "# time: the median of the timed iterations (nccl-tests prints the average); algbw and busbw from it\n";
  return out;
}

}  // namespace pico

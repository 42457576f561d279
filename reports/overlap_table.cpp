// SPDX-License-Identifier: BSD-3-Clause
#include "reports/overlap_table.hpp"

#include <array>

#include <fmt/format.h>

#include "reports/render.hpp"
#include "reports/text_table.hpp"
#include "support/size_text.hpp"

namespace pico {
namespace {

constexpr std::array<TextColumn, 10> kOverlapColumns = {{
    {"collective", false},
    {"backend/algorithm", false},
    {"np", true},
    {"size", true},
    {"overall(us)", true},
    {"compute(us)", true},
    {"init(us)", true},
    {"wait(us)", true},
    {"pure comm(us)", true},
    {"overlap(%)", true},
}};

std::string us(double seconds) { return fmt::format("{:.2f}", seconds * 1e6); }

}  // namespace

std::string render_overlap_table(const std::vector<CaseResult>& cases) {
  std::vector<std::vector<std::string>> rows;
  for (const CaseResult& r : cases) {
    if (!r.overlap) continue;
    const Overlap& o = *r.overlap;
    rows.push_back({std::string(name(r.c.collective)), algorithm_label(r.c), fmt::format("{}", r.c.np),
                    size_text(r.c.bytes), us(o.overall_s), us(o.compute_s), us(o.init_s), us(o.wait_s),
                    us(o.pure_comm_s), fmt::format("{:.1f}", o.percent)});
  }
  if (rows.empty()) return "";
  return "\nnon-blocking calls with computation between start and wait (OSU 7.4's overlap):\n" +
         aligned_table(kOverlapColumns, rows) +
         "overlap = max(0, 100 - (overall - compute) / pure comm x 100); each time the mean per call, averaged over "
         "ranks; compute calibrated on each rank to its pure comm time, no MPI_Test during it\n";
}

}  // namespace pico

// SPDX-License-Identifier: BSD-3-Clause
// Aligned text tables and RFC 4180 CSV records, shared by the report and
// compare renderings.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "support/size_text.hpp"

namespace pico {

struct TextColumn {
  std::string_view header;
  bool right_aligned;  // numbers line up on their last digit
};

// Header, a rule, then one line per row; columns as wide as their widest
// cell, two spaces apart, no trailing blanks. Each row has columns.size() cells.
// colour, when given, returns the SGR parameters a cell is drawn in ("32"
// green, "" none); it wraps the padded cell, so the columns stay aligned.
using CellColour = std::function<std::string_view(std::size_t row, std::size_t column)>;
std::string aligned_table(std::span<const TextColumn> columns, const std::vector<std::vector<std::string>>& rows,
                          const CellColour& colour = {});

// size_text (support/size_text.hpp) formats the sizes the tables print.

// A number for a table: four significant digits, never an exponent (20250, not 2.025e+04):
// the application, terminal and text views all print times with it.
std::string number_text(double v);

// A time in seconds as the straggler and slow-link lines print it: "1.25 ms" from a
// millisecond on, "12.5 us" below.
std::string duration_text(double seconds);

// One CSV record: fields quoted where they hold , " CR or LF; CRLF at the end.
std::string csv_record(const std::vector<std::string>& fields);

// A number in a CSV field: nine significant digits, below a nanosecond for any
// time under a second and without the float noise of a shortest round trip
// (1.8000000000240046e-07).
std::string csv_number(double v);

}  // namespace pico

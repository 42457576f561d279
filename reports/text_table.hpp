// Aligned text tables and RFC 4180 CSV records, shared by the report and
// compare renderings.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pico {

struct TextColumn {
  std::string_view header;
  bool right_aligned;  // numbers line up on their last digit
};

// Header, a rule, then one line per row; columns as wide as their widest
// cell, two spaces apart, no trailing blanks. Each row has columns.size() cells.
std::string aligned_table(std::span<const TextColumn> columns, const std::vector<std::vector<std::string>>& rows);

// One CSV record: fields quoted where they hold , " CR or LF; CRLF at the end.
std::string csv_record(const std::vector<std::string>& fields);

}  // namespace pico

#include "core/jsonl.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace pico {

JsonLinesFile::JsonLinesFile(const std::string& path) : file_(std::fopen(path.c_str(), "a+")), path_(path) {
  if (file_ == nullptr) throw std::runtime_error("cannot open " + path + " for appending: " + std::strerror(errno));
  // A writer killed mid-line leaves a torn last line; end it so the next record stands on its own line.
  if (std::fseek(file_, -1, SEEK_END) == 0) {
    const int last = std::fgetc(file_);
    std::fseek(file_, 0, SEEK_END);  // C requires a seek between reading and writing
    if (last != '\n') append_raw("\n");
  }
}

void JsonLinesFile::append_raw(const std::string& text) {
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size() || std::fflush(file_) != 0)
    throw std::runtime_error("cannot write " + path_ + ": " + std::strerror(errno));
}

JsonLinesFile::~JsonLinesFile() {
  if (file_ != nullptr) std::fclose(file_);
}

void JsonLinesFile::append(const nlohmann::json& record) {
  append_raw(record.dump() + "\n");
}

std::vector<nlohmann::json> read_json_lines(const std::string& path) {
  std::vector<nlohmann::json> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!j.is_discarded()) out.push_back(std::move(j));
  }
  return out;
}

}  // namespace pico

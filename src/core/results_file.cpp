// SPDX-License-Identifier: BSD-3-Clause
#include "core/results_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "core/input_error.hpp"

namespace pico {
namespace {

constexpr const char* kPlantedHint =
    "pico writes only regular files in a results directory and never follows links there: remove it, or give a "
    "results directory pico wrote";

[[noreturn]] void refuse(const std::string& path, const std::string& what) {
  throw InputError(path, fmt::format("{} in a results directory: pico does not open it", what), kPlantedHint);
}

bool writes(int flags) { return (flags & O_ACCMODE) != O_RDONLY; }

}  // namespace

FileDescriptor open_results_file(const std::string& path, int flags, mode_t mode) {
  // O_NONBLOCK: opening a FIFO must not wait for its other end; it is refused below either way.
  FileDescriptor file(::open(path.c_str(), flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, mode));
  if (file.get() < 0) {
    const int open_errno = errno;
    if (open_errno == ELOOP) refuse(path, "a symbolic link");
    if (open_errno == ENXIO) refuse(path, "a FIFO or socket");  // a FIFO opened for writing with no reader
    if (open_errno == EISDIR) refuse(path, "a directory");
    if (writes(flags)) throw WriteError(path, open_errno);
    errno = open_errno;
    return file;
  }
  struct stat st {};
  if (::fstat(file.get(), &st) != 0) {
    const int stat_errno = errno;
    if (writes(flags)) throw WriteError(path, stat_errno);
    throw InputError(path, fmt::format("cannot read the file: {}", std::strerror(stat_errno)));
  }
  if (!S_ISREG(st.st_mode)) refuse(path, S_ISDIR(st.st_mode) ? "a directory" : "a FIFO, device or socket");
  ::fcntl(file.get(), F_SETFL, ::fcntl(file.get(), F_GETFL) & ~O_NONBLOCK);
  return file;
}

void write_results_file(const std::string& path, std::string_view text) {
  const FileDescriptor file = open_results_file(path, O_WRONLY | O_CREAT | O_TRUNC);
  if (!write_whole(file.get(), text)) throw WriteError(path, errno);
}

std::optional<std::string> read_results_file(const std::string& path) {
  const FileDescriptor file = open_results_file(path, O_RDONLY);
  if (file.get() < 0) {
    if (errno == ENOENT) return std::nullopt;
    throw InputError(path, fmt::format("cannot open the file: {}", std::strerror(errno)), "check its permissions");
  }
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(file.get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw InputError(path, fmt::format("cannot read the file: {}", std::strerror(errno)));
    if (n == 0) return text;
    text.append(buffer, static_cast<std::size_t>(n));
  }
}

void check_results_dir(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::file_status st = it->symlink_status(ec);
    if (ec) break;
    if (fs::is_symlink(st)) refuse(it->path().string(), "a symbolic link");
    if (!fs::is_regular_file(st) && !fs::is_directory(st)) refuse(it->path().string(), "a FIFO, device or socket");
  }
}

}  // namespace pico

// SPDX-License-Identifier: BSD-3-Clause
#include "support/results_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "support/input_error.hpp"

namespace pico {
namespace {

constexpr const char* kPlantedHint =
    "pico writes only regular files in a results directory and never follows links there: remove it, or give a "
    "results directory pico wrote";

[[noreturn]] void refuse(const std::string& path, const std::string& what) {
  throw InputError(path, fmt::format("{} in a results directory: pico does not open it", what), kPlantedHint);
}

bool writes(int flags) { return (flags & O_ACCMODE) != O_RDONLY; }

// A resume or collect runs what the directory's files say (launcher, environment, cases), so whoever may change
// them chooses what runs as this user: only this user may.
void check_only_mine(const std::string& path, const struct stat& st) {
  constexpr const char* hint =
      "results directories live on shared file systems; check its files are the ones pico wrote, then "
      "`chmod go-w DIR DIR/*` (as their owner), or start a new run";
  if (st.st_uid != ::geteuid())
    throw InputError(path, fmt::format("owned by uid {}, not by the user resuming it (uid {}): pico runs what a "
                                       "results directory says only when no one else can change it",
                                       st.st_uid, ::geteuid()),
                     hint);
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
    throw InputError(path, fmt::format("writable by {} (mode {:04o}): pico runs what a results directory says only "
                                       "when no one else can change it",
                                       (st.st_mode & S_IWOTH) != 0 ? "others" : "its group", st.st_mode & 07777),
                     hint);
}

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
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0) check_only_mine(dir, st);
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::file_status status = it->symlink_status(ec);
    if (ec) break;
    const std::string path = it->path().string();
    if (fs::is_symlink(status)) refuse(path, "a symbolic link");
    if (!fs::is_regular_file(status) && !fs::is_directory(status)) refuse(path, "a FIFO, device or socket");
    if (::lstat(path.c_str(), &st) == 0) check_only_mine(path, st);
  }
}

void keep_results_unwritable_by_others() {
  const mode_t mask = ::umask(0);
  ::umask(mask | S_IWGRP | S_IWOTH);
}

}  // namespace pico

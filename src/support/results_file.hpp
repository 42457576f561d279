// SPDX-License-Identifier: BSD-3-Clause
// Opening a file inside a results directory. pico creates every file there
// itself, as regular files; a symbolic link or a FIFO in a file's place was
// planted there (or the directory is damaged). Following it would let
// `--resume` truncate, append to or overwrite a file outside the directory
// with the user's permissions, so every file pico opens in a results
// directory, front end and worker alike, is opened here: never through a
// link, and only if it is a regular file. Refusals are InputError (exit 2).
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <string_view>

#include "support/file_io.hpp"

namespace pico {

// open(2) of path with O_NOFOLLOW and O_CLOEXEC added. A symbolic link, FIFO,
// device or directory at path is an InputError naming it. Any other failure:
// WriteError when `flags` write, else an fd of -1 with errno set (ENOENT: no
// such file, for the caller to decide about).
FileDescriptor open_results_file(const std::string& path, int flags, mode_t mode = 0644);

// path holds exactly text (created or truncated), opened as above. Throws WriteError, InputError.
void write_results_file(const std::string& path, std::string_view text);

// The whole of path, opened as above; nullopt when it does not exist.
// InputError when it is a link or not a regular file, or cannot be read.
std::optional<std::string> read_results_file(const std::string& path);

// Every entry directly in dir is a regular file or a directory: InputError
// naming the first symbolic link, FIFO, socket or device. Run before pico
// works in an existing results directory (resume, collect), so that what a
// launch's workers would open is refused before anything starts. dir and
// those entries must also be owned by this user and not writable by group
// or others: a resume runs what the files say (InputError with the mode).
void check_results_dir(const std::string& dir);

// Adds group and other write to the process umask, so that the results
// directory a run makes (and what its launches write there) is one a
// resume accepts whatever the user's umask (002 gives group write).
void keep_results_unwritable_by_others();

}  // namespace pico

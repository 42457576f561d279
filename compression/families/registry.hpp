// SPDX-License-Identifier: BSD-3-Clause
// The compressed allreduce algorithms by name: one table over every family,
// kept with the families (compression/families/) so that nothing below them
// includes them; the compressed backends (compression/backends/) build from it.
#pragma once

#include <memory>
#include <string>

#include "compression/allreduce/compressed_allreduce.hpp"

namespace pico::compressed {

// Throws std::invalid_argument for an unknown name or unusable parameters.
std::unique_ptr<CompressedAllreduce> make_compressed_allreduce(const std::string& algorithm, const Setup& setup);

}  // namespace pico::compressed

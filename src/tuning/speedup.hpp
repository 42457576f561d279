// SPDX-License-Identifier: BSD-3-Clause
// The speedup tune decides on is the one every view prints: core/speedup.hpp
// (issue 65). This header stays for the code that names it here.
#pragma once

#include "core/speedup.hpp"

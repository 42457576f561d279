// SPDX-License-Identifier: BSD-3-Clause
// The backends pico has: one per place a case's call can go. An experiment
// names a backend by the name in its descriptor (config/backends.cpp, the one
// table of what each accepts); the worker builds it by switching over this
// kind (src/worker/backend_registry.cpp) without a `default:`, so a kind added
// here without a factory is a -Wswitch error. It lives in core because the
// table (config) and the factory (worker) are in layers that cannot see each other.
#pragma once

namespace pico {

enum class BackendKind { mpi, reference, compressed, nccl, nccl_compressed, fault };

}  // namespace pico

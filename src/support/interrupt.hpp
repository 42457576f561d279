// SPDX-License-Identifier: BSD-3-Clause
// SIGINT, SIGTERM, SIGHUP and SIGPIPE (whoever read pico's output went away,
// e.g. `pico run X 2>&1 | head -1`) stop a verb cleanly: the handler only
// sets a flag, which the loops that wait (a launch, a child command, a
// Slurm job) read, so that a run kills its worker, records the case in
// flight and the cases not run as failed, and writes its report. (The worker
// runs in its own process group, so a terminal's Ctrl-C reaches only pico,
// which then stops it.)
#pragma once

namespace pico {

void install_interrupt_handlers();
bool interrupt_requested();

}  // namespace pico

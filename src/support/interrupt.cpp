// SPDX-License-Identifier: BSD-3-Clause
#include "support/interrupt.hpp"

#include <signal.h>

#include <atomic>

namespace pico {
namespace {

std::atomic<bool> g_interrupted{false};

void on_termination_signal(int) { g_interrupted = true; }

}  // namespace

void install_interrupt_handlers() {
  struct sigaction action {};
  action.sa_handler = on_termination_signal;
  sigemptyset(&action.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) sigaction(sig, &action, nullptr);
}

bool interrupt_requested() { return g_interrupted; }

}  // namespace pico

// SPDX-License-Identifier: BSD-3-Clause
/* PICO_TRAMPOLINE(slots, sequence, index, name) defines the function `name`
 * (x86-64, System V): it counts the call in slots[index] (a struct
 * pico_interposer_slot), stamps the slot's first call since the last reset
 * with ++sequence, and jumps to slots[index].real with every argument
 * register and the stack as the caller left them, so the real function
 * returns straight to the caller. `slots` and `sequence` must be hidden
 * symbols of the same module (reached PC-relative, without the GOT).
 * Offsets: real +0, calls +8, first_call +16 (interposer_abi.h). r11 is the
 * one scratch register no argument travels in; endbr64 keeps `name` a valid
 * indirect-branch target where CET is enforced (a no-op elsewhere). */
#ifndef PICO_TRAMPOLINE_H
#define PICO_TRAMPOLINE_H

#define PICO_TRAMPOLINE(slots, sequence, index, name)                  \
  __asm__(".text\n"                                                   \
          ".globl " #name "\n"                                        \
          ".type " #name ", @function\n"                              \
          ".p2align 4\n" #name ":\n"                                  \
          "  endbr64\n"                                               \
          "  incq " #slots "+" #index "*24+8(%rip)\n"                 \
          "  cmpq $0, " #slots "+" #index "*24+16(%rip)\n"            \
          "  jne 1f\n"                                                \
          "  movq " #sequence "(%rip), %r11\n"                        \
          "  incq %r11\n"                                             \
          "  movq %r11, " #sequence "(%rip)\n"                        \
          "  movq %r11, " #slots "+" #index "*24+16(%rip)\n"          \
          "1:\n"                                                      \
          "  jmp *" #slots "+" #index "*24(%rip)\n"                   \
          ".size " #name ", .-" #name "\n");

#endif

# SPDX-License-Identifier: BSD-3-Clause
# The Open MPI interposer (instrumentation/ompi_interposer, docs/verification.md):
# an LD_PRELOAD library that pico-worker loads to record which algorithm
# function Open MPI ran (coll/base's, and han's and adapt's entry points). The functions it wraps are those the
# catalogue names (`function:` in configs/catalog/openmpi.yaml), read here so
# that the catalogue stays the one list; editing it re-runs this.
# The trampolines are x86-64 assembly; elsewhere no interposer is built and
# the worker records that it cannot tell which algorithm ran.
set(PICO_INTERPOSER_TARGET "")
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(_catalog ${CMAKE_SOURCE_DIR}/configs/catalog/openmpi.yaml)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_catalog})
  # coll/base's functions in libmpi, and those of the components (han, adapt) Open MPI opens.
  file(STRINGS ${_catalog} _lines REGEX "function: *(ompi_coll_|mca_coll_)[A-Za-z0-9_]+")
  set(_functions "")
  foreach(_line IN LISTS _lines)
    string(REGEX MATCH "function: *((ompi_coll_|mca_coll_)[A-Za-z0-9_]+)" _ ${_line})
    list(APPEND _functions ${CMAKE_MATCH_1})
  endforeach()
  list(REMOVE_DUPLICATES _functions)
  list(SORT _functions)
  set(_header "/* Written by cmake/PicoInterposer.cmake from configs/catalog/openmpi.yaml. */\n")
  set(_index 0)
  foreach(_f IN LISTS _functions)
    string(APPEND _header "PICO_INTERPOSE(${_index}, ${_f})\n")
    math(EXPR _index "${_index} + 1")
  endforeach()
  file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/generated/interposer/interposed_functions.h CONTENT "${_header}")
  add_library(pico-ompi-interposer SHARED instrumentation/ompi_interposer/interposer.c)
  target_include_directories(pico-ompi-interposer PRIVATE ${CMAKE_SOURCE_DIR}
                             ${CMAKE_BINARY_DIR}/generated/interposer)
  target_link_libraries(pico-ompi-interposer PRIVATE ${CMAKE_DL_LIBS})
  # Next to pico-worker, where the worker looks for it (libpico-ompi-interposer.so).
  set_target_properties(pico-ompi-interposer PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}
                        C_VISIBILITY_PRESET default)
  install(TARGETS pico-ompi-interposer LIBRARY DESTINATION ${CMAKE_INSTALL_BINDIR})
  set(PICO_INTERPOSER_TARGET pico-ompi-interposer)
  # The trampoline alone against a direct call (docs/benchmarks.md).
  add_executable(pico-interposer-bench tests/bench/interposer_overhead.c)
  target_include_directories(pico-interposer-bench PRIVATE ${CMAKE_SOURCE_DIR})
  list(LENGTH _functions _count)
  message(STATUS "Open MPI interposer: ${_count} coll functions from the catalogue")
else()
  message(STATUS "Open MPI interposer: not built (its trampolines are x86-64 only)")
endif()

# Seed-thread captures (samples/seed-*.pcap, written by tests/gen/make_seed_captures.py;
# see samples/README-seeds.md).
#   e2e.seed.<name>             (<name> = file name without "seed-" and ".pcap") nfsscope's findings, sessions (and read_plus) match
#                               samples/<name>.findings.json (tests/e2e/check_findings.py)
#   e2e.seed.<name>.txn         nfsscope's --txn-log matches samples/<name>.expected.jsonl
#                               (tests/e2e/check_expected.py)
#   e2e.seed.tshark_clean       tshark reads every seed capture without malformed frames or
#                               error-level expert items and sees exactly the generator's RPC
#                               messages (tests/gen/check_tshark_clean.py)
#   e2e.seed.tshark_fields      tshark's nfs.session_id4, nfs.slotid, nfs.seqid, nfs.maxreqs4,
#                               nfs.nfsstat4, nfs.exchange_id.state_protect, nfs.bctsa_dir are,
#                               frame by frame, what the generator wrote, and the expected
#                               findings' frames are what they claim (make_seed_captures.py --verify)
#   e2e.seed.checker_selftest  check_findings.py accepts a report equal to each expectation file
#                               and rejects mutated ones (missing/extra findings, counts, frames...)
#   e2e.seed.up_to_date         regenerating the seed captures gives the committed samples/ files
#                               byte for byte (the generator and samples/ are in step)
# The differential test against tshark (tests/e2e/tshark_diff.py) of each seed capture is
# e2e.tshark.seed-<...>: tshark_diff.cmake registers one per samples/*.pcap, these included.
# Exit code 77 (no tshark) makes the tshark tests "skipped".

find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND)
  message(STATUS "seed captures: no Python 3 interpreter, tests not registered")
  return()
endif()

set(_seed_gen ${PROJECT_SOURCE_DIR}/tests/gen/make_seed_captures.py)
set(_seed_dir ${PROJECT_SOURCE_DIR}/samples)
file(GLOB _seed_caps CONFIGURE_DEPENDS ${_seed_dir}/seed-*.pcap)
list(SORT _seed_caps)

foreach(_cap ${_seed_caps})
  get_filename_component(_name ${_cap} NAME_WE)
  string(REGEX REPLACE "^seed-" "" _short "${_name}")
  add_test(NAME e2e.seed.${_short}
           COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                   ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_findings.py
                   $<TARGET_FILE:nfsscope> ${_cap} ${_seed_dir}/${_name}.findings.json)
  set_tests_properties(e2e.seed.${_short} PROPERTIES TIMEOUT 120 LABELS "e2e;seed")
  add_test(NAME e2e.seed.${_short}.txn
           COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                   ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_expected.py
                   $<TARGET_FILE:nfsscope> ${_cap} ${_seed_dir}/${_name}.expected.jsonl)
  set_tests_properties(e2e.seed.${_short}.txn PROPERTIES TIMEOUT 120 LABELS "e2e;seed")
endforeach()

add_test(NAME e2e.seed.tshark_clean
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                 ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/gen/check_tshark_clean.py
                 ${_seed_caps})
set_tests_properties(e2e.seed.tshark_clean PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600
                     LABELS "e2e;seed;tshark")

add_test(NAME e2e.seed.tshark_fields
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                 ${Python3_EXECUTABLE} ${_seed_gen} --verify ${_seed_dir})
set_tests_properties(e2e.seed.tshark_fields PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600
                     LABELS "e2e;seed;tshark")

add_test(NAME e2e.seed.up_to_date
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                 ${Python3_EXECUTABLE} ${_seed_gen} --same-as ${_seed_dir})
set_tests_properties(e2e.seed.up_to_date PROPERTIES TIMEOUT 300 LABELS "e2e;seed")

add_test(NAME e2e.seed.checker_selftest
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                 ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_findings.py --self-test ${_seed_dir})
set_tests_properties(e2e.seed.checker_selftest PROPERTIES TIMEOUT 60 LABELS "e2e;seed")

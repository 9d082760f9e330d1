# Damaged capture files: cut at every byte offset of the last packets (pcap,
# pcapng), corrupted record headers, pcapng with unknown blocks
# (tests/e2e/damaged_captures.py; the simpler cases are in cli_errors.sh).
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  add_test(NAME e2e.damaged_captures
           COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                   ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/damaged_captures.py
                   $<TARGET_FILE:nfsscope> ${PROJECT_SOURCE_DIR}/samples)
  set_tests_properties(e2e.damaged_captures PROPERTIES TIMEOUT 900 LABELS e2e) # ~900 runs: 3 min under ASan
endif()

# Who and what (issue 25, doc/who.md): paths rebuilt from the wire against
# tshark's name snooping, on every sample and on each cut after its first
# quarter (a capture started after the mount); users[] and
# clients_by_address[] equal the sums over the txn log; each file's READ /
# WRITE bytes equal tshark's (check_who_paths.py). Exit 77: no tshark.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND)
  return()
endif()
file(GLOB _who_samples ${PROJECT_SOURCE_DIR}/samples/*.pcap)
list(SORT _who_samples)
add_test(NAME e2e.who.paths
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1 ${Python3_EXECUTABLE}
                 ${CMAKE_CURRENT_LIST_DIR}/check_who_paths.py $<TARGET_FILE:nfsscope> ${_who_samples})
set_tests_properties(e2e.who.paths PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600 LABELS "e2e;who")

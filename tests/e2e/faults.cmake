# Production captures: "Not analysed" in every output (not_analysed.py), and
# faults injected into the real samples, each against the intact run
# (faults.py: duplicated, swapped, dropped frames, a timestamp a year late,
# an IPv4 length claiming 1,000 bytes the frame lacks).
find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND)
  return()
endif()
add_test(NAME e2e.not_analysed
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/not_analysed.py $<TARGET_FILE:nfsscope>
                 ${PROJECT_SOURCE_DIR}/samples ${CMAKE_BINARY_DIR}/not-analysed-test)
set_tests_properties(e2e.not_analysed PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS "e2e;faults")
# Duplicated (every 100th frame twice), swapped (every 100th pair of
# neighbours) and dropped (every 150th) frames on every classic-pcap sample,
# each against the intact run (tests/e2e/faults.py; 77 without tshark).
file(GLOB _fault_samples ${PROJECT_SOURCE_DIR}/samples/*.pcap)
foreach(_fault dup swap drop)
  add_test(NAME e2e.faults.${_fault}
           COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                   ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/faults.py $<TARGET_FILE:nfsscope>
                   ${CMAKE_BINARY_DIR}/faults-test/${_fault} ${_fault} ${_fault_samples})
  set_tests_properties(e2e.faults.${_fault} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS "e2e;faults")
endforeach()

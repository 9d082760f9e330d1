# Real captures cut by the snapshot length (samples/snaplen-*.pcap, tests/e2e/snaplen_samples.json):
#   e2e.snaplen.samples   nfsscope's calls, replies, unmatched calls and orphan replies are exactly
#                         those whose record marks the cut capture holds (derived from the full twin)
#   e2e.snaplen.tshark    the tshark counts in the expectations are tshark's (skipped without tshark)
# (e2e.tshark.snaplen-* check every message tshark decodes there against nfsscope's txn log.)
find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND)
  return()
endif()
foreach(_mode samples tshark)
  set(_arg "")
  if(_mode STREQUAL "tshark")
    set(_arg "--tshark")
  endif()
  add_test(NAME e2e.snaplen.${_mode}
           COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                   ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_snaplen_samples.py
                   $<TARGET_FILE:nfsscope> ${PROJECT_SOURCE_DIR}/samples
                   ${CMAKE_CURRENT_LIST_DIR}/snaplen_samples.json ${_arg})
  set_tests_properties(e2e.snaplen.${_mode} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120
                       LABELS "e2e;snaplen")
endforeach()

# Session findings and sessions[] on the real samples (tests/e2e/session_samples.json):
#   e2e.sessions.samples        nfsscope's session findings (exact kinds, counts, frames) and
#                               sessions match the expectations; clean samples have none
#   e2e.sessions.tshark         the expectations are what tshark's dissection gives when the
#                               rules of doc/findings.md are applied to it (skipped without tshark)
find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND)
  return()
endif()
add_test(NAME e2e.sessions.samples
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                 ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_session_samples.py
                 $<TARGET_FILE:nfsscope> ${PROJECT_SOURCE_DIR}/samples ${CMAKE_CURRENT_LIST_DIR}/session_samples.json)
set_tests_properties(e2e.sessions.samples PROPERTIES TIMEOUT 120 LABELS "e2e;sessions")
add_test(NAME e2e.sessions.tshark
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                 ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_session_samples.py
                 $<TARGET_FILE:nfsscope> ${PROJECT_SOURCE_DIR}/samples ${CMAKE_CURRENT_LIST_DIR}/session_samples.json
                 --tshark)
set_tests_properties(e2e.sessions.tshark PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS "e2e;sessions;tshark")
#   e2e.sessions.options        --storm-count, --storm-window, --grace-period, --fail-on on the
#                               thread-000 seed capture
add_test(NAME e2e.sessions.options
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                 ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_session_options.py
                 $<TARGET_FILE:nfsscope> ${PROJECT_SOURCE_DIR}/samples/seed-000-nconnect-misbind.pcap)
set_tests_properties(e2e.sessions.options PROPERTIES TIMEOUT 120 LABELS "e2e;sessions")

# One bad frame in the real samples (issue 20, tests/e2e/check_bad_frames.py):
# the middle frame stamped a year late (latencies, percentiles and span of
# the intact run, timestamp_outliers 1); an IPv4 total length claiming 1,000
# bytes the frame lacks (at most one RPC message lost, ip_length_clamped 1).
find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND)
  return()
endif()
file(GLOB _bad_frames_samples ${PROJECT_SOURCE_DIR}/samples/*.pcap)
add_test(NAME e2e.bad_frames.samples
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                 ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_bad_frames.py
                 $<TARGET_FILE:nfsscope> ${CMAKE_BINARY_DIR}/bad-frames ${_bad_frames_samples})
set_tests_properties(e2e.bad_frames.samples PROPERTIES TIMEOUT 300 LABELS "e2e;faults")

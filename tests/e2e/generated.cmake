# Hand-made edge-case captures from tests/gen (see tests/gen/README.md).
#   e2e.gen.make           write every capture + NAME.expected.jsonl + NAME.meta.json
#                          into ${CMAKE_BINARY_DIR}/gen (fixture `gen`)
#   e2e.gen.deterministic  a second run writes byte-identical files
#   e2e.gen.tshark_clean   tshark reads every capture without malformed frames or
#                          error-level expert items and agrees with the generator's
#                          RPC messages (skipped without tshark)
#   e2e.gen.<name>         nfsscope's --txn-log matches NAME.expected.jsonl
# The capture list comes from `make_edge_captures.py --list` at configure time.

find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND)
  message(STATUS "generated captures: no Python 3 interpreter, tests not registered")
  return()
endif()

set(_gen_dir ${PROJECT_SOURCE_DIR}/tests/gen)
set(_gen_out ${CMAKE_BINARY_DIR}/gen)
set(_gen_make ${_gen_dir}/make_edge_captures.py)

execute_process(COMMAND ${Python3_EXECUTABLE} ${_gen_make} --list
                OUTPUT_VARIABLE _gen_list RESULT_VARIABLE _gen_rc
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _gen_rc EQUAL 0)
  message(WARNING "generated captures: `make_edge_captures.py --list` failed (${_gen_rc})")
  return()
endif()
string(REPLACE "\n" ";" _gen_files "${_gen_list}")
# re-run cmake when the generator changes (the capture list may change)
file(GLOB _gen_sources CONFIGURE_DEPENDS ${_gen_dir}/*.py)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_gen_sources})

add_test(NAME e2e.gen.make
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                 ${Python3_EXECUTABLE} ${_gen_make} ${_gen_out})
set_tests_properties(e2e.gen.make PROPERTIES FIXTURES_SETUP gen TIMEOUT 300 LABELS "e2e;gen")

add_test(NAME e2e.gen.deterministic
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                 ${Python3_EXECUTABLE} ${_gen_make} --same-as ${_gen_out})
set_tests_properties(e2e.gen.deterministic PROPERTIES FIXTURES_REQUIRED gen TIMEOUT 300
                     LABELS "e2e;gen")

set(_gen_paths "")
foreach(_f ${_gen_files})
  list(APPEND _gen_paths ${_gen_out}/${_f})
endforeach()
add_test(NAME e2e.gen.tshark_clean
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                 ${Python3_EXECUTABLE} ${_gen_dir}/check_tshark_clean.py ${_gen_paths})
set_tests_properties(e2e.gen.tshark_clean PROPERTIES FIXTURES_REQUIRED gen SKIP_RETURN_CODE 77
                     TIMEOUT 600 LABELS "e2e;gen;tshark")

foreach(_f ${_gen_files})
  string(REGEX REPLACE "\\.(pcap|pcapng)$" "" _name "${_f}")
  add_test(NAME e2e.gen.${_name}
           COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                   ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_expected.py
                   $<TARGET_FILE:nfsscope> ${_gen_out}/${_f} ${_gen_out}/${_name}.expected.jsonl)
  set_tests_properties(e2e.gen.${_name} PROPERTIES FIXTURES_REQUIRED gen TIMEOUT 120
                       LABELS "e2e;gen")
endforeach()

# e2e.gen.counters: the "Not analysed" counters the generator declares in
# NAME.meta.json ("counters": calls cut by the end, NFSv2 calls, non-RPC
# datagrams, ignored SYNs and RSTs) are nfsscope's JSON report values.
add_test(NAME e2e.gen.counters
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                 ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_counters.py
                 $<TARGET_FILE:nfsscope> ${_gen_paths})
set_tests_properties(e2e.gen.counters PROPERTIES FIXTURES_REQUIRED gen TIMEOUT 120 LABELS "e2e;gen")

# Large payloads stream through the record layer (issue 11): memory below one
# message, nothing evicted under --memcap 1M, same transactions.
add_test(NAME e2e.gen.streaming_1mib
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                 ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_streaming.py
                 $<TARGET_FILE:nfsscope> ${_gen_out}/bigio_1mib.pcap ${_gen_out}/bigio_1mib.expected.jsonl)
set_tests_properties(e2e.gen.streaming_1mib PROPERTIES FIXTURES_REQUIRED gen TIMEOUT 120 LABELS "e2e;gen")

# e2e.gen.dead_sessions: sessions the server does not know (NFS4ERR_BADSESSION)
# or destroyed, and DEAD_SESSION_USE, as NAME.meta.json declares them
# ("dead_sessions", "findings": from the frames the generator wrote).
add_test(NAME e2e.gen.dead_sessions
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                 ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_dead_sessions.py
                 $<TARGET_FILE:nfsscope> ${_gen_paths})
set_tests_properties(e2e.gen.dead_sessions PROPERTIES FIXTURES_REQUIRED gen TIMEOUT 120 LABELS "e2e;gen;sessions")

# Captures with one damaged frame (issue 20; tests/gen/make_frame_captures.py,
# into ${CMAKE_BINARY_DIR}/gen-frames, fixture `gen_frames`): timestamps a
# year late, in 1970, a real jump of the clock, reordered frames; IP lengths
# beyond the frame; UDP lengths disagreeing with the IP payload; a SYN with
# data inside an IPv6 stream. e2e.gen.<name> (txn log), e2e.gen.frames.*
# (determinism, tshark, "Not analysed" counters, latencies and span).
set(_fr_make ${_gen_dir}/make_frame_captures.py)
set(_fr_out ${CMAKE_BINARY_DIR}/gen-frames)
execute_process(COMMAND ${Python3_EXECUTABLE} ${_fr_make} --list
                OUTPUT_VARIABLE _fr_list RESULT_VARIABLE _fr_rc OUTPUT_STRIP_TRAILING_WHITESPACE)
if(_fr_rc EQUAL 0)
  string(REPLACE "\n" ";" _fr_files "${_fr_list}")
  set(_fr_paths "")
  foreach(_f ${_fr_files})
    list(APPEND _fr_paths ${_fr_out}/${_f})
  endforeach()
  add_test(NAME e2e.gen.frames.make
           COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1 ${Python3_EXECUTABLE} ${_fr_make} ${_fr_out})
  set_tests_properties(e2e.gen.frames.make PROPERTIES FIXTURES_SETUP gen_frames TIMEOUT 300 LABELS "e2e;gen")
  add_test(NAME e2e.gen.frames.deterministic
           COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                   ${Python3_EXECUTABLE} ${_fr_make} --same-as ${_fr_out})
  add_test(NAME e2e.gen.frames.tshark_clean
           COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                   ${Python3_EXECUTABLE} ${_gen_dir}/check_tshark_clean.py ${_fr_paths})
  set_tests_properties(e2e.gen.frames.tshark_clean PROPERTIES SKIP_RETURN_CODE 77 LABELS "e2e;gen;tshark")
  add_test(NAME e2e.gen.frames.counters
           COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                   ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_counters.py
                   $<TARGET_FILE:nfsscope> ${_fr_paths})
  add_test(NAME e2e.gen.frames.time
           COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                   ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_time_faults.py
                   $<TARGET_FILE:nfsscope> ${_fr_paths})
  set_tests_properties(e2e.gen.frames.deterministic e2e.gen.frames.counters e2e.gen.frames.time
                       PROPERTIES LABELS "e2e;gen")
  set_tests_properties(e2e.gen.frames.deterministic e2e.gen.frames.tshark_clean e2e.gen.frames.counters
                       e2e.gen.frames.time PROPERTIES FIXTURES_REQUIRED gen_frames TIMEOUT 300)
  foreach(_f ${_fr_files})
    string(REGEX REPLACE "\\.pcap$" "" _name "${_f}")
    add_test(NAME e2e.gen.${_name}
             COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                     ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_expected.py
                     $<TARGET_FILE:nfsscope> ${_fr_out}/${_f} ${_fr_out}/${_name}.expected.jsonl)
    set_tests_properties(e2e.gen.${_name} PROPERTIES FIXTURES_REQUIRED gen_frames TIMEOUT 120 LABELS "e2e;gen")
  endforeach()
else()
  message(WARNING "generated captures: `make_frame_captures.py --list` failed (${_fr_rc})")
endif()

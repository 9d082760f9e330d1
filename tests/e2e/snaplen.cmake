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

# Generated captures cut by the snapshot length (issue 20; tests/gen/make_snaplen_captures.py,
# into ${CMAKE_BINARY_DIR}/gen-snaplen, fixture `gen_snaplen`): NFSv4.1 WRITE calls of one
# segment at -s 200, NFSv3 32 KiB READ replies / WRITE calls over many segments at -s 96.
#   e2e.gen.snaplen.make / .deterministic / .tshark_clean (tshark's messages are the generator's)
#   e2e.gen.<name>            nfsscope's --txn-log matches NAME.expected.jsonl
#   e2e.snaplen.pairing.*     calls and call -> reply frames equal to tshark's, on the generated
#                             captures (--exact) and on the cut samples (at least tshark's calls)
set(_sn_make ${PROJECT_SOURCE_DIR}/tests/gen/make_snaplen_captures.py)
set(_sn_out ${CMAKE_BINARY_DIR}/gen-snaplen)
execute_process(COMMAND ${Python3_EXECUTABLE} ${_sn_make} --list
                OUTPUT_VARIABLE _sn_list RESULT_VARIABLE _sn_rc OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _sn_rc EQUAL 0)
  message(WARNING "snaplen captures: `make_snaplen_captures.py --list` failed (${_sn_rc})")
  return()
endif()
string(REPLACE "\n" ";" _sn_files "${_sn_list}")
set(_sn_paths "")
foreach(_f ${_sn_files})
  list(APPEND _sn_paths ${_sn_out}/${_f})
endforeach()
add_test(NAME e2e.gen.snaplen.make
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1 ${Python3_EXECUTABLE} ${_sn_make} ${_sn_out})
set_tests_properties(e2e.gen.snaplen.make PROPERTIES FIXTURES_SETUP gen_snaplen TIMEOUT 300 LABELS "e2e;gen;snaplen")
add_test(NAME e2e.gen.snaplen.deterministic
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                 ${Python3_EXECUTABLE} ${_sn_make} --same-as ${_sn_out})
add_test(NAME e2e.gen.snaplen.tshark_clean
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                 ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/gen/check_tshark_clean.py ${_sn_paths})
file(GLOB _sn_samples ${PROJECT_SOURCE_DIR}/samples/snaplen-*.pcap ${PROJECT_SOURCE_DIR}/samples/twin-s200.pcap)
list(SORT _sn_samples)
add_test(NAME e2e.snaplen.pairing.generated
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                 ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_snaplen_pairing.py
                 $<TARGET_FILE:nfsscope> ${_sn_paths} --exact)
add_test(NAME e2e.snaplen.pairing.samples
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                 ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_snaplen_pairing.py
                 $<TARGET_FILE:nfsscope> ${_sn_samples})
set_tests_properties(e2e.gen.snaplen.deterministic e2e.gen.snaplen.tshark_clean e2e.snaplen.pairing.generated
                     e2e.snaplen.pairing.samples
                     PROPERTIES FIXTURES_REQUIRED gen_snaplen SKIP_RETURN_CODE 77 TIMEOUT 300
                     LABELS "e2e;gen;snaplen")
foreach(_f ${_sn_files})
  string(REGEX REPLACE "\\.pcap$" "" _name "${_f}")
  add_test(NAME e2e.gen.${_name}
           COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                   ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_expected.py
                   $<TARGET_FILE:nfsscope> ${_sn_out}/${_f} ${_sn_out}/${_name}.expected.jsonl)
  set_tests_properties(e2e.gen.${_name} PROPERTIES FIXTURES_REQUIRED gen_snaplen TIMEOUT 120
                       LABELS "e2e;gen;snaplen")
endforeach()

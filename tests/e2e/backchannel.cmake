# Back channels and SEQUENCE status flags (issue 24; tests/gen/make_backchannel_captures.py):
#   e2e.gen.cb.make            write the captures into ${CMAKE_BINARY_DIR}/cbgen (fixture `cbgen`)
#   e2e.gen.cb.deterministic   a second run writes byte-identical files
#   e2e.gen.cb.tshark_clean    tshark dissects every frame without malformed or error items
#   e2e.gen.cb.<name>          --txn-log matches NAME.expected.jsonl (every CB_SEQUENCE's session, slot, sequence ID)
#   e2e.tshark.cb.<name>       the transaction log against tshark's dissection (tshark_diff.py)
#   e2e.backchannel.<name>     back_channel and status_flags against tshark, findings as the generator wrote them
#   e2e.backchannel.samples    the same on every real sample: figures equal tshark's, no such finding
find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND)
  return()
endif()
set(_cb_make ${PROJECT_SOURCE_DIR}/tests/gen/make_backchannel_captures.py)
set(_cb_out ${CMAKE_BINARY_DIR}/cbgen)
set(_cb_check ${CMAKE_CURRENT_LIST_DIR}/check_back_channel.py)
add_test(NAME e2e.gen.cb.make
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1 ${Python3_EXECUTABLE} ${_cb_make} ${_cb_out})
set_tests_properties(e2e.gen.cb.make PROPERTIES FIXTURES_SETUP cbgen TIMEOUT 300 LABELS "e2e;gen")
add_test(NAME e2e.gen.cb.deterministic
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1 ${Python3_EXECUTABLE} ${_cb_make}
                 --same-as ${_cb_out})
set_tests_properties(e2e.gen.cb.deterministic PROPERTIES FIXTURES_REQUIRED cbgen TIMEOUT 300 LABELS "e2e;gen")
set(_cb_names cb_clean cb_misordered cb_path_down state_revoked_freed state_revoked_ignored status_flags_misc)
set(_cb_paths "")
foreach(_name ${_cb_names})
  list(APPEND _cb_paths ${_cb_out}/${_name}.pcap)
endforeach()
add_test(NAME e2e.gen.cb.tshark_clean
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1 ${Python3_EXECUTABLE}
                 ${PROJECT_SOURCE_DIR}/tests/gen/check_tshark_clean.py ${_cb_paths})
set_tests_properties(e2e.gen.cb.tshark_clean PROPERTIES FIXTURES_REQUIRED cbgen SKIP_RETURN_CODE 77 TIMEOUT 300
                     LABELS "e2e;gen;tshark")
foreach(_name ${_cb_names})
  add_test(NAME e2e.gen.cb.${_name}
           COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1 ${Python3_EXECUTABLE}
                   ${CMAKE_CURRENT_LIST_DIR}/check_expected.py $<TARGET_FILE:nfsscope>
                   ${_cb_out}/${_name}.pcap ${_cb_out}/${_name}.expected.jsonl)
  set_tests_properties(e2e.gen.cb.${_name} PROPERTIES FIXTURES_REQUIRED cbgen TIMEOUT 120 LABELS "e2e;gen")
  add_test(NAME e2e.tshark.cb.${_name}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/tshark_diff.py $<TARGET_FILE:nfsscope>
                   ${_cb_out}/${_name}.pcap --exceptions ${CMAKE_CURRENT_LIST_DIR}/tshark_exceptions.txt)
  set_tests_properties(e2e.tshark.cb.${_name} PROPERTIES FIXTURES_REQUIRED cbgen SKIP_RETURN_CODE 77 TIMEOUT 300
                       LABELS "e2e;tshark")
  add_test(NAME e2e.backchannel.${_name}
           COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1 ${Python3_EXECUTABLE} ${_cb_check}
                   $<TARGET_FILE:nfsscope> ${_cb_out}/${_name}.pcap)
  set_tests_properties(e2e.backchannel.${_name} PROPERTIES FIXTURES_REQUIRED cbgen SKIP_RETURN_CODE 77 TIMEOUT 300
                       LABELS "e2e;tshark")
endforeach()
file(GLOB _cb_samples ${PROJECT_SOURCE_DIR}/samples/*.pcap ${PROJECT_SOURCE_DIR}/samples/*.pcapng)
add_test(NAME e2e.backchannel.samples
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1 ${Python3_EXECUTABLE} ${_cb_check}
                 $<TARGET_FILE:nfsscope> ${_cb_samples})
set_tests_properties(e2e.backchannel.samples PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900 LABELS "e2e;tshark")

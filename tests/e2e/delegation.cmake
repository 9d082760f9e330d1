# Delegations per client (issue 24; tests/gen/make_delegation_captures.py):
#   e2e.gen.deleg.make            write the captures into ${CMAKE_BINARY_DIR}/deleggen (fixture `deleggen`)
#   e2e.gen.deleg.deterministic   a second run writes byte-identical files
#   e2e.gen.deleg.tshark_clean    tshark dissects every frame without malformed or error items
#   e2e.gen.deleg.<name>          --txn-log matches NAME.expected.jsonl
#   e2e.delegation.<name>         clients[].delegations against tshark, findings as the generator wrote them
#   e2e.delegation.samples        the same on every real sample: figures equal tshark's, no such finding
find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND)
  return()
endif()
set(_dg_make ${PROJECT_SOURCE_DIR}/tests/gen/make_delegation_captures.py)
set(_dg_out ${CMAKE_BINARY_DIR}/deleggen)
set(_dg_check ${CMAKE_CURRENT_LIST_DIR}/check_delegations.py)
add_test(NAME e2e.gen.deleg.make
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1 ${Python3_EXECUTABLE} ${_dg_make} ${_dg_out})
set_tests_properties(e2e.gen.deleg.make PROPERTIES FIXTURES_SETUP deleggen TIMEOUT 300 LABELS "e2e;gen")
add_test(NAME e2e.gen.deleg.deterministic
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1 ${Python3_EXECUTABLE} ${_dg_make}
                 --same-as ${_dg_out})
set_tests_properties(e2e.gen.deleg.deterministic PROPERTIES FIXTURES_REQUIRED deleggen TIMEOUT 300 LABELS "e2e;gen")
set(_dg_names deleg_clean deleg_slow recall_storm deleg_revoked lease_gap)
set(_dg_paths "")
foreach(_name ${_dg_names})
  list(APPEND _dg_paths ${_dg_out}/${_name}.pcap)
endforeach()
add_test(NAME e2e.gen.deleg.tshark_clean
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1 ${Python3_EXECUTABLE}
                 ${PROJECT_SOURCE_DIR}/tests/gen/check_tshark_clean.py ${_dg_paths})
set_tests_properties(e2e.gen.deleg.tshark_clean PROPERTIES FIXTURES_REQUIRED deleggen SKIP_RETURN_CODE 77 TIMEOUT 300
                     LABELS "e2e;gen;tshark")
foreach(_name ${_dg_names})
  add_test(NAME e2e.gen.deleg.${_name}
           COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1 ${Python3_EXECUTABLE}
                   ${CMAKE_CURRENT_LIST_DIR}/check_expected.py $<TARGET_FILE:nfsscope>
                   ${_dg_out}/${_name}.pcap ${_dg_out}/${_name}.expected.jsonl)
  set_tests_properties(e2e.gen.deleg.${_name} PROPERTIES FIXTURES_REQUIRED deleggen TIMEOUT 120 LABELS "e2e;gen")
  add_test(NAME e2e.delegation.${_name}
           COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1 ${Python3_EXECUTABLE} ${_dg_check}
                   $<TARGET_FILE:nfsscope> ${_dg_out}/${_name}.pcap)
  set_tests_properties(e2e.delegation.${_name} PROPERTIES FIXTURES_REQUIRED deleggen SKIP_RETURN_CODE 77 TIMEOUT 300
                       LABELS "e2e;tshark")
endforeach()
file(GLOB _dg_samples ${PROJECT_SOURCE_DIR}/samples/*.pcap ${PROJECT_SOURCE_DIR}/samples/*.pcapng)
add_test(NAME e2e.delegation.samples
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1 ${Python3_EXECUTABLE} ${_dg_check}
                 $<TARGET_FILE:nfsscope> ${_dg_samples})
set_tests_properties(e2e.delegation.samples PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900 LABELS "e2e;tshark")

# RPC over UDP timing (issue 4): generated captures of a Linux-like client
# (tests/gen/make_udp_captures.py) and the real YANFS/ganesha UDP samples.
#   e2e.udp.make            write the captures, NAME.expected.jsonl, NAME.udp.json
#                           into ${CMAKE_BINARY_DIR}/udpgen (fixture `udpgen`)
#   e2e.udp.deterministic   a second run writes byte-identical files
#   e2e.udp.tshark_clean    tshark dissects them cleanly (skipped without tshark)
#   e2e.udp.<name>.txn      --txn-log matches NAME.expected.jsonl
#   e2e.udp.<name>          udp[] rows, wait and findings equal the model's values;
#                           with tshark, rpc.call.dup / rpc.reply.dup / lost fragments agree
#   e2e.udp.sample.<name>   real captures against tshark (skipped without tshark)

find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND)
  return()
endif()

set(_udp_make ${PROJECT_SOURCE_DIR}/tests/gen/make_udp_captures.py)
set(_udp_out ${CMAKE_BINARY_DIR}/udpgen)
execute_process(COMMAND ${Python3_EXECUTABLE} ${_udp_make} --list
                OUTPUT_VARIABLE _udp_list RESULT_VARIABLE _udp_rc OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _udp_rc EQUAL 0)
  message(WARNING "udp captures: `make_udp_captures.py --list` failed (${_udp_rc})")
  return()
endif()
string(REPLACE "\n" ";" _udp_files "${_udp_list}")

add_test(NAME e2e.udp.make
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1 ${Python3_EXECUTABLE} ${_udp_make} ${_udp_out})
set_tests_properties(e2e.udp.make PROPERTIES FIXTURES_SETUP udpgen TIMEOUT 300 LABELS "e2e;udp")
add_test(NAME e2e.udp.deterministic
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1 ${Python3_EXECUTABLE} ${_udp_make}
                 --same-as ${_udp_out})
set_tests_properties(e2e.udp.deterministic PROPERTIES FIXTURES_REQUIRED udpgen TIMEOUT 300 LABELS "e2e;udp")

set(_udp_paths "")
foreach(_f ${_udp_files})
  list(APPEND _udp_paths ${_udp_out}/${_f})
endforeach()
add_test(NAME e2e.udp.tshark_clean
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1 ${Python3_EXECUTABLE}
                 ${PROJECT_SOURCE_DIR}/tests/gen/check_tshark_clean.py ${_udp_paths})
set_tests_properties(e2e.udp.tshark_clean PROPERTIES FIXTURES_REQUIRED udpgen SKIP_RETURN_CODE 77
                     TIMEOUT 600 LABELS "e2e;udp;tshark")

foreach(_f ${_udp_files})
  string(REGEX REPLACE "\\.pcap$" "" _name "${_f}")
  add_test(NAME e2e.udp.${_name}.txn
           COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1 ${Python3_EXECUTABLE}
                   ${CMAKE_CURRENT_LIST_DIR}/check_expected.py $<TARGET_FILE:nfsscope>
                   ${_udp_out}/${_f} ${_udp_out}/${_name}.expected.jsonl)
  set_tests_properties(e2e.udp.${_name}.txn PROPERTIES FIXTURES_REQUIRED udpgen TIMEOUT 120 LABELS "e2e;udp")
  add_test(NAME e2e.udp.${_name}
           COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1 ${Python3_EXECUTABLE}
                   ${CMAKE_CURRENT_LIST_DIR}/check_udp.py $<TARGET_FILE:nfsscope>
                   ${_udp_out}/${_f} ${_udp_out}/${_name}.udp.json)
  set_tests_properties(e2e.udp.${_name} PROPERTIES FIXTURES_REQUIRED udpgen TIMEOUT 120 LABELS "e2e;udp")
endforeach()

foreach(_s nfsv3-udp nfsv3-udp-loss nfsv3-udp-loss5)
  if(EXISTS ${PROJECT_SOURCE_DIR}/samples/${_s}.pcap)
    add_test(NAME e2e.udp.sample.${_s}
             COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1 ${Python3_EXECUTABLE}
                     ${CMAKE_CURRENT_LIST_DIR}/check_udp.py $<TARGET_FILE:nfsscope>
                     ${PROJECT_SOURCE_DIR}/samples/${_s}.pcap)
    set_tests_properties(e2e.udp.sample.${_s} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120
                         LABELS "e2e;udp;tshark")
  endif()
endforeach()

# --rto-factor: the 16 s resend of nfsv3-udp-loss5 is 14.5 x the RTO of 1.1 s
if(EXISTS ${PROJECT_SOURCE_DIR}/samples/nfsv3-udp-loss5.pcap)
  add_test(NAME e2e.udp.rto_factor_default
           COMMAND $<TARGET_FILE:nfsscope> -r ${PROJECT_SOURCE_DIR}/samples/nfsv3-udp-loss5.pcap
                   -o /dev/null --fail-on RTO_INFLATED)
  set_tests_properties(e2e.udp.rto_factor_default PROPERTIES WILL_FAIL TRUE LABELS "e2e;udp")
  add_test(NAME e2e.udp.rto_factor_20
           COMMAND $<TARGET_FILE:nfsscope> -r ${PROJECT_SOURCE_DIR}/samples/nfsv3-udp-loss5.pcap
                   -o /dev/null --rto-factor 20 --fail-on RTO_INFLATED)
  set_tests_properties(e2e.udp.rto_factor_20 PROPERTIES LABELS "e2e;udp")
endif()

# Differential tests against tshark's RPC/NFS dissector (tests/e2e/tshark_diff.py).
#   e2e.tshark.selftest    unit test of the tshark extraction on a synthetic capture
#   e2e.tshark.<name>      one per samples/*.pcap and samples/*.pcapng (globbed at configure time)
#   e2e.tshark.generated   every capture under ${CMAKE_BINARY_DIR}/gen (fixture `gen`)
# Exit code 77 (tshark not installed) makes a test "skipped", not failed.

find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND)
  message(STATUS "tshark_diff: no Python 3 interpreter, differential tests not registered")
  return()
endif()

set(NFSSCOPE_TSHARK_DIFF ${CMAKE_CURRENT_LIST_DIR}/tshark_diff.py)
set(NFSSCOPE_TSHARK_EXCEPTIONS ${CMAKE_CURRENT_LIST_DIR}/tshark_exceptions.txt)

add_test(NAME e2e.tshark.selftest
         COMMAND ${Python3_EXECUTABLE} ${NFSSCOPE_TSHARK_DIFF} --self-test)
set_tests_properties(e2e.tshark.selftest PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120
                     LABELS "e2e;tshark")

file(GLOB NFSSCOPE_TSHARK_SAMPLES CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/samples/*.pcap ${PROJECT_SOURCE_DIR}/samples/*.pcapng)
list(SORT NFSSCOPE_TSHARK_SAMPLES)
set(_tshark_diff_names "")
foreach(cap ${NFSSCOPE_TSHARK_SAMPLES})
  get_filename_component(_file ${cap} NAME)
  string(REGEX REPLACE "\\.(pcap|pcapng)$" "" _name "${_file}")
  if("${_name}" IN_LIST _tshark_diff_names)
    set(_name "${_file}")           # foo.pcap and foo.pcapng both present
  endif()
  list(APPEND _tshark_diff_names "${_name}")
  add_test(NAME e2e.tshark.${_name}
           COMMAND ${Python3_EXECUTABLE} ${NFSSCOPE_TSHARK_DIFF} $<TARGET_FILE:nfsscope> ${cap}
                   --exceptions ${NFSSCOPE_TSHARK_EXCEPTIONS})
  set_tests_properties(e2e.tshark.${_name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1200
                       LABELS "e2e;tshark")
endforeach()

add_test(NAME e2e.tshark.generated
         COMMAND ${Python3_EXECUTABLE} ${NFSSCOPE_TSHARK_DIFF} $<TARGET_FILE:nfsscope> ${CMAKE_BINARY_DIR}/gen
                 --exceptions ${NFSSCOPE_TSHARK_EXCEPTIONS})
set_tests_properties(e2e.tshark.generated PROPERTIES FIXTURES_REQUIRED gen SKIP_RETURN_CODE 77
                     TIMEOUT 3600 LABELS "e2e;tshark")

# Connection figures: frames and payload bytes each way of every TCP
# connection equal tshark's per tcp.stream, on every sample.
add_test(NAME e2e.tshark.conn_bytes
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_conn_bytes.py
                 $<TARGET_FILE:nfsscope> ${NFSSCOPE_TSHARK_SAMPLES})
set_tests_properties(e2e.tshark.conn_bytes PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600
                     LABELS "e2e;tshark")
# TCP trouble in the report (issue 23): the Capture section's TCP line and
# the per-connection table, connections adding up to the totals, and
# retransmissions per connection equal to tshark's where the totals agree.
add_test(NAME e2e.report.tcp_trouble
         COMMAND sh -c "'${Python3_EXECUTABLE}' '${CMAKE_CURRENT_LIST_DIR}/check_conn_tcp.py' '$<TARGET_FILE:nfsscope>' '${CMAKE_BINARY_DIR}'/gen/tcp_*.pcap \"$@\""
                 check_conn_tcp ${NFSSCOPE_TSHARK_SAMPLES})
set_tests_properties(e2e.report.tcp_trouble PROPERTIES FIXTURES_REQUIRED gen TIMEOUT 600 LABELS "e2e;tshark")

# Real captures picked up mid-stream (issue 20), tests/e2e/check_midstream_cut.py:
#   e2e.midstream.cut  each sample cut (editcap -r) to start inside a large RPC message,
#                      as captured and re-segmented at 1,448 bytes (a 32 KiB WRITE's data
#                      first): nfsscope finds at least the calls the whole run finds after
#                      the cut, less one per connection cut, and at least tshark's
#                      (skipped without tshark/editcap)
#   e2e.midstream.rpc_port  --rpc-port 7777: the generated port-7777 flow of 9 MB without RPC
#                      (e2e.gen tcp_not_rpc_budget) is never given up; without it, it is
find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND)
  return()
endif()
set(_s ${PROJECT_SOURCE_DIR}/samples)
add_test(NAME e2e.midstream.cut
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                 ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_midstream_cut.py
                 $<TARGET_FILE:nfsscope>
                 ${_s}/nfsv3-tcp.pcap:206 ${_s}/nfsv40-tcp.pcap:80 ${_s}/nfsv41-proxy.pcap:106
                 ${_s}/nfsv3-tcp.pcap:mss ${_s}/nfsv40-tcp.pcap:mss ${_s}/nfsv41-proxy.pcap:mss
                 ${_s}/twin-full.pcap:mss)
set_tests_properties(e2e.midstream.cut PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS "e2e;midstream;tshark")
add_test(NAME e2e.midstream.rpc_port
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                 ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_midstream_cut.py --rpc-port
                 $<TARGET_FILE:nfsscope> ${CMAKE_BINARY_DIR}/gen/tcp_not_rpc_budget.pcap)
set_tests_properties(e2e.midstream.rpc_port PROPERTIES FIXTURES_REQUIRED gen TIMEOUT 120 LABELS "e2e;midstream")

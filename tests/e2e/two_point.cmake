# Two captures of the same traffic (issue 26, nfsscope -r CLIENT --peer SERVER),
# tests/e2e/check_two_point.py on the recorded pairs (samples/two-point-*):
#   e2e.two_point.clean / .loss  the server capture shifted (editcap -t) and
#                      stretched by known amounts: the true offset and drift
#                      within the reported bounds, the estimates too; frames only
#                      in one capture and lost between them as the frame lists
#                      say (tshark); server time per transaction = tshark's rpc.time
#   e2e.two_point.jump  a clock jump: no offset line, TWO_POINT_CLOCK_JUMP
#   e2e.two_point.cut   the server capture cut short: what is missing is outside its span
#   e2e.two_point.delay 5 ms added before each reply burst at the client only (network),
#                      then at both (server): TWO_POINT_NETWORK_TIME / _SERVER_TIME
find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND)
  return()
endif()
set(_s ${PROJECT_SOURCE_DIR}/samples)
foreach(_pair clean loss)
  add_test(NAME e2e.two_point.${_pair}
           COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                   ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_two_point.py $<TARGET_FILE:nfsscope>
                   ${_s}/two-point-${_pair}-client.pcap ${_s}/two-point-${_pair}-server.pcap)
  set_tests_properties(e2e.two_point.${_pair} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS "e2e;two_point;tshark")
endforeach()
foreach(_mode jump cut delay)
  add_test(NAME e2e.two_point.${_mode}
           COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                   ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_two_point.py --${_mode} $<TARGET_FILE:nfsscope>
                   ${_s}/two-point-clean-client.pcap ${_s}/two-point-clean-server.pcap)
  set_tests_properties(e2e.two_point.${_mode} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS "e2e;two_point;tshark")
endforeach()

# The joiner's cost and memory (tests/api/count_two_point_calls.c, linked with
# --wrap as count_feed_calls): amortized tables, a few allocations per table
# whatever the number of frames, no formatting; and a small budget that holds
# (the peak within it, what did not fit counted).
if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
  set(_tp_wrap malloc calloc realloc strlen snprintf vsnprintf __snprintf_chk __vsnprintf_chk)
  list(TRANSFORM _tp_wrap PREPEND "LINKER:--wrap=")
  add_executable(count_two_point_calls ${PROJECT_SOURCE_DIR}/tests/api/count_two_point_calls.c)
  target_link_libraries(count_two_point_calls PRIVATE nfsscope_core PkgConfig::PCAP)
  target_link_options(count_two_point_calls PRIVATE ${_tp_wrap})
  add_test(NAME api.two_point.calls
           COMMAND count_two_point_calls --alloc-max 40 ${_s}/two-point-loss-client.pcap ${_s}/two-point-loss-server.pcap)
  add_test(NAME api.two_point.memcap
           COMMAND count_two_point_calls --alloc-max 40 --memcap 16384
                   ${_s}/two-point-loss-client.pcap ${_s}/two-point-loss-server.pcap)
  set_tests_properties(api.two_point.calls api.two_point.memcap PROPERTIES TIMEOUT 60 LABELS "api;two_point")
endif()

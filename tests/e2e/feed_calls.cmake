# Library calls per frame inside ns_analyzer_feed (issue 21): formatting,
# allocation and strlen, counted by tests/api/count_feed_calls.c, which is
# linked with --wrap for each of them (GNU ld, lld: Linux), on the samples
# and on generated error-heavy and UDP-heavy captures. What it can and cannot
# see: the top of count_feed_calls.c. bench/format_cost.sh measures the same
# calls as instructions.
if(NOT CMAKE_SYSTEM_NAME STREQUAL "Linux")
  return()
endif()
find_package(Python3 COMPONENTS Interpreter QUIET)
set(_fc_wrap snprintf vsnprintf sprintf vsprintf __snprintf_chk __vsnprintf_chk __sprintf_chk __vsprintf_chk
             malloc calloc realloc strlen qsort)
list(TRANSFORM _fc_wrap PREPEND "LINKER:--wrap=")
add_executable(count_feed_calls ${PROJECT_SOURCE_DIR}/tests/api/count_feed_calls.c)
target_link_libraries(count_feed_calls PRIVATE nfsscope_core PkgConfig::PCAP)
target_link_options(count_feed_calls PRIVATE ${_fc_wrap})

# Samples: no formatting, no strlen. They are a few hundred frames each, so
# allocation is mostly warm-up (tables, per-operation counters, a record
# buffer per connection: many short connections in the snaplen ones); after
# half the capture at most 250 per 1,000 frames (the most now: 181), which
# an allocation per message or per frame would pass.
file(GLOB _fc_samples ${PROJECT_SOURCE_DIR}/samples/*.pcap ${PROJECT_SOURCE_DIR}/samples/*.pcapng)
list(SORT _fc_samples)
add_test(NAME api.feed_calls.samples COMMAND count_feed_calls --alloc-late 250 ${_fc_samples})
set_tests_properties(api.feed_calls.samples PROPERTIES TIMEOUT 120 LABELS api)

if(NOT Python3_Interpreter_FOUND)
  return()
endif()
set(_fc_dir ${CMAKE_BINARY_DIR}/feedcalls)
add_test(NAME api.feed_calls.make
         COMMAND sh -c "mkdir -p '${_fc_dir}' &&
                        '${Python3_EXECUTABLE}' '${PROJECT_SOURCE_DIR}/bench/make_error_sessions.py' '${_fc_dir}/err.pcap' 20000 &&
                        '${Python3_EXECUTABLE}' '${PROJECT_SOURCE_DIR}/bench/make_udp_resends.py' '${_fc_dir}/udp.pcap' 20000")
set_tests_properties(api.feed_calls.make PROPERTIES FIXTURES_SETUP feedcalls TIMEOUT 300 LABELS api
                     ENVIRONMENT PYTHONDONTWRITEBYTECODE=1)
# Error-heavy NFSv4.1 (20k frames, 88 sessions, thousands of findings raised
# and updated): no formatting, no strlen. What still allocates: each new
# session's slot table (two arrays, grown again by a slot above the grant),
# the ring of each new storm tracker (one per error kind and session, at most
# 4,096 in all), tables doubling; 38.6 per 1,000 frames in all, 30.0 after
# half (a session every 230 frames), so 50 and 40.
add_test(NAME api.feed_calls.errors
         COMMAND count_feed_calls --alloc 50 --alloc-late 40 ${_fc_dir}/err.pcap)
set_tests_properties(api.feed_calls.errors PROPERTIES FIXTURES_REQUIRED feedcalls TIMEOUT 120 LABELS api)
# NFSv3 over UDP, retransmissions on every pair (RTO_INFLATED, SPURIOUS_RETRANSMIT
# and FRAGMENT_LOSS change with each resend; a fragmented reply every ~30
# frames): no formatting, no strlen, no allocation after warm-up (the
# fragment trains' buffers are reused), 1.6 per 1,000 frames in all.
add_test(NAME api.feed_calls.udp
         COMMAND count_feed_calls --alloc 5 --alloc-late 0 ${_fc_dir}/udp.pcap)
set_tests_properties(api.feed_calls.udp PROPERTIES FIXTURES_REQUIRED feedcalls TIMEOUT 120 LABELS api)

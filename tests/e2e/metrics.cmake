# Prometheus metrics (issue 13).
#   e2e.metrics.file.<sample>  --metrics-file: promtool check metrics, same bytes on two runs,
#                              numbers as tshark and the hand-derived findings say (metrics_file.py)
#   e2e.metrics.live           nfsscope -i lo --metrics: the endpoint under promtool and bad
#                              requests, a real Prometheus scraping it, the series read back
#                              through its HTTP API (metrics_live.py; root)
#   e2e.metrics.hostile        nfsscope -i lo --metrics :PORT: Prometheus scrapes 127.0.0.1 and [::1]
#                              without a failure while clients trickle requests, hold more
#                              connections than the 8 slots, send 64 KiB headers, never read
#                              (metrics_hostile.py; root; about 35 s)
#   e2e.metrics.monitoring     monitoring/: promtool check rules and test rules on the alert
#                              rules, the Grafana dashboard's queries name only metrics nfsscope writes
# The series and the exposition fed synthetic events (tests/unit/output/test_series.c):
# bounded buckets, caps, latency bins, Prometheus buckets, label escaping.
add_executable(test_series ${PROJECT_SOURCE_DIR}/tests/unit/output/test_series.c)
target_include_directories(test_series PRIVATE ${PROJECT_SOURCE_DIR}/tests/unit)
target_link_libraries(test_series PRIVATE nfsscope_output)
add_test(NAME unit.test_series COMMAND test_series)
# The endpoint against in-process loopback clients: a full house of idle
# clients, the deadline from accept, 431, split requests, both families on
# ":PORT", one render a second (test_http_metrics.c).
add_executable(test_http_metrics ${PROJECT_SOURCE_DIR}/tests/unit/output/test_http_metrics.c)
target_include_directories(test_http_metrics PRIVATE ${PROJECT_SOURCE_DIR}/tests/unit)
target_link_libraries(test_http_metrics PRIVATE nfsscope_output)
add_test(NAME unit.test_http_metrics COMMAND test_http_metrics)
set_tests_properties(unit.test_http_metrics PROPERTIES TIMEOUT 60 LABELS "metrics")

find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND)
  return()
endif()
foreach(_s seed-000-nconnect-misbind seed-001-read-plus seed-002-slots-64-granted-10 nfsv3-udp-loss5)
  add_test(NAME e2e.metrics.file.${_s}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/metrics_file.py $<TARGET_FILE:nfsscope>
                   ${PROJECT_SOURCE_DIR}/samples ${_s} ${CMAKE_BINARY_DIR}/metrics-test)
  set_tests_properties(e2e.metrics.file.${_s} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60 LABELS "e2e;metrics")
endforeach()
add_test(NAME e2e.metrics.live COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/metrics_live.py $<TARGET_FILE:nfsscope>)
set_tests_properties(e2e.metrics.live PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS "e2e;metrics" RUN_SERIAL TRUE)
add_test(NAME e2e.metrics.hostile COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/metrics_hostile.py $<TARGET_FILE:nfsscope>)
set_tests_properties(e2e.metrics.hostile PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS "e2e;metrics" RUN_SERIAL TRUE)
add_test(NAME e2e.metrics.monitoring
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/monitoring_check.py $<TARGET_FILE:nfsscope> ${PROJECT_SOURCE_DIR}
                 ${CMAKE_BINARY_DIR}/metrics-test)
set_tests_properties(e2e.metrics.monitoring PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60 LABELS "e2e;metrics")

# Bounded labels: 20 generated sessions, the 4 oldest summed under session="other" (metrics_fold.py).
add_test(NAME e2e.metrics.fold
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/metrics_fold.py $<TARGET_FILE:nfsscope>
                 ${CMAKE_BINARY_DIR}/metrics-test)
set_tests_properties(e2e.metrics.fold PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60 LABELS "e2e;metrics")

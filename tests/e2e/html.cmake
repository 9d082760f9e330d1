# The HTML post-mortem page (--html, issue 13) in headless Chromium
# (tests/e2e/html_page.py): the thread-000 (nconnect misbind), 64 -> 10 slots
# and lossy UDP samples; charts drawn with data, session ids from tshark,
# finding kinds from the hand-derived samples/*.findings.json, links from
# findings to charts, byte-identical pages on two runs, a screenshot.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND)
  return()
endif()
foreach(_s seed-000-nconnect-misbind seed-002-slots-64-granted-10 nfsv3-udp-loss5)
  add_test(NAME e2e.html.${_s}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/html_page.py $<TARGET_FILE:nfsscope>
                   ${PROJECT_SOURCE_DIR}/samples ${_s} ${CMAKE_BINARY_DIR}/html-test)
  set_tests_properties(e2e.html.${_s} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS "e2e;html")
endforeach()
# The same page through the live screen (--tui passes the events on): tests/e2e/html_screen.sh.
if(NFSSCOPE_TUI)
  add_test(NAME e2e.html.screen COMMAND ${CMAKE_CURRENT_LIST_DIR}/html_screen.sh $<TARGET_FILE:nfsscope>
                                        ${PROJECT_SOURCE_DIR}/samples/seed-002-slots-64-granted-10.pcap)
  set_tests_properties(e2e.html.screen PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60 LABELS "e2e;html;screen")
endif()
# The charts as a person reads them (issue 23, tests/e2e/html_reading.py):
# small, READ_PLUS, v3-only, UDP and lossy UDP samples, one without error
# replies (64 -> 10 slots), a generated capture of many sessions and error
# storms (bench/make_error_sessions.py) and one of UDP replies in their
# call's microsecond (RTT 0, below a log axis: tests/gen/make_html_captures.py).
foreach(_s seed-000-nconnect-misbind seed-001-read-plus nfsv3-tcp nfsv3-udp nfsv3-udp-loss5 seed-002-slots-64-granted-10)
  add_test(NAME e2e.html.reading.${_s}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/html_reading.py $<TARGET_FILE:nfsscope>
                   ${PROJECT_SOURCE_DIR}/samples/${_s}.pcap ${CMAKE_BINARY_DIR}/html-test)
  set_tests_properties(e2e.html.reading.${_s} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS "e2e;html")
endforeach()
add_test(NAME e2e.html.reading.error-sessions
         COMMAND sh -c "${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/bench/make_error_sessions.py ${CMAKE_BINARY_DIR}/html-test/error-sessions.pcap 60000 >/dev/null && ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/html_reading.py $<TARGET_FILE:nfsscope> ${CMAKE_BINARY_DIR}/html-test/error-sessions.pcap ${CMAKE_BINARY_DIR}/html-test")
set_tests_properties(e2e.html.reading.error-sessions PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 180 LABELS "e2e;html")
add_test(NAME e2e.html.reading.udp-same-usec
         COMMAND sh -c "${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/gen/make_html_captures.py ${CMAKE_BINARY_DIR}/html-test udp_same_usec_replies >/dev/null && ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/html_reading.py $<TARGET_FILE:nfsscope> ${CMAKE_BINARY_DIR}/html-test/udp_same_usec_replies.pcap ${CMAKE_BINARY_DIR}/html-test")
set_tests_properties(e2e.html.reading.udp-same-usec PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS "e2e;html")
# No chart drawn empty on any bundled sample; the error chart left out, with
# a sentence, exactly where tshark finds no error reply (tests/e2e/html_every_sample.py).
add_test(NAME e2e.html.every_sample
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/html_every_sample.py $<TARGET_FILE:nfsscope>
                 ${PROJECT_SOURCE_DIR}/samples ${CMAKE_BINARY_DIR}/html-test/every)
set_tests_properties(e2e.html.every_sample PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 180 LABELS "e2e;html")

# The live screen in tmux (tests/e2e/screen.sh): for each sample, in colour
# (xterm-256color) and monochrome (vt100), the views show what tshark and the
# hand-derived findings say, it stays readable at 80x24, q exits 0 and the
# terminal is given back; SIGTERM gives it back too. Skipped (77) without
# tmux or tshark, or while main.c does not send --tui to run_screen.
if(NOT NFSSCOPE_TUI)
  return()
endif()
set(_screen_samples seed-000-nconnect-misbind seed-002-slots-64-granted-10 nfsv3-udp-loss5 nfsv41-proxy)
foreach(_s ${_screen_samples})
  foreach(_term xterm-256color vt100)
    add_test(NAME e2e.screen.${_s}.${_term}
             COMMAND ${CMAKE_CURRENT_LIST_DIR}/screen.sh $<TARGET_FILE:nfsscope> ${PROJECT_SOURCE_DIR}/samples
                     ${PROJECT_SOURCE_DIR}/analyzer/cli/main.c ${_s} ${_term})
    set_tests_properties(e2e.screen.${_s}.${_term} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS "e2e;screen")
  endforeach()
endforeach()
foreach(_term xterm-256color vt100)
  add_test(NAME e2e.screen.sigterm.${_term}
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/screen.sh $<TARGET_FILE:nfsscope> ${PROJECT_SOURCE_DIR}/samples
                   ${PROJECT_SOURCE_DIR}/analyzer/cli/main.c seed-000-nconnect-misbind ${_term} sigterm)
  set_tests_properties(e2e.screen.sigterm.${_term} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS "e2e;screen")
endforeach()
# The terminal goes away under the screen: it ends with its report.
add_test(NAME e2e.screen.hangup
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/screen.sh $<TARGET_FILE:nfsscope> ${PROJECT_SOURCE_DIR}/samples
                 ${PROJECT_SOURCE_DIR}/analyzer/cli/main.c seed-000-nconnect-misbind xterm-256color hangup)
set_tests_properties(e2e.screen.hangup PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS "e2e;screen")
# Frames missing from the capture: the header's "not analysed" shows the gaps.
foreach(_term xterm-256color vt100)
  add_test(NAME e2e.screen.loss.${_term}
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/screen.sh $<TARGET_FILE:nfsscope> ${PROJECT_SOURCE_DIR}/samples
                   ${PROJECT_SOURCE_DIR}/analyzer/cli/main.c seed-000-nconnect-misbind ${_term} loss)
  set_tests_properties(e2e.screen.loss.${_term} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS "e2e;screen")
endforeach()
# The screen read as a person reads it (issue 23): one check per mode.
foreach(_m sort-severity filter narrow firstview detail slots rates)
  add_test(NAME e2e.screen.reading.${_m}
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/screen_reading.sh $<TARGET_FILE:nfsscope> ${PROJECT_SOURCE_DIR}/samples ${_m})
  set_tests_properties(e2e.screen.reading.${_m} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS "e2e;screen")
endforeach()

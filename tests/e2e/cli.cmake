# Command-line behaviour: errors, partial captures, stdin, determinism.
add_test(NAME e2e.cli.errors
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/e2e/cli_errors.sh $<TARGET_FILE:nfsscope> ${PROJECT_SOURCE_DIR}/samples)
# tcpdump/tshark habits, one test per item of issue 12 (tests/e2e/cli_habits.sh).
foreach(mode fail_on output habits memcap narrow fragments bpf)
  add_test(NAME e2e.cli.${mode}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/e2e/cli_habits.sh ${mode} $<TARGET_FILE:nfsscope> ${PROJECT_SOURCE_DIR}/samples)
  set_tests_properties(e2e.cli.${mode} PROPERTIES LABELS e2e)
endforeach()
# Docs that match: --help = man page options; --fail-on kinds = man page =
# doc/findings.md; README outputs = the program's; sample.sh's packages.
find_package(Python3 COMPONENTS Interpreter QUIET)
foreach(mode options kinds readme deps)
  if(NOT Python3_FOUND) # scripts/deps.sh --run does not install python3; the test suite does
    break()
  endif()
  add_test(NAME e2e.docs.${mode}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/e2e/cli_docs.py ${mode} $<TARGET_FILE:nfsscope> ${PROJECT_SOURCE_DIR})
  set_tests_properties(e2e.docs.${mode} PROPERTIES LABELS e2e)
endforeach()
# The text report at 100 columns, units, percentile digits, versions, other programs (tshark).
if(Python3_FOUND)
  add_test(NAME e2e.report.text
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/e2e/check_report_text.py $<TARGET_FILE:nfsscope> ${PROJECT_SOURCE_DIR}/samples)
  set_tests_properties(e2e.report.text PROPERTIES LABELS e2e)
endif()

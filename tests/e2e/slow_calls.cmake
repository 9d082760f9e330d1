# Slow calls among many fast ones, and calls outstanding when memory runs
# short (issue 20; tests/gen/make_slow_captures.py):
#   e2e.gen.slow.make            write the captures into ${CMAKE_BINARY_DIR}/slowgen (fixture `slowgen`)
#   e2e.gen.slow.deterministic   a second run writes byte-identical files
#   e2e.gen.slow.<name>          the report under the capture's small --memcap (check_slow_calls.py)
#   e2e.gen.slow.<name>.txn      --txn-log (call order) under that --memcap matches NAME.expected.jsonl
find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND)
  return()
endif()
set(_slow_make ${PROJECT_SOURCE_DIR}/tests/gen/make_slow_captures.py)
set(_slow_out ${CMAKE_BINARY_DIR}/slowgen)
add_test(NAME e2e.gen.slow.make
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1 ${Python3_EXECUTABLE} ${_slow_make} ${_slow_out})
set_tests_properties(e2e.gen.slow.make PROPERTIES FIXTURES_SETUP slowgen TIMEOUT 300 LABELS "e2e;gen")
add_test(NAME e2e.gen.slow.deterministic
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1 ${Python3_EXECUTABLE} ${_slow_make}
                 --same-as ${_slow_out})
set_tests_properties(e2e.gen.slow.deterministic PROPERTIES FIXTURES_REQUIRED slowgen TIMEOUT 300 LABELS "e2e;gen")
foreach(_name slow_call_3000 outstanding_many)
  add_test(NAME e2e.gen.slow.${_name}
           COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1 ${Python3_EXECUTABLE}
                   ${CMAKE_CURRENT_LIST_DIR}/check_slow_calls.py $<TARGET_FILE:nfsscope> ${_slow_out}/${_name}.pcap)
  set_tests_properties(e2e.gen.slow.${_name} PROPERTIES FIXTURES_REQUIRED slowgen TIMEOUT 120 LABELS "e2e;gen")
endforeach()
# the slow call in the log, in call order, under the same cap: matched, its reply frame
add_test(NAME e2e.gen.slow.slow_call_3000.txn
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1 ${Python3_EXECUTABLE}
                 ${CMAKE_CURRENT_LIST_DIR}/check_expected.py $<TARGET_FILE:nfsscope>
                 ${_slow_out}/slow_call_3000.pcap ${_slow_out}/slow_call_3000.expected.jsonl
                 --arg --memcap --arg 8M)
set_tests_properties(e2e.gen.slow.slow_call_3000.txn PROPERTIES FIXTURES_REQUIRED slowgen TIMEOUT 120 LABELS "e2e;gen")

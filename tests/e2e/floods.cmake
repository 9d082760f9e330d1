# Floods (tests/gen/make_flood_captures.py): 100000 packets of each adversarial
# pattern under --memcap 16M; exit 0, accounting and peak RSS under the cap,
# bounded time, a report that says what happened (tests/e2e/check_floods.py).
# The full 1,000,000 counts: bench/floods.sh.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  set(_flood_limits "")
  if(NFSSCOPE_SANITIZE OR NFSSCOPE_FUZZ)
    set(_flood_limits --no-limits) # ASan's shadow memory and speed are not nfsscope's
  endif()
  add_test(NAME e2e.floods
           COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                   ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_floods.py
                   $<TARGET_FILE:nfsscope> ${CMAKE_BINARY_DIR}/floods 100000 16 ${_flood_limits})
  set_tests_properties(e2e.floods PROPERTIES TIMEOUT 300 LABELS "e2e;floods")
endif()
# Many short-lived connections under a 1 MiB cap (2000 connections, a few
# hundred records fit): every message analysed, closed connections beyond
# the cap dropped oldest first, counted and added up (issue 11).
if(Python3_Interpreter_FOUND)
  add_test(NAME e2e.floods.many_short_conns
           COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                   ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_floods.py
                   $<TARGET_FILE:nfsscope> ${CMAKE_BINARY_DIR}/floods-conns 12000 1 ${_flood_limits} session_many_conns)
  set_tests_properties(e2e.floods.many_short_conns PROPERTIES TIMEOUT 60 LABELS "e2e;floods")
endif()

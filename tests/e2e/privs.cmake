# Running as root: -Z USER, and the default switch away from root for live
# capture (tests/e2e/privs.sh; the live part needs root, else skipped).
add_test(NAME e2e.privs COMMAND ${CMAKE_CURRENT_LIST_DIR}/privs.sh $<TARGET_FILE:nfsscope>)
set_tests_properties(e2e.privs PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60 LABELS e2e RUN_SERIAL TRUE)

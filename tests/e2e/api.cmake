# The public API on every sample capture, used as a front end uses it
# (tests/api/check_events.c: events vs transactions and findings, settle,
# finish, lookups, tick). Links only the core archive and its public headers.
add_executable(check_events ${PROJECT_SOURCE_DIR}/tests/api/check_events.c)
target_link_libraries(check_events PRIVATE nfsscope_core PkgConfig::PCAP)
file(GLOB _api_samples ${PROJECT_SOURCE_DIR}/samples/*.pcap ${PROJECT_SOURCE_DIR}/samples/*.pcapng)
list(SORT _api_samples)
add_test(NAME api.events COMMAND check_events ${_api_samples})
set_tests_properties(api.events PROPERTIES TIMEOUT 300 LABELS api)
# ... and on the generated captures (session edge cases, UDP loss models).
add_test(NAME api.events.generated
         COMMAND sh -c "'$<TARGET_FILE:check_events>' '${CMAKE_BINARY_DIR}'/gen/*.pcap '${CMAKE_BINARY_DIR}'/udpgen/*.pcap")
set_tests_properties(api.events.generated PROPERTIES FIXTURES_REQUIRED "gen;udpgen" TIMEOUT 300 LABELS api)

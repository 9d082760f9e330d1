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
# Versioned API (nfsscope.h, "API versions"): one front end built against
# version 4's headers (tests/api/v4/, never the current ones: the archive is
# linked as a file, without the core's include directory) and against the
# current headers must print the same results on every sample.
foreach(_fc old new)
  add_executable(frontend_compat_${_fc} ${PROJECT_SOURCE_DIR}/tests/api/frontend_compat.c)
  add_dependencies(frontend_compat_${_fc} nfsscope_core)
  target_link_libraries(frontend_compat_${_fc} PRIVATE $<TARGET_FILE:nfsscope_core> PkgConfig::PCAP m)
endforeach()
target_include_directories(frontend_compat_old BEFORE PRIVATE ${PROJECT_SOURCE_DIR}/tests/api/v4)
target_include_directories(frontend_compat_new BEFORE PRIVATE ${PROJECT_SOURCE_DIR}/analyzer/include)
add_test(NAME api.compat_v4
         COMMAND sh -c "'$<TARGET_FILE:frontend_compat_old>' \"$@\" > '${CMAKE_CURRENT_BINARY_DIR}/compat_old.txt' &&
                        '$<TARGET_FILE:frontend_compat_new>' \"$@\" > '${CMAKE_CURRENT_BINARY_DIR}/compat_new.txt' &&
                        grep -q '^txns [1-9]' '${CMAKE_CURRENT_BINARY_DIR}/compat_old.txt' &&
                        diff '${CMAKE_CURRENT_BINARY_DIR}/compat_old.txt' '${CMAKE_CURRENT_BINARY_DIR}/compat_new.txt'"
                 frontend_compat ${_api_samples})
set_tests_properties(api.compat_v4 PROPERTIES TIMEOUT 300 LABELS api)
# The lifetime rule (nfsscope.h, "Lifetimes"): pointers from read calls held
# across other read calls, on every sample and generated capture (the
# sanitizer build makes a freed or moved one a use-after-free).
add_executable(check_lifetimes ${PROJECT_SOURCE_DIR}/tests/api/check_lifetimes.c)
target_link_libraries(check_lifetimes PRIVATE nfsscope_core PkgConfig::PCAP)
add_test(NAME api.lifetimes
         COMMAND sh -c "'$<TARGET_FILE:check_lifetimes>' \"$@\" '${CMAKE_BINARY_DIR}'/gen/*.pcap '${CMAKE_BINARY_DIR}'/udpgen/*.pcap"
                 check_lifetimes ${_api_samples})
set_tests_properties(api.lifetimes PROPERTIES FIXTURES_REQUIRED "gen;udpgen" TIMEOUT 600 LABELS api)
# A C++ front end (g++) built against the installed headers and libraries
# alone: extern "C", NS_CONFIG_INIT in C++, every read through a const
# handle; its figures checked against tshark (tests/api/cxx_frontend.sh).
if(NFSSCOPE_SANITIZE)
  set(_cxx_fe_flags -fsanitize=address,undefined)
endif()
add_test(NAME api.cxx_frontend
         COMMAND ${PROJECT_SOURCE_DIR}/tests/api/cxx_frontend.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR} ${_cxx_fe_flags})
set_tests_properties(api.cxx_frontend PROPERTIES TIMEOUT 300 LABELS api)

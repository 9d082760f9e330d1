# Fuzz regressions in every build: each fuzz target (tests/fuzz/fuzz_*.c) is
# also linked with a plain main that replays inputs, and runs every file of
# tests/fuzz/regressions/TARGET/ (inputs that once crashed) and the seed
# corpus cut from the samples (fixture `fuzz_seeds`).
find_package(Python3 COMPONENTS Interpreter QUIET)
set(_fz ${PROJECT_SOURCE_DIR}/tests/fuzz)
if(Python3_Interpreter_FOUND)
  add_test(NAME fuzz.seeds
           COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                   ${Python3_EXECUTABLE} ${_fz}/make_seeds.py ${PROJECT_SOURCE_DIR}/samples
                   ${CMAKE_BINARY_DIR}/fuzz-seeds)
  set_tests_properties(fuzz.seeds PROPERTIES FIXTURES_SETUP fuzz_seeds LABELS fuzz)
endif()
foreach(_t frame stream xdr pcap)
  add_executable(replay_fuzz_${_t} ${_fz}/fuzz_${_t}.c ${_fz}/replay_main.c)
  target_link_libraries(replay_fuzz_${_t} PRIVATE nfsscope_internal PkgConfig::PCAP)
  add_test(NAME fuzz.replay.${_t}
           COMMAND replay_fuzz_${_t} ${_fz}/regressions/${_t} ${CMAKE_BINARY_DIR}/fuzz-seeds/${_t})
  set_tests_properties(fuzz.replay.${_t} PROPERTIES FIXTURES_REQUIRED fuzz_seeds LABELS fuzz TIMEOUT 300)
endforeach()

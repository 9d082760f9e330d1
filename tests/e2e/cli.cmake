# Command-line behaviour: errors, partial captures, stdin, determinism.
add_test(NAME e2e.cli.errors
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/e2e/cli_errors.sh $<TARGET_FILE:nfsscope> ${PROJECT_SOURCE_DIR}/samples)

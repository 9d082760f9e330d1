# Live capture on a veth pair in a namespace the script creates (as root,
# else skipped): tests/e2e/live.sh. One at a time: the drop test floods the
# CPU, and the replay test wants zero drops and its own timing: they run
# alone (RUN_SERIAL), nothing else loading the machine.
foreach(mode replay drops signals rotate pipe batch)
  add_test(NAME e2e.live.${mode}
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/live.sh ${mode} $<TARGET_FILE:nfsscope> ${PROJECT_SOURCE_DIR}/samples)
  set_tests_properties(e2e.live.${mode} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 400 LABELS e2e RUN_SERIAL TRUE
                       RESOURCE_LOCK nfsscope_live)
endforeach()

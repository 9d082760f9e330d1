# Many findings of one kind, as people read them (issue 23: "info findings
# drown the rest"), on fold-many-sessions.pcap: 46 sessions, 45 of them
# SLOT_LIMITED (tests/gen/make_fold_captures.py writes it into
# ${CMAKE_BINARY_DIR}/fold with its hand-derived findings.json).
#   e2e.fold.make            write the capture and its expectations (fixture `fold`)
#   e2e.fold.findings        nfsscope's findings and sessions are the generator's (check_findings.py)
#   e2e.fold.txn             nfsscope's --txn-log is the generator's (check_expected.py)
#   e2e.fold.tshark_clean    tshark reads it without malformed frames or expert errors
#   e2e.fold.tshark_fields   tshark's nfs.* fields are, frame by frame, what was written
#   e2e.fold.report          the text report folds, --min-severity, --fail-on SEVERITY, JSON,
#                            --batch lines (findings_fold.py)
#   e2e.html.min_severity    the HTML page lists and charts only findings of --min-severity or worse
#                            and counts what it left out (html_min_severity.py, Chromium's DOM)
#   e2e.screen.findings      the Findings view folds, m cycles the minimum severity, f unfolds
#                            (screen_findings.sh, tmux)
#   plugin.min_severity      tshark -o nfsscope.min_severity:S -z expert (check_plugin_min_severity.py)
# Exit code 77 (no tshark, no tmux) makes a test "skipped".
find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND)
  return()
endif()
set(_fold_dir ${CMAKE_BINARY_DIR}/fold)
set(_fold_cap ${_fold_dir}/fold-many-sessions.pcap)
set(_fold_exp ${_fold_dir}/fold-many-sessions.findings.json)
set(_fold_env ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1)

add_test(NAME e2e.fold.make
         COMMAND ${_fold_env} ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/gen/make_fold_captures.py ${_fold_dir})
set_tests_properties(e2e.fold.make PROPERTIES FIXTURES_SETUP fold TIMEOUT 120 LABELS "e2e;fold")

add_test(NAME e2e.fold.findings
         COMMAND ${_fold_env} ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_findings.py
                 $<TARGET_FILE:nfsscope> ${_fold_cap} ${_fold_exp})
add_test(NAME e2e.fold.txn
         COMMAND ${_fold_env} ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_expected.py
                 $<TARGET_FILE:nfsscope> ${_fold_cap} ${_fold_dir}/fold-many-sessions.expected.jsonl)
add_test(NAME e2e.fold.tshark_clean
         COMMAND ${_fold_env} ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/gen/check_tshark_clean.py ${_fold_cap})
add_test(NAME e2e.fold.tshark_fields
         COMMAND ${_fold_env} ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/gen/make_fold_captures.py
                 --verify ${_fold_dir})
add_test(NAME e2e.fold.report
         COMMAND ${_fold_env} ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/findings_fold.py
                 $<TARGET_FILE:nfsscope> ${_fold_dir})
set_tests_properties(e2e.fold.findings e2e.fold.txn e2e.fold.tshark_clean e2e.fold.tshark_fields e2e.fold.report
                     PROPERTIES FIXTURES_REQUIRED fold SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS "e2e;fold")

add_test(NAME e2e.html.min_severity
         COMMAND ${_fold_env} ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/html_min_severity.py
                 $<TARGET_FILE:nfsscope> ${_fold_dir} ${_fold_dir}/html)
set_tests_properties(e2e.html.min_severity PROPERTIES FIXTURES_REQUIRED fold SKIP_RETURN_CODE 77 TIMEOUT 300
                     LABELS "e2e;html;fold")

if(NFSSCOPE_TUI)
  add_test(NAME e2e.screen.findings
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/screen_findings.sh $<TARGET_FILE:nfsscope> ${_fold_dir})
  set_tests_properties(e2e.screen.findings PROPERTIES FIXTURES_REQUIRED fold SKIP_RETURN_CODE 77 TIMEOUT 120
                       LABELS "e2e;screen;fold")
endif()

if(TARGET nfsscope_plugin)
  set(_fold_preload "")
  if(NFSSCOPE_SANITIZE) # as plugin.cmake: tshark runs the ASan plugin with libasan preloaded
    execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libasan.so
                    OUTPUT_VARIABLE _fold_asan OUTPUT_STRIP_TRAILING_WHITESPACE)
    set(_fold_preload --preload ${_fold_asan})
  endif()
  add_test(NAME plugin.min_severity
           COMMAND ${_fold_env} ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/plugin/check_plugin_min_severity.py
                   $<TARGET_FILE:nfsscope_plugin> ${_fold_cap} ${_fold_exp} ${_fold_preload})
  set_tests_properties(plugin.min_severity PROPERTIES FIXTURES_REQUIRED fold SKIP_RETURN_CODE 77 TIMEOUT 300
                       LABELS "plugin;tshark;fold")
endif()

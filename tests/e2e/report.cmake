# The report library (analyzer/report, nfsscope/report.h): only ns_report_*
# exported, only the core's public API used. (A front end built against the
# installed library alone: e2e.install, tests/api/report_frontend.sh.)
add_test(NAME api.report_symbols
         COMMAND ${PROJECT_SOURCE_DIR}/tests/api/check_report_symbols.sh ${CMAKE_NM}
                 $<TARGET_FILE:nfsscope_report> $<TARGET_FILE:nfsscope_core>)
set_tests_properties(api.report_symbols PROPERTIES LABELS api)

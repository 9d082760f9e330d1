# The report library (analyzer/report, nfsscope/report.h): only ns_report_*
# exported, only the core's public API used. (A front end built against the
# installed library alone: e2e.install, tests/api/report_frontend.sh.)
add_test(NAME api.report_symbols
         COMMAND ${PROJECT_SOURCE_DIR}/tests/api/check_report_symbols.sh ${CMAKE_NM}
                 $<TARGET_FILE:nfsscope_report> $<TARGET_FILE:nfsscope_core>)
set_tests_properties(api.report_symbols PROPERTIES LABELS api)
# The report's number formats (tests/unit/report/test_text_table.c): built
# with text_table.c itself, an internal part of the report library.
add_executable(test_text_table ${PROJECT_SOURCE_DIR}/tests/unit/report/test_text_table.c
               ${PROJECT_SOURCE_DIR}/analyzer/report/text_table.c ${PROJECT_SOURCE_DIR}/analyzer/units/latency_units.c)
target_include_directories(test_text_table PRIVATE ${PROJECT_SOURCE_DIR}/tests/unit ${PROJECT_SOURCE_DIR}/analyzer/report
                           ${PROJECT_SOURCE_DIR}/analyzer/units)
target_link_libraries(test_text_table PRIVATE m)
add_test(NAME unit.test_text_table COMMAND test_text_table)
# The text report and the HTML page print latency by one rule (analyzer/units; tests/e2e/check_unit_rule.sh).
add_test(NAME api.unit_rule
         COMMAND ${PROJECT_SOURCE_DIR}/tests/e2e/check_unit_rule.sh ${CMAKE_NM} $<TARGET_FILE:nfsscope_report>
                 $<TARGET_FILE:nfsscope_output> ${PROJECT_SOURCE_DIR})
set_tests_properties(api.unit_rule PROPERTIES LABELS api)

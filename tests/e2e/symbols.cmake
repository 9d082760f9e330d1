# Symbol hygiene of the core archive (nm): only ns_* exported, no I/O.
add_test(NAME api.symbols
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/check_symbols.sh ${CMAKE_NM} $<TARGET_FILE:nfsscope_core>)
set_tests_properties(api.symbols PROPERTIES LABELS api)

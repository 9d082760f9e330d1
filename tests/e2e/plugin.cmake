# The Wireshark plugin (dissector/), when it is built:
#   plugin.exports          nfsscope.so exports only plugin_* (nm -D)
#   plugin.sample.<file>    tshark with the plugin, as an unprivileged user, on
#                           each sample against nfsscope -r on it
#                           (tests/plugin/check_plugin.py); in the sanitizer
#                           build the plugin is the ASan+UBSan one and tshark
#                           runs with libasan preloaded
if(NOT TARGET nfsscope_plugin)
  return()
endif()
find_package(Python3 COMPONENTS Interpreter QUIET)
add_test(NAME plugin.exports
         COMMAND ${PROJECT_SOURCE_DIR}/tests/plugin/check_exports.sh ${CMAKE_NM} $<TARGET_FILE:nfsscope_plugin>)
set_tests_properties(plugin.exports PROPERTIES LABELS plugin)
if(NOT Python3_Interpreter_FOUND)
  return()
endif()
set(_plugin_preload "")
if(NFSSCOPE_SANITIZE)
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libasan.so
                  OUTPUT_VARIABLE _asan OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(_plugin_preload --preload ${_asan})
endif()
file(GLOB _plugin_samples CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/samples/*.pcap ${PROJECT_SOURCE_DIR}/samples/*.pcapng)
foreach(_s ${_plugin_samples})
  get_filename_component(_n ${_s} NAME)
  add_test(NAME plugin.sample.${_n}
           COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                   ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/plugin/check_plugin.py
                   $<TARGET_FILE:nfsscope> $<TARGET_FILE:nfsscope_plugin> ${_s} ${_plugin_preload})
  set_tests_properties(plugin.sample.${_n} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS "plugin;tshark")
endforeach()
#   plugin.reading          what a tshark user reads on the thread-000 sample: a reply refusing
#                           its call as misordered says so, -z expert has one row per finding,
#                           the statistics have a title (tests/plugin/check_plugin_reading.py)
add_test(NAME plugin.reading
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                 ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/plugin/check_plugin_reading.py
                 $<TARGET_FILE:nfsscope> $<TARGET_FILE:nfsscope_plugin>
                 ${PROJECT_SOURCE_DIR}/samples/seed-000-nconnect-misbind.pcap ${_plugin_preload})
set_tests_properties(plugin.reading PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS "plugin;tshark")
#   plugin.fields_doc       doc/wireshark-plugin-fields.md is what tshark -G fields lists
add_test(NAME plugin.fields_doc
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                 ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/plugin/fields_doc.py
                 $<TARGET_FILE:nfsscope_plugin> --check ${PROJECT_SOURCE_DIR}/doc/wireshark-plugin-fields.md
                 ${_plugin_preload})
set_tests_properties(plugin.fields_doc PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60 LABELS "plugin;tshark")
#   plugin.live.<file>      tshark capturing from a pipe (-i -, through dumpcap) prints what it
#                           prints reading the file (tests/plugin/check_plugin_live.py)
# Not in the sanitizer build: dumpcap, tshark's capture child, hangs with
# libasan preloaded (the sanitizer runs cover the plugin through the samples).
foreach(_n seed-000-nconnect-misbind.pcap nfsv3-udp-loss5.pcap)
  if(NFSSCOPE_SANITIZE)
    break()
  endif()
  add_test(NAME plugin.live.${_n}
           COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                   ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/plugin/check_plugin_live.py
                   $<TARGET_FILE:nfsscope_plugin> ${PROJECT_SOURCE_DIR}/samples/${_n} ${_plugin_preload})
  set_tests_properties(plugin.live.${_n} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS "plugin;tshark")
endforeach()
#   plugin.table_cap        the per-frame table at its cap (nfsscope.table_mib 0): nothing shown,
#                           one frame says so, findings unchanged (tests/plugin/check_plugin_cap.py)
add_test(NAME plugin.table_cap
         COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
                 ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/plugin/check_plugin_cap.py
                 $<TARGET_FILE:nfsscope_plugin> ${PROJECT_SOURCE_DIR}/samples/seed-000-nconnect-misbind.pcap
                 ${_plugin_preload})
set_tests_properties(plugin.table_cap PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS "plugin;tshark")
#   plugin.unit.frame_table the per-frame table: lookups, growth, the cap, findings per frame
add_executable(test_frame_table ${PROJECT_SOURCE_DIR}/tests/plugin/test_frame_table.c
               ${PROJECT_SOURCE_DIR}/dissector/frame_table.c)
target_include_directories(test_frame_table PRIVATE ${PROJECT_SOURCE_DIR}/tests/unit ${PROJECT_SOURCE_DIR}/dissector)
target_link_libraries(test_frame_table PRIVATE nfsscope_core)
add_test(NAME plugin.unit.frame_table COMMAND test_frame_table)
set_tests_properties(plugin.unit.frame_table PROPERTIES LABELS plugin)
#   plugin.unit.capture_state   the capture state driven as Wireshark drives it, on every sample:
#                           revisits in random order read what in-order ones read, listed
#                           frames carry their findings (ASan+UBSan in the sanitizer build)
add_executable(test_capture_state ${PROJECT_SOURCE_DIR}/tests/plugin/test_capture_state.c
               ${PROJECT_SOURCE_DIR}/dissector/capture_state.c ${PROJECT_SOURCE_DIR}/dissector/frame_table.c)
target_include_directories(test_capture_state PRIVATE ${PROJECT_SOURCE_DIR}/tests/unit ${PROJECT_SOURCE_DIR}/dissector)
target_link_libraries(test_capture_state PRIVATE nfsscope_core PkgConfig::PCAP)
add_test(NAME plugin.unit.capture_state COMMAND test_capture_state ${_plugin_samples})
set_tests_properties(plugin.unit.capture_state PROPERTIES LABELS plugin TIMEOUT 120)

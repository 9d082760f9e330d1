# The Debian packages (nfsscope, and nfsscope-wireshark when the plugin is
# built) built, their dependencies checked, installed with apt-get, run and
# removed (as root, else skipped): tests/e2e/deb.sh. Holds the machine's
# package lock.
if(TARGET nfsscope_plugin)
  set(_deb_plugin plugin)
endif()
add_test(NAME e2e.deb
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/deb.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR}/samples ${PROJECT_VERSION}
                 ${_deb_plugin})
set_tests_properties(e2e.deb PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS e2e RESOURCE_LOCK dpkg RUN_SERIAL TRUE)
# RUN_SERIAL: while installed, the package's Wireshark plugin is in the
# system plugin folder, where every tshark of the other tests would load it
# cmake --install into a scratch prefix: program, man page, docs, and the
# core library with headers and pkg-config file (tests/e2e/install.sh).
if(NFSSCOPE_SANITIZE)
  set(_install_cc -fsanitize=address,undefined)
endif()
add_test(NAME e2e.install COMMAND ${CMAKE_CURRENT_LIST_DIR}/install.sh ${PROJECT_BINARY_DIR} ${PROJECT_VERSION} ${_install_cc})
set_tests_properties(e2e.install PROPERTIES LABELS e2e)

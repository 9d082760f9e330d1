# The Debian package built, installed with apt-get, run and removed (as
# root, else skipped): tests/e2e/deb.sh. Holds the machine's package lock.
add_test(NAME e2e.deb
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/deb.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR}/samples ${PROJECT_VERSION})
set_tests_properties(e2e.deb PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS e2e RESOURCE_LOCK dpkg)
# cmake --install into a scratch prefix: the program, the man page, the docs.
add_test(NAME e2e.install
         COMMAND sh -c "rm -rf \"$0/install-test\" && cmake --install \"$0\" --prefix \"$0/install-test\" >/dev/null &&
                        \"$0/install-test/bin/nfsscope\" --version | grep -qx \"nfsscope $1\" &&
                        test -s \"$0/install-test/share/man/man1/nfsscope.1\" &&
                        for f in README.md findings.md json-report.md txn-log.md architecture.md; do
                          test -s \"$0/install-test/share/doc/nfsscope/$f\" || { echo \"missing doc $f\"; exit 1; }; done &&
                        echo 'ok: program, man page and docs installed under the prefix' && rm -rf \"$0/install-test\""
                 ${PROJECT_BINARY_DIR} ${PROJECT_VERSION})
set_tests_properties(e2e.install PROPERTIES LABELS e2e)

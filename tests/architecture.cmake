# The architecture check (docs/ARCHITECTURE.md; the table is cmake/architecture.txt):
# integration.architecture           nm of every built library against the table: uses between
#                                    libraries and circles of files inside one.
# integration.architecture_fixtures  the check itself: tiny objects built in the test with a
#                                    back-call (a circle of two and of three files, a use the table
#                                    forbids added to a copy of lst_common, a library-internal
#                                    name used from another library) make it fail, naming
#                                    the files and symbols; allowed and known circles pass.
lst_add_script_test(architecture ${CMAKE_CURRENT_SOURCE_DIR}/integration/architecture.sh TIMEOUT 60)
lst_add_script_test(architecture_fixtures
    ${CMAKE_CURRENT_SOURCE_DIR}/integration/architecture_fixtures.sh TIMEOUT 60)

# SPDX-License-Identifier: Apache-2.0
# Man pages and completion: lst_roff's rendering (unit.roff); the pages the build
# writes pass `man --warnings` and lexgrog and name every flag of --help and every key (man).
lst_add_unit_test(roff unit/test_roff.c lockstep::common)
lst_add_script_test(man ${CMAKE_CURRENT_SOURCE_DIR}/integration/man.sh TIMEOUT 60)
# Bash completion, driven through `complete -p` and COMP_WORDS/COMP_CWORD (completion).
lst_add_script_test(completion ${CMAKE_CURRENT_SOURCE_DIR}/integration/completion.sh TIMEOUT 60)
# Every relative link, repository path, man page name(N) and section the docs cite exists.
lst_add_script_test(docs_links ${CMAKE_CURRENT_SOURCE_DIR}/integration/docs_links.sh TIMEOUT 60)

# SPDX-License-Identifier: Apache-2.0
# What a resume checks before it goes on: every path is still the drive the run measured (the
# identities run.json recorded), and a verifying read after it checks the whole write journal.
lst_add_script_test(resume_identity ${CMAKE_CURRENT_SOURCE_DIR}/integration/resume_identity.sh TIMEOUT 120)
lst_add_script_test(resume_verify ${CMAKE_CURRENT_SOURCE_DIR}/integration/resume_verify.sh TIMEOUT 120)

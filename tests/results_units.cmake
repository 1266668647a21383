# SPDX-License-Identifier: Apache-2.0
# The folder library (coordinator/folder): the CSV reader, and a round trip from the writer
# through the report reader comparing every field of every file.
lst_add_unit_test(csv unit/test_csv.c lockstep::folder)
lst_add_unit_test(results_roundtrip unit/test_results_roundtrip.c lockstep::folder)
# common/lst_proc, the child-process runner the plots draw with.
lst_add_unit_test(proc unit/test_proc.c lockstep::common)

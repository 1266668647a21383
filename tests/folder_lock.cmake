# SPDX-License-Identifier: Apache-2.0
# The results folder's writer: one lockstep at a time writes a folder (its .lock), so a resume
# or an --overwrite of a live run's folder and a second resume are refused naming the writer, a
# killed coordinator's lock blocks nothing.
lst_add_script_test(writer_live ${CMAKE_CURRENT_SOURCE_DIR}/integration/writer_live.sh TIMEOUT 90)
lst_add_script_test(writer_resume ${CMAKE_CURRENT_SOURCE_DIR}/integration/writer_resume.sh TIMEOUT 90)
# A run that never started a point (refused before its first one) removes the folder it made,
# says so and prints no empty table; a folder that was there is left empty.
lst_add_script_test(writer_unstarted ${CMAKE_CURRENT_SOURCE_DIR}/integration/writer_unstarted.sh TIMEOUT 60)
# The lock itself: a second taker refused naming the first, a stale lock file no obstacle, a
# .lock of another program's (a file, a FIFO, a symlink) refused and left as it was.
lst_add_unit_test(folder_lock unit/test_folder_lock.c lockstep::folder)

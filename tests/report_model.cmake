# SPDX-License-Identifier: Apache-2.0
# The report model (coordinator/folder/lst_report.c) loads each file of a folder once for
# every output (text, JSON, HTML, plots).
lst_add_script_test(report_model_once ${CMAKE_CURRENT_SOURCE_DIR}/integration/report_model_once.sh)

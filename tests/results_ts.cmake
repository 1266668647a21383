# SPDX-License-Identifier: Apache-2.0
# Time series and balance: lst_figures_balance on a hand-made folder, and the
# timeseries, HIR and path plots' scripts read as text (boundaries per round, lines per path).
lst_add_unit_test(balance unit/test_balance.c lockstep::present)
lst_add_script_test(report_ts ${CMAKE_CURRENT_SOURCE_DIR}/integration/report_ts.sh TIMEOUT 300)

# SPDX-License-Identifier: Apache-2.0
# The figures' pure maths in coordinator/measure, each test linked with measure (and common)
# alone, so a call into the report model or the presentation fails its link: curves grouped,
# sorted and labelled (lst_curves_group), headline figures of a curve (lst_headline_figures),
# balance's shares (lst_balance_shares). The report-level tests (unit.headline, unit.balance)
# read the same figures through a results folder.
lst_add_unit_test(curves unit/test_curves.c lockstep::measure)
lst_add_unit_test(headline_figures unit/test_headline_figures.c lockstep::measure)
lst_add_unit_test(balance_shares unit/test_balance_shares.c lockstep::measure)

# SPDX-License-Identifier: Apache-2.0
# Curves that read: the headline figures of latency-vs-IOPS curves ("IOPS at p99 <
# 1 ms", interpolated between measured points) on a hand-made results folder, and `lockstep
# report` printing the same figures as text and as JSON, with the plots that mark them.
lst_add_unit_test(headline unit/test_headline.c lockstep::present)
lst_add_script_test(headline ${CMAKE_CURRENT_SOURCE_DIR}/integration/headline.sh TIMEOUT 120)

# SPDX-License-Identifier: Apache-2.0
# The coordinator's ingest: sparse histograms and decoding into a reused message.
lst_add_unit_test(ingest unit/test_ingest.c lockstep::proto)

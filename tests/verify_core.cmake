# SPDX-License-Identifier: Apache-2.0
# Data integrity core (common/lst_verify.c): crc32c, stamps, the I/O sequence, the map and the check.
lst_add_unit_test(verify unit/test_verify.c lockstep::common)

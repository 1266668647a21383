# SPDX-License-Identifier: Apache-2.0
# Unit tests of the common library (common/): one program per module.
lst_add_unit_test(util unit/test_util.c lockstep::common)
lst_add_unit_test(opt unit/test_opt.c lockstep::common)
lst_add_unit_test(flag unit/test_flag.c lockstep::common)
lst_add_unit_test(map unit/test_map.c lockstep::common)
lst_add_unit_test(clock unit/test_clock.c lockstep::common)
lst_add_unit_test(log unit/test_log.c lockstep::common)

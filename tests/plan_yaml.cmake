# SPDX-License-Identifier: Apache-2.0
# The YAML node tree and the error list (common/), apart from plans: they serve the agent's
# config too.
lst_add_unit_test(yaml unit/test_yaml.c lockstep::common)

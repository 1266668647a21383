# Several runs compared and run-to-run noise: the t interval and Welch's test against published
# tables (unit.noise).
lst_add_unit_test(noise unit/test_noise.c lockstep::results)

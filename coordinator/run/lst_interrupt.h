/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Private to lst_run: the run's Ctrl-C flag (lst_interrupt.c). Set from a signal handler by
 * lst_coord_interrupt; every wait of a run looks at it and ends early.
 */
#ifndef LST_INTERRUPT_H
#define LST_INTERRUPT_H

#include <signal.h>

/* Set by Ctrl-C or SIGTERM (lst_coord_interrupt); never cleared during a run. */
extern volatile sig_atomic_t lst_coord__interrupted;

#endif

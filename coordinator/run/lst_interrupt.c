/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Ctrl-C and SIGTERM for a run: the flag every wait of the run looks at (the pump's waits, the
 * hooks, the phases, the resume), set by the signal handler installed here. Its own file, below
 * everything that reads the flag, so that the orchestrator which installs the handler and the
 * session and point which look at the flag do not call each other through it.
 */
#include "lst_coord.h"

#include <czmq.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "lst_interrupt.h"

volatile sig_atomic_t lst_coord__interrupted;

void lst_coord_interrupt(void)
{
	lst_coord__interrupted = 1;
}

static void s_on_signal(int sig)
{
	(void)sig;
	if (lst_coord__interrupted)
		_exit(LST_RUN_INTERRUPTED); /* a second Ctrl-C: leave at once */
	lst_coord_interrupt();
}

void lst_coord_handle_signals(void)
{
	struct sigaction sa;

	zsys_handler_set(NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = s_on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

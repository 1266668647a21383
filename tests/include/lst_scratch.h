/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A unit test's scratch folder: made once under /tmp and removed with all it holds when the
 * program exits, also through a failed assertion's exit (atexit), so a failing test leaves
 * nothing behind.
 */
#ifndef LST_SCRATCH_H
#define LST_SCRATCH_H

#include <stdio.h>
#include <stdlib.h>

#include "lst_test.h"

static char lst__scratch_dir[64];

static inline void lst__scratch_remove(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", lst__scratch_dir);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", lst__scratch_dir);
}

/* The scratch folder, /tmp/lst-test-NAME.XXXXXX, made at the first call (the test fails if it
 * cannot be); borrowed. */
static inline const char *lst_scratch(const char *name)
{
	if (!lst__scratch_dir[0]) {
		snprintf(lst__scratch_dir, sizeof(lst__scratch_dir), "/tmp/lst-test-%s.XXXXXX",
			 name);
		T_ASSERT(mkdtemp(lst__scratch_dir));
		atexit(lst__scratch_remove);
	}
	return lst__scratch_dir;
}

#endif

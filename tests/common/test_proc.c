/* SPDX-License-Identifier: Apache-2.0 */
/*
 * common/lst_proc: a child's exit status, its output's tail, a timeout that kills it, a
 * program that cannot start, and PATH lookup.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_proc.h"
#include "lst_test.h"
#include "lst_time.h"

int main(void)
{
	char *sh = lst_proc_which("sh"), out[16], lines[64];
	int64_t t0;

	T_ASSERT(sh && sh[0] == '/');
	T_ASSERT(!lst_proc_which("no-such-program-lst"));

	T_EQ_INT(lst_proc_run("/", (const char *[]){ sh, "-c", "pwd; echo err >&2; exit 3", NULL },
			      10, out, sizeof(out)),
		 3);
	T_EQ_STR(out, "/\nerr\n");

	/* Only the tail is kept: the last size - 1 bytes. */
	T_EQ_INT(lst_proc_run(NULL, (const char *[]){ sh, "-c", "seq 1 100", NULL }, 10, out,
			      sizeof(out)),
		 0);
	T_EQ_INT(strlen(out), sizeof(out) - 1);
	T_ASSERT(!strcmp(out + strlen(out) - 7, "99\n100\n"));
	lst_proc_last_lines(out, lines, sizeof(lines));
	T_EQ_STR(lines, "98 | 99 | 100");
	lst_proc_last_lines("", lines, sizeof(lines));
	T_EQ_STR(lines, "(no output)");

	t0 = lst_mono_ns();
	T_EQ_INT(lst_proc_run(NULL, (const char *[]){ sh, "-c", "sleep 30", NULL }, 1, out,
			      sizeof(out)),
		 -ETIMEDOUT);
	T_ASSERT(lst_mono_ns() - t0 < 10 * LST_NS_PER_S);

	T_EQ_INT(lst_proc_run(NULL, (const char *[]){ sh, "-c", "kill -9 $$", NULL }, 10, out,
			      sizeof(out)),
		 128 + 9);
	T_EQ_INT(lst_proc_run(NULL, (const char *[]){ "/nonexistent/prog", NULL }, 10, out,
			      sizeof(out)),
		 127);
	T_EQ_INT(lst_proc_run("/nonexistent", (const char *[]){ sh, "-c", "true", NULL }, 10, out,
			      sizeof(out)),
		 126);
	free(sh);
	printf("ok: lst_proc\n");
	return 0;
}

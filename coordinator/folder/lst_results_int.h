/*
 * What the results folder's writers share beyond lst_results.h: the files other than
 * lst_results.c writes (lst_events.c: events.csv, telemetry/, telemetry.csv) keep their write
 * failures in the same place, so lst_results_failed says what failed first whichever file it was.
 */
#ifndef LST_RESULTS_INT_H
#define LST_RESULTS_INT_H

#include "lst_results.h"

/* Keep a failed write of name (in the folder) as the folder's failure, unless one is kept. */
void lst_results__fail(lst_results *r, int code, const char *name);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The samples files of a results folder (samples/AGENT.msgpack) read frame by frame with the
 * wire codec, for the commands whose presentation layer may not link it (`lockstep export`,
 * `lockstep report`'s tail attribution): memory stays one frame's bound however long the run.
 */
#ifndef LST_CLI_SAMPLES_H
#define LST_CLI_SAMPLES_H

#include "lst_err.h"
#include "lst_export.h"

/*
 * lst_export_samples_fn: dir/samples/AGENT.msgpack frame by frame, each SAMPLE to fn in file
 * order. Bytes at the end that are not a whole frame (a write cut short when the coordinator
 * stopped: see docs/results.md) are left out with a warning (once per file for the life of
 * the process, however often it is read), never dropped unseen. Returns 0, fn's error, or
 * -errno with err naming the file (-ENOENT when the agent has no samples file).
 */
int lst_cli_samples(const char *dir, const char *agent, lst_export_sample_fn fn, void *arg,
		    lst_err *err);

#endif

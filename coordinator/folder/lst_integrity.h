/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Data integrity in the results folder.
 *
 * integrity/journal.jsonl: the write journal, one JSON object per line, appended and flushed as
 * the run goes, so that a verification can run after the coordinator, an agent or a host
 * crashed (`lockstep verify DIR`). It does not grow with the drive: a verified write job is a
 * stream of a few numbers (common/lst_verify.h), and its progress a mark per interval.
 *   {"type":"journal","version":1,"run":RUN}                                  first line
 *   {"type":"target","target":NAME,"id":ID,"size":BYTES,"identity":TEXT}      once per target
 *   {"type":"stream","sid":N,"gen":G,"target":NAME,"phase":P,"point":K,"agent":A,
 *    "agent_index":I,"path":PATH,"path_index":J,"t0_s":T,"seed":S,"lo":L,"hi":H,"bs":B,
 *    "random":0|1,"read_pct":R,"job":J}                                       at PREPARED
 *   {"type":"mark","sid":N,"low":L,"issued":H,"werr":E}                        as it changes
 *   {"type":"end","sid":N,"low":L,"issued":H,"werr":E,"complete":true|false}   at its DONE
 * Numbers are exact integers (seed as a decimal string: it is 64-bit unsigned).
 *
 * integrity.csv: one row per bad unit a verifying read found.
 */
#ifndef LST_INTEGRITY_H
#define LST_INTEGRITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lst_err.h"
#include "lst_results.h"
#include "lst_verify.h"

/* ---- the journal, written */

typedef struct lst_journal lst_journal;

/* Open (make, or append to after a resume) DIR/integrity/journal.jsonl of results r. A new file
 * gets its first line. NULL with err on failure. */
lst_journal *lst_journal_open(lst_results *r, const char *run_id, lst_err *err);
void lst_journal_close(lst_journal **p);

/* The largest sid in the file + 1 (1 for a new file), and its largest generation (0 for none):
 * a resumed run numbers its new streams and generations from there. */
uint64_t lst_journal_next_sid(const lst_journal *j);
uint32_t lst_journal_maxgen(const lst_journal *j);

/* A target the run verifies, with the id its stamps carry (the coordinator's: the hash of
 * "RUN/NAME", so that stamps an earlier run left on the drive count as another target's).
 * Written once per target per file: the same name, size and identity again writes nothing;
 * another size or identity, say after a resume on another drive, is -EINVAL with err. */
int lst_journal_target(lst_journal *j, const char *name, uint32_t id, uint64_t size,
		       const char *identity, lst_err *err);

/* Where a stream comes from (for the journal and for integrity.csv). */
struct lst_journal_where {
	const char *target;
	const char *phase;
	long point;
	const char *agent;
	const char *path;
	double t0_s; /* the point's start, s since the run's first start instant */
};

/* A new stream (sid: the caller's number, unique in the file). */
int lst_journal_stream(lst_journal *j, uint64_t sid, const struct lst_journal_where *w,
		       const struct lst_journal_stream *st, lst_err *err);
/* Its progress (a line only when something changed since the last). */
int lst_journal_mark(lst_journal *j, uint64_t sid, uint64_t low, uint64_t issued, uint64_t werr,
		     lst_err *err);
/* Its end: complete when its point ended normally with nothing in flight. */
int lst_journal_end(lst_journal *j, uint64_t sid, uint64_t low, uint64_t issued, uint64_t werr,
		    bool complete, lst_err *err);

/* ---- the journal, read back */

struct lst_journal_entry {
	uint64_t sid;
	struct lst_journal_where where; /* strings owned by the reader */
	struct lst_journal_stream st;	/* with its last mark or end applied */
	bool ended;
};

struct lst_journal_target {
	char *name;
	uint32_t id;
	uint64_t size;
	char *identity;
};

typedef struct lst_journal_read {
	char *run;
	size_t ntargets;
	struct lst_journal_target *targets;
	size_t nentries;
	struct lst_journal_entry *entries; /* in the order of their "stream" lines */
	uint32_t maxgen;
} lst_journal_read;

/*
 * Read DIR/integrity/journal.jsonl. A missing file, a first line that is not the journal's, a
 * line that is not complete JSON (a truncated file), an unknown type, a mark or end of an unknown
 * stream, a stream of an undeclared target: -errno / -EINVAL with err "FILE:LINE: what". A
 * stream without an end was cut off (its point never finished): complete stays 0.
 */
int lst_journal_load(const char *dir, lst_journal_read *out, lst_err *err);
void lst_journal_read_free(lst_journal_read *jr);

/* The target called name in jr, or NULL. */
const struct lst_journal_target *lst_journal_find_target(const lst_journal_read *jr,
							 const char *name);

/* ---- integrity.csv */

/* One bad unit. Strings never NULL ("" when unknown). */
struct lst_integrity_row {
	const char *phase;
	long point;
	const char *target;
	const char *agent; /* who read it */
	const char *path;
	uint64_t offset;  /* bytes on the path (= on the target: paths are ports of one device) */
	const char *kind; /* lst_verify_kind_names[] */
	/* what was expected: the last generation known written there, by whom, when */
	uint32_t exp_gen;
	const char *exp_agent, *exp_path;
	double exp_t_s; /* the writing point's start, s since the run's first start; NAN unknown */
	/* what was found */
	const char *found; /* "stamp", "no stamp", "bad crc", "other lba", "other target" */
	uint32_t found_gen;
	const char *found_agent, *found_path; /* from the stamp's indices; "" when none */
	uint64_t found_lba;
	double found_t_s; /* the stamp's time: its point's start + t_ns; NAN when unknown */
};

/* Append a row to integrity.csv (made with its header at the first row; a run that verified
 * and found nothing bad has a header-only file, see lst_results_integrity_touch). Columns:
 * phase, point, target, agent, path, offset, kind, expected_gen, expected_agent,
 * expected_path, expected_t_s, found, found_gen, found_agent, found_path, found_lba, found_t_s. */
void lst_results_integrity(lst_results *r, const struct lst_integrity_row *row);

/* Make integrity.csv with its header only, if it does not exist (a verify that found nothing). */
void lst_results_integrity_touch(lst_results *r);

#endif

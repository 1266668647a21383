/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The domain's shared vocabulary: what a run does to a path (an action, and the access it
 * announces) and the bounds a plan must respect because one agent has to carry them (hooks in
 * its config, events in one START). Plans, suites and the agent speak of these, the codec
 * carries them on the wire (proto/lst_msg.h includes this header; the numbers are on the wire
 * and stable). Nothing here needs the protocol, so the plan parser and the suites use it
 * without including the codec.
 */
#ifndef LST_DOMAIN_H
#define LST_DOMAIN_H

#define LST_MAX_HOOKS 32  /* hooks (and collectors) one agent config may name */
#define LST_MAX_EVENTS 64 /* events one START may carry */

/* What an agent does with a path in a phase. */
enum lst_action {
	LST_ACTION_IO = 0,	   /* run the workload */
	LST_ACTION_DISCARD = 1,	   /* purge: BLKDISCARD over the region */
	LST_ACTION_SECDISCARD = 2, /* purge: BLKSECDISCARD over the region */
	LST_ACTION_IDENTIFY = 3,   /* open read-only, report the path's identity, run nothing */
};

/*
 * What a run will do to a path, as bits: announced in each job spec of the IDENTIFY at the start
 * of a run (`access`), so that the agent checks the disk-safety rules for it and refuses the whole
 * run before any phase writes anything. Optional on the wire (absent = read), and ignored for
 * other actions, whose access follows from the action and the workload.
 */
enum lst_access {
	LST_ACCESS_READ = 0,	    /* reads only */
	LST_ACCESS_WRITE = 1u << 0, /* a phase writes it (a workload with writes, a write suite) */
	LST_ACCESS_PURGE = 1u << 1, /* a phase purges it (discard, secdiscard) */
	LST_ACCESS_ALL = 3,
};

#endif

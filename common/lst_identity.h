/*
 * What lockstep calls a path's identity, and the size limits every layer shares.
 *
 * The agent's disk safety fills struct lst_path_identity, the wire carries it in PREPARED, the
 * coordinator checks it against the plan and writes it to run.json. It lives here, below all of
 * them, so that disk safety and plan parsing need not include the protocol to know a name's
 * length. Sizes are in bytes including the terminating NUL.
 */
#ifndef LST_IDENTITY_H
#define LST_IDENTITY_H

#include <stdint.h>

#define LST_NAME_MAX 64	  /* agent, target, phase names: bytes incl. NUL */
#define LST_TEXT_MAX 1024 /* error text, identity fields joined */
#define LST_PATH_MAX 1024 /* paths */
#define LST_RUN_ID_MAX 64
#define LST_MAX_JOBSPECS 64 /* paths one agent drives in one phase */
#define LST_MAX_CAPS 16

/* What the agent found behind a path (lst_dev fills it on the agent). */
struct lst_path_identity {
	char target[LST_NAME_MAX];
	char path[LST_PATH_MAX];      /* as given */
	char real_path[LST_PATH_MAX]; /* after resolving links */
	char kind[16];		      /* "block", "file" */
	char wwn[256];		      /* NVMe WWIDs (nvme.VVVV-...) run long */
	char serial[LST_NAME_MAX];
	char model[LST_NAME_MAX];
	char vendor[LST_NAME_MAX];
	char firmware[LST_NAME_MAX];
	char backing_file[LST_PATH_MAX]; /* loop devices */
	uint64_t size;			 /* bytes */
	uint32_t lbs, pbs;		 /* logical and physical block size */
	uint64_t dev, ino; /* regular files: st_dev, st_ino; block devices: st_rdev, 0 */
};

#endif

/* SPDX-License-Identifier: Apache-2.0 */
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

/*
 * One block device of an agent, as the inventory reports it (lst_dev_inventory fills it on the
 * agent, INVENTORY_REPLY carries it, `lockstep inventory` groups them by drive). Whole disks
 * only: /sys/block's entries, not partitions. The bounds keep a page of LST_INV_PAGE devices,
 * every string at its bound, far below LST_MSG_MAX_BYTES.
 */
#define LST_INV_PAGE 32	     /* devices per INVENTORY_REPLY; the coordinator asks page by page */
#define LST_INV_LINKS 8	     /* /dev/disk/by-id links kept per device (links_omitted: the rest) */
#define LST_INV_LINK_MAX 128 /* bytes of one link name incl. NUL; longer links are left out */

struct lst_inv_device {
	char name[32];		 /* sysfs name: "sdb", "nvme0n1", "loop3" */
	char node[LST_NAME_MAX]; /* "/dev/sdb" */
	uint32_t nlinks;
	char links[LST_INV_LINKS][LST_INV_LINK_MAX]; /* full /dev/disk/by-id/... paths, sorted */
	uint32_t links_omitted;
	char wwn[256]; /* as sysfs spells it (wwid) */
	char serial[LST_NAME_MAX];
	char vendor[LST_NAME_MAX];
	char model[LST_NAME_MAX];
	char firmware[LST_NAME_MAX];
	uint64_t size;	     /* bytes */
	uint32_t lbs, pbs;   /* logical and physical block size */
	uint32_t rotational; /* 1 spinning, 0 not */
	char transport[16];  /* "sas", "sata", "nvme", "loop", "virtio", "scsi", "usb", "block" */
	char port[128];	     /* SAS: device/sas_address; NVMe: "nvme0 cntlid 1"; "" unknown */
	char nqn[256];	     /* NVMe subsystem NQN, "" otherwise */
	char backing_file[LST_PATH_MAX];   /* loop devices: the file as the kernel shows it */
	uint64_t backing_dev, backing_ino; /* st_dev, st_ino of that file; 0 when unknown */
	uint32_t in_use;		   /* 1: disk safety would refuse a write (why says why) */
	char why[256];			   /* "(mounted): /dev/loop5 is mounted on /mnt/x; ..." */
	uint32_t allow_write; /* 1: allow_write admits it and the agent is not read-only */
};

#endif

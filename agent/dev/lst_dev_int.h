/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Disk safety's private header, shared by the files of agent/dev (the public face is lst_dev.h):
 *   lst_dev.c           the policy, lst_dev_check, lst_dev_open, lst_dev_purge
 *   lst_dev_identity.c  what a path is (sysfs identity) and whether it matches a plan's identity
 *   lst_dev_inuse.c     the system's tables and the walk over everything sharing the storage
 *   lst_dev_sysfs.c     reading sysfs and /proc: attributes, device numbers, nodes, disks
 *   lst_dev_refuse.c    the wording of a refusal, below the other files
 *   lst_dev_inventory.c every block device, described for `lockstep inventory`
 * Cross-file internals are named lst_dev__x. Nothing here knows the protocol.
 */
#ifndef LST_DEV_INT_H
#define LST_DEV_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "lst_dev.h"

#define LST_DEV__ATTR_MAX 4096 /* a sysfs attribute fits in a page */

/* Where the system's tables are read from (the policy's, or the defaults). */
struct lst_dev__src {
	const char *sys;
	const char *mountinfo;
	const char *swaps;
};

/* A block device found through sysfs, with the disk it belongs to. */
struct lst_dev__blk {
	dev_t rdev;
	bool partition;
	char sysdir[PATH_MAX];
	char node[PATH_MAX]; /* "/dev/" + DEVNAME, for messages */
	dev_t disk_rdev;
	char disk_sysdir[PATH_MAX];
	char disk_node[PATH_MAX];
};

/* ---- lst_dev_sysfs.c */

/* Where the kernel's tables are: /sys, /proc/self/mountinfo, /proc/swaps. */
extern const struct lst_dev__src lst_dev__default_src;

/* Trim white space at both ends, in place. */
char *lst_dev__trim(char *s);

bool lst_dev__prefix(const char *s, const char *prefix);

/* Read a whole small file into buf (NUL-terminated). Returns its length or -errno. */
ssize_t lst_dev__read_raw(const char *path, char *buf, size_t size);

/* Read the sysfs attribute dir/name, trimmed. Returns 0 or -errno. */
int lst_dev__attr(const char *dir, const char *name, char *buf, size_t size);

/* The first of several attributes that exists and is not empty; "" when none. */
void lst_dev__attr_first(const char *dir, const char *const *names, char *buf, size_t size);

bool lst_dev__exists(const char *dir, const char *name);

/* "MAJ:MIN" as sysfs writes it. */
int lst_dev__parse_devt(const char *s, dev_t *out);

/* A decimal number, or hex with 0x. Returns 0 or -EINVAL. */
int lst_dev__parse_u64(const char *s, uint64_t *out);

/* Undo the octal escapes of /proc/self/mountinfo and /proc/swaps ("\040" is a space), in place. */
void lst_dev__unescape(char *s);

/*
 * stat() from cached attributes (AT_STATX_DONT_SYNC), for paths found in tables (loop backing
 * files, swap files) that may live on a network filesystem whose server is gone.
 */
int lst_dev__stat_cached(const char *path, struct stat *st);

/* "/dev/" + DEVNAME from the node's uevent, or its sysfs name ('!' stands for '/'). */
void lst_dev__devnode(const char *sysdir, char *buf, size_t size);

/*
 * Find rdev's sysfs node through SYS/dev/block/MAJ:MIN and, for a partition, its disk (the
 * parent directory). Returns 0 or -ENODEV with err.
 */
int lst_dev__blk_lookup(const struct lst_dev__src *src, dev_t rdev, struct lst_dev__blk *b,
			lst_err *err);

extern const char *const lst_dev__wwn_attrs[];

/* A WWN or EUI in one spelling: lower case, without by-id and designator prefixes. */
void lst_dev__norm_wwn(const char *in, char *out, size_t size);

/* ---- lst_dev_identity.c */

/*
 * Resolve path and fill *id. Returns 0 with *st the stat of the real path, or -errno with err
 * (-EINVAL with rule "type" when it is neither a block device nor a regular file).
 */
int lst_dev__identify(const struct lst_dev__src *src, const char *path,
		      struct lst_path_identity *id, struct stat *st, lst_err *err);

/*
 * Fill the block-device part of *id (kind, dev, size, block sizes, WWN, serial, model, vendor,
 * firmware, backing file) from sysfs for rdev. Returns 0 or -ENODEV with err (err may be NULL).
 */
int lst_dev__identify_blk(const struct lst_dev__src *src, dev_t rdev, struct lst_path_identity *id,
			  lst_err *err);

/* What was found, for an identity refusal: the fields that are set. */
void lst_dev__describe_identity(const struct lst_path_identity *id, char *buf, size_t size);

/* ---- lst_dev_inuse.c */

/* The in-use rules on a resolved identity. */
int lst_dev__check_in_use(const struct lst_dev__src *src, const struct lst_path_identity *id,
			  const struct stat *st, lst_err *err);

/* ---- lst_dev.c */

/* The tables a policy reads (its test overrides, or the defaults). */
struct lst_dev__src lst_dev__policy_src(const lst_dev_policy *p);

/* ---- lst_dev_refuse.c */

/* "given" or "given (-> real)" into buf, the start of every refusal. */
void lst_dev__label(const char *given, const char *real, char *buf, size_t size);

/* Set err to "LABEL: refused (RULE): DETAIL; FIX" and return code. */
int lst_dev__refuse(lst_err *err, int code, const char *given, const char *real, const char *rule,
		    const char *fix, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

#endif

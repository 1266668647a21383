/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Disk safety and identity: what the agent calls before it opens any path.
 *
 * The agent runs as root and writes raw disks, so the name a plan sends is never trusted. A path
 * is resolved to what it really is (every symlink followed: /dev/disk/by-id, /dev/mapper, links
 * made by hand) and every rule runs on that real device, compared by device number, never by
 * name. A write or purge is allowed only when all of these hold:
 *
 *   read-only   the agent is not in read-only mode;
 *   allow_write the real path matches an allow_write glob (fnmatch without FNM_PATHNAME, so
 *               '*' crosses '/': "/dev/loop*" also admits /dev/loop3p1), OR the path as given
 *               matches one AND every symlink met on the way from it to the device is a device
 *               link: under /dev/, in folders that up to / are root's and writable by root only
 *               (udev's by-id, by-path, /dev/mapper; not /dev/shm). Nothing is allowed by
 *               default. Matching the given name lets an admin list by-id names; a link made
 *               elsewhere (or a stale one) whose name matches cannot choose an unlisted device:
 *               the refusal names both names, the link, and "add DEV to allow_write, or use the
 *               device's own name". A given name with a "." or ".." component is not matched
 *               (its text says nothing about where it leads: "/dev/disk/by-id/../../sda"), only
 *               its real path is;
 *               list only globs over root-owned directories (a glob over /tmp lets anyone who can
 *               make a symlink there choose the device; the other rules still run on it);
 *   identity    when the plan names an identity, the device has it (checked for reads too);
 *   mounted     neither the device, nor its disk, nor any partition of its disk is mounted
 *               (the major:minor of every /proc/self/mountinfo entry, the device number of every
 *               /dev source, and every member device of a mounted btrfs);
 *   swap        none of them is active swap (/proc/swaps, each entry stat'ed), and a regular file
 *               is not an active swap file;
 *   held        none of them has holders in sysfs (device-mapper, md, LVM, bcache).
 *
 * Other names for the same storage are checked as that storage: a loop device over a block
 * device is checked as that device too; loop devices over the same file (two "ports" of one test
 * drive) are checked together; a regular file that backs a loop device is checked as that loop
 * device; other disks reporting the same WWN (a second path to a dual-port drive) are checked as
 * well. The mount check sees this process's mount namespace only: lst_dev_open's O_EXCL is the
 * kernel's backstop for mounts elsewhere, swap, dm claims and a second writer on this host.
 *
 * Reads skip read-only, allow_write and the in-use rules (reading a mounted disk is harmless and
 * useful) but still check the type and the identity.
 *
 * Errors: -EPERM (read-only, allow_write), -ENXIO (identity: the expected device is not at this
 * path), -EBUSY (mounted, swap, held, or the O_EXCL open collided), -EINVAL (relative path, not a
 * block device or regular file, bad purge range), -ENOENT and other -errno from the system.
 * Every message names the path as given and the real device, the rule in parentheses, and what
 * to change: `/dev/disk/by-id/wwn-x (-> /dev/loop3): refused (mounted): /dev/loop3 is mounted on
 * /mnt/x; unmount it or pick another device`. This module never logs; the caller logs refusals.
 * Nothing here writes to a device except lst_dev_purge. All functions are thread-safe (no state
 * outside the policy, which is read-only after setup).
 */
#ifndef LST_DEV_H
#define LST_DEV_H

#include <stdbool.h>
#include <stdint.h>

#include "lst_err.h"
#include "lst_identity.h"

/* Write policy from the agent config: allow_write globs (nothing by default), read_only. */
typedef struct lst_dev_policy lst_dev_policy;

/* A policy that allows no writes and is not read-only. Never NULL (out of memory aborts). */
lst_dev_policy *lst_dev_policy_new(void);

/* Free *p and set it to NULL; safe on NULL and twice. */
void lst_dev_policy_destroy(lst_dev_policy **p);

/*
 * Add an allow_write glob (--allow-write GLOB, repeatable). The glob must be an absolute path
 * pattern shorter than LST_PATH_MAX. Returns 0 or -EINVAL.
 */
int lst_dev_policy_allow(lst_dev_policy *p, const char *glob);

/* Read-only mode refuses every write, trim and purge. */
void lst_dev_policy_set_read_only(lst_dev_policy *p, bool on);
bool lst_dev_policy_read_only(const lst_dev_policy *p);

/*
 * Lift the in-use rules (mounted, swap, held) and the O_EXCL open for writes and purges checked
 * with this policy; read-only, allow_write and identity still hold. Only for a person who says
 * so on the command line (`bench --allow-mounted-write`, as fio's allow_mounted_write=1); the
 * daemon never sets it.
 */
void lst_dev_policy_allow_in_use(lst_dev_policy *p, bool on);

/* Does this one name match an allow_write glob? (lst_dev_check tries the given and real path.) */
bool lst_dev_policy_allows(const lst_dev_policy *p, const char *path);

/*
 * Identity of what path really is: fills *id (cleared first, target included) with the path as
 * given, the real path, the kind ("block" or "file") and, for block devices, what sysfs says
 * (wwid, serial, model, vendor, firmware, size, logical and physical block size; a loop
 * device's backing file; dev = st_rdev). A partition reports its disk's WWN, serial, model and
 * backing file and its own size. For a regular file: dev = st_dev, ino = st_ino, size from stat,
 * lbs 512, pbs = st_blksize. Returns 0, or -errno with err (-EINVAL for other file types,
 * -ENODEV when a block device has no sysfs node, -ENOENT "no such device or file on this host"
 * for a name that does not resolve, -ENXIO for a loop device bound to no file). Reads only.
 */
int lst_dev_identify(const char *path, struct lst_path_identity *id, lst_err *err);

/*
 * Does an identity match what a plan expects? Forms of expected (surrounding blanks ignored):
 *   a WWN or EUI, bare or as "naa.5000c500a1b2c3d4", "0x5000...", "wwn-0x5000...",
 *     "eui.0025...", "nvme-eui.0025...", "scsi-35000..." (prefixes removed, case ignored);
 *   a serial (case ignored);  a bare value matches either the WWN or the serial;
 *   "wwn:X" or "eui:X" (WWN only), "serial:X" (serial only);
 *   "loop:BACKING_FILE": a loop device (or its partition) over exactly that file, as the kernel
 *     shows it (`losetup -nO BACK-FILE`); paths are compared exactly, case included;
 *   "file:DEV:INO" or "file:MAJ:MIN:INO": a regular file (decimal, or hex with 0x).
 * Empty fields never match; an empty expected matches nothing (lst_dev_check skips the identity
 * rule when expected is NULL or "").
 */
bool lst_dev_identity_matches(const struct lst_path_identity *id, const char *expected);

enum lst_dev_access {
	LST_DEV_READ,
	LST_DEV_WRITE,
	LST_DEV_PURGE,
};

/* "read", "write", "purge"; "?" for an unknown value. */
const char *lst_dev_access_name(enum lst_dev_access access);

/*
 * Every rule above, before anything is opened. path must be absolute. Fills *id (id may be NULL
 * when the caller does not want it; on a refusal *id holds what was found, as far as it got).
 * expected_identity may be NULL or "" (not checked). Returns 0, or -EPERM / -ENXIO / -EBUSY /
 * -EINVAL / -errno with err naming the path, the rule that refused it and what to change.
 * Fails closed: when a table it needs (mountinfo, sysfs) cannot be read, a write is refused.
 */
int lst_dev_check(const lst_dev_policy *p, const char *path, enum lst_dev_access access,
		  const char *expected_identity, struct lst_path_identity *id, lst_err *err);

/*
 * lst_dev_check, then open the real path: O_RDONLY for reads, O_RDWR for writes and purges,
 * O_DIRECT when direct, O_EXCL for writable block devices (two writers on one host collide with
 * -EBUSY, and so does a mount or swapon in another mount namespace), always O_CLOEXEC. After the
 * open, the fd is compared with what was checked (same device number, or st_dev/st_ino for a
 * file; -ESTALE if a link changed in between) and, for writes, the in-use rules run again.
 * Returns an fd >= 0 owned by the caller, or -errno with err. Regular files must exist (nothing
 * is created).
 */
int lst_dev_open(const lst_dev_policy *p, const char *path, enum lst_dev_access access, bool direct,
		 const char *expected_identity, struct lst_path_identity *id, lst_err *err);

/*
 * Purge [offset, offset + len) of what fd (from lst_dev_open(..., LST_DEV_PURGE, ...)) refers
 * to: BLKDISCARD, or BLKSECDISCARD when secure, on a block device (offset and len multiples of
 * the logical block size); fallocate(PUNCH_HOLE | KEEP_SIZE) on a regular file (secure is
 * -EOPNOTSUPP there). len 0 means "to the end". The fd must be open for writing and belong to id
 * (same device or file), else -EBADF / -EINVAL. The range must lie inside the device or file
 * (-EINVAL). Returns 0 or -errno with err (-EOPNOTSUPP when the device cannot discard).
 */
int lst_dev_purge(int fd, const struct lst_path_identity *id, uint64_t offset, uint64_t len,
		  bool secure, lst_err *err);

/*
 * The inventory: every whole disk under SYS/block (the policy's sysfs root), sorted by name, loop
 * devices with nothing attached left out, each described as struct lst_inv_device says: the
 * identity lst_dev_identify reads, the transport and port, the by-id links found in byid (NULL:
 * "/dev/disk/by-id"; a link counts when it resolves to the device's number), whether the in-use
 * rules of lst_dev_check would refuse a write now and why, and whether allow_write admits it.
 * Fills out[0..max) with the devices from index `from` on and sets *total to their count.
 * Returns the number filled (0 when from >= *total), or -errno with err when SYS/block cannot be
 * read. Reads only; opens no device.
 */
int lst_dev_inventory(const lst_dev_policy *p, const char *byid, uint32_t from,
		      struct lst_inv_device *out, size_t max, uint32_t *total, lst_err *err);

/*
 * Internal, for tests: read sysfs below sys (default "/sys") and the mount and swap tables from
 * these files (defaults "/proc/self/mountinfo", "/proc/swaps") in checks made with this policy.
 * NULL keeps a default. Returns 0 or -EINVAL.
 */
int lst__dev_policy_set_sources(lst_dev_policy *p, const char *sys, const char *mountinfo,
				const char *swaps);

#endif

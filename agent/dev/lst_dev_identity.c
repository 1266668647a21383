/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a path is: a block device's WWN, serial, model, vendor, firmware, size and block sizes
 * from sysfs (SCSI VPD page 0x80 when the serial attribute is missing), a regular file's device
 * and inode, and whether that matches the identity a plan expects (wwn:, serial:, file:).
 */

#include "lst_dev_int.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "lst_assert.h"
#include "lst_text.h"
#include "lst_util.h"

#define S_LOOP_MAJOR 7 /* <linux/major.h>'s LOOP_MAJOR */

static const char *s_type_name(mode_t mode)
{
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISSOCK(mode))
		return "a socket";
	return "a special file";
}

static const char *const s_serial_attrs[] = { "device/serial", "serial", NULL };

static const char *const s_fw_attrs[] = { "device/rev", "device/firmware_rev", NULL };

/* The unit serial number from SCSI VPD page 0x80 (binary: 4-byte header, then ASCII). */
static void s_vpd80_serial(const char *disk_sysdir, char *buf, size_t size)
{
	char path[PATH_MAX], raw[512];
	ssize_t n;
	size_t len;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/device/vpd_pg80", disk_sysdir);
	n = lst_dev__read_raw(path, raw, sizeof(raw));
	if (n < 4 || (unsigned char)raw[1] != 0x80)
		return;
	len = ((size_t)(unsigned char)raw[2] << 8) | (unsigned char)raw[3];
	if (len > (size_t)n - 4)
		len = (size_t)n - 4;
	if (len >= size)
		len = size - 1;
	memcpy(buf, raw + 4, len);
	buf[len] = '\0';
	for (char *p = buf; *p; p++)
		if (!isprint((unsigned char)*p))
			*p = ' ';
	lst_dev__trim(buf);
}

int lst_dev__identify_blk(const struct lst_dev__src *src, dev_t rdev, struct lst_path_identity *id,
			  lst_err *err)
{
	struct lst_dev__blk *b = lst_malloc(sizeof(*b));
	char val[LST_DEV__ATTR_MAX];
	uint64_t u;
	int rc;

	rc = lst_dev__blk_lookup(src, rdev, b, err);
	if (rc)
		goto out;
	lst_copy(id->kind, sizeof(id->kind), "block");
	id->dev = (uint64_t)rdev;
	id->ino = 0;
	if (!lst_dev__attr(b->sysdir, "size", val, sizeof(val)) && !lst_dev__parse_u64(val, &u))
		id->size = u * 512;
	id->lbs = 512;
	if (!lst_dev__attr(b->disk_sysdir, "queue/logical_block_size", val, sizeof(val)) &&
	    !lst_dev__parse_u64(val, &u) && u && u <= UINT32_MAX)
		id->lbs = (uint32_t)u;
	id->pbs = id->lbs;
	if (!lst_dev__attr(b->disk_sysdir, "queue/physical_block_size", val, sizeof(val)) &&
	    !lst_dev__parse_u64(val, &u) && u && u <= UINT32_MAX)
		id->pbs = (uint32_t)u;
	lst_dev__attr_first(b->disk_sysdir, lst_dev__wwn_attrs, id->wwn, sizeof(id->wwn));
	lst_dev__attr_first(b->disk_sysdir, s_serial_attrs, id->serial, sizeof(id->serial));
	if (!id->serial[0])
		s_vpd80_serial(b->disk_sysdir, id->serial, sizeof(id->serial));
	if (lst_dev__attr(b->disk_sysdir, "device/model", id->model, sizeof(id->model)))
		id->model[0] = '\0';
	if (lst_dev__attr(b->disk_sysdir, "device/vendor", id->vendor, sizeof(id->vendor)))
		id->vendor[0] = '\0';
	lst_dev__attr_first(b->disk_sysdir, s_fw_attrs, id->firmware, sizeof(id->firmware));
	if (lst_dev__attr(b->disk_sysdir, "loop/backing_file", id->backing_file,
			  sizeof(id->backing_file)))
		id->backing_file[0] = '\0';
out:
	free(b);
	return rc;
}

/*
 * A path that does not resolve: say so as a person reads it. A missing name (a by-id link of a
 * drive that is not here) is not a failed system call but no such device on this host.
 */
static int s_unresolved(const char *path, int rc, lst_err *err)
{
	struct stat st;

	if (rc != -ENOENT)
		return lst_err_sys(err, rc, "realpath(\"%s\") failed", path);
	if (!lstat(path, &st) && S_ISLNK(st.st_mode))
		return lst_err_set(err, rc,
				   "%s: no such device on this host: the link leads nowhere (its "
				   "device is gone); `lockstep inventory` lists this host's disks",
				   path);
	return lst_err_set(err, rc,
			   "%s: no such device or file on this host; `lockstep inventory` lists "
			   "this host's disks",
			   path);
}

int lst_dev__identify(const struct lst_dev__src *src, const char *path,
		      struct lst_path_identity *id, struct stat *st, lst_err *err)
{
	char real[PATH_MAX];
	int rc;

	memset(id, 0, sizeof(*id));
	if (strlen(path) >= sizeof(id->path))
		return lst_err_set(err, -ENAMETOOLONG, "%.64s...: path longer than %d bytes", path,
				   LST_PATH_MAX - 1);
	lst_copy(id->path, sizeof(id->path), path);
	if (!realpath(path, real))
		return s_unresolved(path, -errno, err);
	if (strlen(real) >= sizeof(id->real_path))
		return lst_err_set(err, -ENAMETOOLONG, "%s: real path longer than %d bytes", path,
				   LST_PATH_MAX - 1);
	lst_copy(id->real_path, sizeof(id->real_path), real);
	if (stat(real, st) < 0)
		return lst_err_sys(err, -errno, "stat(\"%s\") failed", real);
	if (S_ISBLK(st->st_mode)) {
		rc = lst_dev__identify_blk(src, st->st_rdev, id, err);
		if (rc)
			lst_err_prefix(err, "%s: ", path);
		else if (!id->size && major(st->st_rdev) == S_LOOP_MAJOR && !id->backing_file[0])
			rc = lst_dev__refuse(err, -ENXIO, path, real, "unbound",
					     "bind it to a file (losetup), or pick another device",
					     "%s is a loop device bound to no file (size 0)", real);
		return rc;
	}
	if (!S_ISREG(st->st_mode))
		return lst_dev__refuse(err, -EINVAL, path, real, "type",
				       "point the path at a disk, a partition or a regular file",
				       "%s is %s, not a block device or regular file", real,
				       s_type_name(st->st_mode));
	lst_copy(id->kind, sizeof(id->kind), "file");
	id->dev = (uint64_t)st->st_dev;
	id->ino = (uint64_t)st->st_ino;
	id->size = st->st_size > 0 ? (uint64_t)st->st_size : 0;
	id->lbs = 512;
	id->pbs = st->st_blksize > 0 ? (uint32_t)st->st_blksize : 512;
	return 0;
}

static bool s_wwn_equal(const char *have, const char *want)
{
	char a[LST_TEXT_MAX], b[LST_TEXT_MAX];

	lst_dev__norm_wwn(have, a, sizeof(a));
	lst_dev__norm_wwn(want, b, sizeof(b));
	return a[0] && b[0] && !strcmp(a, b);
}

static bool s_serial_equal(const char *have, const char *want)
{
	char a[LST_TEXT_MAX], b[LST_TEXT_MAX];

	lst_copy(a, sizeof(a), have);
	lst_copy(b, sizeof(b), want);
	return lst_dev__trim(a)[0] && lst_dev__trim(b)[0] &&
	       !strcasecmp(lst_dev__trim(a), lst_dev__trim(b));
}

/* "file:DEV:INO" or "file:MAJ:MIN:INO" against a regular file's identity. */
static bool s_file_matches(const struct lst_path_identity *id, const char *spec)
{
	char buf[LST_TEXT_MAX], *part[4], *save = NULL, *tok;
	uint64_t v[3], dev;
	size_t n = 0;

	if (strcmp(id->kind, "file"))
		return false;
	lst_copy(buf, sizeof(buf), spec);
	for (tok = strtok_r(buf, ":", &save); tok && n < 4; tok = strtok_r(NULL, ":", &save))
		part[n++] = tok;
	if (tok || n < 2 || n > 3)
		return false;
	for (size_t i = 0; i < n; i++)
		if (lst_dev__parse_u64(part[i], &v[i]))
			return false;
	if (n == 2) {
		dev = v[0];
	} else {
		if (v[0] > UINT32_MAX || v[1] > UINT32_MAX)
			return false;
		dev = (uint64_t)makedev((unsigned)v[0], (unsigned)v[1]);
	}
	return dev == id->dev && v[n - 1] == id->ino;
}

bool lst_dev_identity_matches(const struct lst_path_identity *id, const char *expected)
{
	char buf[LST_TEXT_MAX], *want;

	if (!id || !expected)
		return false;
	lst_copy(buf, sizeof(buf), expected);
	want = lst_dev__trim(buf);
	if (!want[0])
		return false;
	if (lst_dev__prefix(want, "loop:"))
		return want[5] && id->backing_file[0] && !strcmp(want + 5, id->backing_file);
	if (lst_dev__prefix(want, "file:"))
		return s_file_matches(id, want + 5);
	if (lst_dev__prefix(want, "wwn:") || lst_dev__prefix(want, "eui:"))
		return s_wwn_equal(id->wwn, want + 4);
	if (lst_dev__prefix(want, "serial:"))
		return s_serial_equal(id->serial, want + 7);
	return s_wwn_equal(id->wwn, want) || s_serial_equal(id->serial, want);
}

void lst_dev__describe_identity(const struct lst_path_identity *id, char *buf, size_t size)
{
	const char *name[] = { "wwn", "serial", "model", "loop" };
	const char *val[] = { id->wwn, id->serial, id->model, id->backing_file };
	size_t n = 0;

	if (!strcmp(id->kind, "file")) {
		snprintf(buf, size, "file:%llu:%llu", (unsigned long long)id->dev,
			 (unsigned long long)id->ino);
		return;
	}
	buf[0] = '\0';
	for (size_t i = 0; i < LST_ARRAY_SIZE(name) && n < size; i++)
		if (val[i][0])
			n += (size_t)snprintf(buf + n, size - n, "%s%s:%s", n ? ", " : "", name[i],
					      val[i]);
	if (!buf[0])
		lst_copy(buf, size, "no WWN, serial or loop backing file");
}

int lst_dev_identify(const char *path, struct lst_path_identity *id, lst_err *err)
{
	struct stat st;

	if (!path || !path[0] || !id)
		return lst_err_set(err, -EINVAL, "identify: no path");
	return lst_dev__identify(&lst_dev__default_src, path, id, &st, err);
}

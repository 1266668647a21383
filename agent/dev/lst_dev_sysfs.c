/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reading the kernel's tables for disk safety: small text helpers, sysfs attributes, device
 * numbers, the /dev node of a sysfs device and a block device's disk. Read only; every failure is
 * a value, never an abort.
 */

#include "lst_dev_int.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lst_text.h"

const struct lst_dev__src lst_dev__default_src = { "/sys", "/proc/self/mountinfo", "/proc/swaps" };

char *lst_dev__trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		memmove(s, s + 1, strlen(s));
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static void s_lower(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

bool lst_dev__prefix(const char *s, const char *prefix)
{
	return strncasecmp(s, prefix, strlen(prefix)) == 0;
}

ssize_t lst_dev__read_raw(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd, e;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			e = -errno;
			close(fd);
			return e;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return (ssize_t)len;
}

int lst_dev__attr(const char *dir, const char *name, char *buf, size_t size)
{
	char path[PATH_MAX], tmp[LST_DEV__ATTR_MAX];
	ssize_t n;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	n = lst_dev__read_raw(path, tmp, sizeof(tmp));
	if (n < 0)
		return (int)n;
	lst_copy(buf, size, lst_dev__trim(tmp));
	return 0;
}

void lst_dev__attr_first(const char *dir, const char *const *names, char *buf, size_t size)
{
	for (; *names; names++)
		if (!lst_dev__attr(dir, *names, buf, size) && buf[0])
			return;
	buf[0] = '\0';
}

bool lst_dev__exists(const char *dir, const char *name)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return false;
	return access(path, F_OK) == 0;
}

int lst_dev__parse_devt(const char *s, dev_t *out)
{
	unsigned ma, mi;
	char extra;

	if (sscanf(s, "%u:%u%c", &ma, &mi, &extra) != 2)
		return -EINVAL;
	*out = makedev(ma, mi);
	return 0;
}

int lst_dev__parse_u64(const char *s, uint64_t *out)
{
	int base = 10;
	char *end;

	if (!isxdigit((unsigned char)s[0]))
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		if (!isxdigit((unsigned char)s[0]))
			return -EINVAL;
	}
	errno = 0;
	*out = strtoull(s, &end, base);
	if (errno || *end)
		return -EINVAL;
	return 0;
}

void lst_dev__unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

int lst_dev__stat_cached(const char *path, struct stat *st)
{
	struct statx sx;

	if (statx(AT_FDCWD, path, AT_STATX_DONT_SYNC, STATX_TYPE | STATX_INO, &sx) < 0)
		return -errno;
	memset(st, 0, sizeof(*st));
	st->st_mode = sx.stx_mode;
	st->st_ino = sx.stx_ino;
	st->st_dev = makedev(sx.stx_dev_major, sx.stx_dev_minor);
	st->st_rdev = makedev(sx.stx_rdev_major, sx.stx_rdev_minor);
	return 0;
}

void lst_dev__devnode(const char *sysdir, char *buf, size_t size)
{
	char path[PATH_MAX], ev[LST_DEV__ATTR_MAX], *line, *save = NULL, *p;
	const char *base;

	snprintf(path, sizeof(path), "%s/uevent", sysdir);
	if (lst_dev__read_raw(path, ev, sizeof(ev)) >= 0) {
		for (line = strtok_r(ev, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			if (!strncmp(line, "DEVNAME=", 8) && line[8]) {
				snprintf(buf, size, "/dev/%s", line + 8);
				return;
			}
		}
	}
	base = strrchr(sysdir, '/');
	snprintf(buf, size, "/dev/%s", base ? base + 1 : sysdir);
	for (p = buf; *p; p++)
		if (*p == '!')
			*p = '/';
}

int lst_dev__blk_lookup(const struct lst_dev__src *src, dev_t rdev, struct lst_dev__blk *b,
			lst_err *err)
{
	char link[PATH_MAX], dev[64];
	char *slash;
	int rc;

	memset(b, 0, sizeof(*b));
	b->rdev = rdev;
	snprintf(link, sizeof(link), "%s/dev/block/%u:%u", src->sys, major(rdev), minor(rdev));
	if (!realpath(link, b->sysdir))
		return lst_err_set(err, -ENODEV, "block device %u:%u has no sysfs node %s (%s)",
				   major(rdev), minor(rdev), link, strerror(errno));
	lst_dev__devnode(b->sysdir, b->node, sizeof(b->node));
	b->partition = lst_dev__exists(b->sysdir, "partition");
	if (!b->partition) {
		b->disk_rdev = rdev;
		memcpy(b->disk_sysdir, b->sysdir, sizeof(b->disk_sysdir));
		memcpy(b->disk_node, b->node, sizeof(b->disk_node));
		return 0;
	}
	memcpy(b->disk_sysdir, b->sysdir, sizeof(b->disk_sysdir));
	slash = strrchr(b->disk_sysdir, '/');
	if (slash)
		*slash = '\0';
	rc = lst_dev__attr(b->disk_sysdir, "dev", dev, sizeof(dev));
	if (rc || lst_dev__parse_devt(dev, &b->disk_rdev))
		return lst_err_set(err, -ENODEV,
				   "partition %s: cannot read its disk's number from %s/dev",
				   b->node, b->disk_sysdir);
	lst_dev__devnode(b->disk_sysdir, b->disk_node, sizeof(b->disk_node));
	return 0;
}

const char *const lst_dev__wwn_attrs[] = { "device/wwid", "wwid", NULL };

void lst_dev__norm_wwn(const char *in, char *out, size_t size)
{
	static const char *const outer[] = { "wwn-", "nvme-", "scsi-3", NULL };
	static const char *const inner[] = { "naa.", "eui.", "0x", NULL };
	char buf[LST_TEXT_MAX], *s;

	lst_copy(buf, sizeof(buf), in);
	s = lst_dev__trim(buf);
	s_lower(s);
	for (const char *const *p = outer; *p; p++)
		if (lst_dev__prefix(s, *p)) {
			s += strlen(*p);
			break;
		}
	for (const char *const *p = inner; *p; p++)
		if (lst_dev__prefix(s, *p)) {
			s += strlen(*p);
			break;
		}
	lst_copy(out, size, s);
}

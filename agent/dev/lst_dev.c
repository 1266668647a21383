/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Disk safety and identity (see lst_dev.h for the rules and their error codes): the policy,
 * the check, the open and the purge. Identity lives in lst_dev_identity.c, the in-use walk in
 * lst_dev_inuse.c, sysfs reading in lst_dev_sysfs.c, the wording of a refusal in
 * lst_dev_refuse.c (lst_dev_int.h has the map).
 *
 * A check is: resolve the name (realpath, stat), identify it from sysfs, apply the policy
 * (read-only, allow_write, identity), then, for writes, load one snapshot of the system's tables
 * (mountinfo, swaps, every /sys/block disk with its WWN and loop backing file) and walk from the
 * real device to everything that shares its storage: its disk and the disk's partitions, the
 * device under a loop device, other loop devices over the same file, other disks with the same
 * WWN. Each of those is compared by device number against the tables. The walk remembers where
 * it has been and stops (refusing) past a small depth, so alias cycles cannot loop.
 *
 * Everything here only reads, except lst_dev_purge, which is the one place that changes a
 * device. When a table cannot be read, writes are refused: a check that cannot look is not a
 * pass.
 */

#include "lst_dev.h"
#include "lst_dev_int.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <linux/fs.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_text.h"
#include "lst_util.h"

struct lst_dev_policy {
	char **globs;
	size_t nglobs;
	bool read_only;
	bool in_use_ok;	 /* lst_dev_policy_allow_in_use: bench --allow-mounted-write */
	char *sys;	 /* sysfs root */
	char *mountinfo; /* mount table */
	char *swaps;	 /* swap table */
};

lst_dev_policy *lst_dev_policy_new(void)
{
	lst_dev_policy *p = lst_calloc(1, sizeof(*p));

	p->sys = lst_strdup(lst_dev__default_src.sys);
	p->mountinfo = lst_strdup(lst_dev__default_src.mountinfo);
	p->swaps = lst_strdup(lst_dev__default_src.swaps);
	return p;
}

void lst_dev_policy_destroy(lst_dev_policy **pp)
{
	lst_dev_policy *p;

	if (!pp || !*pp)
		return;
	p = *pp;
	for (size_t i = 0; i < p->nglobs; i++)
		free(p->globs[i]);
	free(p->globs);
	free(p->sys);
	free(p->mountinfo);
	free(p->swaps);
	free(p);
	*pp = NULL;
}

int lst_dev_policy_allow(lst_dev_policy *p, const char *glob)
{
	LST_ASSERT(p);
	if (!glob || glob[0] != '/' || strlen(glob) >= LST_PATH_MAX)
		return -EINVAL;
	p->globs = lst_realloc(p->globs, (p->nglobs + 1) * sizeof(*p->globs));
	p->globs[p->nglobs++] = lst_strdup(glob);
	return 0;
}

void lst_dev_policy_set_read_only(lst_dev_policy *p, bool on)
{
	LST_ASSERT(p);
	p->read_only = on;
}

bool lst_dev_policy_read_only(const lst_dev_policy *p)
{
	LST_ASSERT(p);
	return p->read_only;
}

void lst_dev_policy_allow_in_use(lst_dev_policy *p, bool on)
{
	LST_ASSERT(p);
	p->in_use_ok = on;
}

bool lst_dev_policy_allows(const lst_dev_policy *p, const char *path)
{
	LST_ASSERT(p);
	if (!path)
		return false;
	for (size_t i = 0; i < p->nglobs; i++)
		if (fnmatch(p->globs[i], path, 0) == 0)
			return true;
	return false;
}

int lst__dev_policy_set_sources(lst_dev_policy *p, const char *sys, const char *mountinfo,
				const char *swaps)
{
	LST_ASSERT(p);
	if ((sys && sys[0] != '/') || (mountinfo && mountinfo[0] != '/') ||
	    (swaps && swaps[0] != '/'))
		return -EINVAL;
	if (sys) {
		free(p->sys);
		p->sys = lst_strdup(sys);
	}
	if (mountinfo) {
		free(p->mountinfo);
		p->mountinfo = lst_strdup(mountinfo);
	}
	if (swaps) {
		free(p->swaps);
		p->swaps = lst_strdup(swaps);
	}
	return 0;
}

static struct lst_dev__src s_policy_src(const lst_dev_policy *p)
{
	return (struct lst_dev__src){ p->sys, p->mountinfo, p->swaps };
}

struct lst_dev__src lst_dev__policy_src(const lst_dev_policy *p)
{
	return s_policy_src(p);
}

const char *lst_dev_access_name(enum lst_dev_access access)
{
	switch (access) {
	case LST_DEV_READ:
		return "read";
	case LST_DEV_WRITE:
		return "write";
	case LST_DEV_PURGE:
		return "purge";
	}
	return "?";
}

/*
 * Does path hold a "." or ".." component? Such a name is not matched against allow_write as
 * given: "/dev/disk/by-id/../../sda" matches the glob "/dev/disk/by-id/" + "*" by its text (the
 * star crosses '/') but leads to /dev/sda. Its real path (resolved, without such components)
 * is still matched.
 */
static bool s_has_dot_component(const char *path)
{
	for (const char *c = path; (c = strchr(c, '/'));) {
		c++;
		if (c[0] == '.' &&
		    (!c[1] || c[1] == '/' || (c[1] == '.' && (!c[2] || c[2] == '/'))))
			return true;
	}
	return false;
}

/*
 * A symlink the device manager keeps pointing at its device: it lies under /dev/, and every
 * folder from it up to / is root's and writable by root only (udev's /dev/disk/by-id, by-path,
 * /dev/mapper). /dev/shm and /dev/mqueue are under /dev/ too, but anyone may put a link there.
 * link is resolved in its folders (s_links_trusted walks it so).
 */
static bool s_trusted_link(const char *link)
{
	char dir[PATH_MAX];
	char *slash;
	struct stat st;

	if (strncmp(link, "/dev/", 5) || strlen(link) >= sizeof(dir))
		return false;
	lst_copy(dir, sizeof(dir), link);
	while ((slash = strrchr(dir, '/'))) {
		slash[slash == dir] = 0; /* "/dev" -> "/" keeps the root */
		if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != 0 ||
		    (st.st_mode & (S_IWGRP | S_IWOTH)))
			return false;
		if (slash == dir)
			break;
	}
	return true;
}

/*
 * Follow path one component at a time, as realpath does, and check every symlink met on the
 * way (in the last component or in a folder of the name) with s_trusted_link. Returns true
 * when all are trusted (or there are none); false with the first other link in *bad (or the
 * name itself when the walk fails: it raced with a change, or loops).
 */
static bool s_links_trusted(const char *path, char *bad, size_t badsize)
{
	char done[PATH_MAX] = "", todo[PATH_MAX], link[PATH_MAX], target[PATH_MAX];
	unsigned hops = 0;

	lst_copy(todo, sizeof(todo), path);
	lst_copy(bad, badsize, path);
	for (char *rest = todo; *rest;) {
		char *comp = rest, *end = strchr(rest, '/');
		struct stat st;
		ssize_t n;

		if (end) {
			*end = 0;
			rest = end + 1;
		} else {
			rest += strlen(rest);
		}
		if (!comp[0] || !strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			char *up = strrchr(done, '/');

			if (up)
				*up = 0;
			continue;
		}
		if ((size_t)snprintf(link, sizeof(link), "%s/%s", done, comp) >= sizeof(link) ||
		    lstat(link, &st) < 0)
			return false;
		if (!S_ISLNK(st.st_mode)) {
			lst_copy(done, sizeof(done), link);
			continue;
		}
		if (++hops > 40 || !s_trusted_link(link)) {
			lst_copy(bad, badsize, link);
			return false;
		}
		n = readlink(link, target, sizeof(target) - 1);
		if (n < 0 || (size_t)n + 1 + strlen(rest) + 1 > sizeof(target))
			return false;
		target[n] = 0;
		if (*rest)
			snprintf(target + n, sizeof(target) - (size_t)n, "/%s", rest);
		if (target[0] == '/')
			done[0] = 0;
		lst_copy(todo, sizeof(todo), target);
		rest = todo;
	}
	return true;
}

/* The policy part of a check (everything but the in-use walk). */
static int s_check_policy(const lst_dev_policy *p, const char *path, enum lst_dev_access access,
			  const char *expected, struct lst_path_identity *id, struct stat *st,
			  lst_err *err)
{
	struct lst_dev__src src = s_policy_src(p);
	char found[LST_ERR_MAX / 2], fix[LST_PATH_MAX + 128], hop[LST_PATH_MAX];
	bool writing, dots;
	int rc;

	if (!path || !path[0])
		return lst_err_set(err, -EINVAL, "device check: empty path");
	if (access != LST_DEV_READ && access != LST_DEV_WRITE && access != LST_DEV_PURGE)
		return lst_err_set(err, -EINVAL, "%s: device check: unknown access %d", path,
				   (int)access);
	if (path[0] != '/')
		return lst_dev__refuse(err, -EINVAL, path, NULL, "path", "give the full path",
				       "%s is not an absolute path", path);
	rc = lst_dev__identify(&src, path, id, st, err);
	if (rc)
		return rc;
	writing = access != LST_DEV_READ;
	dots = s_has_dot_component(path);
	if (writing && p->read_only)
		return lst_dev__refuse(
			err, -EPERM, path, id->real_path, "read-only",
			"run the agent without --read-only (read_only: false in the agent "
			"config) to write",
			"the agent is read-only and refuses every %s", lst_dev_access_name(access));
	if (writing && (dots || !lst_dev_policy_allows(p, path)) &&
	    !lst_dev_policy_allows(p, id->real_path)) {
		const char *none = p->nglobs ? "" : " (none configured: nothing is writable)";

		snprintf(fix, sizeof(fix),
			 "add --allow-write '%s' or an allow_write: glob in the agent config",
			 id->real_path);
		if (dots)
			return lst_dev__refuse(
				err, -EPERM, path, id->real_path, "allow_write", fix,
				"a path with '.' or '..' components is matched only by "
				"what it resolves to, and %s matches no allow_write glob%s",
				id->real_path, none);
		if (!strcmp(path, id->real_path))
			return lst_dev__refuse(err, -EPERM, path, NULL, "allow_write", fix,
					       "%s matches no allow_write glob%s", path, none);
		return lst_dev__refuse(err, -EPERM, path, id->real_path, "allow_write", fix,
				       "neither %s nor %s matches an allow_write glob%s", path,
				       id->real_path, none);
	}
	/*
	 * The given name matched, the device it leads to did not: follow the name only through
	 * links the device manager keeps (a stale or hand-made link must not choose the device).
	 */
	if (writing && !lst_dev_policy_allows(p, id->real_path) &&
	    !s_links_trusted(path, hop, sizeof(hop))) {
		snprintf(fix, sizeof(fix), "add %s to allow_write, or use the device's own name",
			 id->real_path);
		return lst_dev__refuse(
			err, -EPERM, path, id->real_path, "allow_write", fix,
			"%s matches an allow_write glob but leads through the symlink %s, "
			"which is not a device link under /dev/ (root-owned folder), to "
			"%s, which no allow_write glob names",
			path, hop, id->real_path);
	}
	if (expected && expected[0] && !lst_dev_identity_matches(id, expected)) {
		lst_dev__describe_identity(id, found, sizeof(found));
		return lst_dev__refuse(
			err, -ENXIO, path, id->real_path, "identity",
			"fix the plan's identity for this path, or point the path at the "
			"right device",
			"expected identity '%s' but %s has %s", expected, id->real_path, found);
	}
	return 0;
}

int lst_dev_check(const lst_dev_policy *p, const char *path, enum lst_dev_access access,
		  const char *expected_identity, struct lst_path_identity *id, lst_err *err)
{
	struct lst_path_identity *local = NULL;
	struct lst_dev__src src;
	struct stat st;
	int rc;

	LST_ASSERT(p);
	if (!id)
		id = local = lst_malloc(sizeof(*id));
	rc = s_check_policy(p, path, access, expected_identity, id, &st, err);
	if (!rc && access != LST_DEV_READ && !p->in_use_ok) {
		src = s_policy_src(p);
		rc = lst_dev__check_in_use(&src, id, &st, err);
	}
	free(local);
	return rc;
}

/* Does the open fd refer to what was checked? */
static bool s_same_object(const struct stat *st, const struct lst_path_identity *id)
{
	if (!strcmp(id->kind, "block"))
		return S_ISBLK(st->st_mode) && (uint64_t)st->st_rdev == id->dev;
	return S_ISREG(st->st_mode) && (uint64_t)st->st_dev == id->dev &&
	       (uint64_t)st->st_ino == id->ino;
}

int lst_dev_open(const lst_dev_policy *p, const char *path, enum lst_dev_access access, bool direct,
		 const char *expected_identity, struct lst_path_identity *id, lst_err *err)
{
	struct lst_path_identity *local = NULL;
	struct lst_dev__src src;
	struct stat st;
	int fd, flags, rc;
	bool excl;
	char label[2 * PATH_MAX + 8];

	LST_ASSERT(p);
	if (!id)
		id = local = lst_malloc(sizeof(*id));
	rc = lst_dev_check(p, path, access, expected_identity, id, err);
	if (rc)
		goto out;
	/* A mounted device cannot be opened O_EXCL: lifting the in-use rules lifts that too. */
	excl = access != LST_DEV_READ && !strcmp(id->kind, "block") && !p->in_use_ok;
	flags = O_CLOEXEC | (access == LST_DEV_READ ? O_RDONLY : O_RDWR);
	if (direct)
		flags |= O_DIRECT;
	if (excl)
		flags |= O_EXCL;
	lst_dev__label(path, id->real_path, label, sizeof(label));
	fd = open(id->real_path, flags);
	if (fd < 0) {
		rc = -errno;
		if (rc == -EBUSY && excl)
			lst_err_set(err, rc,
				    "%s: refused (exclusive): open(\"%s\", O_EXCL) for %s failed: "
				    "EBUSY, %s (%d): another writer, a mount or swap (perhaps in "
				    "another mount namespace) or a dm/md claim holds it; stop that "
				    "or pick another device",
				    label, id->real_path, lst_dev_access_name(access),
				    strerror(-rc), rc);
		else
			lst_err_sys(err, rc, "%s: open(\"%s\"%s%s) failed", label, id->real_path,
				    direct ? ", O_DIRECT" : "", excl ? ", O_EXCL" : "");
		goto out;
	}
	if (fstat(fd, &st) < 0) {
		rc = lst_err_sys(err, -errno, "%s: fstat after open failed", label);
		goto out_close;
	}
	if (!s_same_object(&st, id)) {
		rc = lst_err_set(err, -ESTALE,
				 "%s: refused (changed): it changed between the check and the open "
				 "(a link was replaced); try again",
				 label);
		goto out_close;
	}
	if (access != LST_DEV_READ && !p->in_use_ok) {
		/* Held exclusively now, nothing can mount it; a sibling may have been mounted. */
		src = s_policy_src(p);
		rc = lst_dev__check_in_use(&src, id, &st, err);
		if (rc)
			goto out_close;
	}
	free(local);
	return fd;
out_close:
	close(fd);
out:
	free(local);
	return rc;
}

int lst_dev_purge(int fd, const struct lst_path_identity *id, uint64_t offset, uint64_t len,
		  bool secure, lst_err *err)
{
	const char *what = secure ? "BLKSECDISCARD" : "BLKDISCARD";
	uint64_t size, range[2];
	struct stat st;
	int fl, ssz = 512;

	if (fd < 0 || !id)
		return lst_err_set(err, -EINVAL, "purge: no open device");
	if (fstat(fd, &st) < 0)
		return lst_err_sys(err, -errno, "%s: purge: fstat failed", id->path);
	if (!s_same_object(&st, id))
		return lst_err_set(err, -EINVAL, "%s: purge refused: the fd is not %s", id->path,
				   id->real_path);
	fl = fcntl(fd, F_GETFL);
	if (fl < 0)
		return lst_err_sys(err, -errno, "%s: purge: fcntl(F_GETFL) failed", id->path);
	if ((fl & O_ACCMODE) == O_RDONLY)
		return lst_err_set(err, -EBADF,
				   "%s: purge refused: the fd is open read-only; open it with "
				   "LST_DEV_PURGE",
				   id->path);
	if (S_ISBLK(st.st_mode)) {
		if (ioctl(fd, BLKGETSIZE64, &size) < 0)
			return lst_err_sys(err, -errno, "%s: ioctl(BLKGETSIZE64) failed", id->path);
		if (ioctl(fd, BLKSSZGET, &ssz) < 0 || ssz <= 0)
			ssz = 512;
	} else {
		if (secure)
			return lst_err_set(err, -EOPNOTSUPP,
					   "%s: secure purge is for block devices; use a plain "
					   "purge on a regular file",
					   id->path);
		size = st.st_size > 0 ? (uint64_t)st.st_size : 0;
	}
	if (offset > size)
		return lst_err_set(err, -EINVAL,
				   "%s: purge offset %llu is past the end (%llu bytes)", id->path,
				   (unsigned long long)offset, (unsigned long long)size);
	if (len == 0)
		len = size - offset;
	if (len > size - offset)
		return lst_err_set(err, -EINVAL,
				   "%s: purge range %llu+%llu goes past the end (%llu bytes)",
				   id->path, (unsigned long long)offset, (unsigned long long)len,
				   (unsigned long long)size);
	if (len == 0)
		return 0;
	if (!S_ISBLK(st.st_mode)) {
		if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)offset,
			      (off_t)len) < 0)
			return lst_err_sys(err, -errno,
					   "%s: fallocate(PUNCH_HOLE, %llu, %llu) failed", id->path,
					   (unsigned long long)offset, (unsigned long long)len);
		return 0;
	}
	if (offset % (uint64_t)ssz || len % (uint64_t)ssz)
		return lst_err_set(err, -EINVAL,
				   "%s: purge range %llu+%llu is not a multiple of the logical "
				   "block size %d",
				   id->path, (unsigned long long)offset, (unsigned long long)len,
				   ssz);
	range[0] = offset;
	range[1] = len;
	if (ioctl(fd, secure ? BLKSECDISCARD : BLKDISCARD, range) < 0) {
		int e = -errno;

		if (e == -EOPNOTSUPP)
			return lst_err_sys(err, e, "%s: ioctl(%s) failed: the device cannot %s",
					   id->path, what, secure ? "discard securely" : "discard");
		return lst_err_sys(err, e, "%s: ioctl(%s, %llu, %llu) failed", id->path, what,
				   (unsigned long long)offset, (unsigned long long)len);
	}
	return 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The in-use walk: one snapshot of the system's tables (mountinfo with btrfs members, swaps,
 * every /sys/block disk with its WWN and loop backing file), then a walk from the real device to
 * everything that shares its storage (its disk and the disk's partitions, holders, the device
 * under a loop device, other loop devices over the same file, other disks with the same WWN),
 * each compared by device number against the tables. The walk remembers where it has been and
 * refuses past a small depth, so alias cycles cannot loop. A table that cannot be read refuses.
 */

#include "lst_dev_int.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_util.h"

#define S_MAX_DEPTH 4 /* alias hops followed before refusing */

#define S_MAX_VISIT 64 /* devices one check may walk */

/* One member of a disk's family: the disk itself or one of its partitions. */
struct s_member {
	dev_t rdev;
	char *sysdir;
	char *node;
};

/* One mount table entry: what it was mounted from and where (a readable phrase). */
struct s_mount {
	dev_t fsdev;  /* the major:minor field; 0:N for filesystems without a device */
	dev_t srcdev; /* st_rdev of a /dev source, 0 when none */
	char *where;  /* "on /mnt/x", "as a device of btrfs UUID" */
};

/* One /proc/swaps entry, stat'ed. */
struct s_swap {
	char *path;
	bool ok; /* stat worked */
	bool blk;
	dev_t rdev;
	dev_t dev;
	ino_t ino;
};

/* One /sys/block entry (a whole disk), with what aliasing needs. */
struct s_disk {
	dev_t rdev;
	char *node;
	char *wwn;  /* normalised, "" when none */
	char *back; /* loop backing file, NULL when not a bound loop device */
	bool back_ok;
	bool back_blk;
	dev_t back_rdev;
	dev_t back_dev;
	ino_t back_ino;
};

/* One check's snapshot of the system and where the walk has been. */
struct s_ctx {
	struct lst_dev__src src;
	const char *given;
	const char *real;
	lst_err *err;
	struct s_mount *mounts;
	size_t nmounts;
	struct s_swap *swaps;
	size_t nswaps;
	struct s_disk *disks;
	size_t ndisks;
	dev_t visited[S_MAX_VISIT];
	size_t nvisited;
};

static int s_check_blk(struct s_ctx *c, dev_t rdev, const char *via, int depth, bool siblings);

static void s_ctx_free(struct s_ctx *c)
{
	for (size_t i = 0; i < c->nmounts; i++)
		free(c->mounts[i].where);
	for (size_t i = 0; i < c->nswaps; i++)
		free(c->swaps[i].path);
	for (size_t i = 0; i < c->ndisks; i++) {
		free(c->disks[i].node);
		free(c->disks[i].wwn);
		free(c->disks[i].back);
	}
	free(c->mounts);
	free(c->swaps);
	free(c->disks);
	c->mounts = NULL;
	c->swaps = NULL;
	c->disks = NULL;
	c->nmounts = c->nswaps = c->ndisks = 0;
}

static void s_add_mount(struct s_ctx *c, dev_t fsdev, dev_t srcdev, char *where)
{
	c->mounts = lst_realloc(c->mounts, (c->nmounts + 1) * sizeof(*c->mounts));
	c->mounts[c->nmounts++] = (struct s_mount){ fsdev, srcdev, where };
}

/*
 * One mountinfo line: "36 35 98:0 /root /mnt rw,noatime master:1 - ext3 /dev/root rw".
 * Sources are stat'ed only below /dev (a stat elsewhere could hang on a dead network mount).
 */
static void s_parse_mountinfo_line(struct s_ctx *c, char *line)
{
	char *field[64], *save = NULL, *tok, *source = NULL;
	size_t n = 0, i;
	dev_t fsdev, srcdev = 0;
	struct stat st;

	for (tok = strtok_r(line, " \n", &save); tok && n < LST_ARRAY_SIZE(field);
	     tok = strtok_r(NULL, " \n", &save))
		field[n++] = tok;
	if (n < 5 || lst_dev__parse_devt(field[2], &fsdev))
		return;
	for (i = 6; i + 2 < n; i++)
		if (!strcmp(field[i], "-")) {
			source = field[i + 2];
			break;
		}
	lst_dev__unescape(field[4]);
	if (source) {
		lst_dev__unescape(source);
		if (!strncmp(source, "/dev/", 5) && !stat(source, &st) && S_ISBLK(st.st_mode))
			srcdev = st.st_rdev;
	}
	s_add_mount(c, fsdev, srcdev, lst_asprintf("on %s", field[4]));
}

/* Every member device of a mounted btrfs (its mountinfo line names only one of them). */
static void s_load_btrfs(struct s_ctx *c)
{
	char dir[PATH_MAX], sub[PATH_MAX], node[PATH_MAX], val[64];
	struct dirent *fs, *d;
	DIR *top, *devs;
	dev_t rdev;

	snprintf(dir, sizeof(dir), "%s/fs/btrfs", c->src.sys);
	top = opendir(dir);
	if (!top)
		return;
	while ((fs = readdir(top))) {
		if (fs->d_name[0] == '.' || !strcmp(fs->d_name, "features"))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s/devices", dir, fs->d_name);
		devs = opendir(sub);
		if (!devs)
			continue;
		while ((d = readdir(devs))) {
			if (d->d_name[0] == '.')
				continue;
			snprintf(node, sizeof(node), "%s/%s", sub, d->d_name);
			if (!lst_dev__attr(node, "dev", val, sizeof(val)) &&
			    !lst_dev__parse_devt(val, &rdev))
				s_add_mount(c, 0, rdev,
					    lst_asprintf("as a device of btrfs filesystem %s",
							 fs->d_name));
		}
		closedir(devs);
	}
	closedir(top);
}

static int s_load_mounts(struct s_ctx *c)
{
	char *line = NULL;
	size_t cap = 0;
	FILE *f;

	f = fopen(c->src.mountinfo, "re");
	if (!f)
		return lst_err_sys(c->err, -errno, "cannot check mounts: fopen(\"%s\") failed",
				   c->src.mountinfo);
	while (getline(&line, &cap, f) > 0)
		s_parse_mountinfo_line(c, line);
	free(line);
	fclose(f);
	s_load_btrfs(c);
	return 0;
}

/* /proc/swaps: "Filename Type Size Used Priority" then one escaped path per line. */
static int s_load_swaps(struct s_ctx *c)
{
	static const char deleted[] = " (deleted)";
	const size_t dlen = sizeof(deleted) - 1;
	char *line = NULL, *path, *save = NULL;
	size_t cap = 0, len;
	struct s_swap *s;
	struct stat st;
	bool header = true;
	FILE *f;

	f = fopen(c->src.swaps, "re");
	if (!f) {
		if (errno == ENOENT) /* kernel without swap */
			return 0;
		return lst_err_sys(c->err, -errno, "cannot check swap: fopen(\"%s\") failed",
				   c->src.swaps);
	}
	while (getline(&line, &cap, f) > 0) {
		if (header) {
			header = false;
			continue;
		}
		path = strtok_r(line, " \t\n", &save);
		if (!path)
			continue;
		lst_dev__unescape(path);
		len = strlen(path);
		if (len > dlen && !strcmp(path + len - dlen, deleted))
			path[len - dlen] = '\0';
		c->swaps = lst_realloc(c->swaps, (c->nswaps + 1) * sizeof(*c->swaps));
		s = &c->swaps[c->nswaps++];
		memset(s, 0, sizeof(*s));
		s->path = lst_strdup(path);
		if (!lst_dev__stat_cached(path, &st)) {
			s->ok = true;
			s->blk = S_ISBLK(st.st_mode);
			s->rdev = st.st_rdev;
			s->dev = st.st_dev;
			s->ino = st.st_ino;
		}
	}
	free(line);
	fclose(f);
	return 0;
}

/* Every disk in SYS/block with its WWN and, for a bound loop device, its backing file. */
static int s_load_disks(struct s_ctx *c)
{
	char dir[PATH_MAX], link[PATH_MAX], sysdir[PATH_MAX], val[LST_DEV__ATTR_MAX],
		node[PATH_MAX];
	struct s_disk *k;
	struct dirent *d;
	struct stat st;
	dev_t rdev;
	DIR *dp;

	snprintf(dir, sizeof(dir), "%s/block", c->src.sys);
	dp = opendir(dir);
	if (!dp)
		return lst_err_sys(c->err, -errno, "cannot list disks: opendir(\"%s\") failed",
				   dir);
	while ((d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(link, sizeof(link), "%s/%s", dir, d->d_name);
		if (!realpath(link, sysdir) || lst_dev__attr(sysdir, "dev", val, sizeof(val)) ||
		    lst_dev__parse_devt(val, &rdev))
			continue;
		c->disks = lst_realloc(c->disks, (c->ndisks + 1) * sizeof(*c->disks));
		k = &c->disks[c->ndisks++];
		memset(k, 0, sizeof(*k));
		k->rdev = rdev;
		lst_dev__devnode(sysdir, node, sizeof(node));
		k->node = lst_strdup(node);
		lst_dev__attr_first(sysdir, lst_dev__wwn_attrs, val, sizeof(val));
		lst_dev__norm_wwn(val, node, sizeof(node));
		k->wwn = lst_strdup(node);
		if (!lst_dev__attr(sysdir, "loop/backing_file", val, sizeof(val)) && val[0]) {
			k->back = lst_strdup(val);
			if (!lst_dev__stat_cached(val, &st)) {
				k->back_ok = true;
				k->back_blk = S_ISBLK(st.st_mode);
				k->back_rdev = st.st_rdev;
				k->back_dev = st.st_dev;
				k->back_ino = st.st_ino;
			}
		}
	}
	closedir(dp);
	return 0;
}

static int s_ctx_load(struct s_ctx *c)
{
	int rc;

	rc = s_load_mounts(c);
	if (!rc)
		rc = s_load_swaps(c);
	if (!rc)
		rc = s_load_disks(c);
	if (rc) {
		lst_err_prefix(c->err, "%s: refused (tables): ", c->given);
		s_ctx_free(c);
	}
	return rc;
}

static const struct s_mount *s_find_mount(const struct s_ctx *c, dev_t rdev)
{
	for (size_t i = 0; i < c->nmounts; i++)
		if (c->mounts[i].fsdev == rdev || c->mounts[i].srcdev == rdev)
			return &c->mounts[i];
	return NULL;
}

static const struct s_swap *s_find_swap_blk(const struct s_ctx *c, dev_t rdev)
{
	for (size_t i = 0; i < c->nswaps; i++)
		if (c->swaps[i].ok && c->swaps[i].blk && c->swaps[i].rdev == rdev)
			return &c->swaps[i];
	return NULL;
}

static const struct s_swap *s_find_swap_file(const struct s_ctx *c, dev_t dev, ino_t ino)
{
	for (size_t i = 0; i < c->nswaps; i++)
		if (c->swaps[i].ok && !c->swaps[i].blk && c->swaps[i].dev == dev &&
		    c->swaps[i].ino == ino)
			return &c->swaps[i];
	return NULL;
}

static const struct s_disk *s_find_disk(const struct s_ctx *c, dev_t rdev)
{
	for (size_t i = 0; i < c->ndisks; i++)
		if (c->disks[i].rdev == rdev)
			return &c->disks[i];
	return NULL;
}

/* The names in sysdir/holders joined with ", " into buf; false when there are none. */
static bool s_holders(const char *sysdir, char *buf, size_t size)
{
	char dir[PATH_MAX];
	struct dirent *d;
	size_t len = 0;
	DIR *dp;

	buf[0] = '\0';
	snprintf(dir, sizeof(dir), "%s/holders", sysdir);
	dp = opendir(dir);
	if (!dp)
		return false;
	while ((d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		if (len < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? ", " : "",
						d->d_name);
	}
	closedir(dp);
	return buf[0] != '\0';
}

/* The disk and its partitions. Returns the count; *out is the caller's (s_members_free). */
static size_t s_family(const struct lst_dev__blk *b, struct s_member **out)
{
	char sub[PATH_MAX], node[PATH_MAX], val[64];
	struct s_member *m = lst_malloc(sizeof(*m));
	struct dirent *d;
	size_t n = 1;
	dev_t rdev;
	DIR *dp;

	m[0] = (struct s_member){ b->disk_rdev, lst_strdup(b->disk_sysdir),
				  lst_strdup(b->disk_node) };
	dp = opendir(b->disk_sysdir);
	while (dp && (d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", b->disk_sysdir, d->d_name);
		if (!lst_dev__exists(sub, "partition") ||
		    lst_dev__attr(sub, "dev", val, sizeof(val)) || lst_dev__parse_devt(val, &rdev))
			continue;
		lst_dev__devnode(sub, node, sizeof(node));
		m = lst_realloc(m, (n + 1) * sizeof(*m));
		m[n++] = (struct s_member){ rdev, lst_strdup(sub), lst_strdup(node) };
	}
	if (dp)
		closedir(dp);
	*out = m;
	return n;
}

static void s_members_free(struct s_member *m, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(m[i].sysdir);
		free(m[i].node);
	}
	free(m);
}

static bool s_visit(struct s_ctx *c, dev_t rdev)
{
	for (size_t i = 0; i < c->nvisited; i++)
		if (c->visited[i] == rdev)
			return false;
	if (c->nvisited < S_MAX_VISIT)
		c->visited[c->nvisited++] = rdev;
	return true;
}

/* How member m relates to the device b being checked, for a message. */
static void s_who(const struct lst_dev__blk *b, const struct s_member *m, char *buf, size_t size)
{
	if (m->rdev == b->rdev)
		snprintf(buf, size, "%s", b->node);
	else if (!b->partition)
		snprintf(buf, size, "%s, a partition of %s,", m->node, b->node);
	else if (m->rdev == b->disk_rdev)
		snprintf(buf, size, "%s, the disk %s is on,", m->node, b->node);
	else
		snprintf(buf, size, "%s, another partition of %s (the disk %s is on),", m->node,
			 b->disk_node, b->node);
}

/* Check one family member against the tables. */
static int s_check_member(struct s_ctx *c, const struct lst_dev__blk *b, const struct s_member *m,
			  const char *via)
{
	char who[3 * PATH_MAX], holders[512];
	const struct s_mount *mnt;
	const struct s_swap *sw;

	s_who(b, m, who, sizeof(who));
	mnt = s_find_mount(c, m->rdev);
	if (mnt)
		return lst_dev__refuse(c->err, -EBUSY, c->given, c->real, "mounted",
				       "unmount it or pick another device", "%s%s is mounted %s",
				       via, who, mnt->where);
	sw = s_find_swap_blk(c, m->rdev);
	if (sw)
		return lst_dev__refuse(c->err, -EBUSY, c->given, c->real, "swap",
				       "swapoff it or pick another device",
				       "%s%s is active swap%s%s%s", via, who,
				       strcmp(sw->path, m->node) ? " (" : "",
				       strcmp(sw->path, m->node) ? sw->path : "",
				       strcmp(sw->path, m->node) ? ")" : "");
	if (s_holders(m->sysdir, holders, sizeof(holders)))
		return lst_dev__refuse(
			c->err, -EBUSY, c->given, c->real, "held",
			"remove the holder (dmsetup remove, mdadm --stop, vgchange -an) or "
			"pick another device",
			"%s%s is held by %s (device-mapper, md or LVM)", via, who, holders);
	return 0;
}

/*
 * Loop devices over the file (dev, ino), except `except`, each checked as a block device (not
 * again for its siblings over the same file: this loop visits all of them).
 */
static int s_check_loops_over(struct s_ctx *c, dev_t dev, ino_t ino, dev_t except, const char *what,
			      const char *via, int depth)
{
	char *via2;
	int rc;

	for (size_t i = 0; i < c->ndisks; i++) {
		const struct s_disk *k = &c->disks[i];

		if (!k->back_ok || k->back_blk || k->back_dev != dev || k->back_ino != ino ||
		    k->rdev == except)
			continue;
		via2 = lst_asprintf("%s%s is %s loop device over %s, and ", via, k->node, what,
				    k->back);
		rc = s_check_blk(c, k->rdev, via2, depth + 1, false);
		free(via2);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * Is the block device rdev, or anything sharing its storage, in use? via says how the target
 * leads here ("" for the target); siblings: also check other loop devices over the same file.
 * Returns 0 or -EBUSY (-ELOOP past S_MAX_DEPTH, -ENODEV without sysfs) with c->err set.
 */
static int s_check_blk(struct s_ctx *c, dev_t rdev, const char *via, int depth, bool siblings)
{
	struct s_member *m = NULL;
	const struct s_disk *disk;
	struct lst_dev__blk *b;
	size_t n = 0;
	char *via2;
	int rc = 0;

	if (depth > S_MAX_DEPTH)
		return lst_dev__refuse(c->err, -ELOOP, c->given, c->real, "aliases",
				       "check the loop devices and multipath setup by hand",
				       "%smore than %d levels of loop devices or paths to follow",
				       via, S_MAX_DEPTH);
	if (!s_visit(c, rdev))
		return 0;
	b = lst_malloc(sizeof(*b));
	rc = lst_dev__blk_lookup(&c->src, rdev, b, c->err);
	if (rc) {
		lst_err_prefix(c->err, "%s: refused (sysfs): %s", c->given, via);
		goto out_blk;
	}
	n = s_family(b, &m);
	for (size_t i = 0; i < n && !rc; i++)
		rc = s_check_member(c, b, &m[i], via);
	if (rc)
		goto out_members;
	disk = s_find_disk(c, b->disk_rdev);
	if (!disk)
		goto out_members;
	if (disk->back_ok && disk->back_blk) {
		via2 = lst_asprintf("%s%s is a loop device over %s, and ", via, disk->node,
				    disk->back);
		rc = s_check_blk(c, disk->back_rdev, via2, depth + 1, true);
		free(via2);
	} else if (disk->back_ok) {
		const struct s_swap *sw = s_find_swap_file(c, disk->back_dev, disk->back_ino);

		if (sw) {
			rc = lst_dev__refuse(
				c->err, -EBUSY, c->given, c->real, "swap",
				"swapoff it or pick another device",
				"%s%s is a loop device over %s, which is an active swap file", via,
				disk->node, disk->back);
			goto out_members;
		}
		if (siblings)
			rc = s_check_loops_over(c, disk->back_dev, disk->back_ino, disk->rdev,
						"another", via, depth);
	}
	for (size_t i = 0; i < c->ndisks && !rc && disk->wwn[0]; i++) {
		const struct s_disk *k = &c->disks[i];

		if (k->rdev == disk->rdev || strcmp(k->wwn, disk->wwn))
			continue;
		via2 = lst_asprintf("%s%s has the same WWN as %s (another path to the same "
				    "drive), and ",
				    via, k->node, disk->node);
		rc = s_check_blk(c, k->rdev, via2, depth + 1, true);
		free(via2);
	}
out_members:
	s_members_free(m, n);
out_blk:
	free(b);
	return rc;
}

/* A regular file: not active swap, and not backing a loop device that is in use. */
static int s_check_file(struct s_ctx *c, const struct stat *st)
{
	const struct s_swap *sw = s_find_swap_file(c, st->st_dev, st->st_ino);

	if (sw)
		return lst_dev__refuse(c->err, -EBUSY, c->given, c->real, "swap",
				       "swapoff it or pick another file",
				       "%s is an active swap file", c->real);
	return s_check_loops_over(c, st->st_dev, st->st_ino, 0, "a", "", 0);
}

int lst_dev__check_in_use(const struct lst_dev__src *src, const struct lst_path_identity *id,
			  const struct stat *st, lst_err *err)
{
	struct s_ctx *c = lst_calloc(1, sizeof(*c));
	int rc;

	c->src = *src;
	c->given = id->path;
	c->real = id->real_path;
	c->err = err;
	rc = s_ctx_load(c);
	if (rc)
		goto out;
	if (S_ISBLK(st->st_mode))
		rc = s_check_blk(c, st->st_rdev, "", 0, true);
	else
		rc = s_check_file(c, st);
	s_ctx_free(c);
out:
	free(c);
	return rc;
}

/*
 * Disk safety and identity (see lst_dev.h for the rules and their error codes).
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

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_text.h"
#include "lst_util.h"

#define S_MAX_DEPTH 4	/* alias hops followed before refusing */
#define S_MAX_VISIT 64	/* devices one check may walk */
#define S_ATTR_MAX 4096 /* a sysfs attribute fits in a page */

struct lst_dev_policy {
	char **globs;
	size_t nglobs;
	bool read_only;
	char *sys;	 /* sysfs root */
	char *mountinfo; /* mount table */
	char *swaps;	 /* swap table */
};

/* Where the system's tables are read from (the policy's, or the defaults). */
struct s_src {
	const char *sys;
	const char *mountinfo;
	const char *swaps;
};

static const struct s_src s_default_src = { "/sys", "/proc/self/mountinfo", "/proc/swaps" };

/* A block device found through sysfs, with the disk it belongs to. */
struct s_blk {
	dev_t rdev;
	bool partition;
	char sysdir[PATH_MAX];
	char node[PATH_MAX]; /* "/dev/" + DEVNAME, for messages */
	dev_t disk_rdev;
	char disk_sysdir[PATH_MAX];
	char disk_node[PATH_MAX];
};

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
	struct s_src src;
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

/* ---------------------------------------------------------------- small helpers */

/* Trim white space at both ends, in place. */
static char *s_trim(char *s)
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

static bool s_prefix(const char *s, const char *prefix)
{
	return strncasecmp(s, prefix, strlen(prefix)) == 0;
}

/* Read a whole small file into buf (NUL-terminated). Returns its length or -errno. */
static ssize_t s_read_raw(const char *path, char *buf, size_t size)
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

/* Read the sysfs attribute dir/name, trimmed. Returns 0 or -errno. */
static int s_attr(const char *dir, const char *name, char *buf, size_t size)
{
	char path[PATH_MAX], tmp[S_ATTR_MAX];
	ssize_t n;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	n = s_read_raw(path, tmp, sizeof(tmp));
	if (n < 0)
		return (int)n;
	lst_copy(buf, size, s_trim(tmp));
	return 0;
}

/* The first of several attributes that exists and is not empty; "" when none. */
static void s_attr_first(const char *dir, const char *const *names, char *buf, size_t size)
{
	for (; *names; names++)
		if (!s_attr(dir, *names, buf, size) && buf[0])
			return;
	buf[0] = '\0';
}

static bool s_exists(const char *dir, const char *name)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return false;
	return access(path, F_OK) == 0;
}

/* "MAJ:MIN" as sysfs writes it. */
static int s_parse_devt(const char *s, dev_t *out)
{
	unsigned ma, mi;
	char extra;

	if (sscanf(s, "%u:%u%c", &ma, &mi, &extra) != 2)
		return -EINVAL;
	*out = makedev(ma, mi);
	return 0;
}

/* A decimal number, or hex with 0x. Returns 0 or -EINVAL. */
static int s_parse_u64(const char *s, uint64_t *out)
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

/* Undo the octal escapes of /proc/self/mountinfo and /proc/swaps ("\040" is a space), in place. */
static void s_unescape(char *s)
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

/*
 * stat() from cached attributes (AT_STATX_DONT_SYNC), for paths found in tables (loop backing
 * files, swap files) that may live on a network filesystem whose server is gone.
 */
static int s_stat_cached(const char *path, struct stat *st)
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

/* "given" or "given (-> real)", the start of every message. */
static void s_label(const char *given, const char *real, char *buf, size_t size)
{
	if (!real || !real[0] || !strcmp(given, real))
		lst_copy(buf, size, given);
	else
		snprintf(buf, size, "%s (-> %s)", given, real);
}

/* Set err to "LABEL: refused (RULE): DETAIL; FIX" and return code. */
static int s_refuse(lst_err *err, int code, const char *given, const char *real, const char *rule,
		    const char *fix, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

static int s_refuse(lst_err *err, int code, const char *given, const char *real, const char *rule,
		    const char *fix, const char *fmt, ...)
{
	char label[2 * PATH_MAX + 8], detail[LST_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	s_label(given, real, label, sizeof(label));
	return lst_err_set(err, code, "%s: refused (%s): %s; %s", label, rule, detail, fix);
}

/* ---------------------------------------------------------------- sysfs */

/* "/dev/" + DEVNAME from the node's uevent, or its sysfs name ('!' stands for '/'). */
static void s_devnode(const char *sysdir, char *buf, size_t size)
{
	char path[PATH_MAX], ev[S_ATTR_MAX], *line, *save = NULL, *p;
	const char *base;

	snprintf(path, sizeof(path), "%s/uevent", sysdir);
	if (s_read_raw(path, ev, sizeof(ev)) >= 0) {
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

/*
 * Find rdev's sysfs node through SYS/dev/block/MAJ:MIN and, for a partition, its disk (the
 * parent directory). Returns 0 or -ENODEV with err.
 */
static int s_blk_lookup(const struct s_src *src, dev_t rdev, struct s_blk *b, lst_err *err)
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
	s_devnode(b->sysdir, b->node, sizeof(b->node));
	b->partition = s_exists(b->sysdir, "partition");
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
	rc = s_attr(b->disk_sysdir, "dev", dev, sizeof(dev));
	if (rc || s_parse_devt(dev, &b->disk_rdev))
		return lst_err_set(err, -ENODEV,
				   "partition %s: cannot read its disk's number from %s/dev",
				   b->node, b->disk_sysdir);
	s_devnode(b->disk_sysdir, b->disk_node, sizeof(b->disk_node));
	return 0;
}

static const char *const s_wwn_attrs[] = { "device/wwid", "wwid", NULL };
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
	n = s_read_raw(path, raw, sizeof(raw));
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
	s_trim(buf);
}

/* Fill the block-device part of an identity from sysfs. */
static int s_identify_blk(const struct s_src *src, dev_t rdev, struct lst_path_identity *id,
			  lst_err *err)
{
	struct s_blk *b = lst_malloc(sizeof(*b));
	char val[S_ATTR_MAX];
	uint64_t u;
	int rc;

	rc = s_blk_lookup(src, rdev, b, err);
	if (rc)
		goto out;
	lst_copy(id->kind, sizeof(id->kind), "block");
	id->dev = (uint64_t)rdev;
	id->ino = 0;
	if (!s_attr(b->sysdir, "size", val, sizeof(val)) && !s_parse_u64(val, &u))
		id->size = u * 512;
	id->lbs = 512;
	if (!s_attr(b->disk_sysdir, "queue/logical_block_size", val, sizeof(val)) &&
	    !s_parse_u64(val, &u) && u && u <= UINT32_MAX)
		id->lbs = (uint32_t)u;
	id->pbs = id->lbs;
	if (!s_attr(b->disk_sysdir, "queue/physical_block_size", val, sizeof(val)) &&
	    !s_parse_u64(val, &u) && u && u <= UINT32_MAX)
		id->pbs = (uint32_t)u;
	s_attr_first(b->disk_sysdir, s_wwn_attrs, id->wwn, sizeof(id->wwn));
	s_attr_first(b->disk_sysdir, s_serial_attrs, id->serial, sizeof(id->serial));
	if (!id->serial[0])
		s_vpd80_serial(b->disk_sysdir, id->serial, sizeof(id->serial));
	if (s_attr(b->disk_sysdir, "device/model", id->model, sizeof(id->model)))
		id->model[0] = '\0';
	if (s_attr(b->disk_sysdir, "device/vendor", id->vendor, sizeof(id->vendor)))
		id->vendor[0] = '\0';
	s_attr_first(b->disk_sysdir, s_fw_attrs, id->firmware, sizeof(id->firmware));
	if (s_attr(b->disk_sysdir, "loop/backing_file", id->backing_file, sizeof(id->backing_file)))
		id->backing_file[0] = '\0';
out:
	free(b);
	return rc;
}

/*
 * Resolve path and fill *id. Returns 0 with *st the stat of the real path, or -errno with err
 * (-EINVAL with rule "type" when it is neither a block device nor a regular file).
 */
static int s_identify(const struct s_src *src, const char *path, struct lst_path_identity *id,
		      struct stat *st, lst_err *err)
{
	char real[PATH_MAX];
	int rc;

	memset(id, 0, sizeof(*id));
	if (strlen(path) >= sizeof(id->path))
		return lst_err_set(err, -ENAMETOOLONG, "%.64s...: path longer than %d bytes", path,
				   LST_PATH_MAX - 1);
	lst_copy(id->path, sizeof(id->path), path);
	if (!realpath(path, real))
		return lst_err_sys(err, -errno, "realpath(\"%s\") failed", path);
	if (strlen(real) >= sizeof(id->real_path))
		return lst_err_set(err, -ENAMETOOLONG, "%s: real path longer than %d bytes", path,
				   LST_PATH_MAX - 1);
	lst_copy(id->real_path, sizeof(id->real_path), real);
	if (stat(real, st) < 0)
		return lst_err_sys(err, -errno, "stat(\"%s\") failed", real);
	if (S_ISBLK(st->st_mode)) {
		rc = s_identify_blk(src, st->st_rdev, id, err);
		if (rc)
			lst_err_prefix(err, "%s: ", path);
		return rc;
	}
	if (!S_ISREG(st->st_mode))
		return s_refuse(err, -EINVAL, path, real, "type",
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

/* ---------------------------------------------------------------- identity matching */

/* A WWN or EUI in one spelling: lower case, without by-id and designator prefixes. */
static void s_norm_wwn(const char *in, char *out, size_t size)
{
	static const char *const outer[] = { "wwn-", "nvme-", "scsi-3", NULL };
	static const char *const inner[] = { "naa.", "eui.", "0x", NULL };
	char buf[LST_TEXT_MAX], *s;

	lst_copy(buf, sizeof(buf), in);
	s = s_trim(buf);
	s_lower(s);
	for (const char *const *p = outer; *p; p++)
		if (s_prefix(s, *p)) {
			s += strlen(*p);
			break;
		}
	for (const char *const *p = inner; *p; p++)
		if (s_prefix(s, *p)) {
			s += strlen(*p);
			break;
		}
	lst_copy(out, size, s);
}

static bool s_wwn_equal(const char *have, const char *want)
{
	char a[LST_TEXT_MAX], b[LST_TEXT_MAX];

	s_norm_wwn(have, a, sizeof(a));
	s_norm_wwn(want, b, sizeof(b));
	return a[0] && b[0] && !strcmp(a, b);
}

static bool s_serial_equal(const char *have, const char *want)
{
	char a[LST_TEXT_MAX], b[LST_TEXT_MAX];

	lst_copy(a, sizeof(a), have);
	lst_copy(b, sizeof(b), want);
	return s_trim(a)[0] && s_trim(b)[0] && !strcasecmp(s_trim(a), s_trim(b));
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
		if (s_parse_u64(part[i], &v[i]))
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
	want = s_trim(buf);
	if (!want[0])
		return false;
	if (s_prefix(want, "loop:"))
		return want[5] && id->backing_file[0] && !strcmp(want + 5, id->backing_file);
	if (s_prefix(want, "file:"))
		return s_file_matches(id, want + 5);
	if (s_prefix(want, "wwn:") || s_prefix(want, "eui:"))
		return s_wwn_equal(id->wwn, want + 4);
	if (s_prefix(want, "serial:"))
		return s_serial_equal(id->serial, want + 7);
	return s_wwn_equal(id->wwn, want) || s_serial_equal(id->serial, want);
}

/* What was found, for an identity refusal: the fields that are set. */
static void s_describe_identity(const struct lst_path_identity *id, char *buf, size_t size)
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

/* ---------------------------------------------------------------- the system's tables */

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
	if (n < 5 || s_parse_devt(field[2], &fsdev))
		return;
	for (i = 6; i + 2 < n; i++)
		if (!strcmp(field[i], "-")) {
			source = field[i + 2];
			break;
		}
	s_unescape(field[4]);
	if (source) {
		s_unescape(source);
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
			if (!s_attr(node, "dev", val, sizeof(val)) && !s_parse_devt(val, &rdev))
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
		s_unescape(path);
		len = strlen(path);
		if (len > dlen && !strcmp(path + len - dlen, deleted))
			path[len - dlen] = '\0';
		c->swaps = lst_realloc(c->swaps, (c->nswaps + 1) * sizeof(*c->swaps));
		s = &c->swaps[c->nswaps++];
		memset(s, 0, sizeof(*s));
		s->path = lst_strdup(path);
		if (!s_stat_cached(path, &st)) {
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
	char dir[PATH_MAX], link[PATH_MAX], sysdir[PATH_MAX], val[S_ATTR_MAX], node[PATH_MAX];
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
		if (!realpath(link, sysdir) || s_attr(sysdir, "dev", val, sizeof(val)) ||
		    s_parse_devt(val, &rdev))
			continue;
		c->disks = lst_realloc(c->disks, (c->ndisks + 1) * sizeof(*c->disks));
		k = &c->disks[c->ndisks++];
		memset(k, 0, sizeof(*k));
		k->rdev = rdev;
		s_devnode(sysdir, node, sizeof(node));
		k->node = lst_strdup(node);
		s_attr_first(sysdir, s_wwn_attrs, val, sizeof(val));
		s_norm_wwn(val, node, sizeof(node));
		k->wwn = lst_strdup(node);
		if (!s_attr(sysdir, "loop/backing_file", val, sizeof(val)) && val[0]) {
			k->back = lst_strdup(val);
			if (!s_stat_cached(val, &st)) {
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
static size_t s_family(const struct s_blk *b, struct s_member **out)
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
		if (!s_exists(sub, "partition") || s_attr(sub, "dev", val, sizeof(val)) ||
		    s_parse_devt(val, &rdev))
			continue;
		s_devnode(sub, node, sizeof(node));
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

/* ---------------------------------------------------------------- the in-use walk */

static int s_check_blk(struct s_ctx *c, dev_t rdev, const char *via, int depth, bool siblings);

/* How member m relates to the device b being checked, for a message. */
static void s_who(const struct s_blk *b, const struct s_member *m, char *buf, size_t size)
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
static int s_check_member(struct s_ctx *c, const struct s_blk *b, const struct s_member *m,
			  const char *via)
{
	char who[3 * PATH_MAX], holders[512];
	const struct s_mount *mnt;
	const struct s_swap *sw;

	s_who(b, m, who, sizeof(who));
	mnt = s_find_mount(c, m->rdev);
	if (mnt)
		return s_refuse(c->err, -EBUSY, c->given, c->real, "mounted",
				"unmount it or pick another device", "%s%s is mounted %s", via, who,
				mnt->where);
	sw = s_find_swap_blk(c, m->rdev);
	if (sw)
		return s_refuse(c->err, -EBUSY, c->given, c->real, "swap",
				"swapoff it or pick another device", "%s%s is active swap%s%s%s",
				via, who, strcmp(sw->path, m->node) ? " (" : "",
				strcmp(sw->path, m->node) ? sw->path : "",
				strcmp(sw->path, m->node) ? ")" : "");
	if (s_holders(m->sysdir, holders, sizeof(holders)))
		return s_refuse(c->err, -EBUSY, c->given, c->real, "held",
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
	struct s_blk *b;
	size_t n = 0;
	char *via2;
	int rc = 0;

	if (depth > S_MAX_DEPTH)
		return s_refuse(c->err, -ELOOP, c->given, c->real, "aliases",
				"check the loop devices and multipath setup by hand",
				"%smore than %d levels of loop devices or paths to follow", via,
				S_MAX_DEPTH);
	if (!s_visit(c, rdev))
		return 0;
	b = lst_malloc(sizeof(*b));
	rc = s_blk_lookup(&c->src, rdev, b, c->err);
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
			rc = s_refuse(c->err, -EBUSY, c->given, c->real, "swap",
				      "swapoff it or pick another device",
				      "%s%s is a loop device over %s, which is an active swap file",
				      via, disk->node, disk->back);
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
		return s_refuse(c->err, -EBUSY, c->given, c->real, "swap",
				"swapoff it or pick another file", "%s is an active swap file",
				c->real);
	return s_check_loops_over(c, st->st_dev, st->st_ino, 0, "a", "", 0);
}

/* The in-use rules on a resolved identity. */
static int s_check_in_use(const struct s_src *src, const struct lst_path_identity *id,
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

/* ---------------------------------------------------------------- policy */

lst_dev_policy *lst_dev_policy_new(void)
{
	lst_dev_policy *p = lst_calloc(1, sizeof(*p));

	p->sys = lst_strdup(s_default_src.sys);
	p->mountinfo = lst_strdup(s_default_src.mountinfo);
	p->swaps = lst_strdup(s_default_src.swaps);
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

static struct s_src s_policy_src(const lst_dev_policy *p)
{
	return (struct s_src){ p->sys, p->mountinfo, p->swaps };
}

/* ---------------------------------------------------------------- check, open, purge */

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

int lst_dev_identify(const char *path, struct lst_path_identity *id, lst_err *err)
{
	struct stat st;

	if (!path || !path[0] || !id)
		return lst_err_set(err, -EINVAL, "identify: no path");
	return s_identify(&s_default_src, path, id, &st, err);
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
	struct s_src src = s_policy_src(p);
	char found[LST_ERR_MAX / 2], fix[LST_PATH_MAX + 128], hop[LST_PATH_MAX];
	bool writing, dots;
	int rc;

	if (!path || !path[0])
		return lst_err_set(err, -EINVAL, "device check: empty path");
	if (access != LST_DEV_READ && access != LST_DEV_WRITE && access != LST_DEV_PURGE)
		return lst_err_set(err, -EINVAL, "%s: device check: unknown access %d", path,
				   (int)access);
	if (path[0] != '/')
		return s_refuse(err, -EINVAL, path, NULL, "path", "give the full path",
				"%s is not an absolute path", path);
	rc = s_identify(&src, path, id, st, err);
	if (rc)
		return rc;
	writing = access != LST_DEV_READ;
	dots = s_has_dot_component(path);
	if (writing && p->read_only)
		return s_refuse(err, -EPERM, path, id->real_path, "read-only",
				"run the agent without --read-only (read_only: false in the agent "
				"config) to write",
				"the agent is read-only and refuses every %s",
				lst_dev_access_name(access));
	if (writing && (dots || !lst_dev_policy_allows(p, path)) &&
	    !lst_dev_policy_allows(p, id->real_path)) {
		const char *none = p->nglobs ? "" : " (none configured: nothing is writable)";

		snprintf(fix, sizeof(fix),
			 "add --allow-write '%s' or an allow_write: glob in the agent config",
			 id->real_path);
		if (dots)
			return s_refuse(err, -EPERM, path, id->real_path, "allow_write", fix,
					"a path with '.' or '..' components is matched only by "
					"what it resolves to, and %s matches no allow_write glob%s",
					id->real_path, none);
		if (!strcmp(path, id->real_path))
			return s_refuse(err, -EPERM, path, NULL, "allow_write", fix,
					"%s matches no allow_write glob%s", path, none);
		return s_refuse(err, -EPERM, path, id->real_path, "allow_write", fix,
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
		return s_refuse(err, -EPERM, path, id->real_path, "allow_write", fix,
				"%s matches an allow_write glob but leads through the symlink %s, "
				"which is not a device link under /dev/ (root-owned folder), to "
				"%s, which no allow_write glob names",
				path, hop, id->real_path);
	}
	if (expected && expected[0] && !lst_dev_identity_matches(id, expected)) {
		s_describe_identity(id, found, sizeof(found));
		return s_refuse(err, -ENXIO, path, id->real_path, "identity",
				"fix the plan's identity for this path, or point the path at the "
				"right device",
				"expected identity '%s' but %s has %s", expected, id->real_path,
				found);
	}
	return 0;
}

int lst_dev_check(const lst_dev_policy *p, const char *path, enum lst_dev_access access,
		  const char *expected_identity, struct lst_path_identity *id, lst_err *err)
{
	struct lst_path_identity *local = NULL;
	struct s_src src;
	struct stat st;
	int rc;

	LST_ASSERT(p);
	if (!id)
		id = local = lst_malloc(sizeof(*id));
	rc = s_check_policy(p, path, access, expected_identity, id, &st, err);
	if (!rc && access != LST_DEV_READ) {
		src = s_policy_src(p);
		rc = s_check_in_use(&src, id, &st, err);
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
	struct s_src src;
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
	excl = access != LST_DEV_READ && !strcmp(id->kind, "block");
	flags = O_CLOEXEC | (access == LST_DEV_READ ? O_RDONLY : O_RDWR);
	if (direct)
		flags |= O_DIRECT;
	if (excl)
		flags |= O_EXCL;
	s_label(path, id->real_path, label, sizeof(label));
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
	if (access != LST_DEV_READ) {
		/* Held exclusively now, nothing can mount it; a sibling may have been mounted. */
		src = s_policy_src(p);
		rc = s_check_in_use(&src, id, &st, err);
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

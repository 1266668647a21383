/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Disk safety and identity (agent/dev) without real disks.
 *
 * Without root: allow_write glob matching, identity normalisation and matching on hand-filled
 * identities, the policy on regular files in a mkdtemp directory (allowed, not allowed,
 * read-only, identity, symlinks, types), identify, and purge by hole punching.
 * With root (mknod): a fake sysfs tree, mount table and swap table under the same directory,
 * with block device nodes whose numbers exist only there, so every in-use rule (held, mounted,
 * swap, partitions of one disk, same-WWN paths, loop aliases) is exercised without
 * device-mapper or md in the kernel. The nodes are never opened.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_dev.h"
#include "lst_test.h"

static char s_dir[PATH_MAX];

static const char *s_path(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A path under the test directory; 8 rotating buffers so several can be live at once. */
static const char *s_path(const char *fmt, ...)
{
	static char buf[8][PATH_MAX];
	static int next;
	char rel[PATH_MAX];
	va_list ap;
	char *out = buf[next++ % 8];

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	snprintf(out, PATH_MAX, "%s/%s", s_dir, rel);
	return out;
}

/* dir/name, in the same rotating buffers. */
static const char *s_in(const char *dir, const char *name)
{
	return s_path("%s/%s", dir + strlen(s_dir) + 1, name);
}

static void s_put(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		T_FAIL("open(%s): %s", path, strerror(errno));
	if (write(fd, data, len) != (ssize_t)len)
		T_FAIL("write(%s): %s", path, strerror(errno));
	close(fd);
}

static void s_puts(const char *path, const char *text)
{
	s_put(path, text, strlen(text));
}

static void s_mkdir(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		T_FAIL("mkdir(%s): %s", path, strerror(errno));
}

static void s_symlink(const char *target, const char *link)
{
	if (symlink(target, link))
		T_FAIL("symlink(%s, %s): %s", target, link, strerror(errno));
}

/* Remove the test directory, also when an assertion exits early. */
static void s_cleanup(void)
{
	char cmd[PATH_MAX + 32];

	if (!s_dir[0])
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", s_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "warning: could not remove %s\n", s_dir);
}

/* ---------------------------------------------------------------- globs */

static void s_test_globs(void)
{
	lst_dev_policy *p = lst_dev_policy_new();

	T_ASSERT(!lst_dev_policy_allows(p, "/dev/loop3")); /* nothing by default */
	T_ASSERT(!lst_dev_policy_read_only(p));
	T_EQ_INT(lst_dev_policy_allow(p, "relative/*"), -EINVAL);
	T_EQ_INT(lst_dev_policy_allow(p, ""), -EINVAL);
	T_EQ_INT(lst_dev_policy_allow(p, NULL), -EINVAL);
	T_EQ_INT(lst_dev_policy_allow(p, "/dev/loop*"), 0);
	T_EQ_INT(lst_dev_policy_allow(p, "/dev/disk/by-id/wwn-*"), 0);
	T_EQ_INT(lst_dev_policy_allow(p, "/dev/nvme[01]n1"), 0);
	T_ASSERT(lst_dev_policy_allows(p, "/dev/loop3"));
	T_ASSERT(lst_dev_policy_allows(p, "/dev/loop3p1")); /* no FNM_PATHNAME: '*' is free */
	T_ASSERT(lst_dev_policy_allows(p, "/dev/disk/by-id/wwn-0x5000c500a1b2c3d4"));
	T_ASSERT(lst_dev_policy_allows(p, "/dev/nvme1n1"));
	T_ASSERT(!lst_dev_policy_allows(p, "/dev/nvme2n1"));
	T_ASSERT(!lst_dev_policy_allows(p, "/dev/sda"));
	T_ASSERT(!lst_dev_policy_allows(p, "/dev/disk/by-id/nvme-eui.0025"));
	T_ASSERT(!lst_dev_policy_allows(p, NULL));
	lst_dev_policy_set_read_only(p, true);
	T_ASSERT(lst_dev_policy_read_only(p));
	lst_dev_policy_destroy(&p);
	T_ASSERT(p == NULL);
	lst_dev_policy_destroy(&p); /* safe twice */
	T_EQ_STR(lst_dev_access_name(LST_DEV_PURGE), "purge");
}

/* ---------------------------------------------------------------- identity matching */

static void s_test_matching(void)
{
	struct lst_path_identity id;

	memset(&id, 0, sizeof(id));
	strcpy(id.kind, "block");
	strcpy(id.wwn, "naa.5000c500a1b2c3d4");
	strcpy(id.serial, "S3Z9NB0K123456");
	T_ASSERT(lst_dev_identity_matches(&id, "naa.5000c500a1b2c3d4"));
	T_ASSERT(lst_dev_identity_matches(&id, "NAA.5000C500A1B2C3D4"));
	T_ASSERT(lst_dev_identity_matches(&id, "0x5000c500a1b2c3d4"));
	T_ASSERT(lst_dev_identity_matches(&id, "wwn-0x5000C500A1B2C3D4"));
	T_ASSERT(lst_dev_identity_matches(&id, "5000c500a1b2c3d4"));
	T_ASSERT(lst_dev_identity_matches(&id, "scsi-35000c500a1b2c3d4"));
	T_ASSERT(lst_dev_identity_matches(&id, "  wwn:0x5000c500a1b2c3d4 \n"));
	T_ASSERT(!lst_dev_identity_matches(&id, "0x5000c500a1b2c3d5"));
	T_ASSERT(!lst_dev_identity_matches(&id, "5000c500a1b2c3d"));
	T_ASSERT(lst_dev_identity_matches(&id, "s3z9nb0k123456"));
	T_ASSERT(lst_dev_identity_matches(&id, "serial:S3Z9NB0K123456"));
	T_ASSERT(!lst_dev_identity_matches(&id, "wwn:S3Z9NB0K123456"));
	T_ASSERT(!lst_dev_identity_matches(&id, "serial:5000c500a1b2c3d4"));
	T_ASSERT(!lst_dev_identity_matches(&id, ""));
	T_ASSERT(!lst_dev_identity_matches(&id, "   "));
	T_ASSERT(!lst_dev_identity_matches(&id, NULL));
	T_ASSERT(!lst_dev_identity_matches(NULL, "naa.5000c500a1b2c3d4"));
	T_ASSERT(!lst_dev_identity_matches(&id, "loop:/dev/shm/x"));
	T_ASSERT(!lst_dev_identity_matches(&id, "file:1:2"));

	/* NVMe: EUI in the wwid file, the udev by-id spelling, no serial. */
	memset(&id, 0, sizeof(id));
	strcpy(id.kind, "block");
	strcpy(id.wwn, "eui.0025388b91d4e4a1");
	T_ASSERT(lst_dev_identity_matches(&id, "eui.0025388B91D4E4A1"));
	T_ASSERT(lst_dev_identity_matches(&id, "nvme-eui.0025388b91d4e4a1"));
	T_ASSERT(lst_dev_identity_matches(&id, "eui:0025388b91d4e4a1"));
	T_ASSERT(!lst_dev_identity_matches(&id, "eui.0025388b91d4e4a2"));
	T_ASSERT(!lst_dev_identity_matches(&id, "serial:")); /* empty fields never match */

	/* Loop devices: the backing file, exactly. */
	memset(&id, 0, sizeof(id));
	strcpy(id.kind, "block");
	strcpy(id.backing_file, "/dev/shm/disk.Ab12");
	T_ASSERT(lst_dev_identity_matches(&id, "loop:/dev/shm/disk.Ab12"));
	T_ASSERT(lst_dev_identity_matches(&id, " loop:/dev/shm/disk.Ab12 "));
	T_ASSERT(!lst_dev_identity_matches(&id, "loop:/dev/shm/disk.AB12"));
	T_ASSERT(!lst_dev_identity_matches(&id, "loop:/dev/shm/disk"));
	T_ASSERT(!lst_dev_identity_matches(&id, "loop:"));
	T_ASSERT(!lst_dev_identity_matches(&id, "/dev/shm/disk.Ab12"));

	/* Regular files: st_dev and st_ino, as one number or major:minor. */
	memset(&id, 0, sizeof(id));
	strcpy(id.kind, "file");
	id.dev = makedev(8, 1);
	id.ino = 12;
	T_ASSERT(lst_dev_identity_matches(&id, "file:2049:12"));
	T_ASSERT(lst_dev_identity_matches(&id, "file:8:1:12"));
	T_ASSERT(lst_dev_identity_matches(&id, "FILE:0x801:0xc"));
	T_ASSERT(!lst_dev_identity_matches(&id, "file:2049:13"));
	T_ASSERT(!lst_dev_identity_matches(&id, "file:2049"));
	T_ASSERT(!lst_dev_identity_matches(&id, "file:2049:12:1:1"));
	T_ASSERT(!lst_dev_identity_matches(&id, "file:2049:-12"));
	T_ASSERT(!lst_dev_identity_matches(&id, "file:2049:12x"));
	strcpy(id.kind, "block"); /* same numbers, not a file */
	T_ASSERT(!lst_dev_identity_matches(&id, "file:2049:12"));
}

/* ---------------------------------------------------------------- regular files */

static void s_test_files(void)
{
	const char *f = s_path("data.bin"), *link = s_path("by-id-link"), *sub = s_path("subdir");
	struct lst_path_identity id;
	char buf[4096], want[64], glob[PATH_MAX];
	lst_dev_policy *p = lst_dev_policy_new();
	struct stat st;
	lst_err err;
	int fd, rc;

	memset(buf, 0xa5, sizeof(buf));
	s_put(f, buf, sizeof(buf));
	T_ASSERT(!stat(f, &st));
	s_symlink(f, link);
	s_mkdir(sub);

	/* identify */
	T_EQ_INT(lst_dev_identify(link, &id, &err), 0);
	T_EQ_STR(id.kind, "file");
	T_EQ_STR(id.path, link);
	T_EQ_STR(id.real_path, f);
	T_EQ_U64(id.dev, st.st_dev);
	T_EQ_U64(id.ino, st.st_ino);
	T_EQ_U64(id.size, 4096);
	T_EQ_INT(id.lbs, 512);
	T_EQ_INT(lst_dev_identify(s_path("missing"), &id, &err), -ENOENT);
	T_CONTAINS(err.msg, "missing");

	/* Nothing allowed by default; reads always are. */
	rc = lst_dev_check(p, f, LST_DEV_WRITE, NULL, &id, &err);
	T_EQ_INT(rc, -EPERM);
	T_CONTAINS(err.msg, "refused (allow_write)");
	T_CONTAINS(err.msg, f);
	T_CONTAINS(err.msg, "none configured");
	T_CONTAINS(err.msg, "--allow-write");
	T_EQ_INT(lst_dev_check(p, f, LST_DEV_PURGE, NULL, &id, &err), -EPERM);
	T_EQ_INT(lst_dev_check(p, f, LST_DEV_READ, NULL, &id, &err), 0);
	T_EQ_INT(lst_dev_check(p, f, LST_DEV_READ, NULL, NULL, &err), 0);

	/* Allowed by the real name, reached through a link. */
	T_EQ_INT(lst_dev_policy_allow(p, f), 0);
	T_EQ_INT(lst_dev_check(p, f, LST_DEV_WRITE, NULL, &id, &err), 0);
	T_EQ_INT(lst_dev_check(p, link, LST_DEV_WRITE, NULL, &id, &err), 0);
	T_EQ_STR(id.real_path, f);
	lst_dev_policy_destroy(&p);

	/*
	 * Allowed by the link's name only: the link is not a device link (it is not in a root-only
	 * folder under /dev/), so it cannot choose what is written. The refusal names both names,
	 * the link and the fix. (dev_safety.sh makes device links under /dev/ as root.)
	 */
	p = lst_dev_policy_new();
	snprintf(glob, sizeof(glob), "%s/by-id-*", s_dir);
	T_EQ_INT(lst_dev_policy_allow(p, glob), 0);
	T_ASSERT(lst_dev_policy_allows(p, link));
	rc = lst_dev_check(p, link, LST_DEV_WRITE, NULL, &id, &err);
	T_EQ_INT(rc, -EPERM);
	T_CONTAINS(err.msg, "refused (allow_write)");
	T_CONTAINS(err.msg, link);
	T_CONTAINS(err.msg, f);
	T_CONTAINS(err.msg, "leads through the symlink");
	T_CONTAINS(err.msg, "to allow_write, or use the device's own name");
	T_EQ_INT(lst_dev_check(p, link, LST_DEV_PURGE, NULL, &id, &err), -EPERM);
	T_EQ_INT(lst_dev_check(p, link, LST_DEV_READ, NULL, &id, &err), 0);
	rc = lst_dev_check(p, f, LST_DEV_WRITE, NULL, &id, &err);
	T_EQ_INT(rc, -EPERM);
	/* a glob over the real name admits the link too */
	T_EQ_INT(lst_dev_policy_allow(p, f), 0);
	T_EQ_INT(lst_dev_check(p, link, LST_DEV_WRITE, NULL, &id, &err), 0);
	lst_dev_policy_destroy(&p);

	/* A name with '..' is not matched by its text: "DIR/subdir/../data.bin" matches the glob
	 * DIR/subdir/ + star but leads to DIR/data.bin, which no glob allows. */
	p = lst_dev_policy_new();
	snprintf(glob, sizeof(glob), "%s/*", sub);
	T_EQ_INT(lst_dev_policy_allow(p, glob), 0);
	{
		char dotted[PATH_MAX + 32];

		snprintf(dotted, sizeof(dotted), "%s/../data.bin", sub);
		T_ASSERT(lst_dev_policy_allows(p, dotted));
		rc = lst_dev_check(p, dotted, LST_DEV_WRITE, NULL, &id, &err);
		T_EQ_INT(rc, -EPERM);
		T_CONTAINS(err.msg, "refused (allow_write)");
		T_CONTAINS(err.msg, "'..'");
		T_EQ_INT(lst_dev_open(p, dotted, LST_DEV_PURGE, false, NULL, &id, &err), -EPERM);
		snprintf(dotted, sizeof(dotted), "%s/./../data.bin", sub);
		T_EQ_INT(lst_dev_check(p, dotted, LST_DEV_WRITE, NULL, &id, &err), -EPERM);
		T_EQ_INT(lst_dev_check(p, dotted, LST_DEV_READ, NULL, &id, &err), 0);
		/* ... but what it resolves to is matched: allowed when that is. */
		T_EQ_INT(lst_dev_policy_allow(p, f), 0);
		T_EQ_INT(lst_dev_check(p, dotted, LST_DEV_WRITE, NULL, &id, &err), 0);
		/* Names that merely contain dots are names like any other. */
		snprintf(dotted, sizeof(dotted), "%s/..data.bin", sub);
		T_ASSERT(lst_dev_policy_allows(p, dotted));
	}
	lst_dev_policy_destroy(&p);

	/* Neither name: the message shows both. */
	p = lst_dev_policy_new();
	T_EQ_INT(lst_dev_policy_allow(p, "/nowhere/*"), 0);
	rc = lst_dev_check(p, link, LST_DEV_WRITE, NULL, &id, &err);
	T_EQ_INT(rc, -EPERM);
	T_CONTAINS(err.msg, link);
	T_CONTAINS(err.msg, "(-> ");
	T_CONTAINS(err.msg, "refused (allow_write)");
	T_ASSERT(!strstr(err.msg, "none configured"));
	lst_dev_policy_destroy(&p);

	/* Read-only refuses writes and purges, whatever allow_write says. */
	p = lst_dev_policy_new();
	snprintf(glob, sizeof(glob), "%s/*", s_dir);
	T_EQ_INT(lst_dev_policy_allow(p, glob), 0);
	lst_dev_policy_set_read_only(p, true);
	T_EQ_INT(lst_dev_check(p, f, LST_DEV_WRITE, NULL, &id, &err), -EPERM);
	T_CONTAINS(err.msg, "refused (read-only)");
	T_EQ_INT(lst_dev_check(p, f, LST_DEV_PURGE, NULL, &id, &err), -EPERM);
	T_CONTAINS(err.msg, "purge");
	T_EQ_INT(lst_dev_open(p, f, LST_DEV_WRITE, false, NULL, &id, &err), -EPERM);
	T_EQ_INT(lst_dev_check(p, f, LST_DEV_READ, NULL, &id, &err), 0);
	lst_dev_policy_set_read_only(p, false);

	/* Identity: right, wrong, and checked on reads too. */
	snprintf(want, sizeof(want), "file:%llu:%llu", (unsigned long long)st.st_dev,
		 (unsigned long long)st.st_ino);
	T_EQ_INT(lst_dev_check(p, link, LST_DEV_WRITE, want, &id, &err), 0);
	T_EQ_INT(lst_dev_check(p, link, LST_DEV_WRITE, "", &id, &err), 0);
	snprintf(want, sizeof(want), "file:%llu:%llu", (unsigned long long)st.st_dev,
		 (unsigned long long)st.st_ino + 1);
	rc = lst_dev_check(p, link, LST_DEV_WRITE, want, &id, &err);
	T_EQ_INT(rc, -ENXIO);
	T_CONTAINS(err.msg, "refused (identity)");
	T_CONTAINS(err.msg, want);
	T_EQ_INT(lst_dev_check(p, link, LST_DEV_READ, "naa.5000c500a1b2c3d4", &id, &err), -ENXIO);

	/* Not a path we can use. */
	T_EQ_INT(lst_dev_check(p, "data.bin", LST_DEV_WRITE, NULL, &id, &err), -EINVAL);
	T_CONTAINS(err.msg, "absolute");
	T_EQ_INT(lst_dev_check(p, "", LST_DEV_READ, NULL, &id, &err), -EINVAL);
	T_EQ_INT(lst_dev_check(p, sub, LST_DEV_WRITE, NULL, &id, &err), -EINVAL);
	T_CONTAINS(err.msg, "refused (type)");
	T_CONTAINS(err.msg, "directory");
	T_EQ_INT(lst_dev_check(p, "/dev/null", LST_DEV_READ, NULL, &id, &err), -EINVAL);
	T_CONTAINS(err.msg, "character device");
	T_EQ_INT(lst_dev_check(p, s_path("missing"), LST_DEV_WRITE, NULL, &id, &err), -ENOENT);
	T_EQ_INT(lst_dev_check(p, f, (enum lst_dev_access)7, NULL, &id, &err), -EINVAL);

	/* Open and purge a file: the range reads back as zeros, the size stays. */
	fd = lst_dev_open(p, link, LST_DEV_PURGE, false, NULL, &id, &err);
	T_ASSERT(fd >= 0);
	T_ASSERT(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	T_EQ_INT(lst_dev_purge(fd, &id, 1024, 2048, false, &err), 0);
	T_EQ_INT(pread(fd, buf, sizeof(buf), 0), 4096);
	for (int i = 0; i < 4096; i++)
		if ((unsigned char)buf[i] != (i >= 1024 && i < 3072 ? 0 : 0xa5))
			T_FAIL("byte %d is 0x%02x after purging 1024+2048", i,
			       (unsigned char)buf[i]);
	T_ASSERT(!fstat(fd, &st));
	T_EQ_INT(st.st_size, 4096);
	T_EQ_INT(lst_dev_purge(fd, &id, 0, 0, true, &err), -EOPNOTSUPP);
	T_EQ_INT(lst_dev_purge(fd, &id, 4000, 200, false, &err), -EINVAL);
	T_CONTAINS(err.msg, "past the end");
	T_EQ_INT(lst_dev_purge(fd, &id, 5000, 0, false, &err), -EINVAL);
	T_EQ_INT(lst_dev_purge(fd, &id, 3072, 0, false, &err), 0); /* to the end */
	T_EQ_INT(pread(fd, buf, 1024, 3072), 1024);
	for (int i = 0; i < 1024; i++)
		T_EQ_INT(buf[i], 0);
	id.ino++; /* an fd that is not the identity's */
	T_EQ_INT(lst_dev_purge(fd, &id, 0, 512, false, &err), -EINVAL);
	close(fd);
	fd = lst_dev_open(p, f, LST_DEV_READ, false, NULL, &id, &err);
	T_ASSERT(fd >= 0);
	T_EQ_INT(lst_dev_purge(fd, &id, 0, 512, false, &err), -EBADF);
	close(fd);
	T_EQ_INT(lst_dev_purge(-1, &id, 0, 512, false, &err), -EINVAL);
	lst_dev_policy_destroy(&p);
}

/* ---------------------------------------------------------------- a fake sysfs */

struct fake_dev {
	const char *name;
	unsigned minor;
	const char *parent; /* NULL for a disk */
};

static const struct fake_dev s_fakes[] = {
	{ "fake0", 1, NULL },	  { "fake0p1", 2, "fake0" }, { "fake0p2", 3, "fake0" },
	{ "fake1", 4, NULL },	  { "fakeloop0", 5, NULL },  { "fakeloop1", 6, NULL },
	{ "fakeloop2", 7, NULL },
};

#define FAKE_MAJOR 240 /* "local/experimental use": nothing real; never opened anyway */

static const char *s_sysdir(const struct fake_dev *d)
{
	if (d->parent)
		return s_path("sys/devices/virtual/block/%s/%s", d->parent, d->name);
	return s_path("sys/devices/virtual/block/%s", d->name);
}

/* Build the tree and the nodes. Returns false when mknod is not permitted. */
static bool s_fake_build(void)
{
	char text[PATH_MAX + 64], dir[PATH_MAX];

	s_mkdir(s_path("node"));
	if (mknod(s_path("node/probe"), S_IFBLK | 0600, makedev(FAKE_MAJOR, 0)))
		return false;
	unlink(s_path("node/probe"));
	s_mkdir(s_path("sys"));
	s_mkdir(s_path("sys/dev"));
	s_mkdir(s_path("sys/dev/block"));
	s_mkdir(s_path("sys/block"));
	s_mkdir(s_path("sys/devices"));
	s_mkdir(s_path("sys/devices/virtual"));
	s_mkdir(s_path("sys/devices/virtual/block"));
	for (size_t i = 0; i < LST_ARRAY_SIZE(s_fakes); i++) {
		const struct fake_dev *d = &s_fakes[i];

		snprintf(dir, sizeof(dir), "%s", s_sysdir(d));
		s_mkdir(dir);
		s_mkdir(s_in(dir, "holders"));
		snprintf(text, sizeof(text), "%u:%u\n", FAKE_MAJOR, d->minor);
		s_puts(s_in(dir, "dev"), text);
		snprintf(text, sizeof(text), "MAJOR=%u\nMINOR=%u\nDEVNAME=%s\nDEVTYPE=%s\n",
			 FAKE_MAJOR, d->minor, d->name, d->parent ? "partition" : "disk");
		s_puts(s_in(dir, "uevent"), text);
		s_puts(s_in(dir, "size"), d->parent ? "1000\n" : "2048\n");
		snprintf(text, sizeof(text), "%s", dir);
		s_symlink(text, s_path("sys/dev/block/%u:%u", FAKE_MAJOR, d->minor));
		if (d->parent) {
			s_puts(s_in(dir, "partition"), "1\n");
		} else {
			s_symlink(text, s_path("sys/block/%s", d->name));
			s_mkdir(s_in(dir, "queue"));
			s_puts(s_in(dir, "queue/logical_block_size"), "4096\n");
			s_puts(s_in(dir, "queue/physical_block_size"), "4096\n");
		}
		if (mknod(s_path("node/%s", d->name), S_IFBLK | 0600,
			  makedev(FAKE_MAJOR, d->minor)))
			T_FAIL("mknod %s: %s", d->name, strerror(errno));
	}
	/* fake0: a SCSI-like disk with a VPD page 0x80 serial; fake1: the same WWN (2nd port). */
	s_mkdir(s_path("sys/devices/virtual/block/fake0/device"));
	s_puts(s_path("sys/devices/virtual/block/fake0/device/wwid"), "naa.5000c500a1b2c3d4\n");
	s_put(s_path("sys/devices/virtual/block/fake0/device/vpd_pg80"),
	      "\x00\x80\x00\x0c  ZA1B2C3D  ", 16);
	s_puts(s_path("sys/devices/virtual/block/fake0/device/model"), "ST4000NM0035    \n");
	s_puts(s_path("sys/devices/virtual/block/fake0/device/vendor"), "ATA     \n");
	s_puts(s_path("sys/devices/virtual/block/fake0/device/rev"), "TN04\n");
	s_mkdir(s_path("sys/devices/virtual/block/fake1/device"));
	s_puts(s_path("sys/devices/virtual/block/fake1/device/wwid"), "NAA.5000C500A1B2C3D4\n");
	/* fakeloop0 and fakeloop1 over one file; fakeloop2 over the block node fake0. */
	s_puts(s_path("backing"), "data");
	s_mkdir(s_path("sys/devices/virtual/block/fakeloop0/loop"));
	s_mkdir(s_path("sys/devices/virtual/block/fakeloop1/loop"));
	s_mkdir(s_path("sys/devices/virtual/block/fakeloop2/loop"));
	snprintf(text, sizeof(text), "%s\n", s_path("backing"));
	s_puts(s_path("sys/devices/virtual/block/fakeloop0/loop/backing_file"), text);
	s_puts(s_path("sys/devices/virtual/block/fakeloop1/loop/backing_file"), text);
	snprintf(text, sizeof(text), "%s\n", s_path("node/fake0"));
	s_puts(s_path("sys/devices/virtual/block/fakeloop2/loop/backing_file"), text);
	s_puts(s_path("mountinfo"), "");
	s_puts(s_path("swaps"), "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
	return true;
}

/* Expect a write of node/NAME to be refused with code and a message holding each needle. */
static void s_expect(const lst_dev_policy *p, const char *name, enum lst_dev_access access,
		     int code, const char *n1, const char *n2)
{
	struct lst_path_identity id;
	lst_err err;
	int rc;

	lst_err_clear(&err);
	rc = lst_dev_check(p, name[0] == '/' ? name : s_path("node/%s", name), access, NULL, &id,
			   &err);
	if (rc != code)
		T_FAIL("%s %s: got %d (%s), want %d", name, lst_dev_access_name(access), rc,
		       err.msg, code);
	if (n1)
		T_CONTAINS(err.msg, n1);
	if (n2)
		T_CONTAINS(err.msg, n2);
}

static void s_test_fake_sysfs(void)
{
	lst_dev_policy *p = lst_dev_policy_new();
	struct lst_path_identity id;
	char line[PATH_MAX + 128], glob[PATH_MAX];
	lst_err err;

	if (!s_fake_build()) {
		printf("skip: fake sysfs block checks need mknod (root): %s\n", strerror(errno));
		lst_dev_policy_destroy(&p);
		return;
	}
	T_EQ_INT(
		lst__dev_policy_set_sources(p, s_path("sys"), s_path("mountinfo"), s_path("swaps")),
		0);
	T_EQ_INT(lst__dev_policy_set_sources(p, "relative", NULL, NULL), -EINVAL);
	snprintf(glob, sizeof(glob), "%s/*", s_dir);
	T_EQ_INT(lst_dev_policy_allow(p, glob), 0);

	/* Identity from sysfs; a partition reports its disk's. */
	T_EQ_INT(lst_dev_check(p, s_path("node/fake0"), LST_DEV_WRITE, NULL, &id, &err), 0);
	T_EQ_STR(id.kind, "block");
	T_EQ_STR(id.wwn, "naa.5000c500a1b2c3d4");
	T_EQ_STR(id.serial, "ZA1B2C3D");
	T_EQ_STR(id.model, "ST4000NM0035");
	T_EQ_STR(id.vendor, "ATA");
	T_EQ_STR(id.firmware, "TN04");
	T_EQ_U64(id.size, 2048 * 512);
	T_EQ_INT(id.lbs, 4096);
	T_EQ_INT(id.pbs, 4096);
	T_EQ_U64(id.dev, makedev(FAKE_MAJOR, 1));
	T_EQ_INT(lst_dev_check(p, s_path("node/fake0p1"), LST_DEV_WRITE, "wwn-0x5000C500A1B2C3D4",
			       &id, &err),
		 0);
	T_EQ_U64(id.size, 1000 * 512);
	T_EQ_STR(id.serial, "ZA1B2C3D");
	T_EQ_INT(id.lbs, 4096);
	T_EQ_INT(
		lst_dev_check(p, s_path("node/fake0"), LST_DEV_WRITE, "serial:za1b2c3d", &id, &err),
		0);
	T_EQ_INT(lst_dev_check(p, s_path("node/fake0"), LST_DEV_WRITE, "naa.5000c500a1b2c3d5", &id,
			       &err),
		 -ENXIO);
	T_CONTAINS(err.msg, "naa.5000c500a1b2c3d4"); /* names what it found */
	T_EQ_INT(lst_dev_check(p, s_path("node/fakeloop0"), LST_DEV_READ, NULL, &id, &err), 0);
	T_EQ_STR(id.backing_file, s_path("backing"));
	snprintf(line, sizeof(line), "loop:%s", s_path("backing"));
	T_EQ_INT(lst_dev_check(p, s_path("node/fakeloop0"), LST_DEV_WRITE, line, &id, &err), 0);

	/* held: a holder on one partition refuses the disk and the other partition. */
	s_mkdir(s_path("sys/devices/virtual/block/fake0/fake0p1/holders/dm-3"));
	s_expect(p, "fake0", LST_DEV_WRITE, -EBUSY, "refused (held)", "dm-3");
	s_expect(p, "fake0", LST_DEV_WRITE, -EBUSY, "/dev/fake0p1, a partition of /dev/fake0",
		 NULL);
	s_expect(p, "fake0p2", LST_DEV_PURGE, -EBUSY, "refused (held)", "another partition");
	s_expect(p, "fake0p1", LST_DEV_WRITE, -EBUSY, "refused (held)", NULL);
	s_expect(p, "fake0", LST_DEV_READ, 0, NULL, NULL);
	rmdir(s_path("sys/devices/virtual/block/fake0/fake0p1/holders/dm-3"));
	s_expect(p, "fake0", LST_DEV_WRITE, 0, NULL, NULL);

	/* mounted: by the major:minor field; the mount point is unescaped. */
	snprintf(line, sizeof(line),
		 "40 27 %u:2 / /mnt/with\\040space rw,relatime shared:9 - ext4 /dev/fake0p1 rw\n",
		 FAKE_MAJOR);
	s_puts(s_path("mountinfo"), line);
	s_expect(p, "fake0", LST_DEV_WRITE, -EBUSY, "refused (mounted)", "on /mnt/with space");
	s_expect(p, "fake0p1", LST_DEV_WRITE, -EBUSY, "refused (mounted)", "unmount it");
	s_expect(p, "fake0p2", LST_DEV_WRITE, -EBUSY, "refused (mounted)", "another partition");
	s_expect(p, "fake0p2", LST_DEV_READ, 0, NULL, NULL);
	/* ... and through another path to the same drive (same WWN, other spelling). */
	s_expect(p, "fake1", LST_DEV_WRITE, -EBUSY, "refused (mounted)", "same WWN");
	/* ... and through a loop device over the disk's node. */
	s_expect(p, "fakeloop2", LST_DEV_WRITE, -EBUSY, "refused (mounted)",
		 "is a loop device over");
	s_puts(s_path("mountinfo"), "");

	/* swap: a partition in /proc/swaps refuses its disk. */
	snprintf(line, sizeof(line), "Filename Type Size Used Priority\n%s partition 500 0 -2\n",
		 s_path("node/fake0p2"));
	s_puts(s_path("swaps"), line);
	s_expect(p, "fake0", LST_DEV_WRITE, -EBUSY, "refused (swap)", "swapoff");
	s_puts(s_path("swaps"), "Filename Type Size Used Priority\n");

	/* Loop devices over one file are one drive; the file itself is that drive too. */
	snprintf(line, sizeof(line), "41 27 %u:6 / /mnt/port-b rw - ext4 /dev/fakeloop1 rw\n",
		 FAKE_MAJOR);
	s_puts(s_path("mountinfo"), line);
	s_expect(p, "fakeloop0", LST_DEV_WRITE, -EBUSY, "refused (mounted)",
		 "another loop device over");
	s_expect(p, s_path("backing"), LST_DEV_WRITE, -EBUSY, "refused (mounted)",
		 "/dev/fakeloop1 is a loop device over");
	s_expect(p, s_path("backing"), LST_DEV_READ, 0, NULL, NULL);
	s_puts(s_path("mountinfo"), "");
	s_expect(p, s_path("backing"), LST_DEV_WRITE, 0, NULL, NULL);

	/* A swap file: refused as a file, and through a loop device over it. */
	snprintf(line, sizeof(line), "Filename Type Size Used Priority\n%s file 4 0 -3\n",
		 s_path("backing"));
	s_puts(s_path("swaps"), line);
	s_expect(p, s_path("backing"), LST_DEV_WRITE, -EBUSY, "refused (swap)", "active swap file");
	s_expect(p, "fakeloop0", LST_DEV_PURGE, -EBUSY, "refused (swap)", "active swap file");
	s_puts(s_path("swaps"), "Filename Type Size Used Priority\n");

	/* A table that cannot be read refuses writes (fail closed) but not reads. */
	T_EQ_INT(lst__dev_policy_set_sources(p, NULL, s_path("no-mountinfo"), NULL), 0);
	s_expect(p, "fake0", LST_DEV_WRITE, -ENOENT, "refused (tables)", "no-mountinfo");
	s_expect(p, "fake0", LST_DEV_READ, 0, NULL, NULL);
	T_EQ_INT(lst__dev_policy_set_sources(p, NULL, s_path("mountinfo"), NULL), 0);

	/* A block device without a sysfs node cannot be identified, so it is refused. */
	if (mknod(s_path("node/ghost"), S_IFBLK | 0600, makedev(FAKE_MAJOR, 99)))
		T_FAIL("mknod ghost: %s", strerror(errno));
	s_expect(p, "ghost", LST_DEV_WRITE, -ENODEV, "no sysfs node", NULL);
	s_expect(p, "ghost", LST_DEV_READ, -ENODEV, NULL, NULL);

	lst_dev_policy_destroy(&p);
	printf("fake sysfs: held, mounted, swap, same-WWN and loop alias rules checked\n");
}

int main(void)
{
	snprintf(s_dir, sizeof(s_dir), "/tmp/lst-dev-unit.XXXXXX");
	if (!mkdtemp(s_dir))
		T_FAIL("mkdtemp: %s", strerror(errno));
	atexit(s_cleanup);
	s_test_globs();
	s_test_matching();
	s_test_files();
	s_test_fake_sysfs();
	return 0;
}

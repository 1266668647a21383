/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lst_dev_inventory on a fake sysfs tree laid out as the kernel lays out real ones (no root
 * needed: the inventory opens no device node): a dual-port SAS SSD seen as sdb and sdc through
 * two HBAs (same WWN, two target port addresses), sdd whose port comes from VPD page 0x83, an NVMe namespace under its controller
 * (cntlid, subsystem NQN, EUI) that is mounted, and a loop device with nothing attached (left
 * out). Checks the transport, the port identity, the WWN, in use and why, allow_write and paging;
 * with root (mknod), the by-id links.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lst_dev.h"
#include "lst_test.h"

static char s_dir[PATH_MAX];

/* A path under the test directory; 8 rotating buffers. */
static const char *s_path(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *s_path(const char *fmt, ...)
{
	static char buf[8][PATH_MAX];
	static int next;
	char rel[PATH_MAX];
	char *out = buf[next++ % 8];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	snprintf(out, PATH_MAX, "%s/%s", s_dir, rel);
	return out;
}

/* mkdir -p of a path under the test directory. */
static void s_mkdirs(const char *rel)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", s_dir, rel);
	for (char *s = p + strlen(s_dir) + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	if (mkdir(p, 0755) && errno != EEXIST)
		T_FAIL("mkdir(%s): %s", p, strerror(errno));
}

static void s_put(const char *rel, const char *text)
{
	FILE *f = fopen(s_path("%s", rel), "w");

	if (!f)
		T_FAIL("fopen(%s): %s", rel, strerror(errno));
	fputs(text, f);
	fclose(f);
}

static void s_link(const char *target, const char *rel)
{
	if (symlink(target, s_path("%s", rel)))
		T_FAIL("symlink(%s): %s", rel, strerror(errno));
}

/* A whole disk at sys/DIR (DIR under devices/) named NAME with number DEVT. */
static void s_disk(const char *dir, const char *name, const char *devt, const char *size)
{
	char rel[PATH_MAX], text[PATH_MAX];

	snprintf(rel, sizeof(rel), "sys/%s", dir);
	s_mkdirs(rel);
	snprintf(text, sizeof(text), "sys/%s/queue", dir);
	s_mkdirs(text);
	snprintf(text, sizeof(text), "sys/%s/holders", dir);
	s_mkdirs(text);
#define S_ATTR(attr, val)                                                                          \
	do {                                                                                       \
		snprintf(text, sizeof(text), "%s/%s", rel, attr);                                  \
		s_put(text, val);                                                                  \
	} while (0)
	S_ATTR("dev", devt);
	S_ATTR("size", size);
	S_ATTR("queue/logical_block_size", "512\n");
	S_ATTR("queue/physical_block_size", "4096\n");
	S_ATTR("queue/rotational", "0\n");
	snprintf(text, sizeof(text), "DEVNAME=%s\nDEVTYPE=disk\n", name);
	S_ATTR("uevent", text);
#undef S_ATTR
	snprintf(text, sizeof(text), "%s/sys/%s", s_dir, dir);
	snprintf(rel, sizeof(rel), "sys/block/%s", name);
	s_link(text, rel);
	snprintf(rel, sizeof(rel), "sys/dev/block/%.*s", (int)strcspn(devt, "\n"), devt);
	s_link(text, rel);
}

/* One SAS port: a SCSI device under its own HBA with the drive's WWN and the port's address. */
static void s_sas_port(int host, const char *name, const char *devt, const char *sas_address)
{
	char dev[PATH_MAX], blk[PATH_MAX], text[PATH_MAX];

	snprintf(dev, sizeof(dev),
		 "devices/pci0000:00/0000:00:0%d.0/host%d/port-%d:0/end_device-%d:0/"
		 "target%d:0:0/%d:0:0:0",
		 host + 1, host, host, host, host, host);
	snprintf(blk, sizeof(blk), "%s/block/%s", dev, name);
	s_disk(blk, name, devt, "2343750000\n");
	snprintf(text, sizeof(text), "sys/%s/sas_address", dev);
	s_put(text, sas_address);
	snprintf(text, sizeof(text), "sys/%s/wwid", dev);
	s_put(text, "naa.5000c500a1b2c3d4\n");
	snprintf(text, sizeof(text), "sys/%s/vendor", dev);
	s_put(text, "SEAGATE \n");
	snprintf(text, sizeof(text), "sys/%s/model", dev);
	s_put(text, "ST1200MM0088    \n");
	snprintf(text, sizeof(text), "sys/%s/rev", dev);
	s_put(text, "N003\n");
	snprintf(text, sizeof(text), "sys/%s/scsi_level", dev);
	s_put(text, "7\n");
	snprintf(text, sizeof(text), "sys/%s/device", blk);
	snprintf(dev, sizeof(dev), "../../../%d:0:0:0", host);
	s_link(dev, text);
}

/* sdd: a plain SCSI device whose VPD page 0x83 has an LU designator and a target port one. */
static void s_scsi_vpd83(void)
{
	static const unsigned char pg83[] = {
		0x00,
		0x83,
		0x00,
		0x18,
		/* LU: code set binary, association 0, NAA, 8 bytes */
		0x01,
		0x03,
		0x00,
		0x08,
		0x50,
		0x00,
		0xc5,
		0x00,
		0xa1,
		0xb2,
		0xc3,
		0xd4,
		/* target port: protocol SAS (6), binary; PIV, association 1, NAA, 8 bytes */
		0x61,
		0x93,
		0x00,
		0x08,
		0x50,
		0x00,
		0xc5,
		0x00,
		0xa1,
		0xb2,
		0xc3,
		0xd7,
	};
	const char *dev = "devices/pci0000:00/0000:00:05.0/host4/target4:0:0/4:0:0:0";
	char rel[PATH_MAX];
	FILE *f;

	snprintf(rel, sizeof(rel), "%s/block/sdd", dev);
	s_disk(rel, "sdd", "8:48\n", "2343750000\n");
	snprintf(rel, sizeof(rel), "sys/%s/scsi_level", dev);
	s_put(rel, "7\n");
	snprintf(rel, sizeof(rel), "sys/%s/wwid", dev);
	s_put(rel, "naa.5000c500a1b2c3d4\n");
	snprintf(rel, sizeof(rel), "sys/%s/vpd_pg83", dev);
	f = fopen(s_path("%s", rel), "wb");
	if (!f || fwrite(pg83, 1, sizeof(pg83), f) != sizeof(pg83))
		T_FAIL("write %s", rel);
	fclose(f);
	snprintf(rel, sizeof(rel), "sys/%s/block/sdd/device", dev);
	s_link("../../../4:0:0:0", rel);
}

static void s_build(void)
{
	s_mkdirs("sys/block");
	s_mkdirs("sys/dev/block");
	s_sas_port(0, "sdb", "8:16\n", "0x5000c500a1b2c3d5\n");
	s_sas_port(1, "sdc", "8:32\n", "0x5000c500a1b2c3d6\n");
	/* A SCSI disk without sas_address: its port from VPD page 0x83 (target port, NAA, SAS). */
	s_scsi_vpd83();
	/* NVMe: the namespace under its controller. */
	s_disk("devices/pci0000:00/0000:00:03.0/nvme/nvme0/nvme0n1", "nvme0n1", "259:0\n",
	       "1000215216\n");
	s_put("sys/devices/pci0000:00/0000:00:03.0/nvme/nvme0/nvme0n1/wwid",
	      "eui.0025388b91c1a2b3\n");
	s_link("../../nvme0", "sys/devices/pci0000:00/0000:00:03.0/nvme/nvme0/nvme0n1/device");
	s_put("sys/devices/pci0000:00/0000:00:03.0/nvme/nvme0/cntlid", "4\n");
	s_put("sys/devices/pci0000:00/0000:00:03.0/nvme/nvme0/subsysnqn",
	      "nqn.2014.08.org.nvmexpress:144d144dS4EWNX0R123456\n");
	s_put("sys/devices/pci0000:00/0000:00:03.0/nvme/nvme0/serial", "S4EWNX0R123456\n");
	s_put("sys/devices/pci0000:00/0000:00:03.0/nvme/nvme0/model", "Samsung SSD 970\n");
	s_put("sys/devices/pci0000:00/0000:00:03.0/nvme/nvme0/firmware_rev", "2B2QEXM7\n");
	/* A loop device with nothing attached: not listed. */
	s_disk("devices/virtual/block/loop0", "loop0", "7:0\n", "0\n");
	s_put("mountinfo", "36 25 259:0 / /data rw,relatime shared:1 - ext4 /dev/nvme0n1 rw\n");
	s_put("swaps", "Filename\tType\tSize\tUsed\tPriority\n");
}

static const struct lst_inv_device *s_find(const struct lst_inv_device *d, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(d[i].name, name))
			return &d[i];
	T_FAIL("device %s not listed", name);
	return NULL;
}

/*
 * By-id links (needs mknod, so root): a folder of links, two to sdb's number (one through a
 * second link), one to another device, one dangling. sdb lists its two, sorted; allow_write
 * follows a glob over the by-id name.
 */
static void s_test_links(lst_dev_policy *p, struct lst_inv_device *d)
{
	const struct lst_inv_device *b;
	uint32_t total;
	lst_err err;
	int got;

	s_mkdirs("node");
	s_mkdirs("by-id");
	if (mknod(s_path("node/sdb"), S_IFBLK | 0600, makedev(8, 16)) ||
	    mknod(s_path("node/sdz"), S_IFBLK | 0600, makedev(8, 240))) {
		printf("skip: by-id links need mknod (root): %s\n", strerror(errno));
		return;
	}
	s_link(s_path("node/sdb"), "by-id/wwn-0x5000c500a1b2c3d4");
	s_link(s_path("by-id/wwn-0x5000c500a1b2c3d4"), "by-id/scsi-35000c500a1b2c3d4");
	s_link(s_path("node/sdz"), "by-id/wwn-0x5000000000000001");
	s_link(s_path("node/gone"), "by-id/wwn-0x5000000000000002");
	got = lst_dev_inventory(p, s_path("by-id"), 0, d, LST_INV_PAGE, &total, &err);
	T_EQ_INT(got, 4);
	b = s_find(d, got, "sdb");
	T_EQ_U64(b->nlinks, 2);
	T_EQ_STR(b->links[0], s_path("by-id/scsi-35000c500a1b2c3d4"));
	T_EQ_STR(b->links[1], s_path("by-id/wwn-0x5000c500a1b2c3d4"));
	T_EQ_U64(b->links_omitted, 0);
	T_EQ_U64(s_find(d, got, "sdc")->nlinks, 0);
	T_EQ_U64(s_find(d, got, "sdc")->allow_write, 0);
	T_EQ_INT(lst_dev_policy_allow(p, s_path("by-id/scsi-*")), 0);
	got = lst_dev_inventory(p, s_path("by-id"), 0, d, LST_INV_PAGE, &total, &err);
	T_EQ_U64(s_find(d, got, "sdb")->allow_write, 1);
	T_EQ_U64(s_find(d, got, "sdc")->allow_write, 0);
	printf("by-id links: found by device number, sorted, matched by allow_write\n");
}

static void s_test_inventory(void)
{
	lst_dev_policy *p = lst_dev_policy_new();
	struct lst_inv_device *d = calloc(LST_INV_PAGE, sizeof(*d));
	const struct lst_inv_device *b, *c, *n;
	uint32_t total = 0;
	lst_err err;
	int got;

	T_EQ_INT(
		lst__dev_policy_set_sources(p, s_path("sys"), s_path("mountinfo"), s_path("swaps")),
		0);
	T_EQ_INT(lst_dev_policy_allow(p, "/dev/sdb"), 0);
	got = lst_dev_inventory(p, s_path("by-id"), 0, d, LST_INV_PAGE, &total, &err);
	T_EQ_INT(got, 4);
	T_EQ_U64(total, 4);
	T_EQ_STR(d[0].name, "nvme0n1"); /* sorted by name; loop0 left out */
	T_EQ_STR(s_find(d, got, "sdd")->transport, "sas");
	T_EQ_STR(s_find(d, got, "sdd")->port, "0x5000c500a1b2c3d7");
	T_EQ_STR(s_find(d, got, "sdd")->wwn, "naa.5000c500a1b2c3d4");
	b = s_find(d, got, "sdb");
	c = s_find(d, got, "sdc");
	n = s_find(d, got, "nvme0n1");

	T_EQ_STR(b->transport, "sas");
	T_EQ_STR(b->wwn, "naa.5000c500a1b2c3d4");
	T_EQ_STR(c->wwn, b->wwn);
	T_EQ_STR(b->port, "0x5000c500a1b2c3d5");
	T_EQ_STR(c->port, "0x5000c500a1b2c3d6");
	T_EQ_STR(b->vendor, "SEAGATE");
	T_EQ_STR(b->model, "ST1200MM0088");
	T_EQ_STR(b->firmware, "N003");
	T_EQ_STR(b->node, "/dev/sdb");
	T_EQ_U64(b->size, 2343750000ull * 512);
	T_EQ_U64(b->lbs, 512);
	T_EQ_U64(b->pbs, 4096);
	T_EQ_U64(b->rotational, 0);
	T_EQ_U64(b->in_use, 0);
	T_EQ_U64(c->in_use, 0);
	T_EQ_U64(b->allow_write, 1);
	T_EQ_U64(c->allow_write, 0);

	T_EQ_STR(n->transport, "nvme");
	T_EQ_STR(n->wwn, "eui.0025388b91c1a2b3");
	T_EQ_STR(n->port, "nvme0 cntlid 4");
	T_EQ_STR(n->nqn, "nqn.2014.08.org.nvmexpress:144d144dS4EWNX0R123456");
	T_EQ_STR(n->serial, "S4EWNX0R123456");
	T_EQ_STR(n->firmware, "2B2QEXM7");
	T_EQ_U64(n->in_use, 1);
	T_CONTAINS(n->why, "(mounted)");
	T_CONTAINS(n->why, "on /data");
	T_EQ_U64(n->nlinks, 0);

	/* Paging: one device from index 1 on; beyond the end, none. */
	got = lst_dev_inventory(p, s_path("by-id"), 1, d, 1, &total, &err);
	T_EQ_INT(got, 1);
	T_EQ_U64(total, 4);
	T_EQ_STR(d[0].name, "sdb");
	T_EQ_INT(lst_dev_inventory(p, s_path("by-id"), 4, d, LST_INV_PAGE, &total, &err), 0);

	s_test_links(p, d);

	/* Read-only: nothing may be written. */
	lst_dev_policy_set_read_only(p, true);
	got = lst_dev_inventory(p, NULL, 0, d, LST_INV_PAGE, &total, &err);
	T_EQ_INT(got, 4);
	T_EQ_U64(s_find(d, got, "sdb")->allow_write, 0);

	/* No sysfs: an error that names it. */
	T_EQ_INT(lst__dev_policy_set_sources(p, s_path("nothing"), NULL, NULL), 0);
	T_EQ_INT(lst_dev_inventory(p, NULL, 0, d, LST_INV_PAGE, &total, &err), -ENOENT);
	T_CONTAINS(err.msg, "nothing/block");
	free(d);
	lst_dev_policy_destroy(&p);
	printf("fake sysfs: SAS dual port, VPD 0x83 port, NVMe namespace, unattached loop: inventory checked\n");
}

static void s_cleanup(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", s_dir);
	if (system(cmd))
		fprintf(stderr, "cleanup of %s failed\n", s_dir);
}

int main(void)
{
	snprintf(s_dir, sizeof(s_dir), "/tmp/lst-inv-unit.XXXXXX");
	if (!mkdtemp(s_dir))
		T_FAIL("mkdtemp: %s", strerror(errno));
	atexit(s_cleanup);
	s_build();
	s_test_inventory();
	return 0;
}

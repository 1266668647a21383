/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The inventory: every whole disk the agent has, described for `lockstep inventory`, which groups
 * the devices of all agents by drive. It reuses disk safety rather than a second reading of the
 * system: the identity is lst_dev__identify's sysfs part, "in use" is the very walk a write would
 * meet (lst_dev__check_in_use, so a loop device over a file another mounted loop device uses is
 * in use too), and "allow_write" is the policy's glob match. What only the inventory needs is
 * here: the transport (from the device's sysfs path), the port a path goes through (a SAS target
 * port's address from sysfs or from VPD page 0x83, an NVMe controller and its subsystem NQN)
 * and the by-id links.
 */

#include "lst_dev_int.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "lst_text.h"
#include "lst_util.h"

static int s_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of SYS/block, sorted; *n set. The caller frees each and the array. */
static int s_names(const char *sys, char ***out, size_t *n, lst_err *err)
{
	char dir[PATH_MAX];
	struct dirent *d;
	char **v = NULL;
	DIR *dp;

	*n = 0;
	snprintf(dir, sizeof(dir), "%s/block", sys);
	dp = opendir(dir);
	if (!dp)
		return lst_err_sys(err, -errno, "opendir(\"%s\") failed", dir);
	while ((d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		v = lst_realloc(v, (*n + 1) * sizeof(*v));
		v[(*n)++] = lst_strdup(d->d_name);
	}
	closedir(dp);
	qsort(v, *n, sizeof(*v), s_cmp);
	*out = v;
	return 0;
}

/* sas, sata, nvme, loop, virtio, usb, scsi or block, from the name and the sysfs path. */
static void s_transport(const char *name, const char *sysdir, char *buf, size_t size)
{
	const char *t = "block";

	if (!strncmp(name, "loop", 4))
		t = "loop";
	else if (!strncmp(name, "nvme", 4))
		t = "nvme";
	else if (lst_dev__exists(sysdir, "device/sas_address"))
		t = "sas";
	else if (strstr(sysdir, "/virtio"))
		t = "virtio";
	else if (strstr(sysdir, "/usb"))
		t = "usb";
	else if (strstr(sysdir, "/ata"))
		t = "sata";
	else if (lst_dev__exists(sysdir, "device/scsi_level"))
		t = "scsi";
	lst_copy(buf, size, t);
}

/*
 * The target port's NAA identifier from SCSI VPD page 0x83 (binary: a 4-byte header, then
 * designators of 4 bytes + length): the designator with association 1 (target port) and type 3
 * (NAA), as "0x" and hex, into buf; *sas set when its protocol identifier is SAS (6, PIV set).
 * buf stays "" when the page or the designator is missing.
 */
static void s_vpd83_port(const char *sysdir, char *buf, size_t size, bool *sas)
{
	unsigned char raw[2048];
	char path[PATH_MAX];
	size_t at = 4, end;
	ssize_t n;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/device/vpd_pg83", sysdir);
	n = lst_dev__read_raw(path, (char *)raw, sizeof(raw));
	if (n < 4 || raw[1] != 0x83)
		return;
	end = 4 + ((size_t)raw[2] << 8 | raw[3]);
	if (end > (size_t)n)
		end = (size_t)n;
	while (at + 4 <= end) {
		size_t len = raw[at + 3], w = 0;

		if (at + 4 + len > end)
			return;
		if (((raw[at + 1] >> 4) & 3) == 1 && (raw[at + 1] & 0x0f) == 3 && len &&
		    len <= 16) {
			w = (size_t)snprintf(buf, size, "0x");
			for (size_t i = 0; i < len && w + 2 < size; i++)
				w += (size_t)snprintf(buf + w, size - w, "%02x", raw[at + 4 + i]);
			*sas = (raw[at + 1] & 0x80) && (raw[at] >> 4) == 6;
			return;
		}
		at += 4 + len;
	}
}

/* The port: a SAS target port's address; an NVMe controller ("nvme0 cntlid 1") and its NQN. */
static void s_port(struct lst_inv_device *d, const char *sysdir)
{
	char link[PATH_MAX], ctrl[PATH_MAX], cntlid[32];
	const char *base;
	bool sas = false;

	if (!strcmp(d->transport, "sas")) {
		if (lst_dev__attr(sysdir, "device/sas_address", d->port, sizeof(d->port)))
			d->port[0] = '\0';
		return;
	}
	if (!strcmp(d->transport, "scsi")) {
		s_vpd83_port(sysdir, d->port, sizeof(d->port), &sas);
		if (sas)
			lst_copy(d->transport, sizeof(d->transport), "sas");
		return;
	}
	if (strcmp(d->transport, "nvme"))
		return;
	snprintf(link, sizeof(link), "%s/device", sysdir);
	if (!realpath(link, ctrl))
		return;
	base = strrchr(ctrl, '/');
	base = base ? base + 1 : ctrl;
	if (lst_dev__attr(ctrl, "cntlid", cntlid, sizeof(cntlid)))
		cntlid[0] = '\0';
	snprintf(d->port, sizeof(d->port), "%s%s%s", base, cntlid[0] ? " cntlid " : "", cntlid);
	if (lst_dev__attr(ctrl, "subsysnqn", d->nqn, sizeof(d->nqn)))
		d->nqn[0] = '\0';
}

/* The links in byid that resolve to rdev, sorted; the rest counted in links_omitted. */
static void s_links(struct lst_inv_device *d, const char *byid, dev_t rdev)
{
	char **names = NULL, path[PATH_MAX];
	struct dirent *e;
	struct stat st;
	size_t n = 0;
	DIR *dp = opendir(byid);

	while (dp && (e = readdir(dp))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", byid, e->d_name);
		if (stat(path, &st) || !S_ISBLK(st.st_mode) || st.st_rdev != rdev)
			continue;
		names = lst_realloc(names, (n + 1) * sizeof(*names));
		names[n++] = lst_strdup(path);
	}
	if (dp)
		closedir(dp);
	if (n > 1) /* names is NULL when no link points here, and qsort's base must not be */
		qsort(names, n, sizeof(*names), s_cmp);
	for (size_t i = 0; i < n; i++) {
		if (d->nlinks < LST_INV_LINKS && strlen(names[i]) < LST_INV_LINK_MAX)
			lst_copy(d->links[d->nlinks++], LST_INV_LINK_MAX, names[i]);
		else
			d->links_omitted++;
		free(names[i]);
	}
	free(names);
}

/* In use as a write would find it: the rule and what was found, from the refusal's text. */
static void s_in_use(struct lst_inv_device *d, const struct lst_dev__src *src,
		     const struct lst_path_identity *id, dev_t rdev)
{
	struct stat st = { .st_mode = S_IFBLK, .st_rdev = rdev };
	const char *why;
	lst_err err;

	if (!lst_dev__check_in_use(src, id, &st, &err))
		return;
	d->in_use = 1;
	why = strstr(err.msg, "refused ");
	lst_copy(d->why, sizeof(d->why), why ? why + strlen("refused ") : err.msg);
}

/* allow_write: the node or one of its by-id links matches a glob, and writes are allowed. */
static bool s_allowed(const lst_dev_policy *p, const struct lst_inv_device *d)
{
	if (lst_dev_policy_read_only(p))
		return false;
	if (lst_dev_policy_allows(p, d->node))
		return true;
	for (uint32_t i = 0; i < d->nlinks; i++)
		if (lst_dev_policy_allows(p, d->links[i]))
			return true;
	return false;
}

/* Copy what disk safety's identity says into the inventory's device. */
static void s_from_identity(struct lst_inv_device *d, const struct lst_path_identity *id)
{
	lst_copy(d->wwn, sizeof(d->wwn), id->wwn);
	lst_copy(d->serial, sizeof(d->serial), id->serial);
	lst_copy(d->vendor, sizeof(d->vendor), id->vendor);
	lst_copy(d->model, sizeof(d->model), id->model);
	lst_copy(d->firmware, sizeof(d->firmware), id->firmware);
	lst_copy(d->backing_file, sizeof(d->backing_file), id->backing_file);
	d->size = id->size;
	d->lbs = id->lbs;
	d->pbs = id->pbs;
}

/*
 * Is SYS/block/NAME listed? Not a node without a device number, nor a loop device with nothing
 * attached. Cheap: the page's devices alone are described in full.
 */
static bool s_listed(const struct lst_dev__src *src, const char *name)
{
	char sysdir[PATH_MAX], val[64];
	dev_t rdev;

	snprintf(sysdir, sizeof(sysdir), "%s/block/%s", src->sys, name);
	if (lst_dev__attr(sysdir, "dev", val, sizeof(val)) || lst_dev__parse_devt(val, &rdev))
		return false;
	return strncmp(name, "loop", 4) || lst_dev__exists(sysdir, "loop/backing_file");
}

/* Describe SYS/block/NAME into *d. Returns 1, or 0 when it vanished meanwhile. */
static int s_describe(const lst_dev_policy *p, const struct lst_dev__src *src, const char *byid,
		      const char *name, struct lst_inv_device *d)
{
	struct lst_path_identity *id = lst_calloc(1, sizeof(*id));
	char link[PATH_MAX], sysdir[PATH_MAX], val[64];
	struct stat st;
	dev_t rdev;
	int listed = 0;

	memset(d, 0, sizeof(*d));
	snprintf(link, sizeof(link), "%s/block/%s", src->sys, name);
	if (!realpath(link, sysdir) || lst_dev__attr(sysdir, "dev", val, sizeof(val)) ||
	    lst_dev__parse_devt(val, &rdev))
		goto out;
	lst_copy(d->name, sizeof(d->name), name);
	lst_dev__devnode(sysdir, d->node, sizeof(d->node));
	lst_copy(id->path, sizeof(id->path), d->node);
	lst_copy(id->real_path, sizeof(id->real_path), d->node);
	if (lst_dev__identify_blk(src, rdev, id, NULL))
		goto out;
	s_from_identity(d, id);
	if (!lst_dev__attr(sysdir, "queue/rotational", val, sizeof(val)))
		d->rotational = !strcmp(val, "1");
	s_transport(name, sysdir, d->transport, sizeof(d->transport));
	s_port(d, sysdir);
	if (d->backing_file[0] && !lst_dev__stat_cached(d->backing_file, &st)) {
		d->backing_dev = (uint64_t)st.st_dev;
		d->backing_ino = (uint64_t)st.st_ino;
	}
	s_links(d, byid, rdev);
	s_in_use(d, src, id, rdev);
	d->allow_write = s_allowed(p, d);
	listed = 1;
out:
	free(id);
	return listed;
}

int lst_dev_inventory(const lst_dev_policy *p, const char *byid, uint32_t from,
		      struct lst_inv_device *out, size_t max, uint32_t *total, lst_err *err)
{
	struct lst_dev__src src = lst_dev__policy_src(p);
	struct lst_inv_device *d = lst_malloc(sizeof(*d));
	size_t n = 0, filled = 0;
	uint32_t listed = 0;
	char **names;
	int rc;

	*total = 0;
	if ((rc = s_names(src.sys, &names, &n, err))) {
		free(d);
		return rc;
	}
	for (size_t i = 0; i < n; i++) {
		if (!s_listed(&src, names[i]))
			continue;
		if (listed++ >= from && filled < max &&
		    s_describe(p, &src, byid ? byid : "/dev/disk/by-id", names[i], d))
			out[filled++] = *d;
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(d);
	*total = listed;
	return (int)filled;
}

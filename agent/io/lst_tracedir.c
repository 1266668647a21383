/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The trace folder and the checks a replay needs before any I/O (lst_tracedir.h). Nothing here
 * runs on a job thread: the daemon's PREPARE and bench's start-up call it.
 */
#include "lst_tracedir.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_file.h"
#include "lst_util.h"

/* What a stranger could do with a trace folder they can change. */
#define S_RISK "put a symlink or a FIFO where the agent writes or reads a trace"

int lst_tracedir_make(const char *dir, lst_err *err)
{
	struct stat st;
	int rc;

	if (stat(dir, &st) && errno == ENOENT && (rc = lst_mkdir_mode_p(dir, 0750)))
		return lst_err_sys(err, rc, "trace folder %s cannot be made", dir);
	if (stat(dir, &st))
		return lst_err_sys(err, -errno, "trace folder %s", dir);
	if ((rc = lst_dir_check_owned(dir, &st, "trace folder", S_RISK, err)))
		return rc;
	if (access(dir, W_OK | X_OK))
		return lst_err_sys(err, -errno, "trace folder %s is not writable", dir);
	return 0;
}

int lst_tracedir_record_file(char *buf, size_t size, const char *dir, const char *name,
			     const char *agent, unsigned k, lst_err *err)
{
	char a[64];
	size_t i = 0;
	int n;

	for (; agent[i] && i + 1 < sizeof(a); i++)
		a[i] = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-",
			      agent[i])
			       ? agent[i]
			       : '_';
	a[i] = '\0';
	n = snprintf(buf, size, "%s/%s.%s.%u.lstrace", dir, name, a, k);
	if (n < 0 || (size_t)n >= size)
		return lst_err_set(err, -ENAMETOOLONG, "trace file name under %s is too long", dir);
	return lst_trace_write_check(buf, err);
}

int lst_tracedir_geometry(int fd, const char *name, uint32_t *lbs, uint64_t *size, lst_err *err)
{
	struct stat st;
	int ss = 0;

	*lbs = 512;
	*size = 0;
	if (fd < 0)
		return 0; /* the null engine: no path */
	if (fstat(fd, &st))
		return lst_err_sys(err, -errno, "fstat(\"%s\")", name);
	if (!S_ISBLK(st.st_mode)) {
		*size = (uint64_t)st.st_size;
		return 0;
	}
	if (ioctl(fd, BLKSSZGET, &ss) || ss <= 0)
		return lst_err_sys(err, -errno, "BLKSSZGET on %s", name);
	if (ioctl(fd, BLKGETSIZE64, size))
		return lst_err_sys(err, -errno, "BLKGETSIZE64 on %s", name);
	*lbs = (uint32_t)ss;
	return 0;
}

int lst_tracedir_load(const char *dir, const char *name, uint64_t mem_max, struct lst_trace *t,
		      lst_err *err)
{
	char file[4096];
	int rc;

	memset(t, 0, sizeof(*t));
	if (!name[0] || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return lst_err_set(err, -EINVAL, "read_iolog '%s' is not a file name", name);
	if ((size_t)snprintf(file, sizeof(file), "%s/%s", dir, name) >= sizeof(file))
		return lst_err_set(err, -ENAMETOOLONG, "read_iolog %s/%s: name too long", dir,
				   name);
	rc = lst_dir_check_owned(dir, NULL, "trace folder", S_RISK, err);
	if (!rc)
		rc = lst_trace_read(file, mem_max, t, err);
	if (rc)
		lst_err_prefix(err, "read_iolog: ");
	return rc;
}

int lst_tracedir_fits(const struct lst_trace *t, const char *dir, const char *name,
		      const char *path, uint32_t lbs, uint64_t size, lst_err *err)
{
	size_t n;
	int rc = lst_trace_fits(t, lbs, size, err);

	if (!rc)
		return 0;
	n = strlen(err->msg);
	snprintf(err->msg + n, sizeof(err->msg) - n, " (path %s)", path);
	lst_err_prefix(err, "read_iolog %s/%s: ", dir, name);
	return rc;
}

uint64_t lst_tracedir_slot_bytes(const struct lst_trace *t)
{
	return LST_MAX((t->max_len + 4095) / 4096 * 4096, (uint64_t)4096);
}

size_t lst_tracedir_writes(const struct lst_trace *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->nrec; i++)
		n += t->rec[i].op != LST_TRACE_READ;
	return n;
}

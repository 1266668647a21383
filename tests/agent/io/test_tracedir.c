/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The agent's trace folder (agent/io/lst_tracedir): made 0750 when missing and refused when
 * others may change it; a recording's file name (the agent's name made safe, too long refused,
 * a symlink at its temporary name refused before any I/O); a path's geometry; a replay's trace
 * loaded by name only (never a path), every refusal one line naming the file, and checked
 * against the path it will run on; the slot a replay needs and the writes that make it a writer.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lst_scratch.h"
#include "lst_test.h"
#include "lst_tracedir.h"

static const char *s_tmp; /* the scratch folder */

static void test_make(void)
{
	char dir[128];
	struct stat st;
	lst_err err;

	snprintf(dir, sizeof(dir), "%s/a/traces", s_tmp);
	T_EQ_INT(lst_tracedir_make(dir, &err), 0);
	T_EQ_INT(stat(dir, &st), 0);
	T_ASSERT(S_ISDIR(st.st_mode));
	T_EQ_INT(st.st_mode & 07777, 0750);
	T_EQ_INT(lst_tracedir_make(dir, &err), 0); /* there already: fine */

	/* Anyone may write it: a stranger could plant a symlink where a trace goes. */
	T_EQ_INT(chmod(dir, 0777), 0);
	T_EQ_INT(lst_tracedir_make(dir, &err), -EACCES);
	T_CONTAINS(err.msg, dir);
	T_EQ_INT(chmod(dir, 0750), 0);

	/* A file where the folder should be. */
	snprintf(dir, sizeof(dir), "%s/file", s_tmp);
	FILE *f = fopen(dir, "w");
	T_ASSERT(f);
	fclose(f);
	T_ASSERT(lst_tracedir_make(dir, &err) < 0);
	T_CONTAINS(err.msg, dir);
}

static void test_record_file(void)
{
	char buf[256], small[24], tmp[300];
	lst_err err;

	T_EQ_INT(lst_tracedir_record_file(buf, sizeof(buf), s_tmp, "rec", "host a/b;c", 2, &err),
		 0);
	snprintf(tmp, sizeof(tmp), "%s/rec.host_a_b_c.2.lstrace", s_tmp);
	T_EQ_STR(buf, tmp);
	T_EQ_INT(lst_tracedir_record_file(small, sizeof(small), s_tmp, "rec", "a", 0, &err),
		 -ENAMETOOLONG);
	T_CONTAINS(err.msg, "too long");

	/* A symlink where the recording's temporary file goes is refused before the run. */
	snprintf(tmp, sizeof(tmp), "%s.tmp", buf);
	T_EQ_INT(symlink("/etc/passwd", tmp), 0);
	T_EQ_INT(lst_tracedir_record_file(buf, sizeof(buf), s_tmp, "rec", "host a/b;c", 2, &err),
		 -EEXIST);
	T_CONTAINS(err.msg, ".tmp");
	T_EQ_INT(unlink(tmp), 0);
}

static void test_geometry(void)
{
	char path[128];
	uint32_t lbs = 0;
	uint64_t size = 1;
	lst_err err;
	int fd;

	T_EQ_INT(lst_tracedir_geometry(-1, "none", &lbs, &size, &err), 0);
	T_EQ_INT(lbs, 512);
	T_EQ_U64(size, 0);
	snprintf(path, sizeof(path), "%s/disk", s_tmp);
	fd = open(path, O_RDWR | O_CREAT, 0600);
	T_ASSERT(fd >= 0);
	T_EQ_INT(ftruncate(fd, 3 << 20), 0);
	T_EQ_INT(lst_tracedir_geometry(fd, path, &lbs, &size, &err), 0);
	T_EQ_INT(lbs, 512);
	T_EQ_U64(size, 3 << 20);
	close(fd);
}

static void test_load_and_fit(void)
{
	struct lst_trace_rec rec[] = {
		{ .t_ns = 0, .offset = 0, .len = 4096, .op = LST_TRACE_READ },
		{ .t_ns = 1000, .offset = 8192, .len = 12288, .op = LST_TRACE_WRITE },
		{ .t_ns = 2000, .offset = 1 << 20, .len = 4096, .op = LST_TRACE_TRIM },
	};
	char dir[128], file[160];
	struct lst_trace t;
	lst_err err;

	snprintf(dir, sizeof(dir), "%s/traces", s_tmp);
	T_EQ_INT(lst_tracedir_make(dir, &err), 0);
	snprintf(file, sizeof(file), "%s/mix", dir);
	T_EQ_INT(lst_trace_write(file, rec, 3, 4096, 2 << 20, &err), 0);

	/* Only a name of the folder, never a path out of it. */
	T_EQ_INT(lst_tracedir_load(dir, "../mix", 0, &t, &err), -EINVAL);
	T_EQ_STR(err.msg, "read_iolog '../mix' is not a file name");
	T_EQ_INT(lst_tracedir_load(dir, "..", 0, &t, &err), -EINVAL);
	T_EQ_INT(lst_tracedir_load(dir, "", 0, &t, &err), -EINVAL);
	T_ASSERT(lst_tracedir_load(dir, "missing", 0, &t, &err) < 0);
	T_CONTAINS(err.msg, "read_iolog: ");
	T_CONTAINS(err.msg, "missing");

	T_EQ_INT(lst_tracedir_load(dir, "mix", 0, &t, &err), 0);
	T_EQ_INT(t.nrec, 3);
	T_EQ_INT(lst_tracedir_writes(&t), 2); /* the write and the trim */
	T_EQ_U64(lst_tracedir_slot_bytes(&t), 12288);

	/* Fits a 2 MiB path of 4 KiB blocks; not a 512 KiB one, nor one of 8 KiB blocks. */
	T_EQ_INT(lst_tracedir_fits(&t, dir, "mix", "/dev/x", 4096, 2 << 20, &err), 0);
	T_EQ_INT(lst_tracedir_fits(&t, dir, "mix", "/dev/x", 4096, 512 << 10, &err), -EINVAL);
	snprintf(file, sizeof(file), "read_iolog %s/mix: ", dir);
	T_ASSERT(!strncmp(err.msg, file, strlen(file)));
	T_CONTAINS(err.msg, "(path /dev/x)");
	T_EQ_INT(lst_tracedir_fits(&t, dir, "mix", "/dev/y", 8192, 2 << 20, &err), -EINVAL);
	T_CONTAINS(err.msg, "(path /dev/y)");
	lst_trace_free(&t);

	/* A folder others may change is refused before the trace is read. */
	T_EQ_INT(chmod(dir, 0777), 0);
	T_EQ_INT(lst_tracedir_load(dir, "mix", 0, &t, &err), -EACCES);
	T_CONTAINS(err.msg, "read_iolog: ");
	T_EQ_INT(t.nrec, 0);
	T_EQ_INT(chmod(dir, 0750), 0);

	/* The slot is whole pages, at least one. */
	struct lst_trace small = { .max_len = 512 }, odd = { .max_len = 4097 };
	T_EQ_U64(lst_tracedir_slot_bytes(&small), 4096);
	T_EQ_U64(lst_tracedir_slot_bytes(&odd), 8192);
}

int main(void)
{
	s_tmp = lst_scratch("tracedir");
	test_make();
	test_record_file();
	test_geometry();
	test_load_and_fit();
	printf("ok: tracedir\n");
	return 0;
}

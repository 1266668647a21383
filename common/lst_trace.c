/* SPDX-License-Identifier: Apache-2.0 */
/*
 * I/O traces: lockstep's binary trace format and blkparse text, read into one
 * array of records (lst_trace.h has the formats).
 *
 * A trace comes from outside (another host, a capture someone edited), so reading validates
 * everything before a replaying job may trust it: the size against the header's record count,
 * magic, version, each record's length, op, alignment and time order, and a bound on the
 * number of records checked before the array is allocated. Records live in one allocation
 * (sized from the header for our format, grown geometrically for text); nothing is allocated
 * per record. Writing goes to PATH.tmp, is fsynced, and is renamed over PATH, so a reader sees
 * the old file or the whole new one; the header's nrec is written last, so a file cut short
 * by a crash reads as truncated.
 *
 * Which format a file is in is decided by its first bytes: our magic, else text if the first
 * bytes are printable, else a clear "not a lockstep trace" (a binary file with a damaged
 * magic must not be read as text and fail on a confusing line).
 */
#include "lst_trace.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lst_file.h"
#include "lst_util.h"
#include "lst_workload.h"

/* Records encoded or decoded per read or write call. */
#define S_CHUNK 4096
/* Largest block size a trace header may state. */
#define S_LBS_MAX (64u * 1024)
/* blkparse's sector unit. */
#define S_SECTOR 512u
/* Bytes looked at to tell text from a damaged binary file. */
#define S_SNIFF 64

/* ---- little-endian helpers ---- */

static void s_put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void s_put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t s_get32(const unsigned char *p)
{
	uint32_t v = 0;

	for (int i = 3; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static uint64_t s_get64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static void s_encode_header(unsigned char *h, uint32_t lbs, uint64_t nrec, uint64_t path_size,
			    int64_t duration)
{
	memset(h, 0, LST_TRACE_HEADER);
	memcpy(h, LST_TRACE_MAGIC, 8);
	s_put32(h + 8, LST_TRACE_VERSION);
	s_put32(h + 12, lbs);
	s_put64(h + 16, nrec);
	s_put64(h + 24, path_size);
	s_put64(h + 32, (uint64_t)duration);
}

static void s_encode_rec(unsigned char *p, const struct lst_trace_rec *r)
{
	memset(p, 0, LST_TRACE_RECORD);
	s_put64(p, (uint64_t)r->t_ns);
	s_put64(p + 8, r->offset);
	s_put32(p + 16, r->len);
	p[20] = r->op;
}

static void s_decode_rec(const unsigned char *p, struct lst_trace_rec *r)
{
	r->t_ns = (int64_t)s_get64(p);
	r->offset = s_get64(p + 8);
	r->len = s_get32(p + 16);
	r->op = p[20];
}

/* ---- writing ---- */

/* Write the header (nrec 0 for now), the records, then the real nrec, to fd. */
static int s_write_body(int fd, const struct lst_trace_rec *rec, size_t nrec, uint32_t lbs,
			uint64_t path_size)
{
	unsigned char h[LST_TRACE_HEADER];
	unsigned char *buf = lst_malloc((size_t)S_CHUNK * LST_TRACE_RECORD);
	int64_t duration = nrec ? rec[nrec - 1].t_ns : 0;
	ssize_t n;
	int rc;

	s_encode_header(h, lbs, 0, path_size, duration);
	rc = lst_write_all(fd, h, sizeof(h));
	for (size_t i = 0; !rc && i < nrec; i += S_CHUNK) {
		size_t k = nrec - i < S_CHUNK ? nrec - i : S_CHUNK;

		for (size_t j = 0; j < k; j++)
			s_encode_rec(buf + j * LST_TRACE_RECORD, &rec[i + j]);
		rc = lst_write_all(fd, buf, k * LST_TRACE_RECORD);
	}
	free(buf);
	if (rc)
		return rc;
	s_put64(h + 16, nrec);
	n = pwrite(fd, h + 16, 8, 16);
	if (n < 0)
		return -errno;
	if (n != 8)
		return -EIO;
	if (fsync(fd))
		return -errno;
	return 0;
}

/* fsync the folder that holds path, so the rename survives a crash. Best effort. */
static void s_sync_dir(const char *path)
{
	char *dir = lst_strdup(path);
	char *slash = strrchr(dir, '/');
	int fd;

	if (!slash)
		strcpy(dir, ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
	free(dir);
}

int lst_trace_write_check(const char *path, lst_err *err)
{
	char *tmp = lst_asprintf("%s.tmp", path);
	int rc = lst_file_name_free(tmp, "trace", err);

	free(tmp);
	return rc;
}

int lst_trace_write(const char *path, const struct lst_trace_rec *rec, size_t nrec, uint32_t lbs,
		    uint64_t path_size, lst_err *err)
{
	char *tmp = lst_asprintf("%s.tmp", path);
	int fd, rc;

	if (nrec > LST_TRACE_MAX_RECORDS) {
		rc = lst_err_set(err, -EFBIG, "%s: %zu records is more than a trace holds (%u)",
				 path, nrec, LST_TRACE_MAX_RECORDS);
		goto out_free;
	}
	/* Created new (lst_file): a symlink or FIFO planted at the temporary name is refused,
	 * never written through, and never removed as ours. */
	fd = lst_file_create(tmp, "trace", 0640, err);
	if (fd < 0) {
		rc = fd;
		goto out_free;
	}
	rc = s_write_body(fd, rec, nrec, lbs, path_size);
	if (close(fd) && !rc)
		rc = -errno;
	if (rc) {
		lst_err_sys(err, rc, "write(\"%s\") failed", tmp);
		goto out_unlink;
	}
	if (rename(tmp, path)) {
		rc = lst_err_sys(err, -errno, "rename(\"%s\", \"%s\") failed", tmp, path);
		goto out_unlink;
	}
	s_sync_dir(path);
	free(tmp);
	return 0;

out_unlink:
	unlink(tmp);
out_free:
	free(tmp);
	return rc;
}

/* ---- checks shared by both formats ---- */

/* Check record r (index i, 0-based) against the one before it (NULL for the first) and fold
 * it into t's summary. where names the record for errors ("record 7", "line 12"). */
static int s_check_rec(struct lst_trace *t, const struct lst_trace_rec *r,
		       const struct lst_trace_rec *prev, const char *path, const char *where,
		       lst_err *err)
{
	if (r->len == 0)
		return lst_err_set(err, -EINVAL, "%s: %s has length 0", path, where);
	if (r->len > LST_BS_MAX) /* refused before its slots are counted against mem_max */
		return lst_err_set(err, -EINVAL,
				   "%s: %s is a %" PRIu32 "-byte I/O; lockstep replays at most %d "
				   "bytes (16 MiB) in one",
				   path, where, r->len, LST_BS_MAX);
	if (r->op > LST_TRACE_TRIM)
		return lst_err_set(err, -EINVAL, "%s: %s has op %u (0 read, 1 write, 2 trim)", path,
				   where, r->op);
	if (r->t_ns < 0)
		return lst_err_set(err, -EINVAL, "%s: %s has a negative time (%" PRId64 " ns)",
				   path, where, r->t_ns);
	if (prev && r->t_ns < prev->t_ns)
		return lst_err_set(err, -EINVAL,
				   "%s: %s goes back in time (%" PRId64 " ns after %" PRId64 " ns)",
				   path, where, r->t_ns, prev->t_ns);
	if (r->offset % t->lbs || r->len % t->lbs)
		return lst_err_set(err, -EINVAL,
				   "%s: %s (offset %" PRIu64 ", length %" PRIu32
				   ") is not a multiple of the trace's %" PRIu32 "-byte blocks",
				   path, where, r->offset, r->len, t->lbs);
	if (r->offset > UINT64_MAX - r->len)
		return lst_err_set(err, -EINVAL, "%s: %s ends past 2^64 bytes", path, where);
	if (r->offset + r->len > t->span)
		t->span = r->offset + r->len;
	if (r->len > t->max_len)
		t->max_len = r->len;
	t->duration = r->t_ns;
	return 0;
}

/* ---- lockstep's binary format ---- */

/* Validate the header h of a file of size bytes; on success set t's lbs, path_size and
 * *nrec, *duration. */
static int s_check_header(struct lst_trace *t, const unsigned char *h, uint64_t size,
			  const char *path, uint64_t *nrec, int64_t *duration, lst_err *err)
{
	uint32_t version = s_get32(h + 8), lbs = s_get32(h + 12);

	if (version != LST_TRACE_VERSION)
		return lst_err_set(err, -EINVAL,
				   "%s: trace format version %" PRIu32 " (this lockstep reads %d)",
				   path, version, LST_TRACE_VERSION);
	if (lbs < 512 || lbs > S_LBS_MAX || (lbs & (lbs - 1)))
		return lst_err_set(err, -EINVAL,
				   "%s: block size %" PRIu32 " in the header is not a power of two "
				   "in 512..%u",
				   path, lbs, S_LBS_MAX);
	*nrec = s_get64(h + 16);
	*duration = (int64_t)s_get64(h + 32);
	if (*nrec > LST_TRACE_MAX_RECORDS)
		return lst_err_set(err, -EFBIG,
				   "%s: %" PRIu64 " records is more than a trace "
				   "holds (%u)",
				   path, *nrec, LST_TRACE_MAX_RECORDS);
	if (size - LST_TRACE_HEADER != *nrec * LST_TRACE_RECORD) {
		uint64_t have = (size - LST_TRACE_HEADER) / LST_TRACE_RECORD;

		if (size - LST_TRACE_HEADER < *nrec * LST_TRACE_RECORD)
			return lst_err_set(err, -EINVAL,
					   "%s: truncated: the header says %" PRIu64
					   " records, the file holds %" PRIu64 " bytes (%" PRIu64
					   " whole records)",
					   path, *nrec, size, have);
		return lst_err_set(err, -EINVAL,
				   "%s: %" PRIu64 " bytes after the %" PRIu64 " records the header "
				   "counts",
				   path, size - LST_TRACE_HEADER - *nrec * LST_TRACE_RECORD, *nrec);
	}
	t->lbs = lbs;
	t->path_size = s_get64(h + 24);
	return 0;
}

/* Read exactly len bytes from fd. Returns 0, -errno, or -EIO at an early end of file. */
static int s_read_full(int fd, void *buf, size_t len)
{
	unsigned char *p = buf;

	while (len) {
		ssize_t n = read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Decode and check the nrec records that follow the header at fd's position. */
static int s_read_records(struct lst_trace *t, int fd, uint64_t nrec, const char *path,
			  lst_err *err)
{
	unsigned char *buf = lst_malloc((size_t)S_CHUNK * LST_TRACE_RECORD);
	char where[48];
	int rc = 0;

	t->rec = lst_malloc(nrec ? (size_t)nrec * sizeof(*t->rec) : 1);
	for (size_t i = 0; !rc && i < nrec; i += S_CHUNK) {
		size_t n = nrec - i < S_CHUNK ? nrec - i : S_CHUNK;

		rc = s_read_full(fd, buf, n * LST_TRACE_RECORD);
		if (rc) {
			lst_err_sys(err, rc, "read(\"%s\") failed", path);
			break;
		}
		for (size_t j = 0; !rc && j < n; j++) {
			struct lst_trace_rec *r = &t->rec[i + j];

			s_decode_rec(buf + j * LST_TRACE_RECORD, r);
			snprintf(where, sizeof(where), "record %zu", i + j);
			rc = s_check_rec(t, r, i + j ? r - 1 : NULL, path, where, err);
			t->nrec = i + j + 1;
		}
	}
	free(buf);
	return rc;
}

/* The refusal of a trace whose records need more than mem_max bytes (nrec 0: not known yet). */
static int s_too_big(const char *path, uint64_t nrec, uint64_t mem_max, lst_err *err)
{
	char a[32], b[32];

	if (!nrec)
		return lst_err_set(err, -EFBIG,
				   "%s: its records need more than the %s of memory it may use "
				   "(mem_max); read no further",
				   path, lst_fmt_size(mem_max, a, sizeof(a)));
	return lst_err_set(err, -EFBIG,
			   "%s: %" PRIu64 " records need %s of memory, more than the %s it may "
			   "use (mem_max); not read",
			   path, nrec,
			   lst_fmt_size(nrec * sizeof(struct lst_trace_rec), a, sizeof(a)),
			   lst_fmt_size(mem_max, b, sizeof(b)));
}

static int s_read_binary(struct lst_trace *t, int fd, uint64_t size, uint64_t mem_max,
			 const char *path, lst_err *err)
{
	unsigned char h[LST_TRACE_HEADER];
	uint64_t nrec = 0;
	int64_t duration = 0;
	int rc;

	if (size < LST_TRACE_HEADER)
		return lst_err_set(err, -EINVAL,
				   "%s: truncated: %" PRIu64
				   " bytes, shorter than the %d-byte header",
				   path, size, LST_TRACE_HEADER);
	rc = s_read_full(fd, h, sizeof(h));
	if (rc)
		return lst_err_sys(err, rc, "read(\"%s\") failed", path);
	rc = s_check_header(t, h, size, path, &nrec, &duration, err);
	if (rc)
		return rc;
	if (mem_max && nrec > mem_max / sizeof(*t->rec)) /* before the array is allocated */
		return s_too_big(path, nrec, mem_max, err);
	rc = s_read_records(t, fd, nrec, path, err);
	if (rc)
		return rc;
	if (duration != t->duration)
		return lst_err_set(err, -EINVAL,
				   "%s: the header's duration (%" PRId64
				   " ns) is not the last record's time (%" PRId64 " ns)",
				   path, duration, t->duration);
	return 0;
}

/* ---- blkparse text ---- */

/* Parse blkparse's SECONDS ("12.345678901") into ns. */
static bool s_parse_seconds(const char *s, int64_t *ns)
{
	char *end;
	unsigned long long sec;
	int64_t frac = 0;
	int digits = 0;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	sec = strtoull(s, &end, 10);
	if (errno || sec > INT64_MAX / 1000000000 - 1)
		return false;
	if (*end == '.') {
		for (end++; *end >= '0' && *end <= '9'; end++, digits++)
			if (digits < 9)
				frac = frac * 10 + (*end - '0');
		if (digits == 0)
			return false;
	}
	if (*end)
		return false;
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = (int64_t)sec * 1000000000 + frac;
	return true;
}

/* Decimal digits only (a number, however large). */
static bool s_is_number(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

static bool s_parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end;
}

/* "MAJ,MIN": does the first field of a line look like a device (an event line)? */
static bool s_is_device(const char *s)
{
	const char *comma = strchr(s, ',');

	if (!comma || comma == s || !comma[1])
		return false;
	for (const char *c = s; *c; c++)
		if (c != comma && (*c < '0' || *c > '9'))
			return false;
	return true;
}

/* The op of RWBS letters, or -1 when the event moves no data we replay (flush, none). */
static int s_rwbs_op(const char *rwbs)
{
	if (strchr(rwbs, 'D'))
		return LST_TRACE_TRIM;
	if (strchr(rwbs, 'W'))
		return LST_TRACE_WRITE;
	if (strchr(rwbs, 'R'))
		return LST_TRACE_READ;
	return -1;
}

/* Text reading state: the growing array and what the first Q fixed. */
struct s_text {
	struct lst_trace *t;
	size_t cap;
	char dev[32];	  /* the device taken, "" before the first Q */
	int64_t t0;	  /* the first Q's time */
	uint64_t line;	  /* 1-based number of the current line */
	uint64_t mem_max; /* what the records may take in bytes (0: no bound) */
	size_t max_rec;	  /* records that fit in it, and in LST_TRACE_MAX_RECORDS */
};

static void s_push(struct s_text *x, const struct lst_trace_rec *r)
{
	if (x->t->nrec == x->cap) {
		x->cap = x->cap ? x->cap * 2 : 1024;
		if (x->cap > x->max_rec)
			x->cap = x->max_rec;
		x->t->rec = lst_realloc(x->t->rec, x->cap * sizeof(*x->t->rec));
	}
	x->t->rec[x->t->nrec++] = *r;
}

/* One Q event's fields f[0..nf-1] (f[6] is RWBS) to a record, or skip it. */
static int s_text_queue(struct s_text *x, char **f, int nf, int64_t when, const char *path,
			lst_err *err)
{
	struct lst_trace_rec r = { 0 };
	uint64_t sector, nsect;
	char where[48];
	int op = s_rwbs_op(f[6]), rc;

	if (op < 0 || (nf >= 8 && f[7][0] == '['))
		return 0; /* no data: a flush ("Q FWS [kworker/0:1H]") or none */
	if (nf < 10 || strcmp(f[8], "+") || !s_is_number(f[7]) || !s_is_number(f[9]))
		return lst_err_set(err, -EINVAL,
				   "%s:%" PRIu64 ": a Q event without 'SECTOR + NSECTORS'", path,
				   x->line);
	if (!s_parse_u64(f[7], &sector) || sector > UINT64_MAX / S_SECTOR)
		return lst_err_set(err, -EINVAL,
				   "%s:%" PRIu64
				   ": sector %s is past the 2^64 bytes a trace addresses",
				   path, x->line, f[7]);
	if (!s_parse_u64(f[9], &nsect) || nsect > UINT32_MAX / S_SECTOR)
		return lst_err_set(err, -EINVAL,
				   "%s:%" PRIu64
				   ": %s sectors in one I/O is more than a trace record "
				   "holds (%u sectors, 4 GiB)",
				   path, x->line, f[9], UINT32_MAX / S_SECTOR);
	if (nsect == 0)
		return 0; /* a flush with no data */
	if (x->t->nrec == x->max_rec && x->max_rec < LST_TRACE_MAX_RECORDS)
		return s_too_big(path, 0, x->mem_max, err);
	if (x->t->nrec == LST_TRACE_MAX_RECORDS)
		return lst_err_set(err, -EFBIG, "%s:%" PRIu64 ": more than %u Q events", path,
				   x->line, LST_TRACE_MAX_RECORDS);
	if (!x->dev[0]) {
		snprintf(x->dev, sizeof(x->dev), "%s", f[0]);
		x->t0 = when;
	}
	r.t_ns = when - x->t0;
	r.offset = sector * S_SECTOR;
	r.len = (uint32_t)(nsect * S_SECTOR);
	r.op = (uint8_t)op;
	snprintf(where, sizeof(where), "line %" PRIu64, x->line);
	rc = s_check_rec(x->t, &r, x->t->nrec ? &x->t->rec[x->t->nrec - 1] : NULL, path, where,
			 err);
	if (rc)
		return rc;
	s_push(x, &r);
	return 0;
}

/* One line of text: skip what is not an event, check event lines, take Q events. */
static int s_text_line(struct s_text *x, char *line, const char *path, lst_err *err)
{
	char *f[10], *save = NULL, *tok;
	int nf = 0;
	int64_t when;

	for (tok = strtok_r(line, " \t\r\n", &save); tok && nf < 10;
	     tok = strtok_r(NULL, " \t\r\n", &save))
		f[nf++] = tok;
	if (nf == 0 || !s_is_device(f[0]))
		return 0; /* blank, or the summary ("CPU0 (8,0):", "Total (8,0):", ...) */
	if (nf < 7 || !s_parse_seconds(f[3], &when))
		return lst_err_set(err, -EINVAL,
				   "%s:%" PRIu64 ": not a blkparse event "
				   "(MAJ,MIN CPU SEQ SECONDS PID ACTION RWBS ...)",
				   path, x->line);
	if (strcmp(f[5], "Q"))
		return 0;
	if (x->dev[0] && strcmp(x->dev, f[0]))
		return 0; /* only the first device */
	return s_text_queue(x, f, nf, when, path, err);
}

/* A blkparse line is under 200 characters; a longer one is not blkparse, and a bounded buffer
 * keeps a file of one endless line from taking memory. */
#define S_LINE_MAX 4096

static int s_read_text(struct lst_trace *t, FILE *fp, uint64_t mem_max, const char *path,
		       lst_err *err)
{
	struct s_text x = { .t = t, .mem_max = mem_max, .max_rec = LST_TRACE_MAX_RECORDS };
	char *line = lst_malloc(S_LINE_MAX);
	int rc = 0;

	if (mem_max && mem_max / sizeof(*t->rec) < x.max_rec)
		x.max_rec = (size_t)(mem_max / sizeof(*t->rec));
	t->lbs = S_SECTOR;
	t->blkparse = 1;
	while (!rc && fgets(line, S_LINE_MAX, fp)) {
		x.line++;
		if (!strchr(line, '\n') && strlen(line) == S_LINE_MAX - 1 && !feof(fp))
			rc = lst_err_set(err, -EINVAL,
					 "%s:%" PRIu64 ": a line longer than %d characters; "
					 "not blkparse text",
					 path, x.line, S_LINE_MAX - 1);
		else
			rc = s_text_line(&x, line, path, err);
	}
	if (!rc && ferror(fp))
		rc = lst_err_sys(err, -EIO, "read(\"%s\") failed", path);
	free(line);
	if (!rc && t->nrec == 0)
		rc = lst_err_set(err, -EINVAL,
				 "%s: neither a lockstep trace nor blkparse text with Q events",
				 path);
	return rc;
}

/* ---- reading: the entry point ---- */

/* Printable ASCII or whitespace only: could be text. */
static bool s_looks_text(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != '\n' && p[i] != '\r' && p[i] != '\t' && (p[i] < 0x20 || p[i] > 0x7e))
			return false;
	return true;
}

/* Tell the format from the first bytes and read the file open at fd. */
static int s_read_fd(struct lst_trace *t, int fd, const struct stat *st, uint64_t mem_max,
		     const char *path, lst_err *err)
{
	unsigned char head[S_SNIFF];
	ssize_t n;
	FILE *fp;
	int rc;

	do
		n = pread(fd, head, sizeof(head), 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return lst_err_sys(err, -errno, "read(\"%s\") failed", path);
	if (n > 0 && !memcmp(head, LST_TRACE_MAGIC, (size_t)n < 8 ? (size_t)n : 8))
		return s_read_binary(t, fd, (uint64_t)st->st_size, mem_max, path, err);
	if (!s_looks_text(head, (size_t)n))
		return lst_err_set(err, -EINVAL,
				   "%s: not a lockstep trace (bad magic) nor blkparse text", path);
	fp = fdopen(dup(fd), "r");
	if (!fp)
		return lst_err_sys(err, -errno, "fdopen(\"%s\") failed", path);
	rc = s_read_text(t, fp, mem_max, path, err);
	fclose(fp);
	return rc;
}

int lst_trace_read(const char *path, uint64_t mem_max, struct lst_trace *t, lst_err *err)
{
	struct stat st;
	int fd, rc;

	memset(t, 0, sizeof(*t));
	/* Not a symlink either: a trace folder's names are the agent's own files. */
	fd = lst_file_open_read(path, "trace", LST_FILE_NOFOLLOW, 0, &st, err);
	if (fd < 0)
		return fd;
	rc = s_read_fd(t, fd, &st, mem_max, path, err);
	close(fd);
	if (rc)
		lst_trace_free(t);
	return rc;
}

int lst_trace_fits(const struct lst_trace *t, uint32_t lbs, uint64_t path_size, lst_err *err)
{
	if (lbs == 0)
		return lst_err_set(err, -EINVAL, "the path's block size is unknown (0)");
	if (t->lbs % lbs) {
		for (size_t i = 0; i < t->nrec; i++)
			if (t->rec[i].offset % lbs || t->rec[i].len % lbs)
				return lst_err_set(err, -EINVAL,
						   "the trace was recorded with %" PRIu32
						   "-byte blocks; this path's are %" PRIu32
						   " (record %zu: "
						   "offset %" PRIu64 ", length %" PRIu32 ")",
						   t->lbs, lbs, i, t->rec[i].offset, t->rec[i].len);
	}
	if (t->span > path_size)
		return lst_err_set(err, -EINVAL,
				   "the trace addresses %" PRIu64 " bytes; this path has %" PRIu64,
				   t->span, path_size);
	return 0;
}

void lst_trace_free(struct lst_trace *t)
{
	free(t->rec);
	memset(t, 0, sizeof(*t));
}

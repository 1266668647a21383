/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The purge worker (see lst_purge.h): a list of vetted regions and one thread that hands them
 * to lst_dev_purge in chunks, checking its stop flag between chunks.
 */
#include "lst_purge.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_dev.h"
#include "lst_util.h"

#define S_CHUNK ((uint64_t)1 << 30) /* a purge checks its stop flag between chunks */

struct s_region {
	int fd;
	const struct lst_path_identity *id;
	uint64_t offset, len;
	bool secure;
};

struct lst_purge {
	pthread_t thread;
	bool launched;
	int efd;
	_Atomic int stop;
	_Atomic int finished;
	size_t n;
	struct s_region regions[LST_MAX_JOBSPECS];
	int rc; /* written by the worker before finished */
	lst_err err;
};

lst_purge *lst_purge_new(void)
{
	lst_purge *pg = lst_calloc(1, sizeof(*pg));

	pg->efd = -1;
	return pg;
}

int lst_purge_add(lst_purge *pg, const char *name, int fd, const struct lst_path_identity *id,
		  uint64_t offset, uint64_t len, bool secure, lst_err *err)
{
	uint64_t size = id->size;
	struct s_region *r;

	if (pg->n == LST_MAX_JOBSPECS)
		return lst_err_set(err, -E2BIG, "%s: more than %d purge regions in one point", name,
				   LST_MAX_JOBSPECS);
	r = &pg->regions[pg->n++];
	r->fd = fd;
	r->id = id;
	r->secure = secure;
	if (offset > size)
		return lst_err_set(err, -EINVAL,
				   "%s: purge offset %llu is beyond the end (%llu bytes)", name,
				   (unsigned long long)offset, (unsigned long long)size);
	r->offset = offset;
	r->len = len ? len : size - offset;
	if (r->offset + r->len > size)
		return lst_err_set(err, -EINVAL,
				   "%s: purge region [%llu, %llu) goes beyond the end (%llu "
				   "bytes)",
				   name, (unsigned long long)r->offset,
				   (unsigned long long)(r->offset + r->len),
				   (unsigned long long)size);
	if (!strcmp(id->kind, "block") && id->lbs && (r->offset % id->lbs || r->len % id->lbs))
		return lst_err_set(err, -EINVAL,
				   "%s: purge region [%llu, +%llu) is not aligned to the "
				   "logical block size %u",
				   name, (unsigned long long)r->offset, (unsigned long long)r->len,
				   id->lbs);
	if (secure && strcmp(id->kind, "block"))
		return lst_err_set(err, -EOPNOTSUPP,
				   "%s: secdiscard needs a block device; this is a %s", name,
				   id->kind);
	return 0;
}

int lst_purge_arm(lst_purge *pg, lst_err *err)
{
	pg->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (pg->efd < 0)
		return lst_err_sys(err, -errno, "eventfd");
	return 0;
}

int lst_purge_eventfd(const lst_purge *pg)
{
	return pg->efd;
}

static void *s_main(void *arg)
{
	lst_purge *pg = arg;
	int rc = 0;

	for (size_t i = 0; i < pg->n && !rc; i++) {
		const struct s_region *r = &pg->regions[i];
		uint64_t off = r->offset, left = r->len;

		while (left && !atomic_load(&pg->stop)) {
			uint64_t n = LST_MIN(left, S_CHUNK);

			rc = lst_dev_purge(r->fd, r->id, off, n, r->secure, &pg->err);
			if (rc)
				break;
			off += n;
			left -= n;
		}
	}
	pg->rc = rc;
	atomic_store_explicit(&pg->finished, 1, memory_order_release);
	eventfd_write(pg->efd, 1);
	return NULL;
}

int lst_purge_start(lst_purge *pg)
{
	int rc = pthread_create(&pg->thread, NULL, s_main, pg);

	if (rc) {
		lst_err_sys(&pg->err, -rc, "pthread_create for the purge");
		pg->rc = -rc;
		atomic_store(&pg->finished, 1);
		return -rc;
	}
	pg->launched = true;
	return 0;
}

bool lst_purge_launched(const lst_purge *pg)
{
	return pg->launched;
}

void lst_purge_stop(lst_purge *pg)
{
	atomic_store(&pg->stop, 1);
}

bool lst_purge_finished(const lst_purge *pg)
{
	return atomic_load_explicit(&pg->finished, memory_order_acquire);
}

int lst_purge_error(const lst_purge *pg, lst_err *err)
{
	if (pg->rc)
		*err = pg->err;
	return pg->rc;
}

void lst_purge_destroy(lst_purge **p)
{
	lst_purge *pg = *p;

	if (!pg)
		return;
	if (pg->launched) {
		atomic_store(&pg->stop, 1);
		pthread_join(pg->thread, NULL);
	}
	if (pg->efd >= 0)
		close(pg->efd);
	free(pg);
	*p = NULL;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Example messages for tests and the fuzz corpus. TYPICAL looks like a real run; EXTREME puts
 * every string at its longest, every array at its bound and integers at their limits, so it also
 * shows that the largest message of each type fits in LST_MSG_MAX_BYTES (one exception: a path
 * identity's backing_file stays empty, as on every device that has a WWN, see s_identity);
 * SMALL is the least a valid message holds.
 */
#include "msg_examples.h"

#include <stdio.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_hist.h"
#include "lst_time.h"
#include "lst_util.h"
#include "lst_workload.h"

/* Fill a char[size] field: TYPICAL gets text, EXTREME size-1 bytes, SMALL "". */
static void s_str(char *dst, size_t size, enum lst_example v, const char *text)
{
	if (v == LST_EXAMPLE_SMALL) {
		dst[0] = '\0';
	} else if (v == LST_EXAMPLE_TYPICAL) {
		snprintf(dst, size, "%s", text);
	} else {
		if (!text[0])
			text = "-";
		for (size_t i = 0; i < size - 1; i++)
			dst[i] = text[i % strlen(text)];
		dst[size - 1] = '\0';
	}
}

#define S_STR(field, v, text) s_str(field, sizeof(field), v, text)

static uint64_t s_rng = 0x243f6a8885a308d3ull;

static uint64_t s_rand(void)
{
	s_rng ^= s_rng >> 12;
	s_rng ^= s_rng << 25;
	s_rng ^= s_rng >> 27;
	return s_rng * 2685821657736338717ull;
}

static void s_hist(lst_hist *h, enum lst_example v, unsigned salt)
{
	lst_hist_init(h);
	if (v == LST_EXAMPLE_SMALL)
		return;
	if (v == LST_EXAMPLE_TYPICAL) {
		s_rng = 0x243f6a8885a308d3ull + salt;
		for (int i = 0; i < 5000; i++)
			lst_hist_record(h, 20000 + s_rand() % (300000 + 1000 * salt));
		lst_hist_record(h, 3 * LST_NS_PER_MS); /* a tail */
		return;
	}
	/* Every bucket used, large counts, values beyond the last bucket too. */
	for (unsigned i = 0; i < LST_HIST_NBUCKETS; i++)
		lst_hist_record_n(h, lst_hist_bucket_low(i), (1ull << 40) + i + salt);
	lst_hist_record_n(h, 100ull * LST_NS_PER_S, 7);
	lst_hist_record(h, UINT64_MAX / 2);
}

/* An EXTREME sample's part i: integers at their limits, the sample's interval and flags. */
static void s_part_extreme(struct lst_sample_part *p, const lst_sample *whole, uint32_t i)
{
	p->path = UINT32_MAX - i;
	lst_sample_init(&p->s, whole->interval);
	p->s.flags = whole->flags;
	p->s.start_ns = INT64_MIN + i;
	p->s.end_ns = INT64_MAX - i;
	p->s.verify = (struct lst_sample_verify){ UINT64_MAX - i, UINT64_MAX, UINT64_MAX, i };
	for (int d = 0; d < LST_DIR_N; d++) {
		p->s.dir[d].ios = UINT64_MAX - i;
		p->s.dir[d].bytes = UINT64_MAX - 1;
		p->s.dir[d].errors = UINT64_MAX - 2;
	}
}

static void s_caps(uint32_t *n, char caps[][LST_NAME_MAX], enum lst_example v)
{
	static const char *const typical[] = { "samples.v1", "spool", "purge.discard" };

	if (v == LST_EXAMPLE_SMALL) {
		*n = 0;
	} else if (v == LST_EXAMPLE_TYPICAL) {
		*n = 3;
		for (unsigned i = 0; i < *n; i++)
			snprintf(caps[i], LST_NAME_MAX, "%s", typical[i]);
	} else {
		*n = LST_MAX_CAPS;
		for (unsigned i = 0; i < *n; i++)
			s_str(caps[i], LST_NAME_MAX, v, i % 2 ? "capability." : "feature-");
	}
}

/* A hook's name: as s_str, but never empty (SMALL gets one letter): names must not be. */
static void s_name(char *dst, size_t size, enum lst_example v, const char *text)
{
	s_str(dst, size, v, text);
	if (!dst[0])
		snprintf(dst, size, "%c", text[0]);
}

/* Names of hooks or collectors: none, a few typical ones, or LST_MAX_HOOKS at their longest. */
static void s_names(uint32_t *n, char names[][LST_NAME_MAX], enum lst_example v,
		    const char *const *typical, uint32_t ntypical)
{
	*n = v == LST_EXAMPLE_EXTREME ? LST_MAX_HOOKS : v == LST_EXAMPLE_TYPICAL ? ntypical : 0;
	for (uint32_t i = 0; i < *n; i++)
		s_name(names[i], LST_NAME_MAX, v, typical[i % ntypical]);
}

/*
 * Heap bytes of a hook's output or kernel log text: none (SMALL), the typical text, or max
 * bytes of every value but NUL (EXTREME: not UTF-8, which bin allows).
 */
static void s_bytes(char **dst, uint32_t *n, uint32_t max, enum lst_example v, const char *text)
{
	*dst = NULL;
	*n = v == LST_EXAMPLE_EXTREME ? max : v == LST_EXAMPLE_TYPICAL ? (uint32_t)strlen(text) : 0;
	if (!*n)
		return;
	*dst = lst_malloc((size_t)*n + 1);
	for (uint32_t i = 0; i < *n; i++)
		(*dst)[i] = v == LST_EXAMPLE_EXTREME ? (char)(1 + i % 255) : text[i];
	(*dst)[*n] = '\0';
}

/* How a hook ran: typical (exit 0 after 1.2 s), at the limits, or never ran (SMALL). */
static void s_hook_result(struct lst_hook_result *r, enum lst_example v, const char *output)
{
	bool ext = v == LST_EXAMPLE_EXTREME, small = v == LST_EXAMPLE_SMALL;

	r->start = ext ? INT64_MIN : small ? 0 : 5003123456789ll;
	r->end = ext ? INT64_MAX : small ? 0 : 5004323456789ll;
	r->status = ext ? 255 : small ? -1 : 0;
	r->truncated = ext ? UINT32_MAX : 0;
	S_STR(r->text, v, ext ? "timed out after 60 s: killed " : "");
	s_bytes(&r->output, &r->output_len, LST_COLLECT_OUTPUT_MAX, v, output);
}

static void s_workload(struct lst_workload *w, enum lst_example v, unsigned i)
{
	lst_workload_init(w);
	if (v == LST_EXAMPLE_SMALL)
		return;
	if (v == LST_EXAMPLE_TYPICAL) {
		w->rw = LST_RW_RANDRW;
		w->rwmixread = 70;
		w->bs = 4096 << (i % 4);
		w->iodepth = 32;
		w->jobs = 2;
		w->offset = (int64_t)i * (1ll << 30);
		w->size = 1ll << 30;
		w->runtime = 30 * LST_NS_PER_S;
		w->ramp = 5 * LST_NS_PER_S;
		w->rate_iops = 50000;
		w->arrivals = LST_ARRIVAL_UNIFORM;
		w->interval = 100 * LST_NS_PER_MS;
		w->engine = LST_ENGINE_PSYNC;
		w->pattern = 80;
		w->seed = 12345 + i;
		return;
	}
	w->rw = LST_RW_RW;
	w->rwmixread = 100;
	w->bs = LST_BS_MAX;
	w->iodepth = 4096;
	w->jobs = 256;
	w->offset = 64ll << 40;
	w->size = 64ll << 40;
	w->runtime = 30ll * 86400 * LST_NS_PER_S;
	w->ramp = 86400ll * LST_NS_PER_S;
	w->bytes = 1024ll << 40;
	w->rate_iops = 100000000;
	w->arrivals = LST_ARRIVAL_UNIFORM;
	w->interval = 3600ll * LST_NS_PER_S;
	w->direct = 0;
	w->engine = LST_ENGINE_NULL;
	w->pattern = 0;
	w->seed = INT64_MAX;
}

static void s_identity(struct lst_path_identity *p, enum lst_example v, unsigned i)
{
	bool ext = v == LST_EXAMPLE_EXTREME;

	S_STR(p->target, v, "ssd0-");
	S_STR(p->path, v, "/dev/disk/by-id/wwn-0x5000039a1b2c3d4e");
	S_STR(p->real_path, v, "/dev/sdb");
	S_STR(p->kind, v, "block");
	S_STR(p->wwn, v, "naa.5000039a1b2c3d4e");
	S_STR(p->serial, v, "X7K0A00KFXYZ");
	S_STR(p->model, v, "KPM5XVUG960G");
	S_STR(p->vendor, v, "KIOXIA");
	S_STR(p->firmware, v, "0104");
	/* A device with a WWN has no backing file (only a loop device has one, and it has no
	 * WWN, serial, model...): so EXTREME leaves it empty, and 64 paths of it still fit a
	 * frame beside LST_MAX_STREAMS streams. */
	p->backing_file[0] = '\0';
	if (v == LST_EXAMPLE_SMALL)
		return;
	p->size = ext ? UINT64_MAX : 960197124096ull + i;
	p->lbs = ext ? UINT32_MAX : 512;
	p->pbs = ext ? UINT32_MAX - 1 : 4096;
	p->dev = ext ? UINT64_MAX - i : 0x810 + i;
	p->ino = ext ? UINT64_MAX : 0;
}

/* a verified write's stream i: a 1 GiB share at 64 KiB, random, or at the limits. */
static void s_stream(struct lst_stream *s, enum lst_example v, unsigned i)
{
	bool ext = v == LST_EXAMPLE_EXTREME;

	if (v == LST_EXAMPLE_SMALL) {
		*s = (struct lst_stream){ .lo = 0, .hi = LST_VERIFY_UNIT, .bs = LST_VERIFY_UNIT };
		return;
	}
	s->seed = ext ? UINT64_MAX - i : 0x9e3779b97f4a7c15ull + i;
	s->lo = ext ? UINT64_MAX - 1 : (uint64_t)i << 30;
	s->hi = ext ? UINT64_MAX : ((uint64_t)i + 1) << 30;
	s->bs = ext ? LST_BS_MAX : 65536;
	s->random = ext || i % 2;
	s->read_pct = ext ? 100 : i % 2 ? 30 : 0;
	s->job = ext ? UINT32_MAX - i : i;
}

/* A stamp as a reader found it: another generation's (TYPICAL), all ones (EXTREME). */
static void s_found(struct lst_stamp *st, enum lst_example v, unsigned i)
{
	bool ext = v == LST_EXAMPLE_EXTREME;

	memset(st, 0, sizeof(*st)); /* the magic does not travel */
	if (v == LST_EXAMPLE_SMALL)
		return;
	st->target = ext ? UINT32_MAX : 0x811c9dc5u;
	st->agent = ext ? UINT16_MAX : 1;
	st->path = ext ? UINT16_MAX : (uint16_t)i;
	st->gen = ext ? UINT32_MAX : 2;
	st->crc = ext ? UINT32_MAX : 0xe3069283u;
	st->lba = ext ? UINT64_MAX : 262144 + i;
	st->t_ns = ext ? INT64_MIN : 1234567890ll + i;
	st->seq = ext ? UINT64_MAX : 4711 + i;
}

/* Device i of an inventory page: a SAS port of a dual-port SSD, or (odd i) a loop device. */
static void s_inv_device(struct lst_inv_device *d, enum lst_example v, unsigned i)
{
	bool ext = v == LST_EXAMPLE_EXTREME, loop = i % 2;

	S_STR(d->name, v, loop ? "loop3" : "sdb");
	S_STR(d->node, v, loop ? "/dev/loop3" : "/dev/sdb");
	d->nlinks = ext ? LST_INV_LINKS : v == LST_EXAMPLE_SMALL || loop ? 0 : 2;
	for (unsigned k = 0; k < d->nlinks; k++)
		S_STR(d->links[k], v,
		      k ? "/dev/disk/by-id/scsi-35000039a1b2c3d4e"
			: "/dev/disk/by-id/wwn-0x5000039a1b2c3d4e");
	S_STR(d->wwn, v, loop ? "" : "naa.5000039a1b2c3d4e");
	S_STR(d->serial, v, loop ? "" : "X7K0A00KFXYZ");
	S_STR(d->vendor, v, loop ? "" : "KIOXIA");
	S_STR(d->model, v, loop ? "" : "KPM5XVUG960G");
	S_STR(d->firmware, v, loop ? "" : "0104");
	S_STR(d->transport, v, loop ? "loop" : "sas");
	S_STR(d->port, v, loop ? "" : "0x5000039a1b2c3d4d");
	S_STR(d->nqn, v, "");
	S_STR(d->backing_file, v, loop ? "/dev/shm/lst-disk.Ab12Cd" : "");
	S_STR(d->why, v, loop ? "(mounted): /dev/loop3 is mounted on /mnt/x; unmount it" : "");
	if (v == LST_EXAMPLE_SMALL)
		return;
	d->links_omitted = ext ? UINT32_MAX : 0;
	d->size = ext ? UINT64_MAX : 960197124096ull + i;
	d->lbs = ext ? UINT32_MAX : 512;
	d->pbs = ext ? UINT32_MAX : 4096;
	d->rotational = ext ? 1 : 0;
	d->backing_dev = ext ? UINT64_MAX : loop ? 0x2a : 0;
	d->backing_ino = ext ? UINT64_MAX : loop ? 1234 : 0;
	d->in_use = ext || loop;
	d->allow_write = ext || !loop;
}

lst_msg *lst_example_msg(enum lst_msg_type type, enum lst_example v)
{
	lst_msg *m = lst_msg_new(type);
	bool ext = v == LST_EXAMPLE_EXTREME, small = v == LST_EXAMPLE_SMALL;

	LST_ASSERT(m);
	m->seq = ext ? UINT64_MAX : small ? 0 : 1000 + type;
	m->id = ext ? UINT64_MAX - 1 : small ? 0 : 77 + type;
	m->re = ext ? UINT64_MAX - 2 : small ? 0 : 66 + type;

	switch (type) {
	case LST_MSG_HELLO: {
		struct lst_msg_hello *b = &m->u.hello;

		b->proto = LST_PROTO_VERSION;
		s_caps(&b->ncaps, b->caps, v);
		S_STR(b->coordinator, v, "workstation-7.lab");
		S_STR(b->run, v, "20240517-142233-px05");
		b->lease_ms = ext ? UINT32_MAX : small ? 0 : 10000;
		break;
	}
	case LST_MSG_WELCOME: {
		struct lst_msg_welcome *b = &m->u.welcome;

		b->proto = LST_PROTO_VERSION;
		s_caps(&b->ncaps, b->caps, v);
		S_STR(b->name, v, "hostA");
		S_STR(b->version, v, "0.1.0");
		S_STR(b->host, v, "hostA.lab.example");
		S_STR(b->kernel, v, "6.1.0-21-amd64");
		b->cores = ext ? UINT32_MAX : small ? 0 : 64;
		b->engines = ext ? UINT32_MAX : small ? 0 : 0x7;
		b->now = ext ? INT64_MIN : small ? 0 : 1234567890123456789ll;
		b->instance = ext ? UINT64_MAX : small ? 0 : 0x9e3779b97f4a7c15ull;
		b->resumed = ext ? UINT32_MAX : small ? 0 : 1;
		s_names(&b->nhooks, b->hooks, v, (const char *const[]){ "port_down", "port-up" },
			2);
		s_names(&b->ncollectors, b->collectors, v, (const char *const[]){ "smart.sdb" }, 1);
		break;
	}
	case LST_MSG_ERROR:
		m->u.error.code = ext ? INT32_MIN : small ? 0 : LST_PERR_BUSY;
		S_STR(m->u.error.text, v, "busy: run 20240517-142233-px05 from coordinator wk7 ");
		break;
	case LST_MSG_SYNC:
		m->u.sync.t1 = ext ? INT64_MAX : small ? 0 : 987654321012345ll;
		break;
	case LST_MSG_SYNC_REPLY:
		m->u.sync_reply.t1 = ext ? INT64_MAX : small ? 0 : 987654321012345ll;
		m->u.sync_reply.t2 = ext ? INT64_MIN : small ? 0 : -5000000000ll;
		m->u.sync_reply.t3 = ext ? -1 : small ? 0 : -4999990000ll;
		break;
	case LST_MSG_PREPARE: {
		struct lst_msg_prepare *b = &m->u.prepare;

		S_STR(b->run, v, "20240517-142233-px05");
		b->phase = ext ? UINT32_MAX : small ? 0 : 3;
		b->point = ext ? UINT32_MAX : small ? 0 : 17;
		S_STR(b->name, v, "lat-vs-iops");
		b->njobs = ext ? LST_MAX_JOBSPECS : small ? 1 : 2;
		for (unsigned i = 0; i < b->njobs; i++) {
			struct lst_jobspec *j = &b->jobs[i];

			S_STR(j->target, v, i ? "ssd1" : "ssd0");
			S_STR(j->path, v,
			      i ? "/dev/disk/by-id/wwn-0x5000039a1b2c3d4f"
				: "/dev/disk/by-id/wwn-0x5000039a1b2c3d4e");
			S_STR(j->identity, v, i ? "" : "naa.5000039a1b2c3d4e");
			j->action = ext ? LST_ACTION_IDENTIFY : small ? 0 : i % 2;
			j->access = ext ? LST_ACCESS_ALL : small ? 0 : i % 2;
			s_workload(&j->w, v, i);
			/* the first job a verified write (EXTREME: every job). */
			j->has_stamp = ext || (!small && i == 0);
			if (j->has_stamp)
				j->stamp = (struct lst_stamp_spec){
					.target = ext ? UINT32_MAX : 0x811c9dc5u,
					.agent = ext ? UINT16_MAX : 1,
					.path = ext ? UINT16_MAX : (uint16_t)i,
					.gen = ext ? UINT16_MAX : 3,
				};
		}
		break;
	}
	case LST_MSG_PREPARED: {
		struct lst_msg_prepared *b = &m->u.prepared;

		b->phase = ext ? UINT32_MAX : small ? 0 : 3;
		b->point = ext ? UINT32_MAX : small ? 0 : 17;
		b->npaths = ext ? LST_MAX_JOBSPECS : small ? 0 : 2;
		for (unsigned i = 0; i < b->npaths; i++)
			s_identity(&b->paths[i], v, i);
		b->engine = ext ? LST_ENGINE_NULL : small ? 0 : LST_ENGINE_PSYNC;
		S_STR(b->warning, v, "io_uring unavailable (EPERM): using psync ");
		b->nstreams = ext ? LST_MAX_STREAMS : small ? 0 : 2;
		for (unsigned i = 0; i < b->nstreams; i++) {
			b->streams[i].spec = ext ? LST_MAX_JOBSPECS - 1 : i;
			s_stream(&b->streams[i].s, v, i);
		}
		break;
	}
	case LST_MSG_START:
		m->u.start.phase = ext ? UINT32_MAX : small ? 0 : 3;
		m->u.start.point = ext ? UINT32_MAX : small ? 0 : 17;
		m->u.start.t0 = ext ? INT64_MIN : small ? 0 : 5000123456789ll;
		m->u.start.nevents = ext ? LST_MAX_EVENTS : small ? 0 : 2;
		for (uint32_t i = 0; i < m->u.start.nevents; i++) {
			struct lst_event_req *e = &m->u.start.events[i];

			e->id = ext ? UINT32_MAX - i : i;
			s_name(e->hook, sizeof(e->hook), v, i % 2 ? "port_up" : "port_down");
			e->after = ext ? INT64_MAX - i : (3 + 3 * (int64_t)i) * LST_NS_PER_S;
		}
		break;
	case LST_MSG_STARTED:
		m->u.started.phase = ext ? UINT32_MAX : small ? 0 : 3;
		m->u.started.point = ext ? UINT32_MAX : small ? 0 : 17;
		m->u.started.t0 = ext ? INT64_MIN : small ? 0 : 5000123456789ll;
		m->u.started.actual = ext ? INT64_MAX : small ? 0 : 5000123459999ll;
		break;
	case LST_MSG_SAMPLE: {
		struct lst_msg_sample *b = &m->u.sample;

		b->phase = ext ? UINT32_MAX : small ? 0 : 3;
		b->point = ext ? UINT32_MAX : small ? 0 : 17;
		lst_sample_init(&b->s, ext ? INT64_MIN : small ? 0 : 41);
		b->s.start_ns = ext ? INT64_MIN : small ? 0 : 5041123456789ll;
		b->s.end_ns = ext ? INT64_MAX : small ? 0 : 5042123456789ll;
		b->s.flags = ext ? UINT32_MAX : small ? 0 : LST_SAMPLE_RAMP | LST_SAMPLE_LAST;
		for (int d = 0; d < LST_DIR_N; d++) {
			struct lst_dir_stats *s = &b->s.dir[d];

			s_hist(&s->lat, v, (unsigned)d);
			s->ios = ext ? UINT64_MAX : s->lat.count;
			s->bytes = ext ? UINT64_MAX - 1 : s->lat.count * 4096;
			s->errors = ext ? UINT64_MAX - 2 : small ? 0 : (uint64_t)d + 1;
		}
		/* Device counters: none (a regular file), two paths, or every path at its limit. */
		b->ndev = ext ? LST_DEVSTATS_MAX : small ? 0 : 2;
		for (uint32_t i = 0; i < b->ndev; i++) {
			struct lst_devstat *ds = &b->dev[i];
			uint64_t x = ext ? UINT64_MAX : 1000 + i;

			*ds = (struct lst_devstat){
				.path = ext ? UINT32_MAX : i,
				.reads = x,
				.read_merges = x / 10,
				.read_sectors = x * 8,
				.read_ms = x / 100,
				.writes = x / 2,
				.write_merges = 0,
				.write_sectors = x * 4,
				.write_ms = x / 50,
				.in_flight = ext ? x : 4,
				.io_ms = x / 3,
				.queue_ms = x * 2,
			};
		}
		/* Parts: none (one path), or every path at its limit. Their histograms stay
		 * empty: 64 full ones cannot fit a frame (lst_example_sample_split shows it). */
		if (ext) {
			b->nparts = LST_MAX_JOBSPECS;
			b->parts = lst_calloc(b->nparts, sizeof(*b->parts));
			for (uint32_t i = 0; i < b->nparts; i++)
				s_part_extreme(&b->parts[i], &b->s, i);
		}
		/* what a verifying read found, and where verified writes stand. */
		if (!small)
			b->s.verify = (struct lst_sample_verify){
				.ok = ext ? UINT64_MAX : 24000,
				.pending = ext ? UINT64_MAX : 12,
				.unwritten = ext ? UINT64_MAX : 100,
				.bad = ext ? UINT64_MAX : 1,
			};
		b->nmarks = ext ? LST_MAX_STREAMS : small ? 0 : 2;
		for (uint32_t i = 0; i < b->nmarks; i++)
			b->marks[i] = (struct lst_stream_mark){
				.stream = ext ? LST_MAX_STREAMS - 1 - i : i,
				.low = ext ? UINT64_MAX : 5000 + i,
				.issued = ext ? UINT64_MAX : 5032 + i,
				.werr = ext ? UINT64_MAX : i,
			};
		break;
	}
	case LST_MSG_DONE:
		m->u.done.phase = ext ? UINT32_MAX : small ? 0 : 3;
		m->u.done.point = ext ? UINT32_MAX : small ? 0 : 17;
		m->u.done.reason = ext ? LST_DONE_ERROR : small ? 0 : LST_DONE_STOPPED;
		m->u.done.last_interval = ext ? INT64_MIN : small ? -1 : 299;
		m->u.done.samples = ext ? UINT64_MAX : small ? 0 : 300;
		S_STR(m->u.done.text, v, "stopped by the coordinator ");
		m->u.done.events = ext ? UINT32_MAX : small ? 0 : 2;
		m->u.done.integrity = ext ? UINT32_MAX : small ? 0 : 1;
		m->u.done.bad_unreported = ext ? UINT64_MAX : small ? 0 : 17;
		break;
	case LST_MSG_STOP:
	case LST_MSG_STOPPED:
		m->u.stop.phase = ext ? UINT32_MAX : small ? 0 : 3;
		m->u.stop.point = ext ? UINT32_MAX : small ? 0 : 17;
		break;
	case LST_MSG_PING:
	case LST_MSG_PONG:
		m->u.ping.now = ext ? INT64_MIN : small ? 0 : 42424242424242ll;
		break;
	case LST_MSG_ACK:
		m->u.ack.upto = ext ? UINT64_MAX : small ? 0 : 31337;
		break;
	case LST_MSG_INVENTORY:
		m->u.inventory.from = ext ? UINT32_MAX : small ? 0 : 32;
		break;
	case LST_MSG_INVENTORY_REPLY: {
		struct lst_msg_inventory_reply *b = &m->u.inventory_reply;

		b->from = ext ? UINT32_MAX : small ? 0 : 32;
		b->total = ext ? UINT32_MAX : small ? 0 : 34;
		b->ndevices = ext ? LST_INV_PAGE : small ? 0 : 2;
		for (unsigned i = 0; i < b->ndevices; i++)
			s_inv_device(&b->devices[i], v, i);
		break;
	}
	case LST_MSG_HOOK:
		m->u.hook.kind = small ? LST_HOOK_HOOK : LST_HOOK_COLLECTOR;
		s_name(m->u.hook.name, sizeof(m->u.hook.name), v, "smart.sdb");
		m->u.hook.phase = ext ? UINT32_MAX : small ? 0 : 3;
		break;
	case LST_MSG_HOOK_DONE:
		m->u.hook_done.kind = small ? LST_HOOK_HOOK : LST_HOOK_COLLECTOR;
		s_name(m->u.hook_done.name, sizeof(m->u.hook_done.name), v, "smart.sdb");
		s_hook_result(&m->u.hook_done.r, v,
			      "{\"smartctl\": {\"exit_status\": 0}, \"power_on_time\": "
			      "{\"hours\": 8123}}\n");
		break;
	case LST_MSG_EVENT: {
		struct lst_msg_event *b = &m->u.event;

		b->phase = ext ? UINT32_MAX : small ? 0 : 3;
		b->point = ext ? UINT32_MAX : small ? 0 : 17;
		b->id = ext ? UINT32_MAX : small ? 0 : 1;
		s_name(b->hook, sizeof(b->hook), v, "port_down");
		b->at = ext ? INT64_MAX : small ? 0 : 5003123456789ll;
		s_hook_result(&b->r, v, "port 2 of /dev/sdb: offline\n");
		break;
	}
	case LST_MSG_KMSG:
		m->u.kmsg.op = small ? LST_KMSG_MARK : LST_KMSG_READ;
		break;
	case LST_MSG_KMSG_REPLY: {
		struct lst_msg_kmsg_reply *b = &m->u.kmsg_reply;

		b->op = small ? LST_KMSG_MARK : LST_KMSG_READ;
		b->dropped = ext ? UINT32_MAX : 0;
		S_STR(b->error, v, ext ? "/dev/kmsg: Permission denied " : "");
		s_bytes(&b->text, &b->text_len, LST_KMSG_TEXT_MAX, v,
			"[ 5003.123456] sd 2:0:0:0: [sdb] tag#12 FAILED Result: "
			"hostbyte=DID_NO_CONNECT\n[ 5003.123501] blk_update_request: I/O error, dev "
			"sdb, sector 2048\n");
		break;
	}
	case LST_MSG_JOURNAL: {
		struct lst_msg_journal *b = &m->u.journal;

		b->target = ext ? UINT32_MAX : small ? 0 : 0x811c9dc5u;
		b->nstreams = ext ? LST_JOURNAL_PAGE : small ? 0 : 3;
		b->from = ext ? UINT32_MAX - LST_JOURNAL_PAGE : small ? 0 : 128;
		b->total = ext ? UINT32_MAX : small ? 0 : 131;
		for (unsigned i = 0; i < b->nstreams; i++) {
			struct lst_journal_stream *j = &b->streams[i];

			s_stream(&j->s, v, i);
			j->gen = ext ? UINT16_MAX : 1 + i / 2;
			j->agent = ext ? UINT16_MAX : (uint16_t)(i % 2);
			j->path = ext ? UINT16_MAX : (uint16_t)i;
			j->issued = ext ? UINT64_MAX : 262144 + i;
			j->low = ext ? UINT64_MAX : i == 2 ? j->issued - 32 : j->issued;
			j->werr = ext ? UINT64_MAX : 0;
			j->complete = ext || i != 2;
		}
		break;
	}
	case LST_MSG_JOURNAL_OK:
		m->u.journal_ok.target = ext ? UINT32_MAX : small ? 0 : 0x811c9dc5u;
		m->u.journal_ok.have = ext ? UINT32_MAX : small ? 0 : 131;
		break;
	case LST_MSG_INTEGRITY: {
		struct lst_msg_integrity *b = &m->u.integrity;

		b->phase = ext ? UINT32_MAX : small ? 0 : 4;
		b->point = ext ? UINT32_MAX : small ? 0 : 0;
		b->nbad = ext ? LST_BAD_PER_MSG : small ? 1 : 2;
		for (unsigned i = 0; i < b->nbad; i++) {
			struct lst_bad_unit *u = &b->bad[i];

			u->spec = ext ? LST_MAX_JOBSPECS - 1 : i;
			u->offset = ext ? UINT64_MAX - i : small ? 0 : (1073741824ull + 4096 * i);
			u->kind = ext	  ? LST_VK_FUTURE
				  : small ? 0
				  : i	  ? LST_VK_CHECKSUM
					  : LST_VK_STALE;
			u->expected = ext ? UINT16_MAX : small ? 0 : 3;
			u->stamp_kind = ext	? LST_STAMP_TARGET
					: small ? 0
					: i	? LST_STAMP_CRC
						: LST_STAMP_OK;
			s_found(&u->found, v, i);
		}
		break;
	}
	case LST_MSG_BYE:
	case LST_MSG_TYPE_END:
		break;
	}
	return m;
}

/* Every bucket used, with counts that take two bytes each: a worst case an agent can meet. */
static void s_hist_wide(lst_hist *h, unsigned salt)
{
	lst_hist_init(h);
	for (unsigned i = 0; i < LST_HIST_NBUCKETS; i++)
		lst_hist_record_n(h, lst_hist_bucket_low(i), 128 + (i + salt) % 1000);
}

lst_msg *lst_example_sample_split(uint32_t nparts, bool wide)
{
	lst_msg *m = lst_msg_new(LST_MSG_SAMPLE);
	struct lst_msg_sample *b = &m->u.sample;

	LST_ASSERT(nparts >= 1 && nparts <= LST_MAX_JOBSPECS);
	b->phase = 3;
	b->point = 17;
	lst_sample_init(&b->s, 41);
	b->nparts = nparts;
	b->parts = lst_calloc(nparts, sizeof(*b->parts));
	for (uint32_t i = 0; i < nparts; i++) {
		lst_sample *s = &b->parts[i].s;

		/* Listed last path first: the order of the entries carries no meaning. */
		b->parts[i].path = nparts - 1 - i;
		lst_sample_init(s, 41);
		s->start_ns = 5041123456789ll + i * 1000;
		s->end_ns = 5042123456789ll - i * 1000;
		for (int d = 0; d < LST_DIR_N; d++) {
			struct lst_dir_stats *ds = &s->dir[d];

			if (wide)
				s_hist_wide(&ds->lat, 2 * i + (unsigned)d);
			else
				s_hist(&ds->lat, LST_EXAMPLE_TYPICAL, 2 * i + (unsigned)d);
			ds->ios = ds->lat.count;
			ds->errors = (uint64_t)d + i % 3;
			ds->bytes = (ds->ios - ds->errors) * 4096;
		}
		/* a verifying read's counts, adding up like the rest. */
		s->verify = (struct lst_sample_verify){
			.ok = 20000 + i, .pending = i % 2, .unwritten = 3 * i, .bad = i % 5 == 0
		};
		lst_sample_add(&b->s, s);
	}
	/* Four verified write jobs per path, at most LST_MAX_STREAMS (64 paths: all of them). */
	b->nmarks = nparts * 4 < LST_MAX_STREAMS ? nparts * 4 : LST_MAX_STREAMS;
	for (uint32_t i = 0; i < b->nmarks; i++)
		b->marks[i] = (struct lst_stream_mark){
			.stream = i, .low = 1000000 + 37 * i, .issued = 1000032 + 37 * i, .werr = 0
		};
	b->s.flags = LST_SAMPLE_LAST;
	for (uint32_t i = 0; i < nparts; i++)
		b->parts[i].s.flags = b->s.flags;
	return m;
}

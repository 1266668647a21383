/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The protocol codec against its contract (proto/lst_msg.h, proto/PROTOCOL.md).
 *
 * Every type round-trips with typical, extreme and minimal values, compared field by field.
 * Malformed input is built by hand with a tiny msgpack writer below (independent of msgpack-c)
 * or by patching encoded frames: a key renamed (missing key), an entry put in front of the map
 * (the decoder takes the first occurrence of a key, so this overrides a value). Every prefix of
 * a valid frame, frames over the size cap, frames claiming 4 GiB arrays, wrong types, long
 * strings, arrays over their bound, out-of-range workload values and random bytes must give an
 * error naming the place, never a crash.
 *
 * `test_msg SECTION` runs one section only (e.g. `valgrind test_msg huge`).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "lst_assert.h"
#include "lst_hist.h"
#include "lst_msg.h"
#include "lst_test.h"
#include "lst_workload.h"
#include "msg_examples.h"

/* --- a tiny msgpack writer for hand-made frames ----------------------------------------------- */

struct w {
	uint8_t b[LST_MSG_MAX_BYTES + 4096];
	size_t n;
};

static void w_raw(struct w *w, const void *p, size_t n)
{
	T_ASSERT(w->n + n <= sizeof(w->b));
	memcpy(w->b + w->n, p, n);
	w->n += n;
}

static void w_byte(struct w *w, uint8_t x)
{
	w_raw(w, &x, 1);
}

static void w_be(struct w *w, uint64_t v, unsigned bytes)
{
	for (unsigned i = bytes; i-- > 0;)
		w_byte(w, (uint8_t)(v >> (8 * i)));
}

static void w_map(struct w *w, uint32_t n)
{
	if (n < 16) {
		w_byte(w, 0x80 | n);
	} else {
		w_byte(w, 0xdf);
		w_be(w, n, 4);
	}
}

static void w_arr(struct w *w, uint32_t n)
{
	if (n < 16) {
		w_byte(w, 0x90 | n);
	} else {
		w_byte(w, 0xdd);
		w_be(w, n, 4);
	}
}

static void w_strn(struct w *w, const char *s, size_t n)
{
	w_byte(w, 0xdb); /* str 32: unusual but valid, unlike what msgpack-c writes */
	w_be(w, n, 4);
	w_raw(w, s, n);
}

static void w_str(struct w *w, const char *s)
{
	size_t n = strlen(s);

	if (n < 32) {
		w_byte(w, 0xa0 | (uint8_t)n);
		w_raw(w, s, n);
	} else {
		w_strn(w, s, n);
	}
}

static void w_uint(struct w *w, uint64_t v)
{
	if (v < 128) {
		w_byte(w, (uint8_t)v);
	} else {
		w_byte(w, 0xcf);
		w_be(w, v, 8);
	}
}

static void w_int(struct w *w, int64_t v)
{
	if (v >= 0) {
		w_uint(w, (uint64_t)v);
	} else {
		w_byte(w, 0xd3);
		w_be(w, (uint64_t)v, 8);
	}
}

static void w_bin(struct w *w, const void *p, uint32_t n)
{
	w_byte(w, 0xc6);
	w_be(w, n, 4);
	w_raw(w, p, n);
}

static struct w s_kv, s_out; /* large: static */

/* A new frame: the top-level map of frame with the entry in s_kv put first. */
static void s_prepend(const uint8_t *frame, size_t len, struct w *out)
{
	size_t hdr;
	uint32_t n;

	if ((frame[0] & 0xf0) == 0x80) {
		n = frame[0] & 0x0f;
		hdr = 1;
	} else {
		T_EQ_INT(frame[0], 0xde);
		n = (uint32_t)frame[1] << 8 | frame[2];
		hdr = 3;
	}
	out->n = 0;
	w_map(out, n + 1);
	w_raw(out, s_kv.b, s_kv.n);
	w_raw(out, frame + hdr, len - hdr);
}

/* Rename the first key `key` found after the first occurrence of `after` (NULL: anywhere). */
static void s_rename(uint8_t *frame, size_t len, const char *after, const char *key)
{
	size_t n = strlen(key), from = 0;

	if (after) {
		size_t an = strlen(after);

		for (; from + an + 1 <= len; from++)
			if (frame[from] == (0xa0 | an) && !memcmp(frame + from + 1, after, an))
				break;
		T_ASSERT(from + an + 1 <= len);
	}
	for (size_t i = from; i + n + 1 <= len; i++) {
		if (frame[i] == (0xa0 | n) && !memcmp(frame + i + 1, key, n)) {
			frame[i + 1] ^= 0x20; /* "seq" -> "Seq": an unknown key */
			return;
		}
	}
	T_FAIL("key '%s' not found in the frame", key);
}

/* --- helpers ---------------------------------------------------------------------------------- */

static uint8_t *s_encode(const lst_msg *m, size_t *len)
{
	uint8_t *buf = NULL;
	lst_err err = { 0 };
	int rc = lst_msg_encode(m, &buf, len, &err);

	if (rc)
		T_FAIL("encode %s: %d %s", lst_msg_type_name(m->type), rc, err.msg);
	T_ASSERT(buf && *len > 0 && *len <= LST_MSG_MAX_BYTES);
	return buf;
}

static lst_msg *s_decode_ok(const uint8_t *buf, size_t len)
{
	lst_msg *m = NULL;
	lst_err err = { 0 };
	int rc = lst_msg_decode(buf, len, &m, &err);

	if (rc)
		T_FAIL("decode: %d %s", rc, err.msg);
	T_ASSERT(m);
	return m;
}

/* Decode must fail with code and a message containing what. */
static void s_expect(const uint8_t *buf, size_t len, int code, const char *what)
{
	lst_msg *m = (lst_msg *)1;
	lst_err err = { 0 };
	int rc = lst_msg_decode(buf, len, &m, &err);

	if (rc != code)
		T_FAIL("decode gave %d (%s), expected %d with \"%s\"", rc, err.msg, code, what);
	T_ASSERT(m == NULL);
	T_EQ_INT(err.code, code);
	T_CONTAINS(err.msg, what);
}

/* s_kv holds one entry; prepend it to an encoded example and expect an error. */
static void s_expect_override(enum lst_msg_type type, int code, const char *what)
{
	lst_msg *m = lst_example_msg(type, LST_EXAMPLE_TYPICAL);
	size_t len;
	uint8_t *buf = s_encode(m, &len);

	s_prepend(buf, len, &s_out);
	s_expect(s_out.b, s_out.n, code, what);
	free(buf);
	lst_msg_destroy(&m);
}

static void s_job_action(struct w *w, uint64_t action);

/* --- field-by-field comparison ---------------------------------------------------------------- */

#define EQ_U(f) T_EQ_U64(a->f, b->f)
#define EQ_I(f) T_EQ_INT(a->f, b->f)
#define EQ_S(f) T_EQ_STR(a->f, b->f)

static void s_eq_workload(const struct lst_workload *a, const struct lst_workload *b)
{
	for (const struct lst_opt *o = lst_workload_opts; o->name; o++)
		if (lst_opt_get(o, a) != lst_opt_get(o, b))
			T_FAIL("workload %s: %lld != %lld", o->name, (long long)lst_opt_get(o, a),
			       (long long)lst_opt_get(o, b));
}

static void s_eq_identity(const struct lst_path_identity *a, const struct lst_path_identity *b)
{
	EQ_S(target);
	EQ_S(path);
	EQ_S(real_path);
	EQ_S(kind);
	EQ_S(wwn);
	EQ_S(serial);
	EQ_S(model);
	EQ_S(vendor);
	EQ_S(firmware);
	EQ_S(backing_file);
	EQ_U(size);
	EQ_U(lbs);
	EQ_U(pbs);
	EQ_U(dev);
	EQ_U(ino);
}

static void s_eq_inv_device(const struct lst_inv_device *a, const struct lst_inv_device *b)
{
	static const size_t strs[] = {
		offsetof(struct lst_inv_device, name),
		offsetof(struct lst_inv_device, node),
		offsetof(struct lst_inv_device, wwn),
		offsetof(struct lst_inv_device, serial),
		offsetof(struct lst_inv_device, vendor),
		offsetof(struct lst_inv_device, model),
		offsetof(struct lst_inv_device, firmware),
		offsetof(struct lst_inv_device, transport),
		offsetof(struct lst_inv_device, port),
		offsetof(struct lst_inv_device, nqn),
		offsetof(struct lst_inv_device, backing_file),
		offsetof(struct lst_inv_device, why),
	};

	for (size_t i = 0; i < LST_ARRAY_SIZE(strs); i++)
		T_EQ_STR((const char *)a + strs[i], (const char *)b + strs[i]);
	EQ_U(nlinks);
	for (unsigned k = 0; k < a->nlinks; k++)
		EQ_S(links[k]);
	EQ_U(links_omitted);
	EQ_U(size);
	EQ_U(lbs);
	EQ_U(pbs);
	EQ_U(rotational);
	EQ_U(backing_dev);
	EQ_U(backing_ino);
	EQ_U(in_use);
	EQ_U(allow_write);
}

static void s_eq_devstat(const struct lst_devstat *a, const struct lst_devstat *b)
{
	EQ_U(path);
	EQ_U(reads);
	EQ_U(read_merges);
	EQ_U(read_sectors);
	EQ_U(read_ms);
	EQ_U(writes);
	EQ_U(write_merges);
	EQ_U(write_sectors);
	EQ_U(write_ms);
	EQ_U(in_flight);
	EQ_U(io_ms);
	EQ_U(queue_ms);
}

static void s_eq_verify(const struct lst_sample_verify *a, const struct lst_sample_verify *b)
{
	EQ_U(ok);
	EQ_U(pending);
	EQ_U(unwritten);
	EQ_U(bad);
}

static void s_eq_part(const struct lst_sample_part *a, const struct lst_sample_part *b)
{
	T_EQ_U64(a->path, b->path);
	T_EQ_INT(a->s.interval, b->s.interval);
	T_EQ_INT(a->s.start_ns, b->s.start_ns);
	T_EQ_INT(a->s.end_ns, b->s.end_ns);
	T_EQ_U64(a->s.flags, b->s.flags);
	for (int d = 0; d < LST_DIR_N; d++) {
		T_EQ_U64(a->s.dir[d].ios, b->s.dir[d].ios);
		T_EQ_U64(a->s.dir[d].bytes, b->s.dir[d].bytes);
		T_EQ_U64(a->s.dir[d].errors, b->s.dir[d].errors);
		T_ASSERT(lst_hist_equal(&a->s.dir[d].lat, &b->s.dir[d].lat));
	}
	s_eq_verify(&a->s.verify, &b->s.verify);
}

/* Heap bytes: both NULL when empty, else the same n bytes and a NUL after them. */
static void s_eq_bytes(const char *a, const char *b, uint32_t n)
{
	if (!n) {
		T_ASSERT(a == NULL && b == NULL);
		return;
	}
	T_ASSERT(a && b && a != b);
	T_ASSERT(!memcmp(a, b, n));
	T_EQ_INT(a[n], 0);
	T_EQ_INT(b[n], 0);
}

static void s_eq_hook_result(const struct lst_hook_result *a, const struct lst_hook_result *b)
{
	EQ_I(start);
	EQ_I(end);
	EQ_I(status);
	EQ_U(truncated);
	EQ_S(text);
	EQ_U(output_len);
	s_eq_bytes(a->output, b->output, a->output_len);
}

/* Data integrity: a verified write job, as PREPARED lists it. */
static void s_eq_stream(const struct lst_stream *a, const struct lst_stream *b)
{
	EQ_U(seed);
	EQ_U(lo);
	EQ_U(hi);
	EQ_U(bs);
	EQ_U(random);
	EQ_U(read_pct);
	EQ_U(job);
}

static void s_eq_journal_stream(const struct lst_journal_stream *a,
				const struct lst_journal_stream *b)
{
	s_eq_stream(&a->s, &b->s);
	EQ_U(gen);
	EQ_U(agent);
	EQ_U(path);
	EQ_U(low);
	EQ_U(issued);
	EQ_U(werr);
	EQ_U(complete);
}

static void s_eq_mark(const struct lst_stream_mark *a, const struct lst_stream_mark *b)
{
	EQ_U(stream);
	EQ_U(low);
	EQ_U(issued);
	EQ_U(werr);
}

static void s_eq_bad_unit(const struct lst_bad_unit *a, const struct lst_bad_unit *b)
{
	EQ_U(spec);
	EQ_U(offset);
	EQ_U(kind);
	EQ_U(expected);
	EQ_U(stamp_kind);
	EQ_U(found.magic);
	EQ_U(found.target);
	EQ_U(found.agent);
	EQ_U(found.path);
	EQ_U(found.gen);
	EQ_U(found.crc);
	EQ_U(found.lba);
	EQ_I(found.t_ns);
	EQ_U(found.seq);
}

static void s_eq(const lst_msg *a, const lst_msg *b)
{
	EQ_U(type);
	EQ_U(seq);
	EQ_U(id);
	EQ_U(re);
	switch (a->type) {
	case LST_MSG_HELLO:
		EQ_U(u.hello.proto);
		EQ_U(u.hello.ncaps);
		for (unsigned i = 0; i < a->u.hello.ncaps; i++)
			EQ_S(u.hello.caps[i]);
		EQ_S(u.hello.coordinator);
		EQ_S(u.hello.run);
		EQ_U(u.hello.lease_ms);
		break;
	case LST_MSG_WELCOME:
		EQ_U(u.welcome.proto);
		EQ_U(u.welcome.ncaps);
		for (unsigned i = 0; i < a->u.welcome.ncaps; i++)
			EQ_S(u.welcome.caps[i]);
		EQ_S(u.welcome.name);
		EQ_S(u.welcome.version);
		EQ_S(u.welcome.host);
		EQ_S(u.welcome.kernel);
		EQ_U(u.welcome.cores);
		EQ_U(u.welcome.engines);
		EQ_I(u.welcome.now);
		EQ_U(u.welcome.instance);
		EQ_U(u.welcome.resumed);
		EQ_U(u.welcome.nhooks);
		for (unsigned i = 0; i < a->u.welcome.nhooks; i++)
			EQ_S(u.welcome.hooks[i]);
		EQ_U(u.welcome.ncollectors);
		for (unsigned i = 0; i < a->u.welcome.ncollectors; i++)
			EQ_S(u.welcome.collectors[i]);
		break;
	case LST_MSG_ERROR:
		EQ_I(u.error.code);
		EQ_S(u.error.text);
		break;
	case LST_MSG_SYNC:
		EQ_I(u.sync.t1);
		break;
	case LST_MSG_SYNC_REPLY:
		EQ_I(u.sync_reply.t1);
		EQ_I(u.sync_reply.t2);
		EQ_I(u.sync_reply.t3);
		break;
	case LST_MSG_PREPARE:
		EQ_S(u.prepare.run);
		EQ_U(u.prepare.phase);
		EQ_U(u.prepare.point);
		EQ_S(u.prepare.name);
		EQ_U(u.prepare.njobs);
		for (unsigned i = 0; i < a->u.prepare.njobs; i++) {
			EQ_S(u.prepare.jobs[i].target);
			EQ_S(u.prepare.jobs[i].path);
			EQ_S(u.prepare.jobs[i].identity);
			EQ_U(u.prepare.jobs[i].action);
			EQ_U(u.prepare.jobs[i].access);
			s_eq_workload(&a->u.prepare.jobs[i].w, &b->u.prepare.jobs[i].w);
			EQ_U(u.prepare.jobs[i].has_stamp);
			EQ_U(u.prepare.jobs[i].stamp.target);
			EQ_U(u.prepare.jobs[i].stamp.agent);
			EQ_U(u.prepare.jobs[i].stamp.path);
			EQ_U(u.prepare.jobs[i].stamp.gen);
		}
		break;
	case LST_MSG_PREPARED:
		EQ_U(u.prepared.phase);
		EQ_U(u.prepared.point);
		EQ_U(u.prepared.npaths);
		for (unsigned i = 0; i < a->u.prepared.npaths; i++)
			s_eq_identity(&a->u.prepared.paths[i], &b->u.prepared.paths[i]);
		EQ_U(u.prepared.engine);
		EQ_S(u.prepared.warning);
		EQ_U(u.prepared.nstreams);
		for (unsigned i = 0; i < a->u.prepared.nstreams; i++) {
			EQ_U(u.prepared.streams[i].spec);
			s_eq_stream(&a->u.prepared.streams[i].s, &b->u.prepared.streams[i].s);
		}
		break;
	case LST_MSG_START:
		EQ_U(u.start.phase);
		EQ_U(u.start.point);
		EQ_I(u.start.t0);
		EQ_U(u.start.nevents);
		for (unsigned i = 0; i < a->u.start.nevents; i++) {
			EQ_U(u.start.events[i].id);
			EQ_S(u.start.events[i].hook);
			EQ_I(u.start.events[i].after);
		}
		break;
	case LST_MSG_STARTED:
		EQ_U(u.started.phase);
		EQ_U(u.started.point);
		EQ_I(u.started.t0);
		EQ_I(u.started.actual);
		break;
	case LST_MSG_SAMPLE:
		EQ_U(u.sample.phase);
		EQ_U(u.sample.point);
		EQ_I(u.sample.s.interval);
		EQ_I(u.sample.s.start_ns);
		EQ_I(u.sample.s.end_ns);
		EQ_U(u.sample.s.flags);
		for (int d = 0; d < LST_DIR_N; d++) {
			EQ_U(u.sample.s.dir[d].ios);
			EQ_U(u.sample.s.dir[d].bytes);
			EQ_U(u.sample.s.dir[d].errors);
			T_ASSERT(lst_hist_equal(&a->u.sample.s.dir[d].lat,
						&b->u.sample.s.dir[d].lat));
		}
		EQ_U(u.sample.ndev);
		for (unsigned i = 0; i < a->u.sample.ndev; i++)
			s_eq_devstat(&a->u.sample.dev[i], &b->u.sample.dev[i]);
		EQ_U(u.sample.nparts);
		for (unsigned i = 0; i < a->u.sample.nparts; i++)
			s_eq_part(&a->u.sample.parts[i], &b->u.sample.parts[i]);
		s_eq_verify(&a->u.sample.s.verify, &b->u.sample.s.verify);
		EQ_U(u.sample.nmarks);
		for (unsigned i = 0; i < a->u.sample.nmarks; i++)
			s_eq_mark(&a->u.sample.marks[i], &b->u.sample.marks[i]);
		break;
	case LST_MSG_DONE:
		EQ_U(u.done.phase);
		EQ_U(u.done.point);
		EQ_U(u.done.reason);
		EQ_I(u.done.last_interval);
		EQ_U(u.done.samples);
		EQ_S(u.done.text);
		EQ_U(u.done.events);
		EQ_U(u.done.integrity);
		EQ_U(u.done.bad_unreported);
		break;
	case LST_MSG_STOP:
	case LST_MSG_STOPPED:
		EQ_U(u.stop.phase);
		EQ_U(u.stop.point);
		break;
	case LST_MSG_PING:
	case LST_MSG_PONG:
		EQ_I(u.ping.now);
		break;
	case LST_MSG_ACK:
		EQ_U(u.ack.upto);
		break;
	case LST_MSG_BYE:
		break;
	case LST_MSG_INVENTORY:
		EQ_U(u.inventory.from);
		break;
	case LST_MSG_INVENTORY_REPLY:
		EQ_U(u.inventory_reply.from);
		EQ_U(u.inventory_reply.total);
		EQ_U(u.inventory_reply.ndevices);
		for (unsigned i = 0; i < a->u.inventory_reply.ndevices; i++)
			s_eq_inv_device(&a->u.inventory_reply.devices[i],
					&b->u.inventory_reply.devices[i]);
		break;
	case LST_MSG_HOOK:
		EQ_U(u.hook.kind);
		EQ_S(u.hook.name);
		EQ_U(u.hook.phase);
		break;
	case LST_MSG_HOOK_DONE:
		EQ_U(u.hook_done.kind);
		EQ_S(u.hook_done.name);
		s_eq_hook_result(&a->u.hook_done.r, &b->u.hook_done.r);
		break;
	case LST_MSG_EVENT:
		EQ_U(u.event.phase);
		EQ_U(u.event.point);
		EQ_U(u.event.id);
		EQ_S(u.event.hook);
		EQ_I(u.event.at);
		s_eq_hook_result(&a->u.event.r, &b->u.event.r);
		break;
	case LST_MSG_KMSG:
		EQ_U(u.kmsg.op);
		break;
	case LST_MSG_KMSG_REPLY:
		EQ_U(u.kmsg_reply.op);
		EQ_U(u.kmsg_reply.dropped);
		EQ_S(u.kmsg_reply.error);
		EQ_U(u.kmsg_reply.text_len);
		s_eq_bytes(a->u.kmsg_reply.text, b->u.kmsg_reply.text, a->u.kmsg_reply.text_len);
		break;
	case LST_MSG_JOURNAL:
		EQ_U(u.journal.target);
		EQ_U(u.journal.from);
		EQ_U(u.journal.total);
		EQ_U(u.journal.nstreams);
		for (unsigned i = 0; i < a->u.journal.nstreams; i++)
			s_eq_journal_stream(&a->u.journal.streams[i], &b->u.journal.streams[i]);
		break;
	case LST_MSG_JOURNAL_OK:
		EQ_U(u.journal_ok.target);
		EQ_U(u.journal_ok.have);
		break;
	case LST_MSG_INTEGRITY:
		EQ_U(u.integrity.phase);
		EQ_U(u.integrity.point);
		EQ_U(u.integrity.nbad);
		for (unsigned i = 0; i < a->u.integrity.nbad; i++)
			s_eq_bad_unit(&a->u.integrity.bad[i], &b->u.integrity.bad[i]);
		break;
	default:
		T_FAIL("unknown type %u", (unsigned)a->type);
	}
}

/* --- sections --------------------------------------------------------------------------------- */

static void s_test_names(void)
{
	static const char *const names[] = {
		NULL,	      "hello",		 "welcome",    "error",	    "sync",   "sync_reply",
		"prepare",    "prepared",	 "start",      "started",   "sample", "done",
		"stop",	      "stopped",	 "ping",       "pong",	    "ack",    "bye",
		"inventory",  "inventory_reply", "hook",       "hook_done", "event",  "kmsg",
		"kmsg_reply", "journal",	 "journal_ok", "integrity"
	};

	T_EQ_INT(LST_ARRAY_SIZE(names), LST_MSG_TYPE_END);
	for (uint32_t t = 1; t < LST_MSG_TYPE_END; t++) {
		T_EQ_STR(lst_msg_type_name(t), names[t]);
		T_EQ_U64(lst_msg_type_from_name(names[t], strlen(names[t])), t);
	}
	T_EQ_STR(lst_msg_type_name(0), "?");
	T_EQ_STR(lst_msg_type_name(LST_MSG_TYPE_END), "?");
	T_EQ_STR(lst_msg_type_name(UINT32_MAX), "?");
	T_EQ_STR(lst_msg_done_reason_name(LST_DONE_COMPLETE), "complete");
	T_EQ_STR(lst_msg_done_reason_name(LST_DONE_LEASE), "lease");
	T_EQ_STR(lst_msg_done_reason_name(LST_DONE_ERROR), "error");
	T_EQ_STR(lst_msg_done_reason_name(LST_DONE_ERROR + 1), "?");
	T_EQ_U64(lst_msg_type_from_name("hell", 4), 0);
	T_EQ_U64(lst_msg_type_from_name("hello", 4), 0);
	T_EQ_U64(lst_msg_type_from_name("helloo", 6), 0);
	T_EQ_U64(lst_msg_type_from_name("HELLO", 5), 0);
	T_EQ_U64(lst_msg_type_from_name("", 0), 0);
	T_EQ_U64(lst_msg_type_from_name("stop", 4), LST_MSG_STOP); /* not "stopped" */

	T_ASSERT(lst_msg_new(0) == NULL);
	T_ASSERT(lst_msg_new(LST_MSG_TYPE_END) == NULL);
	{
		lst_msg *m = lst_msg_new(LST_MSG_PREPARE);

		T_ASSERT(m);
		T_EQ_INT(m->type, LST_MSG_PREPARE);
		T_EQ_U64(m->seq + m->id + m->re + m->u.prepare.njobs, 0);
		lst_msg_destroy(&m);
		T_ASSERT(m == NULL);
		lst_msg_destroy(&m); /* safe twice */
		lst_msg_destroy(NULL);
	}
}

static void s_test_roundtrip(void)
{
	for (uint32_t t = 1; t < LST_MSG_TYPE_END; t++) {
		for (int v = 0; v < LST_EXAMPLE_N; v++) {
			lst_msg *m = lst_example_msg(t, v), *d;
			size_t len, len2;
			uint8_t *buf = s_encode(m, &len), *buf2;

			d = s_decode_ok(buf, len);
			s_eq(m, d);
			/* The encoding is canonical: decoded and encoded again, the same bytes. */
			buf2 = s_encode(d, &len2);
			T_EQ_U64(len2, len);
			T_ASSERT(!memcmp(buf, buf2, len));
			if (v == LST_EXAMPLE_EXTREME &&
			    (t == LST_MSG_PREPARE || t == LST_MSG_PREPARED || t == LST_MSG_SAMPLE ||
			     t == LST_MSG_INVENTORY_REPLY || t == LST_MSG_HOOK_DONE ||
			     t == LST_MSG_EVENT || t == LST_MSG_KMSG_REPLY || t == LST_MSG_START ||
			     t == LST_MSG_WELCOME || t == LST_MSG_JOURNAL ||
			     t == LST_MSG_INTEGRITY))
				printf("largest %s: %zu bytes (cap %d)\n", lst_msg_type_name(t),
				       len, LST_MSG_MAX_BYTES);
			free(buf2);
			free(buf);
			lst_msg_destroy(&d);
			lst_msg_destroy(&m);
		}
	}
	/* A typical sample is small: the histogram's sparse encoding works. */
	{
		lst_msg *m = lst_example_msg(LST_MSG_SAMPLE, LST_EXAMPLE_TYPICAL);
		size_t len;
		uint8_t *buf = s_encode(m, &len);

		T_ASSERT(len < 2000);
		free(buf);
		lst_msg_destroy(&m);
	}
	/* lease_ms, now and t0 values at awkward msgpack boundaries. */
	{
		static const int64_t vals[] = {
			0,	1,	   127,	      128,	 255,	     256,	 65535,
			65536,	-1,	   -32,	      -33,	 -128,	     -129,	 -32768,
			-32769, INT32_MIN, INT64_MIN, INT64_MAX, 4294967295, 4294967296,
		};

		for (size_t i = 0; i < LST_ARRAY_SIZE(vals); i++) {
			lst_msg *m = lst_msg_new(LST_MSG_STARTED), *d;
			size_t len;
			uint8_t *buf;

			m->seq = (uint64_t)vals[i];
			m->u.started.t0 = vals[i];
			m->u.started.actual = vals[i] == INT64_MIN ? INT64_MAX : -vals[i];
			buf = s_encode(m, &len);
			d = s_decode_ok(buf, len);
			s_eq(m, d);
			free(buf);
			lst_msg_destroy(&d);
			lst_msg_destroy(&m);
		}
	}
}

static void s_test_truncated(void)
{
	static const struct {
		enum lst_msg_type t;
		enum lst_example v;
	} cases[] = {
		{ LST_MSG_HELLO, LST_EXAMPLE_TYPICAL },	  { LST_MSG_WELCOME, LST_EXAMPLE_TYPICAL },
		{ LST_MSG_PREPARE, LST_EXAMPLE_TYPICAL }, { LST_MSG_PREPARED, LST_EXAMPLE_TYPICAL },
		{ LST_MSG_SAMPLE, LST_EXAMPLE_TYPICAL },  { LST_MSG_SAMPLE, LST_EXAMPLE_EXTREME },
		{ LST_MSG_DONE, LST_EXAMPLE_EXTREME },	  { LST_MSG_BYE, LST_EXAMPLE_SMALL },
		{ LST_MSG_ACK, LST_EXAMPLE_EXTREME },
	};

	for (size_t c = 0; c < LST_ARRAY_SIZE(cases); c++) {
		lst_msg *m = lst_example_msg(cases[c].t, cases[c].v);
		size_t len;
		uint8_t *buf = s_encode(m, &len);

		for (size_t n = 0; n < len; n++) {
			/* A copy of exactly n bytes, so reading past it is caught by ASan. */
			uint8_t *p = malloc(n ? n : 1);
			lst_msg *d = (lst_msg *)1;
			lst_err err;
			int rc;

			memcpy(p, buf, n);
			rc = lst_msg_decode(p, n, &d, &err);
			if (rc != -EBADMSG)
				T_FAIL("%s: prefix %zu of %zu: %d %s",
				       lst_msg_type_name(cases[c].t), n, len, rc,
				       rc ? err.msg : "decoded");
			T_ASSERT(d == NULL);
			free(p);
		}
		free(buf);
		lst_msg_destroy(&m);
	}
}

static void s_test_size(void)
{
	uint8_t *big = calloc(1, LST_MSG_MAX_BYTES + 1);
	lst_msg *m = lst_example_msg(LST_MSG_PING, LST_EXAMPLE_TYPICAL), *d;
	size_t len, room;
	uint8_t *buf = s_encode(m, &len);

	/* Over the cap: refused before looking at a byte. */
	s_expect(big, LST_MSG_MAX_BYTES + 1, -EMSGSIZE, "exceeds");
	s_expect(big, SIZE_MAX, -EMSGSIZE, "exceeds");
	s_expect(NULL, 0, -EBADMSG, "empty");
	s_expect(buf, 0, -EBADMSG, "empty");

	/* Exactly at the cap: a valid ping padded with an unknown bin key decodes. */
	/* The fixmap header keeps its size; the entry adds "pad" (4), a bin 32 header (5), room. */
	room = LST_MSG_MAX_BYTES - 1 - len - 4 - 5;
	s_kv.n = 0;
	w_str(&s_kv, "pad");
	w_bin(&s_kv, big, (uint32_t)room);
	s_prepend(buf, len, &s_out);
	T_EQ_U64(s_out.n, LST_MSG_MAX_BYTES - 1);
	/* One byte more: a longer bin; now exactly at the cap. */
	s_kv.n = 0;
	w_str(&s_kv, "pad");
	w_bin(&s_kv, big, (uint32_t)room + 1);
	s_prepend(buf, len, &s_out);
	T_EQ_U64(s_out.n, LST_MSG_MAX_BYTES);
	d = s_decode_ok(s_out.b, s_out.n);
	s_eq(m, d);
	lst_msg_destroy(&d);
	/* And over it. */
	s_kv.n = 0;
	w_str(&s_kv, "pad");
	w_bin(&s_kv, big, (uint32_t)room + 2);
	s_prepend(buf, len, &s_out);
	s_expect(s_out.b, s_out.n, -EMSGSIZE, "exceeds 262144");

	free(buf);
	free(big);
	lst_msg_destroy(&m);
}

static double s_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void s_test_huge(void)
{
	/* Markers claiming up to 4 G elements or bytes, with nothing behind them. */
	static const uint8_t frames[][6] = {
		{ 0xdd, 0xff, 0xff, 0xff, 0xff },	/* array 32 */
		{ 0xdf, 0xff, 0xff, 0xff, 0xff },	/* map 32 */
		{ 0xdb, 0xff, 0xff, 0xff, 0xff },	/* str 32 */
		{ 0xc6, 0xff, 0xff, 0xff, 0xff },	/* bin 32 */
		{ 0xc9, 0xff, 0xff, 0xff, 0xff, 0x01 }, /* ext 32 */
		{ 0xdc, 0xff, 0xff },			/* array 16 */
		{ 0xde, 0xff, 0xff },			/* map 16 */
		{ 0x91, 0xdd, 0xff, 0xff, 0xff, 0xff }, /* nested */
	};
	static const uint8_t lens[] = { 5, 5, 5, 5, 6, 3, 3, 6 };
	double t = s_now();

	for (size_t i = 0; i < LST_ARRAY_SIZE(frames); i++)
		s_expect(frames[i], lens[i], -EBADMSG, "claims");

	/* Inside an otherwise valid message, as the value of an unknown key. */
	for (size_t i = 0; i < LST_ARRAY_SIZE(frames); i++) {
		s_kv.n = 0;
		w_str(&s_kv, "evil");
		w_raw(&s_kv, frames[i], lens[i]);
		s_expect_override(LST_MSG_SYNC, -EBADMSG, "claims");
	}
	/* A map of 2^31 pairs in a frame just under the cap: still refused by the count. */
	{
		uint8_t *p = calloc(1, LST_MSG_MAX_BYTES);

		memcpy(p, "\xdf\x80\x00\x00\x00", 5);
		s_expect(p, LST_MSG_MAX_BYTES, -EBADMSG, "claims 4294967296 elements");
		/* Many real elements: [0 x (cap-5)] is well-formed but not a map. */
		memcpy(p, "\xdd\x00\x03\xff\xfb", 5);
		s_expect(p, LST_MSG_MAX_BYTES, -EBADMSG, "not a msgpack map");
		free(p);
	}
	T_ASSERT(s_now() - t < 5.0);
}

static void s_test_malformed(void)
{
	static struct w w;

	/* Not a map. */
	w.n = 0;
	w_arr(&w, 1);
	w_str(&w, "hello");
	s_expect(w.b, w.n, -EBADMSG, "message: not a msgpack map");
	s_expect((const uint8_t *)"\x05", 1, -EBADMSG, "not a msgpack map");
	/* 0xc1 is never used. */
	s_expect((const uint8_t *)"\x81\xa4type\xc1", 7, -EBADMSG, "invalid msgpack byte 0xc1");
	/* Trailing bytes after the map. */
	{
		lst_msg *m = lst_example_msg(LST_MSG_ACK, LST_EXAMPLE_TYPICAL);
		size_t len;
		uint8_t *buf = s_encode(m, &len);

		w.n = 0;
		w_raw(&w, buf, len);
		w_byte(&w, 0xc0);
		s_expect(w.b, w.n, -EBADMSG, "1 bytes after the top-level object");
		free(buf);
		lst_msg_destroy(&m);
	}
	/* Type: missing, not a string, unknown, unprintable. */
	w.n = 0;
	w_map(&w, 1);
	w_str(&w, "seq");
	w_uint(&w, 1);
	s_expect(w.b, w.n, -EBADMSG, "message: missing key 'type'");
	w.n = 0;
	w_map(&w, 1);
	w_str(&w, "type");
	w_uint(&w, LST_MSG_HELLO);
	s_expect(w.b, w.n, -EBADMSG, "message: key 'type' must be a string");
	w.n = 0;
	w_map(&w, 1);
	w_str(&w, "type");
	w_str(&w, "launch");
	s_expect(w.b, w.n, -EBADMSG, "message: unknown type 'launch'");
	w.n = 0;
	w_map(&w, 1);
	w_str(&w, "type");
	w_strn(&w, "he\nllo\0\xff", 8);
	s_expect(w.b, w.n, -EBADMSG,
		 "message: unknown type 'he?llo?"
		 "?'");
	/* Nesting: 16 levels are fine inside an unknown key, 17 are not. */
	for (int depth = 15; depth <= 16; depth++) {
		s_kv.n = 0;
		w_str(&s_kv, "deep");
		for (int i = 0; i < depth; i++)
			w_arr(&s_kv, 1);
		w_uint(&s_kv, 7);
		if (depth == 15) {
			lst_msg *m = lst_example_msg(LST_MSG_PING, LST_EXAMPLE_TYPICAL), *d;
			size_t len;
			uint8_t *buf = s_encode(m, &len);

			s_prepend(buf, len, &s_out);
			d = s_decode_ok(s_out.b, s_out.n);
			s_eq(m, d);
			lst_msg_destroy(&d);
			lst_msg_destroy(&m);
			free(buf);
		} else {
			s_expect_override(LST_MSG_PING, -EBADMSG, "nested deeper than 16");
		}
	}
	/* Deep nesting of maps at the top, far beyond msgpack-c's own 32-level stack. */
	w.n = 0;
	for (int i = 0; i < 1000; i++) {
		w_map(&w, 1);
		w_str(&w, "a");
	}
	w_uint(&w, 1);
	s_expect(w.b, w.n, -EBADMSG, "nested deeper");
}

/* Prepend key: value (value written by the caller after this) to a typical message. */
static void s_kv_key(const char *key)
{
	s_kv.n = 0;
	w_str(&s_kv, key);
}

static void s_test_wrong_types(void)
{
	s_kv_key("seq");
	w_str(&s_kv, "1");
	s_expect_override(LST_MSG_PING, -EBADMSG, "ping: key 'seq' must be an unsigned integer");
	s_kv_key("id");
	w_int(&s_kv, -1);
	s_expect_override(LST_MSG_STOP, -EBADMSG, "stop: key 'id' must be an unsigned integer");
	s_kv_key("proto");
	w_str(&s_kv, "1");
	s_expect_override(LST_MSG_HELLO, -EBADMSG,
			  "hello: key 'proto' must be an unsigned integer");
	s_kv_key("caps");
	w_map(&s_kv, 0);
	s_expect_override(LST_MSG_WELCOME, -EBADMSG, "welcome: key 'caps' must be an array");
	s_kv_key("caps");
	w_arr(&s_kv, 2);
	w_str(&s_kv, "a");
	w_uint(&s_kv, 2);
	s_expect_override(LST_MSG_HELLO, -EBADMSG, "hello: key 'caps[1]' must be a string");
	s_kv_key("t0");
	w_byte(&s_kv, 0xcb); /* float 64: 1.5 */
	w_be(&s_kv, 0x3ff8000000000000ull, 8);
	s_expect_override(LST_MSG_START, -EBADMSG, "start: key 't0' must be an integer");
	s_kv_key("t1");
	w_byte(&s_kv, 0xc0); /* nil */
	s_expect_override(LST_MSG_SYNC, -EBADMSG, "sync: key 't1' must be an integer");
	s_kv_key("text");
	w_bin(&s_kv, "abc", 3);
	s_expect_override(LST_MSG_ERROR, -EBADMSG, "error: key 'text' must be a string");
	s_kv_key("code");
	w_byte(&s_kv, 0xc3); /* true */
	s_expect_override(LST_MSG_ERROR, -EBADMSG, "error: key 'code' must be an integer");
	s_kv_key("jobs");
	w_arr(&s_kv, 1);
	w_uint(&s_kv, 1);
	s_expect_override(LST_MSG_PREPARE, -EBADMSG, "prepare: key 'jobs[0]' must be a map");
	s_kv_key("jobs");
	w_str(&s_kv, "all");
	s_expect_override(LST_MSG_PREPARE, -EBADMSG, "prepare: key 'jobs' must be an array");
	s_kv_key("read");
	w_arr(&s_kv, 0);
	s_expect_override(LST_MSG_SAMPLE, -EBADMSG, "sample: key 'read' must be a map");
	s_kv_key("write");
	w_map(&s_kv, 4);
	w_str(&s_kv, "ios");
	w_uint(&s_kv, 1);
	w_str(&s_kv, "bytes");
	w_uint(&s_kv, 1);
	w_str(&s_kv, "errors");
	w_uint(&s_kv, 0);
	w_str(&s_kv, "hist");
	w_str(&s_kv, "\x01\x00");
	s_expect_override(LST_MSG_SAMPLE, -EBADMSG, "sample: key 'write.hist' must be binary");
	s_kv_key("paths");
	w_arr(&s_kv, 1);
	w_map(&s_kv, 0);
	s_expect_override(LST_MSG_PREPARED, -EBADMSG, "prepared: missing key 'paths[0].target'");
	s_kv_key("upto");
	w_int(&s_kv, INT64_MIN);
	s_expect_override(LST_MSG_ACK, -EBADMSG, "ack: key 'upto' must be an unsigned integer");

	/* Right type, value out of range for the field. */
	s_kv_key("phase");
	w_uint(&s_kv, 1ull << 32);
	s_expect_override(LST_MSG_STOP, -EINVAL,
			  "stop: key 'phase' is 4294967296, at most 4294967295");
	s_kv_key("code");
	w_int(&s_kv, (int64_t)INT32_MIN - 1);
	s_expect_override(LST_MSG_ERROR, -EINVAL, "error: key 'code' is -2147483649");
	s_kv_key("now");
	w_uint(&s_kv, (uint64_t)INT64_MAX + 1);
	s_expect_override(LST_MSG_PONG, -EINVAL, "pong: key 'now' is out of range");
	s_kv_key("reason");
	w_uint(&s_kv, LST_DONE_ERROR + 1);
	s_expect_override(LST_MSG_DONE, -EINVAL, "done: key 'reason' is 4, at most 3");
	s_kv_key("jobs");
	w_arr(&s_kv, 1);
	s_job_action(&s_kv, LST_ACTION_IDENTIFY + 1);
	s_expect_override(LST_MSG_PREPARE, -EINVAL,
			  "prepare: key 'jobs[0].action' is 4, at most 3");
	s_kv_key("jobs");
	w_arr(&s_kv, 1);
	w_map(&s_kv, 6);
	w_str(&s_kv, "target");
	w_str(&s_kv, "t");
	w_str(&s_kv, "path");
	w_str(&s_kv, "/dev/loop0");
	w_str(&s_kv, "identity");
	w_str(&s_kv, "");
	w_str(&s_kv, "action");
	w_uint(&s_kv, LST_ACTION_IDENTIFY);
	w_str(&s_kv, "access");
	w_uint(&s_kv, LST_ACCESS_ALL + 1);
	w_str(&s_kv, "workload");
	w_map(&s_kv, 0);
	s_expect_override(LST_MSG_PREPARE, -EINVAL,
			  "prepare: key 'jobs[0].access' is 4, at most 3");
	s_kv_key("engine");
	w_uint(&s_kv, LST_ENGINE_NULL + 1);
	s_expect_override(LST_MSG_PREPARED, -EINVAL, "prepared: key 'engine' is 3, at most 2");

	/* A histogram that does not add up: lst_hist_decode's message, with the key. */
	{
		static const uint8_t hist[] = { 1, 5, 0, 1, 9, 15, 0, 0, 0, 1, 3, 4 };

		s_kv_key("read");
		w_map(&s_kv, 4);
		w_str(&s_kv, "ios");
		w_uint(&s_kv, 1);
		w_str(&s_kv, "bytes");
		w_uint(&s_kv, 1);
		w_str(&s_kv, "errors");
		w_uint(&s_kv, 0);
		w_str(&s_kv, "hist");
		w_bin(&s_kv, hist, sizeof(hist));
		s_expect_override(LST_MSG_SAMPLE, -EINVAL, "sample: key 'read.hist': histogram:");
	}
}

static void s_test_missing(void)
{
	static const struct {
		enum lst_msg_type t;
		const char *keys[10];
	} cases[] = {
		{ LST_MSG_HELLO, { "proto", "caps", "coordinator", "run", "lease_ms" } },
		{ LST_MSG_WELCOME,
		  { "proto", "caps", "name", "version", "host", "kernel", "cores", "engines",
		    "now" } },
		{ LST_MSG_ERROR, { "code", "text" } },
		{ LST_MSG_SYNC, { "t1" } },
		{ LST_MSG_SYNC_REPLY, { "t1", "t2", "t3" } },
		{ LST_MSG_PREPARE, { "run", "phase", "point", "name", "jobs" } },
		{ LST_MSG_PREPARED, { "phase", "point", "paths", "engine", "warning" } },
		{ LST_MSG_START, { "phase", "point", "t0" } },
		{ LST_MSG_STARTED, { "phase", "point", "t0", "actual" } },
		{ LST_MSG_SAMPLE,
		  { "phase", "point", "interval", "start", "end", "flags", "read", "write" } },
		{ LST_MSG_DONE,
		  { "phase", "point", "reason", "last_interval", "samples", "text" } },
		{ LST_MSG_STOP, { "phase", "point" } },
		{ LST_MSG_STOPPED, { "phase", "point" } },
		{ LST_MSG_PING, { "now" } },
		{ LST_MSG_PONG, { "now" } },
		{ LST_MSG_ACK, { "upto" } },
		{ LST_MSG_BYE, { NULL } },
		{ LST_MSG_INVENTORY, { "from" } },
		{ LST_MSG_INVENTORY_REPLY, { "from", "total", "devices" } },
		{ LST_MSG_HOOK, { "kind", "name", "phase" } },
		{ LST_MSG_HOOK_DONE, { "kind", "name", "result" } },
		{ LST_MSG_EVENT, { "phase", "point", "event_id", "hook", "at", "result" } },
		{ LST_MSG_KMSG, { "op" } },
		{ LST_MSG_KMSG_REPLY, { "op", "dropped", "error", "text" } },
		{ LST_MSG_JOURNAL, { "target", "from", "total", "streams" } },
		{ LST_MSG_JOURNAL_OK, { "target", "have" } },
		{ LST_MSG_INTEGRITY, { "phase", "point", "bad" } },
	};
	/* Nested keys: (type, key after which to rename, key, expected path). */
	static const struct {
		enum lst_msg_type t;
		const char *after, *key, *path;
	} nested[] = {
		{ LST_MSG_PREPARE, "jobs", "target", "jobs[0].target" },
		{ LST_MSG_PREPARE, "jobs", "path", "jobs[0].path" },
		{ LST_MSG_PREPARE, "jobs", "identity", "jobs[0].identity" },
		{ LST_MSG_PREPARE, "jobs", "action", "jobs[0].action" },
		{ LST_MSG_PREPARE, "jobs", "workload", "jobs[0].workload" },
		{ LST_MSG_PREPARED, "paths", "wwn", "paths[0].wwn" },
		{ LST_MSG_PREPARED, "paths", "ino", "paths[0].ino" },
		{ LST_MSG_PREPARED, "paths", "backing_file", "paths[0].backing_file" },
		{ LST_MSG_SAMPLE, "read", "ios", "read.ios" },
		{ LST_MSG_SAMPLE, "read", "hist", "read.hist" },
		{ LST_MSG_SAMPLE, "write", "errors", "write.errors" },
		{ LST_MSG_INVENTORY_REPLY, "devices", "links", "devices[0].links" },
		{ LST_MSG_INVENTORY_REPLY, "devices", "in_use", "devices[0].in_use" },
		{ LST_MSG_INVENTORY_REPLY, "devices", "allow_write", "devices[0].allow_write" },
		{ LST_MSG_START, "events", "id", "events[0].id" },
		{ LST_MSG_START, "events", "hook", "events[0].hook" },
		{ LST_MSG_START, "events", "after", "events[0].after" },
		{ LST_MSG_HOOK_DONE, "result", "start", "result.start" },
		{ LST_MSG_HOOK_DONE, "result", "end", "result.end" },
		{ LST_MSG_HOOK_DONE, "result", "status", "result.status" },
		{ LST_MSG_HOOK_DONE, "result", "truncated", "result.truncated" },
		{ LST_MSG_HOOK_DONE, "result", "text", "result.text" },
		{ LST_MSG_HOOK_DONE, "result", "output", "result.output" },
		{ LST_MSG_EVENT, "result", "status", "result.status" },
		{ LST_MSG_EVENT, "result", "output", "result.output" },
		/* data integrity */
		{ LST_MSG_PREPARE, "stamp", "gen", "jobs[0].stamp.gen" },
		{ LST_MSG_PREPARE, "stamp", "agent", "jobs[0].stamp.agent" },
		{ LST_MSG_PREPARED, "streams", "spec", "streams[0].spec" },
		{ LST_MSG_PREPARED, "streams", "seed", "streams[0].seed" },
		{ LST_MSG_PREPARED, "streams", "read_pct", "streams[0].read_pct" },
		{ LST_MSG_SAMPLE, "marks", "issued", "marks[0].issued" },
		{ LST_MSG_SAMPLE, "verify", "unwritten", "verify.unwritten" },
		{ LST_MSG_JOURNAL, "streams", "bs", "streams[0].bs" },
		{ LST_MSG_JOURNAL, "streams", "gen", "streams[0].gen" },
		{ LST_MSG_JOURNAL, "streams", "complete", "streams[0].complete" },
		{ LST_MSG_INTEGRITY, "bad", "stamp_kind", "bad[0].stamp_kind" },
		{ LST_MSG_INTEGRITY, "found", "t_ns", "bad[0].found.t_ns" },
	};
	char want[128];
	int checked = 0;

	T_EQ_INT(LST_ARRAY_SIZE(cases), LST_MSG_TYPE_END - 1);
	for (size_t c = 0; c < LST_ARRAY_SIZE(cases); c++) {
		static const char *const envelope[] = { "seq", "id", "re" };
		lst_msg *m = lst_example_msg(cases[c].t, LST_EXAMPLE_TYPICAL);
		const char *name = lst_msg_type_name(cases[c].t);
		size_t len;
		uint8_t *buf = s_encode(m, &len);

		for (size_t k = 0; k < 3 + LST_ARRAY_SIZE(cases[c].keys); k++) {
			const char *key = k < 3 ? envelope[k] : cases[c].keys[k - 3];
			uint8_t *p;

			if (!key)
				break;
			p = malloc(len);
			memcpy(p, buf, len);
			s_rename(p, len, NULL, key);
			snprintf(want, sizeof(want), "%s: missing key '%s'", name, key);
			s_expect(p, len, -EBADMSG, want);
			free(p);
			checked++;
		}
		/* And the type itself. */
		s_rename(buf, len, NULL, "type");
		s_expect(buf, len, -EBADMSG, "message: missing key 'type'");
		free(buf);
		lst_msg_destroy(&m);
	}
	for (size_t c = 0; c < LST_ARRAY_SIZE(nested); c++) {
		lst_msg *m = lst_example_msg(nested[c].t, LST_EXAMPLE_TYPICAL);
		size_t len;
		uint8_t *buf = s_encode(m, &len);

		s_rename(buf, len, nested[c].after, nested[c].key);
		snprintf(want, sizeof(want), "%s: missing key '%s'", lst_msg_type_name(nested[c].t),
			 nested[c].path);
		s_expect(buf, len, -EBADMSG, want);
		free(buf);
		lst_msg_destroy(&m);
		checked++;
	}
	T_ASSERT(checked > 80);

	/* The one optional key: a job spec's access, added after protocol 1 shipped. Absent, it
	 * is 0 (read), so a PREPARE from an older coordinator still decodes. */
	{
		lst_msg *m = lst_example_msg(LST_MSG_PREPARE, LST_EXAMPLE_TYPICAL), *d = NULL;
		size_t len;
		uint8_t *buf;
		lst_err err;

		m->u.prepare.jobs[0].access = LST_ACCESS_ALL;
		m->u.prepare.jobs[1].access = LST_ACCESS_WRITE;
		buf = s_encode(m, &len);
		s_rename(buf, len, "jobs", "access");
		T_EQ_INT(lst_msg_decode(buf, len, &d, &err), 0);
		T_EQ_U64(d->u.prepare.jobs[0].access, LST_ACCESS_READ);
		T_EQ_U64(d->u.prepare.jobs[1].access, LST_ACCESS_WRITE);
		lst_msg_destroy(&d);
		free(buf);
		lst_msg_destroy(&m);
	}
	/* WELCOME's instance and resumed, added the same way: absent (an older agent), both 0. */
	{
		lst_msg *m = lst_example_msg(LST_MSG_WELCOME, LST_EXAMPLE_TYPICAL), *d = NULL;
		size_t len;
		uint8_t *buf;
		lst_err err;

		T_ASSERT(m->u.welcome.instance && m->u.welcome.resumed);
		buf = s_encode(m, &len);
		T_EQ_INT(lst_msg_decode(buf, len, &d, &err), 0);
		T_EQ_U64(d->u.welcome.instance, m->u.welcome.instance);
		T_EQ_U64(d->u.welcome.resumed, 1);
		lst_msg_destroy(&d);
		s_rename(buf, len, NULL, "instance");
		s_rename(buf, len, NULL, "resumed");
		T_EQ_INT(lst_msg_decode(buf, len, &d, &err), 0);
		T_EQ_U64(d->u.welcome.instance, 0);
		T_EQ_U64(d->u.welcome.resumed, 0);
		T_EQ_STR(d->u.welcome.name, m->u.welcome.name);
		lst_msg_destroy(&d);
		free(buf);
		lst_msg_destroy(&m);
	}
}

/* A complete path identity map with the given kind. */
static void s_identity_map(struct w *w, const char *kind)
{
	static const char *const keys[] = { "target", "path",	  "real_path",
					    "wwn",    "serial",	  "model",
					    "vendor", "firmware", "backing_file" };

	w_map(w, 15);
	for (size_t i = 0; i < LST_ARRAY_SIZE(keys); i++) {
		w_str(w, keys[i]);
		w_str(w, "x");
	}
	w_str(w, "kind");
	w_str(w, kind);
	w_str(w, "size");
	w_uint(w, 4096);
	w_str(w, "lbs");
	w_uint(w, 512);
	w_str(w, "pbs");
	w_uint(w, 512);
	w_str(w, "dev");
	w_uint(w, 1);
	w_str(w, "ino");
	w_uint(w, 2);
}

static void s_test_long_strings(void)
{
	static char s[LST_TEXT_MAX + 2];

	memset(s, 'x', sizeof(s) - 1);
	/* One byte too long for a char[64]: 64 bytes leave no room for the NUL. */
	s_kv_key("run");
	w_strn(&s_kv, s, LST_RUN_ID_MAX);
	s_expect_override(LST_MSG_HELLO, -EINVAL, "hello: key 'run' is longer than 63 bytes");
	/* 63 is fine. */
	{
		lst_msg *m = lst_example_msg(LST_MSG_HELLO, LST_EXAMPLE_TYPICAL), *d;
		size_t len;
		uint8_t *buf = s_encode(m, &len);

		s_kv_key("run");
		w_strn(&s_kv, s, LST_RUN_ID_MAX - 1);
		s_prepend(buf, len, &s_out);
		d = s_decode_ok(s_out.b, s_out.n);
		T_EQ_U64(strlen(d->u.hello.run), LST_RUN_ID_MAX - 1);
		lst_msg_destroy(&d);
		lst_msg_destroy(&m);
		free(buf);
	}
	s_kv_key("text");
	w_strn(&s_kv, s, LST_TEXT_MAX);
	s_expect_override(LST_MSG_ERROR, -EINVAL, "error: key 'text' is longer than 1023 bytes");
	s_kv_key("caps");
	w_arr(&s_kv, 2);
	w_str(&s_kv, "ok");
	w_strn(&s_kv, s, LST_NAME_MAX);
	s_expect_override(LST_MSG_WELCOME, -EINVAL, "welcome: key 'caps[1]' is longer than 63");
	/* A NUL inside a string would silently shorten it. */
	s_kv_key("name");
	w_strn(&s_kv, "ph\0ase", 6);
	s_expect_override(LST_MSG_PREPARE, -EINVAL, "prepare: key 'name' contains a NUL byte");
	/* Nested: a job's path. */
	s_kv_key("jobs");
	w_arr(&s_kv, 1);
	w_map(&s_kv, 5);
	w_str(&s_kv, "target");
	w_str(&s_kv, "t");
	w_str(&s_kv, "path");
	w_strn(&s_kv, s, LST_PATH_MAX);
	w_str(&s_kv, "identity");
	w_str(&s_kv, "");
	w_str(&s_kv, "action");
	w_uint(&s_kv, 0);
	w_str(&s_kv, "workload");
	w_map(&s_kv, 0);
	s_expect_override(LST_MSG_PREPARE, -EINVAL,
			  "prepare: key 'jobs[0].path' is longer than 1023 bytes");
	/* kind is a char[16]: 16 bytes do not fit, 15 do. */
	s_kv_key("paths");
	w_arr(&s_kv, 2);
	s_identity_map(&s_kv, "block-15-bytes!");
	s_identity_map(&s_kv, "block-but-longer");
	s_expect_override(LST_MSG_PREPARED, -EINVAL,
			  "prepared: key 'paths[1].kind' is longer than 15 bytes");
}

/* A job spec map with the given action and an empty workload. */
static void s_job_action(struct w *w, uint64_t action)
{
	w_map(w, 5);
	w_str(w, "target");
	w_str(w, "ssd0");
	w_str(w, "path");
	w_str(w, "/dev/loop0");
	w_str(w, "identity");
	w_str(w, "");
	w_str(w, "action");
	w_uint(w, action);
	w_str(w, "workload");
	w_map(w, 0);
}

/* A job spec map with the given workload entries written by the caller (n of them). */
static void s_job(struct w *w, uint32_t nwork)
{
	w_map(w, 5);
	w_str(w, "target");
	w_str(w, "ssd0");
	w_str(w, "path");
	w_str(w, "/dev/loop0");
	w_str(w, "identity");
	w_str(w, "");
	w_str(w, "action");
	w_uint(w, LST_ACTION_IO);
	w_str(w, "workload");
	w_map(w, nwork);
}

static void s_test_arrays(void)
{
	/* 65 job specs: one over LST_MAX_JOBSPECS. */
	s_kv_key("jobs");
	w_arr(&s_kv, LST_MAX_JOBSPECS + 1);
	for (int i = 0; i <= LST_MAX_JOBSPECS; i++)
		s_job(&s_kv, 0);
	s_expect_override(LST_MSG_PREPARE, -EINVAL,
			  "prepare: key 'jobs' has 65 entries, allowed 1 to 64");
	/* None at all. */
	s_kv_key("jobs");
	w_arr(&s_kv, 0);
	s_expect_override(LST_MSG_PREPARE, -EINVAL,
			  "prepare: key 'jobs' has 0 entries, allowed 1 to 64");
	/* 64 minimal job specs: fine, and every workload is the table's defaults. */
	{
		lst_msg *m = lst_example_msg(LST_MSG_PREPARE, LST_EXAMPLE_TYPICAL), *d;
		struct lst_workload def;
		size_t len;
		uint8_t *buf = s_encode(m, &len);

		s_kv_key("jobs");
		w_arr(&s_kv, LST_MAX_JOBSPECS);
		for (int i = 0; i < LST_MAX_JOBSPECS; i++)
			s_job(&s_kv, 0);
		s_prepend(buf, len, &s_out);
		d = s_decode_ok(s_out.b, s_out.n);
		T_EQ_U64(d->u.prepare.njobs, LST_MAX_JOBSPECS);
		lst_workload_init(&def);
		for (int i = 0; i < LST_MAX_JOBSPECS; i++) {
			T_EQ_STR(d->u.prepare.jobs[i].path, "/dev/loop0");
			s_eq_workload(&d->u.prepare.jobs[i].w, &def);
		}
		lst_msg_destroy(&d);
		lst_msg_destroy(&m);
		free(buf);
	}
	/* 17 capabilities. */
	s_kv_key("caps");
	w_arr(&s_kv, LST_MAX_CAPS + 1);
	for (int i = 0; i <= LST_MAX_CAPS; i++)
		w_str(&s_kv, "c");
	s_expect_override(LST_MSG_HELLO, -EINVAL,
			  "hello: key 'caps' has 17 entries, allowed 0 to 16");
	/* 65 path identities. */
	s_kv_key("paths");
	w_arr(&s_kv, LST_MAX_JOBSPECS + 1);
	for (int i = 0; i <= LST_MAX_JOBSPECS; i++)
		w_map(&s_kv, 0);
	s_expect_override(LST_MSG_PREPARED, -EINVAL, "prepared: key 'paths' has 65 entries");
	/* 33 inventory devices: beyond a page. */
	s_kv_key("devices");
	w_arr(&s_kv, LST_INV_PAGE + 1);
	for (int i = 0; i <= LST_INV_PAGE; i++)
		w_map(&s_kv, 0);
	s_expect_override(LST_MSG_INVENTORY_REPLY, -EINVAL,
			  "inventory_reply: key 'devices' has 33 entries, allowed 0 to 32");
}

static void s_test_workload(void)
{
	static const struct {
		const char *key;
		int64_t v;     /* integer value, or */
		const char *s; /* a string value */
		int code;
		const char *what;
	} cases[] = {
		{ "bs", 100, NULL, -EINVAL,
		  "prepare: key 'jobs[0].workload.bs': bs must be between" },
		{ "bs", (32 << 20), NULL, -EINVAL, "key 'jobs[0].workload.bs'" },
		{ "iodepth", 0, NULL, -EINVAL, "key 'jobs[0].workload.iodepth': iodepth must be" },
		{ "jobs", 257, NULL, -EINVAL, "key 'jobs[0].workload.jobs'" },
		{ "rwmixread", 101, NULL, -EINVAL, "key 'jobs[0].workload.rwmixread'" },
		{ "interval", 1000, NULL, -EINVAL, "key 'jobs[0].workload.interval'" },
		{ "direct", 2, NULL, -EINVAL,
		  "key 'jobs[0].workload.direct': direct must be true" },
		{ "pattern", 101, NULL, -EINVAL, "key 'jobs[0].workload.pattern'" },
		{ "seed", -1, NULL, -EINVAL, "key 'jobs[0].workload.seed'" },
		{ "offset", -4096, NULL, -EINVAL, "key 'jobs[0].workload.offset'" },
		{ "rw", 0, "sideways", -EINVAL,
		  "key 'jobs[0].workload.rw' must be one of read|write|randread" },
		{ "rw", 0, "READ", -EINVAL, "key 'jobs[0].workload.rw' must be one of" },
		{ "engine", 0, "spdk", -EINVAL, "key 'jobs[0].workload.engine' must be one of" },
		{ "rw", 2, NULL, -EBADMSG, "key 'jobs[0].workload.rw' must be a string" },
		{ "bs", 0, "4k", -EBADMSG, "key 'jobs[0].workload.bs' must be an integer" },
	};

	for (size_t c = 0; c < LST_ARRAY_SIZE(cases); c++) {
		s_kv_key("jobs");
		w_arr(&s_kv, 1);
		s_job(&s_kv, 1);
		w_str(&s_kv, cases[c].key);
		if (cases[c].s)
			w_str(&s_kv, cases[c].s);
		else
			w_int(&s_kv, cases[c].v);
		s_expect_override(LST_MSG_PREPARE, cases[c].code, cases[c].what);
	}
	/* In a later job, the index is right. */
	s_kv_key("jobs");
	w_arr(&s_kv, 3);
	s_job(&s_kv, 0);
	s_job(&s_kv, 0);
	s_job(&s_kv, 1);
	w_str(&s_kv, "bs");
	w_uint(&s_kv, 100);
	s_expect_override(LST_MSG_PREPARE, -EINVAL, "prepare: key 'jobs[2].workload.bs'");

	/* Accepted: present keys applied, absent keys default, unknown keys ignored, booleans. */
	{
		lst_msg *m = lst_example_msg(LST_MSG_PREPARE, LST_EXAMPLE_TYPICAL), *d;
		struct lst_workload want;
		size_t len;
		uint8_t *buf = s_encode(m, &len);

		s_kv_key("jobs");
		w_arr(&s_kv, 1);
		s_job(&s_kv, 5);
		w_str(&s_kv, "bs");
		w_uint(&s_kv, 131072);
		w_str(&s_kv, "rw");
		w_str(&s_kv, "write");
		w_str(&s_kv, "direct");
		w_byte(&s_kv, 0xc2); /* false */
		w_str(&s_kv, "compression");
		w_str(&s_kv, "lz4");
		w_str(&s_kv, "runtime");
		w_int(&s_kv, 60 * 1000000000ll);
		s_prepend(buf, len, &s_out);
		d = s_decode_ok(s_out.b, s_out.n);
		lst_workload_init(&want);
		want.bs = 131072;
		want.rw = LST_RW_WRITE;
		want.direct = 0;
		want.runtime = 60 * 1000000000ll;
		s_eq_workload(&d->u.prepare.jobs[0].w, &want);
		lst_msg_destroy(&d);
		lst_msg_destroy(&m);
		free(buf);
	}
}

static void s_test_unknown_keys(void)
{
	/* Unknown keys of every msgpack kind, at the top and nested, change nothing. */
	for (uint32_t t = 1; t < LST_MSG_TYPE_END; t++) {
		lst_msg *m = lst_example_msg(t, LST_EXAMPLE_TYPICAL), *d;
		size_t len;
		uint8_t *buf = s_encode(m, &len);

		s_kv_key("future");
		w_map(&s_kv, 3);
		w_str(&s_kv, "list");
		w_arr(&s_kv, 3);
		w_byte(&s_kv, 0xc0);
		w_byte(&s_kv, 0xcb);
		w_be(&s_kv, 0x400921fb54442d18ull, 8);
		w_byte(&s_kv, 0xd4); /* fixext 1 */
		w_byte(&s_kv, 0x05);
		w_byte(&s_kv, 0x2a);
		w_uint(&s_kv, 5); /* a non-string key */
		w_bin(&s_kv, "xyz", 3);
		w_str(&s_kv, "type");
		w_str(&s_kv, "not the envelope");
		s_prepend(buf, len, &s_out);
		d = s_decode_ok(s_out.b, s_out.n);
		s_eq(m, d);
		lst_msg_destroy(&d);
		lst_msg_destroy(&m);
		free(buf);
	}
	/* Unknown keys inside a sample direction and a path identity. */
	{
		lst_msg *m = lst_example_msg(LST_MSG_PREPARED, LST_EXAMPLE_SMALL), *d;
		size_t len;
		uint8_t *buf = s_encode(m, &len);
		static const char *const keys[] = { "target",	   "path",   "real_path",
						    "kind",	   "wwn",    "serial",
						    "model",	   "vendor", "firmware",
						    "backing_file" };

		s_kv_key("paths");
		w_arr(&s_kv, 1);
		w_map(&s_kv, 16);
		w_str(&s_kv, "nvme_ns");
		w_uint(&s_kv, 1);
		for (size_t i = 0; i < LST_ARRAY_SIZE(keys); i++) {
			w_str(&s_kv, keys[i]);
			w_str(&s_kv, keys[i]);
		}
		w_str(&s_kv, "size");
		w_uint(&s_kv, 1ull << 40);
		w_str(&s_kv, "lbs");
		w_uint(&s_kv, 4096);
		w_str(&s_kv, "pbs");
		w_uint(&s_kv, 4096);
		w_str(&s_kv, "dev");
		w_uint(&s_kv, 7);
		w_str(&s_kv, "ino");
		w_uint(&s_kv, 9);
		s_prepend(buf, len, &s_out);
		d = s_decode_ok(s_out.b, s_out.n);
		T_EQ_U64(d->u.prepared.npaths, 1);
		T_EQ_STR(d->u.prepared.paths[0].wwn, "wwn");
		T_EQ_STR(d->u.prepared.paths[0].backing_file, "backing_file");
		T_EQ_U64(d->u.prepared.paths[0].size, 1ull << 40);
		T_EQ_U64(d->u.prepared.paths[0].ino, 9);
		lst_msg_destroy(&d);
		lst_msg_destroy(&m);
		free(buf);
	}
}

/* A HELLO envelope, proto, and caps as a string (a "changed meaning" in another version). */
static void s_hello_other(struct w *w, uint64_t proto)
{
	w->n = 0;
	w_map(w, 6);
	w_str(w, "type");
	w_str(w, "hello");
	w_str(w, "seq");
	w_uint(w, 1);
	w_str(w, "id");
	w_uint(w, 5);
	w_str(w, "re");
	w_uint(w, 0);
	w_str(w, "proto");
	w_uint(w, proto);
	w_str(w, "caps");
	w_str(w, "a changed meaning");
}

static void s_test_version(void)
{
	static struct w w;
	lst_msg *d;

	/* A HELLO from another protocol version: only proto is read, so the agent can answer
	 * LST_PERR_VERSION instead of "missing key". */
	s_hello_other(&w, LST_PROTO_VERSION + 1);
	d = s_decode_ok(w.b, w.n);
	T_EQ_INT(d->type, LST_MSG_HELLO);
	T_EQ_U64(d->id, 5);
	T_EQ_U64(d->u.hello.proto, LST_PROTO_VERSION + 1);
	T_EQ_U64(d->u.hello.ncaps, 0);
	T_EQ_STR(d->u.hello.run, "");
	lst_msg_destroy(&d);
	s_hello_other(&w, 0);
	d = s_decode_ok(w.b, w.n);
	T_EQ_U64(d->u.hello.proto, 0);
	lst_msg_destroy(&d);
	/* The same with this version is a bad message. */
	s_hello_other(&w, LST_PROTO_VERSION);
	s_expect(w.b, w.n, -EBADMSG, "hello: key 'caps' must be an array");
	/* A version that does not fit the field is still an error. */
	s_hello_other(&w, 1ull << 32);
	s_expect(w.b, w.n, -EINVAL, "hello: key 'proto' is 4294967296");
	/* Without proto at all: missing key. */
	w.n = 0;
	w_map(&w, 4);
	w_str(&w, "type");
	w_str(&w, "welcome");
	w_str(&w, "seq");
	w_uint(&w, 1);
	w_str(&w, "id");
	w_uint(&w, 0);
	w_str(&w, "re");
	w_uint(&w, 5);
	s_expect(w.b, w.n, -EBADMSG, "welcome: missing key 'proto'");
}

static void s_test_encode_errors(void)
{
	static const struct {
		enum lst_msg_type t;
		const char *what;
	} cases[] = {
		{ LST_MSG_PREPARE, "prepare: key 'jobs' has 0 entries" },
		{ LST_MSG_PREPARE, "prepare: key 'jobs' has 65 entries" },
		{ LST_MSG_PREPARE, "prepare: key 'jobs[1].workload.bs': bs must be between" },
		{ LST_MSG_PREPARE, "prepare: key 'jobs[0].workload.rw': rw: choice 9" },
		{ LST_MSG_PREPARE, "prepare: key 'jobs[1].action' holds an unknown value" },
		{ LST_MSG_PREPARE, "prepare: key 'name' is not NUL-terminated" },
		{ LST_MSG_HELLO, "hello: key 'caps' has more entries" },
		{ LST_MSG_WELCOME,
		  "welcome: key 'caps' holds a string that is not NUL-terminated" },
		{ LST_MSG_PREPARED, "prepared: key 'paths' has 65 entries" },
		{ LST_MSG_PREPARED, "prepared: key 'paths[1].kind' is not NUL-terminated" },
		{ LST_MSG_DONE, "done: key 'reason' holds an unknown value" },
		{ LST_MSG_SAMPLE, "sample: key 'write.hist': histogram: " },
	};

	for (size_t c = 0; c < LST_ARRAY_SIZE(cases); c++) {
		lst_msg *m = lst_example_msg(cases[c].t, LST_EXAMPLE_TYPICAL);
		uint8_t *buf = (uint8_t *)1;
		size_t len = 1;
		lst_err err = { 0 };
		int rc;

		switch (c) {
		case 0:
			m->u.prepare.njobs = 0;
			break;
		case 1:
			m->u.prepare.njobs = LST_MAX_JOBSPECS + 1;
			break;
		case 2:
			m->u.prepare.jobs[1].w.bs = 100;
			break;
		case 3:
			m->u.prepare.jobs[0].w.rw = 9;
			break;
		case 4:
			m->u.prepare.jobs[1].action = LST_ACTION_IDENTIFY + 1;
			break;
		case 5:
			memset(m->u.prepare.name, 'n', sizeof(m->u.prepare.name));
			break;
		case 6:
			m->u.hello.ncaps = LST_MAX_CAPS + 1;
			break;
		case 7:
			memset(m->u.welcome.caps[2], 'c', LST_NAME_MAX);
			break;
		case 8:
			m->u.prepared.npaths = LST_MAX_JOBSPECS + 1;
			break;
		case 9:
			memset(m->u.prepared.paths[1].kind, 'k', 16);
			break;
		case 10:
			m->u.done.reason = 4;
			break;
		case 11:
			m->u.sample.s.dir[1].lat.buckets[100]++;
			break;
		}
		rc = lst_msg_encode(m, &buf, &len, &err);
		if (rc != -EINVAL)
			T_FAIL("case %zu: encode gave %d, expected -EINVAL", c, rc);
		T_ASSERT(buf == NULL && len == 0);
		T_CONTAINS(err.msg, cases[c].what);
		lst_msg_destroy(&m);
	}
	/* An unknown type. */
	{
		lst_msg *m = lst_msg_new(LST_MSG_BYE);
		uint8_t *buf;
		size_t len;
		lst_err err;

		m->type = LST_MSG_TYPE_END;
		T_EQ_INT(lst_msg_encode(m, &buf, &len, &err), -EINVAL);
		T_CONTAINS(err.msg, "unknown type");
		lst_msg_destroy(&m);
	}
}

static uint64_t s_rng = 0x853c49e6748fea9bull;

static uint64_t s_rand(void)
{
	s_rng ^= s_rng >> 12;
	s_rng ^= s_rng << 25;
	s_rng ^= s_rng >> 27;
	return s_rng * 2685821657736338717ull;
}

/* Whatever decodes must encode again and decode to the same encoding. */
static void s_check_any(const uint8_t *p, size_t n, unsigned *ok)
{
	lst_msg *m = NULL, *m2;
	lst_err err;
	uint8_t *b1, *b2;
	size_t n1, n2;

	if (lst_msg_decode(p, n, &m, &err)) {
		T_ASSERT(m == NULL);
		T_ASSERT(err.msg[0] != '\0');
		return;
	}
	(*ok)++;
	b1 = s_encode(m, &n1);
	m2 = s_decode_ok(b1, n1);
	s_eq(m, m2);
	b2 = s_encode(m2, &n2);
	T_ASSERT(n1 == n2 && !memcmp(b1, b2, n1));
	free(b1);
	free(b2);
	lst_msg_destroy(&m);
	lst_msg_destroy(&m2);
}

static void s_test_garbage(void)
{
	static uint8_t p[4096];
	uint8_t *frames[LST_MSG_TYPE_END][2];
	size_t lens[LST_MSG_TYPE_END][2];
	unsigned ok = 0;

	/* Random bytes; a map marker in front half of the time, so decoding gets further. */
	for (int i = 0; i < 100000; i++) {
		size_t n = s_rand() % 300;

		for (size_t k = 0; k < n; k++)
			p[k] = (uint8_t)s_rand();
		if (n && i % 2)
			p[0] = 0x80 | (p[0] & 0x0f);
		s_check_any(p, n, &ok);
	}
	/* Valid frames with a few bytes changed. */
	for (uint32_t t = 1; t < LST_MSG_TYPE_END; t++) {
		for (int v = 0; v < 2; v++) {
			lst_msg *m = lst_example_msg(t, v == 0 ? LST_EXAMPLE_TYPICAL
							       : LST_EXAMPLE_SMALL);

			frames[t][v] = s_encode(m, &lens[t][v]);
			lst_msg_destroy(&m);
		}
	}
	for (int i = 0; i < 100000; i++) {
		uint32_t t = 1 + (uint32_t)(s_rand() % (LST_MSG_TYPE_END - 1));
		int v = (int)(s_rand() % 2);
		size_t n = lens[t][v];
		int flips = 1 + (int)(s_rand() % 4);

		if (n > sizeof(p))
			continue;
		memcpy(p, frames[t][v], n);
		for (int f = 0; f < flips; f++) {
			size_t at = s_rand() % n;

			switch (s_rand() % 3) {
			case 0:
				p[at] = (uint8_t)s_rand();
				break;
			case 1:
				p[at] ^= (uint8_t)(1u << (s_rand() % 8));
				break;
			case 2:
				p[at] = (uint8_t[]){ 0x00, 0x7f, 0x80, 0xc0, 0xcc,
						     0xd9, 0xdd, 0xdf, 0xff }[s_rand() % 9];
				break;
			}
		}
		s_check_any(p, n, &ok);
	}
	for (uint32_t t = 1; t < LST_MSG_TYPE_END; t++)
		for (int v = 0; v < 2; v++)
			free(frames[t][v]);
	printf("garbage: %u of 200000 inputs decoded, all re-encoded\n", ok);
	T_ASSERT(ok > 0);
}

/*
 * SAMPLE's optional "dev": a sample without device counters is the frame it always was (no
 * "dev" key, so peers that predate it are unaffected), one that omits it decodes to none, and
 * more entries than there can be paths are refused.
 */
static void s_test_devstats(void)
{
	lst_msg *m = lst_example_msg(LST_MSG_SAMPLE, LST_EXAMPLE_TYPICAL), *d = NULL;
	size_t len;
	uint8_t *buf;
	lst_err err;

	m->u.sample.ndev = 0;
	buf = s_encode(m, &len);
	T_ASSERT(!memmem(buf, len,
			 "\xa3"
			 "dev",
			 4));
	T_EQ_INT(lst_msg_decode(buf, len, &d, &err), 0);
	T_EQ_U64(d->u.sample.ndev, 0);
	free(buf);
	lst_msg_destroy(&d);

	m->u.sample.ndev = 1;
	m->u.sample.dev[0] = (struct lst_devstat){ .path = 3, .reads = 7, .in_flight = 2 };
	buf = s_encode(m, &len);
	T_ASSERT(memmem(buf, len,
			"\xa3"
			"dev",
			4));
	T_EQ_INT(lst_msg_decode(buf, len, &d, &err), 0);
	T_EQ_U64(d->u.sample.ndev, 1);
	s_eq_devstat(&m->u.sample.dev[0], &d->u.sample.dev[0]);
	free(buf);
	lst_msg_destroy(&d);

	m->u.sample.ndev = LST_DEVSTATS_MAX + 1;
	T_EQ_INT(lst_msg_encode(m, &buf, &len, &err), -EINVAL);
	T_ASSERT(strstr(err.msg, "sample: key 'dev' has 65 entries, allowed 0 to 64"));
	lst_msg_destroy(&m);
}

/* Occurrences of a string in a frame. */
static int s_count(const uint8_t *buf, size_t len, const char *what)
{
	size_t n = strlen(what);
	int found = 0;

	for (size_t i = 0; i + n <= len; i++)
		found += !memcmp(buf + i, what, n);
	return found;
}

/*
 * SAMPLE's optional "paths": a point with several job specs sends its sample split by path.
 * The parts round-trip (taking the sample's interval and flags, which the wire does not
 * repeat), a sample without them is the frame it always was, 64 realistic parts fit a frame
 * and 64 worst-case ones are refused with -EMSGSIZE (the agent then sends the sample alone).
 */
static void s_test_parts(void)
{
	static const uint32_t counts[] = { 1, 2, 7, LST_MAX_JOBSPECS };
	lst_msg *m, *d, *c;
	size_t len;
	uint8_t *buf;
	lst_err err;
	char why[128];

	for (size_t i = 0; i < LST_ARRAY_SIZE(counts); i++) {
		m = lst_example_sample_split(counts[i], false);
		T_EQ_INT(lst_msg_sample_parts_check(&m->u.sample, counts[i], why, sizeof(why)), 0);
		buf = s_encode(m, &len);
		T_ASSERT(memmem(buf, len, "\xa5paths", 6));
		/* The parts do not repeat the interval or the flags. */
		T_EQ_INT(s_count(buf, len, "\xa8interval"), 1);
		T_EQ_INT(s_count(buf, len,
				 "\xa5"
				 "flags"),
			 1);
		T_EQ_INT(s_count(buf, len, "\xa4path"), counts[i]);
		d = s_decode_ok(buf, len);
		s_eq(m, d);
		T_EQ_INT(lst_msg_sample_parts_check(&d->u.sample, counts[i], why, sizeof(why)), 0);
		/* A deep copy owns its own parts. */
		c = lst_msg_dup(d);
		T_ASSERT(c->u.sample.parts != d->u.sample.parts);
		lst_msg_destroy(&d);
		s_eq(m, c);
		lst_msg_destroy(&c);
		if (counts[i] == LST_MAX_JOBSPECS)
			printf("typical sample of %u paths: %zu bytes (cap %d)\n", counts[i], len,
			       LST_MSG_MAX_BYTES);
		free(buf);
		lst_msg_destroy(&m);
		lst_msg_destroy(&m); /* safe twice */
	}

	/* No parts: no key, and a frame without the key decodes to none. */
	m = lst_example_msg(LST_MSG_SAMPLE, LST_EXAMPLE_TYPICAL);
	T_EQ_U64(m->u.sample.nparts, 0);
	buf = s_encode(m, &len);
	T_ASSERT(!memmem(buf, len, "\xa5paths", 6));
	d = s_decode_ok(buf, len);
	T_EQ_U64(d->u.sample.nparts, 0);
	T_ASSERT(d->u.sample.parts == NULL);
	lst_msg_destroy(&d);
	free(buf);
	/* Counted but missing, or too many: the sender's own bug, refused. */
	m->u.sample.nparts = 2;
	T_EQ_INT(lst_msg_encode(m, &buf, &len, &err), -EINVAL);
	T_CONTAINS(err.msg, "sample: key 'paths' counts entries but has no array");
	m->u.sample.nparts = 0;
	lst_msg_destroy(&m);
	m = lst_example_sample_split(1, false);
	m->u.sample.nparts = LST_MAX_JOBSPECS + 1;
	T_EQ_INT(lst_msg_encode(m, &buf, &len, &err), -EINVAL);
	T_CONTAINS(err.msg, "sample: key 'paths' has 65 entries, allowed 0 to 64");
	m->u.sample.nparts = 1;
	lst_msg_destroy(&m);

	/* The worst case: every bucket of every part's histograms used. Two paths fit; 64 do
	 * not, and the encoder says so with -EMSGSIZE rather than a bounds error. */
	m = lst_example_sample_split(2, true);
	T_EQ_INT(lst_msg_sample_parts_check(&m->u.sample, 2, why, sizeof(why)), 0);
	buf = s_encode(m, &len);
	free(buf);
	lst_msg_destroy(&m);
	m = lst_example_sample_split(LST_MAX_JOBSPECS, true);
	buf = NULL;
	T_EQ_INT(lst_msg_encode(m, &buf, &len, &err), -EMSGSIZE);
	T_ASSERT(buf == NULL);
	T_CONTAINS(err.msg, "sample: encoded message exceeds 262144 bytes");
	lst_msg_destroy(&m);
}

/* One "paths" entry for path, with empty histograms and the given read ios. */
static void s_part_map(struct w *w, uint64_t path, uint64_t ios, bool with_end)
{
	static uint8_t hist[LST_HIST_ENC_MAX];
	lst_hist h;
	size_t n;

	lst_hist_init(&h);
	n = lst_hist_encode(&h, hist, sizeof(hist));
	w_map(w, with_end ? 5 : 4);
	w_str(w, "path");
	w_uint(w, path);
	w_str(w, "start");
	w_int(w, 0);
	if (with_end) {
		w_str(w, "end");
		w_int(w, 0);
	}
	for (int d = 0; d < LST_DIR_N; d++) {
		w_str(w, lst_dir_names[d]);
		w_map(w, 4);
		w_str(w, "ios");
		w_uint(w, d ? 0 : ios);
		w_str(w, "bytes");
		w_uint(w, 0);
		w_str(w, "errors");
		w_uint(w, 0);
		w_str(w, "hist");
		w_bin(w, hist, (uint32_t)n);
	}
}

/* "paths" from outside: the decoder takes what is well-formed and refuses the rest. */
static void s_test_parts_decode(void)
{
	lst_msg *d;

	/* Hand-made entries decode, with the sample's interval and flags. */
	s_kv_key("paths");
	w_arr(&s_kv, 2);
	s_part_map(&s_kv, 1, 0, true);
	s_part_map(&s_kv, 0, 5, true);
	{
		lst_msg *m = lst_example_msg(LST_MSG_SAMPLE, LST_EXAMPLE_TYPICAL);
		size_t len;
		uint8_t *buf = s_encode(m, &len);

		s_prepend(buf, len, &s_out);
		d = s_decode_ok(s_out.b, s_out.n);
		T_EQ_U64(d->u.sample.nparts, 2);
		T_EQ_U64(d->u.sample.parts[0].path, 1);
		T_EQ_U64(d->u.sample.parts[1].path, 0);
		T_EQ_U64(d->u.sample.parts[1].s.dir[LST_DIR_READ].ios, 5);
		T_EQ_INT(d->u.sample.parts[1].s.interval, m->u.sample.s.interval);
		T_EQ_U64(d->u.sample.parts[1].s.flags, m->u.sample.s.flags);
		lst_msg_destroy(&d);
		free(buf);
		lst_msg_destroy(&m);
	}
	/* More entries than there can be job specs. */
	s_kv_key("paths");
	w_arr(&s_kv, LST_MAX_JOBSPECS + 1);
	for (uint32_t i = 0; i <= LST_MAX_JOBSPECS; i++)
		s_part_map(&s_kv, i, 0, true);
	s_expect_override(LST_MSG_SAMPLE, -EINVAL,
			  "sample: key 'paths' has 65 entries, allowed 0 to 64");
	/* An entry without a required key, after a good one (that one is freed too). */
	s_kv_key("paths");
	w_arr(&s_kv, 2);
	s_part_map(&s_kv, 0, 0, true);
	s_part_map(&s_kv, 1, 0, false);
	s_expect_override(LST_MSG_SAMPLE, -EBADMSG, "sample: missing key 'paths[1].end'");
	/* An entry that is not a map, a path that is not a uint32, not an array. */
	s_kv_key("paths");
	w_arr(&s_kv, 1);
	w_uint(&s_kv, 3);
	s_expect_override(LST_MSG_SAMPLE, -EBADMSG, "sample: key 'paths[0]' must be a map");
	s_kv_key("paths");
	w_arr(&s_kv, 1);
	s_part_map(&s_kv, 1ull << 32, 0, true);
	s_expect_override(LST_MSG_SAMPLE, -EINVAL, "sample: key 'paths[0].path' is 4294967296");
	s_kv_key("paths");
	w_map(&s_kv, 0);
	s_expect_override(LST_MSG_SAMPLE, -EBADMSG, "sample: key 'paths' must be an array");
	/* A histogram that does not hold what it says. */
	s_kv_key("paths");
	w_arr(&s_kv, 1);
	w_map(&s_kv, 5);
	w_str(&s_kv, "path");
	w_uint(&s_kv, 0);
	w_str(&s_kv, "start");
	w_int(&s_kv, 0);
	w_str(&s_kv, "end");
	w_int(&s_kv, 0);
	for (int dd = 0; dd < LST_DIR_N; dd++) {
		w_str(&s_kv, lst_dir_names[dd]);
		w_map(&s_kv, 4);
		w_str(&s_kv, "ios");
		w_uint(&s_kv, 0);
		w_str(&s_kv, "bytes");
		w_uint(&s_kv, 0);
		w_str(&s_kv, "errors");
		w_uint(&s_kv, 0);
		w_str(&s_kv, "hist");
		w_bin(&s_kv, "\x01\x05", 2);
	}
	s_expect_override(LST_MSG_SAMPLE, -EBADMSG, "sample: key 'paths[0].read.hist'");
}

/* lst_msg_sample_parts_check: the parts must be possible, distinct and add up exactly. */
static void s_test_parts_check(void)
{
	lst_msg *m = lst_example_sample_split(3, false);
	struct lst_msg_sample *s = &m->u.sample;
	struct lst_msg_sample none = { 0 };
	uint64_t errors;
	char why[160];

	T_EQ_INT(lst_msg_sample_parts_check(s, 3, why, sizeof(why)), 0);
	T_EQ_STR(why, "");
	T_EQ_INT(lst_msg_sample_parts_check(s, 64, why, sizeof(why)), 0);
	T_EQ_INT(lst_msg_sample_parts_check(&none, 0, why, sizeof(why)), 0);

	/* A path the PREPARE did not have (parts are listed last path first: 2, 1, 0). */
	T_EQ_INT(lst_msg_sample_parts_check(s, 2, why, sizeof(why)), -EINVAL);
	T_EQ_STR(why, "paths[0]: path 2 but the point has 2 job specs");

	/* The same path twice. */
	s->parts[1].path = 0;
	T_EQ_INT(lst_msg_sample_parts_check(s, 3, why, sizeof(why)), -EINVAL);
	T_EQ_STR(why, "paths[2]: path 0 appears twice");
	s->parts[1].path = 1;

	/* Another interval. */
	s->parts[2].s.interval++;
	T_EQ_INT(lst_msg_sample_parts_check(s, 3, why, sizeof(why)), -EINVAL);
	T_EQ_STR(why, "paths[2]: interval 42, the sample's is 41");
	s->parts[2].s.interval--;

	/* A part that is not a possible sample. */
	errors = s->parts[1].s.dir[LST_DIR_WRITE].errors;
	s->parts[1].s.dir[LST_DIR_WRITE].errors = s->parts[1].s.dir[LST_DIR_WRITE].ios + 1;
	T_EQ_INT(lst_msg_sample_parts_check(s, 3, why, sizeof(why)), -EINVAL);
	T_CONTAINS(why, "paths[1]: write: ");
	T_CONTAINS(why, "errors >");
	s->parts[1].s.dir[LST_DIR_WRITE].errors = errors;

	/* Counts that do not add up: one read more in the sample than in its parts. */
	T_EQ_INT(lst_msg_sample_parts_check(s, 3, why, sizeof(why)), 0);
	s->s.dir[LST_DIR_READ].ios++;
	T_EQ_INT(lst_msg_sample_parts_check(s, 3, why, sizeof(why)), -EINVAL);
	T_CONTAINS(why, "paths: read ios/bytes/errors add up to ");
	s->s.dir[LST_DIR_READ].ios--;
	s->s.dir[LST_DIR_WRITE].bytes -= 4096;
	T_EQ_INT(lst_msg_sample_parts_check(s, 3, why, sizeof(why)), -EINVAL);
	T_CONTAINS(why, "paths: write ios/bytes/errors add up to ");
	s->s.dir[LST_DIR_WRITE].bytes += 4096;

	/* Histograms that do not: the same counts, one value in another bucket. */
	lst_hist_record(&s->s.dir[LST_DIR_WRITE].lat, 123456789);
	T_EQ_INT(lst_msg_sample_parts_check(s, 3, why, sizeof(why)), -EINVAL);
	T_EQ_STR(why, "paths: the write latency histograms do not add up to the sample's");
	lst_msg_destroy(&m);

	/* Counted but not there. */
	none.nparts = 1;
	T_EQ_INT(lst_msg_sample_parts_check(&none, 1, why, sizeof(why)), -EINVAL);
	T_EQ_STR(why, "paths: 1 entries counted, none given");
	none.nparts = 65;
	T_EQ_INT(lst_msg_sample_parts_check(&none, 1, why, sizeof(why)), -EINVAL);
	T_EQ_STR(why, "paths: 65 entries, at most 64 allowed");
}

/* --- hooks, events, the kernel log ------------------------------------------------------------ */

/* A complete "result" map (s_kv gets key "result" first) with the given status and output. */
static void s_result_kv(int64_t status, const void *output, uint32_t n, bool output_bin)
{
	s_kv_key("result");
	w_map(&s_kv, 6);
	w_str(&s_kv, "start");
	w_int(&s_kv, 1);
	w_str(&s_kv, "end");
	w_int(&s_kv, 2);
	w_str(&s_kv, "status");
	w_int(&s_kv, status);
	w_str(&s_kv, "truncated");
	w_uint(&s_kv, 0);
	w_str(&s_kv, "text");
	w_str(&s_kv, "");
	w_str(&s_kv, "output");
	if (output_bin)
		w_bin(&s_kv, output, n);
	else
		w_strn(&s_kv, output, n);
}

/* A "name" entry holding s (n bytes). */
static void s_name_kv(const char *key, const char *s, size_t n)
{
	s_kv_key(key);
	w_strn(&s_kv, s, n);
}

/* An "events" array of n entries {id, hook, after}. */
static void s_events_kv(uint32_t n, const char *hook, int64_t after)
{
	s_kv_key("events");
	w_arr(&s_kv, n);
	for (uint32_t i = 0; i < n; i++) {
		w_map(&s_kv, 3);
		w_str(&s_kv, "id");
		w_uint(&s_kv, i);
		w_str(&s_kv, "hook");
		w_str(&s_kv, hook);
		w_str(&s_kv, "after");
		w_int(&s_kv, after);
	}
}

/* Decode errors of the new messages and keys: enums, names, ranges, bounds. */
static void s_test_hooks_decode(void)
{
	static const char *const bad_names[] = { "", "port down", "a/b", "x;rm", "h\xc3\xa9" };
	char *big = calloc(1, LST_COLLECT_OUTPUT_MAX + 2);
	char want[160];

	/* Enums: kind 0..1, op 0..1. */
	s_kv_key("kind");
	w_uint(&s_kv, 2);
	s_expect_override(LST_MSG_HOOK, -EINVAL, "hook: key 'kind' is 2, at most 1 allowed");
	s_expect_override(LST_MSG_HOOK_DONE, -EINVAL,
			  "hook_done: key 'kind' is 2, at most 1 allowed");
	s_kv_key("op");
	w_uint(&s_kv, 2);
	s_expect_override(LST_MSG_KMSG, -EINVAL, "kmsg: key 'op' is 2, at most 1 allowed");
	s_expect_override(LST_MSG_KMSG_REPLY, -EINVAL,
			  "kmsg_reply: key 'op' is 2, at most 1 allowed");
	s_kv_key("op");
	w_int(&s_kv, -1);
	s_expect_override(LST_MSG_KMSG, -EBADMSG, "kmsg: key 'op' must be an unsigned integer");

	/* Names: non-empty, [A-Za-z0-9_.-], shorter than LST_NAME_MAX. */
	for (size_t i = 0; i < LST_ARRAY_SIZE(bad_names); i++) {
		s_name_kv("name", bad_names[i], strlen(bad_names[i]));
		s_expect_override(LST_MSG_HOOK, -EINVAL, "hook: key 'name' must be a name");
		s_expect_override(LST_MSG_HOOK_DONE, -EINVAL,
				  "hook_done: key 'name' must be a name");
		s_name_kv("hook", bad_names[i], strlen(bad_names[i]));
		s_expect_override(LST_MSG_EVENT, -EINVAL, "event: key 'hook' must be a name");
		s_events_kv(1, bad_names[i], 0);
		s_expect_override(LST_MSG_START, -EINVAL,
				  "start: key 'events[0].hook' must be a name");
		s_kv_key("hooks");
		w_arr(&s_kv, 2);
		w_str(&s_kv, "port_down");
		w_str(&s_kv, bad_names[i]);
		s_expect_override(LST_MSG_WELCOME, -EINVAL,
				  "welcome: key 'hooks[1]' must be a name");
		s_kv_key("collectors");
		w_arr(&s_kv, 1);
		w_str(&s_kv, bad_names[i]);
		s_expect_override(LST_MSG_WELCOME, -EINVAL,
				  "welcome: key 'collectors[0]' must be a name");
	}
	memset(big, 'a', LST_NAME_MAX);
	s_name_kv("name", big, LST_NAME_MAX);
	snprintf(want, sizeof(want), "hook: key 'name' is longer than %d bytes", LST_NAME_MAX - 1);
	s_expect_override(LST_MSG_HOOK, -EINVAL, want);
	s_name_kv("hook", big, LST_NAME_MAX);
	s_expect_override(LST_MSG_EVENT, -EINVAL, "event: key 'hook' is longer than");
	s_kv_key("hooks");
	w_arr(&s_kv, 1);
	w_strn(&s_kv, big, LST_NAME_MAX);
	s_expect_override(LST_MSG_WELCOME, -EINVAL, "welcome: key 'hooks[0]' is longer than");
	/* The longest name and every allowed character decode. */
	{
		lst_msg *m = lst_example_msg(LST_MSG_HOOK, LST_EXAMPLE_TYPICAL), *d;
		static const char all[] = "AZaz09_.-";
		size_t len;
		uint8_t *buf = s_encode(m, &len);

		s_name_kv("name", big, LST_NAME_MAX - 1);
		s_prepend(buf, len, &s_out);
		d = s_decode_ok(s_out.b, s_out.n);
		T_EQ_U64(strlen(d->u.hook.name), LST_NAME_MAX - 1);
		lst_msg_destroy(&d);
		s_name_kv("name", all, strlen(all));
		s_prepend(buf, len, &s_out);
		d = s_decode_ok(s_out.b, s_out.n);
		T_EQ_STR(d->u.hook.name, all);
		lst_msg_destroy(&d);
		free(buf);
		lst_msg_destroy(&m);
	}
	/* Arrays: 33 hooks or collectors, 65 events. */
	s_kv_key("hooks");
	w_arr(&s_kv, LST_MAX_HOOKS + 1);
	for (int i = 0; i <= LST_MAX_HOOKS; i++)
		w_str(&s_kv, "h");
	s_expect_override(LST_MSG_WELCOME, -EINVAL,
			  "welcome: key 'hooks' has 33 entries, allowed 0 to 32");
	s_kv_key("collectors");
	w_arr(&s_kv, LST_MAX_HOOKS + 1);
	for (int i = 0; i <= LST_MAX_HOOKS; i++)
		w_str(&s_kv, "c");
	s_expect_override(LST_MSG_WELCOME, -EINVAL,
			  "welcome: key 'collectors' has 33 entries, allowed 0 to 32");
	s_events_kv(LST_MAX_EVENTS + 1, "port_down", 0);
	s_expect_override(LST_MSG_START, -EINVAL,
			  "start: key 'events' has 65 entries, allowed 0 to 64");
	s_kv_key("events");
	w_map(&s_kv, 0);
	s_expect_override(LST_MSG_START, -EBADMSG, "start: key 'events' must be an array");

	/* after >= 0. */
	s_events_kv(1, "port_down", -1);
	s_expect_override(LST_MSG_START, -EINVAL, "start: key 'events[0].after' is -1, allowed 0");
	s_events_kv(1, "port_down", INT64_MIN);
	s_expect_override(LST_MSG_START, -EINVAL, "start: key 'events[0].after' is -");

	/* status -1..255. */
	s_result_kv(-2, "", 0, true);
	s_expect_override(LST_MSG_HOOK_DONE, -EINVAL,
			  "hook_done: key 'result.status' is -2, allowed -1 to 255");
	s_result_kv(256, "", 0, true);
	s_expect_override(LST_MSG_EVENT, -EINVAL,
			  "event: key 'result.status' is 256, allowed -1 to 255");
	s_result_kv(INT64_MIN, "", 0, true);
	s_expect_override(LST_MSG_EVENT, -EINVAL, "event: key 'result.status' is -");

	/* Output: a bin, at most LST_COLLECT_OUTPUT_MAX bytes, no NUL. */
	memset(big, 'x', LST_COLLECT_OUTPUT_MAX + 1);
	s_result_kv(0, big, LST_COLLECT_OUTPUT_MAX + 1, true);
	snprintf(want, sizeof(want),
		 "hook_done: key 'result.output' has %d bytes, at most %d allowed",
		 LST_COLLECT_OUTPUT_MAX + 1, LST_COLLECT_OUTPUT_MAX);
	s_expect_override(LST_MSG_HOOK_DONE, -EINVAL, want);
	s_result_kv(0, "ok\0hidden", 9, true);
	s_expect_override(LST_MSG_EVENT, -EINVAL, "event: key 'result.output' contains a NUL byte");
	s_result_kv(0, "ok", 2, false);
	s_expect_override(LST_MSG_HOOK_DONE, -EBADMSG,
			  "hook_done: key 'result.output' must be binary (bin)");
	s_kv_key("result");
	w_arr(&s_kv, 0);
	s_expect_override(LST_MSG_EVENT, -EBADMSG, "event: key 'result' must be a map");
	/* Exactly at the bound, and empty: fine (empty output is NULL, length 0). */
	{
		lst_msg *m = lst_example_msg(LST_MSG_HOOK_DONE, LST_EXAMPLE_TYPICAL), *d;
		size_t len;
		uint8_t *buf = s_encode(m, &len);

		s_result_kv(0, big, LST_COLLECT_OUTPUT_MAX, true);
		s_prepend(buf, len, &s_out);
		d = s_decode_ok(s_out.b, s_out.n);
		T_EQ_U64(d->u.hook_done.r.output_len, LST_COLLECT_OUTPUT_MAX);
		T_EQ_U64(strlen(d->u.hook_done.r.output), LST_COLLECT_OUTPUT_MAX);
		lst_msg_destroy(&d);
		s_result_kv(-1, "", 0, true);
		s_prepend(buf, len, &s_out);
		d = s_decode_ok(s_out.b, s_out.n);
		T_EQ_U64(d->u.hook_done.r.output_len, 0);
		T_ASSERT(d->u.hook_done.r.output == NULL);
		T_EQ_INT(d->u.hook_done.r.status, -1);
		lst_msg_destroy(&d);
		free(buf);
		lst_msg_destroy(&m);
	}
	/* Kernel log text: at most LST_KMSG_TEXT_MAX bytes. */
	s_kv_key("text");
	w_bin(&s_kv, big, LST_KMSG_TEXT_MAX + 1);
	snprintf(want, sizeof(want), "kmsg_reply: key 'text' has %d bytes, at most %d allowed",
		 LST_KMSG_TEXT_MAX + 1, LST_KMSG_TEXT_MAX);
	s_expect_override(LST_MSG_KMSG_REPLY, -EINVAL, want);
	s_kv_key("text");
	w_bin(&s_kv, "[1.0] a\n\0", 9);
	s_expect_override(LST_MSG_KMSG_REPLY, -EINVAL,
			  "kmsg_reply: key 'text' contains a NUL byte");
	/* A claimed 4 GiB output with nothing behind it: the pre-scan refuses it first. */
	{
		static const uint8_t frame[] = { 0x81, 0xa6, 'o',  'u',	 't',  'p', 'u',
						 't',  0xc6, 0xff, 0xff, 0xff, 0xff };

		s_expect(frame, sizeof(frame), -EBADMSG, "claims");
	}
	free(big);
}

/* Peers without hooks.v1: their START, WELCOME and DONE lack the new keys and still decode;
 * ours leave the keys out when they are empty, so old peers see the frames they always saw. */
static void s_test_hooks_old_peers(void)
{
	static const enum lst_msg_type types[] = { LST_MSG_START, LST_MSG_WELCOME, LST_MSG_DONE };
	static const char *const keys[][2] = { { "events", NULL },
					       { "hooks", "collectors" },
					       { "events", NULL } };

	for (size_t c = 0; c < LST_ARRAY_SIZE(types); c++) {
		lst_msg *m = lst_example_msg(types[c], LST_EXAMPLE_TYPICAL), *d;
		size_t len;
		uint8_t *buf = s_encode(m, &len);

		for (int k = 0; k < 2 && keys[c][k]; k++)
			s_rename(buf, len, NULL, keys[c][k]);
		d = s_decode_ok(buf, len);
		switch (types[c]) {
		case LST_MSG_START:
			T_EQ_U64(d->u.start.nevents, 0);
			T_EQ_INT(d->u.start.t0, m->u.start.t0);
			break;
		case LST_MSG_WELCOME:
			T_EQ_U64(d->u.welcome.nhooks, 0);
			T_EQ_U64(d->u.welcome.ncollectors, 0);
			T_EQ_STR(d->u.welcome.name, m->u.welcome.name);
			break;
		default:
			T_EQ_U64(d->u.done.events, 0);
			T_EQ_U64(d->u.done.samples, m->u.done.samples);
			break;
		}
		lst_msg_destroy(&d);
		free(buf);
		lst_msg_destroy(&m);
	}
	/* Empty lists are left out of the frame. */
	for (size_t c = 0; c < 2; c++) {
		lst_msg *m = lst_example_msg(types[c], LST_EXAMPLE_SMALL);
		size_t len;
		uint8_t *buf = s_encode(m, &len);

		for (int k = 0; k < 2 && keys[c][k]; k++)
			for (size_t i = 0; i + strlen(keys[c][k]) <= len; i++)
				T_ASSERT(memcmp(buf + i, keys[c][k], strlen(keys[c][k])));
		free(buf);
		lst_msg_destroy(&m);
	}
}

/* What a sender must not send: the encoder refuses what the decoder would. */
static void s_test_hooks_encode(void)
{
	static const struct {
		enum lst_msg_type t;
		const char *what;
	} cases[] = {
		{ LST_MSG_HOOK, "hook: key 'name' must be a name" },
		{ LST_MSG_HOOK, "hook: key 'kind' holds an unknown value" },
		{ LST_MSG_START, "start: key 'events[1].after' is out of its range" },
		{ LST_MSG_START, "start: key 'events[0].hook' must be a name" },
		{ LST_MSG_START, "start: key 'events' has 65 entries, allowed 0 to 64" },
		{ LST_MSG_WELCOME, "welcome: key 'collectors' holds an entry that must be a name" },
		{ LST_MSG_HOOK_DONE, "hook_done: key 'result.status' is out of its range" },
		{ LST_MSG_HOOK_DONE, "hook_done: key 'result.output' has 196609 bytes" },
		{ LST_MSG_EVENT, "event: key 'result.output' contains a NUL byte" },
		{ LST_MSG_EVENT, "event: key 'result.output' counts bytes but has none" },
		{ LST_MSG_KMSG_REPLY, "kmsg_reply: key 'text' has 131073 bytes" },
		{ LST_MSG_KMSG, "kmsg: key 'op' holds an unknown value" },
	};
	char *big = malloc(LST_COLLECT_OUTPUT_MAX + 2);

	memset(big, 'y', LST_COLLECT_OUTPUT_MAX + 1);
	big[LST_COLLECT_OUTPUT_MAX + 1] = '\0';
	for (size_t c = 0; c < LST_ARRAY_SIZE(cases); c++) {
		lst_msg *m = lst_example_msg(cases[c].t, LST_EXAMPLE_TYPICAL);
		char *keep = NULL;
		uint8_t *buf = (uint8_t *)1;
		size_t len = 1;
		lst_err err = { 0 };
		int rc;

		switch (c) {
		case 0:
			snprintf(m->u.hook.name, sizeof(m->u.hook.name), "a b");
			break;
		case 1:
			m->u.hook.kind = 2;
			break;
		case 2:
			m->u.start.events[1].after = -1;
			break;
		case 3:
			m->u.start.events[0].hook[0] = '\0';
			break;
		case 4:
			m->u.start.nevents = LST_MAX_EVENTS + 1;
			break;
		case 5:
			snprintf(m->u.welcome.collectors[0], LST_NAME_MAX, "smart sdb");
			break;
		case 6:
			m->u.hook_done.r.status = -2;
			break;
		case 7: /* the example's own output is freed by destroy: swap it back after */
			keep = m->u.hook_done.r.output;
			m->u.hook_done.r.output = big;
			m->u.hook_done.r.output_len = LST_COLLECT_OUTPUT_MAX + 1;
			break;
		case 8:
			m->u.event.r.output[2] = '\0';
			break;
		case 9:
			free(m->u.event.r.output);
			m->u.event.r.output = NULL;
			break;
		case 10:
			keep = m->u.kmsg_reply.text;
			m->u.kmsg_reply.text = big;
			m->u.kmsg_reply.text_len = LST_KMSG_TEXT_MAX + 1;
			break;
		case 11:
			m->u.kmsg.op = 2;
			break;
		}
		rc = lst_msg_encode(m, &buf, &len, &err);
		if (rc != -EINVAL)
			T_FAIL("case %zu: encode gave %d (%s), expected -EINVAL", c, rc, err.msg);
		T_ASSERT(buf == NULL && len == 0);
		T_CONTAINS(err.msg, cases[c].what);
		if (c == 7) {
			m->u.hook_done.r.output = keep;
			m->u.hook_done.r.output_len = (uint32_t)strlen(keep);
		} else if (c == 10) {
			m->u.kmsg_reply.text = keep;
			m->u.kmsg_reply.text_len = (uint32_t)strlen(keep);
		}
		lst_msg_destroy(&m);
	}
	free(big);
}

/* lst_msg_dup copies a hook's output and the kernel log text: destroying the original leaves
 * the copy whole (ASan and valgrind see a shared or twice-freed buffer). */
static void s_test_hooks_dup(void)
{
	static const enum lst_msg_type types[] = { LST_MSG_HOOK_DONE, LST_MSG_EVENT,
						   LST_MSG_KMSG_REPLY, LST_MSG_START,
						   LST_MSG_WELCOME };

	for (size_t c = 0; c < LST_ARRAY_SIZE(types); c++) {
		for (int v = 0; v < LST_EXAMPLE_N; v++) {
			lst_msg *m = lst_example_msg(types[c], v), *copy, *again;
			size_t len, len2;
			uint8_t *buf = s_encode(m, &len), *buf2;

			copy = lst_msg_dup(m);
			s_eq(m, copy); /* s_eq_bytes: different pointers, same bytes */
			lst_msg_destroy(&m);
			buf2 = s_encode(copy, &len2);
			T_EQ_U64(len2, len);
			T_ASSERT(!memcmp(buf, buf2, len));
			/* A copy of a decoded message too. */
			again = s_decode_ok(buf2, len2);
			m = lst_msg_dup(again);
			lst_msg_destroy(&again);
			s_eq(copy, m);
			lst_msg_destroy(&m);
			lst_msg_destroy(&copy);
			free(buf);
			free(buf2);
		}
	}
}

/* --- data integrity --------------------------------------------------------------------------- */

/* Bytes of the msgpack integer at p (as msgpack-c writes them), 0 when it is not one. */
static size_t s_int_len(const uint8_t *p)
{
	if (p[0] <= 0x7f || p[0] >= 0xe0)
		return 1;
	switch (p[0]) {
	case 0xcc:
	case 0xd0:
		return 2;
	case 0xcd:
	case 0xd1:
		return 3;
	case 0xce:
	case 0xd2:
		return 5;
	case 0xcf:
	case 0xd3:
		return 9;
	}
	return 0;
}

/*
 * Encode the TYPICAL (or given) example of type, set the integer of the first key `key` after
 * the first `after` (NULL: anywhere) to v, and expect decode to fail with code and what.
 */
static void s_expect_patched(lst_msg *m, const char *after, const char *key, int64_t v, int code,
			     const char *what)
{
	size_t len, n = strlen(key), from = 0, at, old;
	uint8_t *buf = s_encode(m, &len);

	if (after) {
		size_t an = strlen(after);

		for (; from + an + 1 <= len; from++)
			if (buf[from] == (0xa0 | an) && !memcmp(buf + from + 1, after, an))
				break;
		T_ASSERT(from + an + 1 <= len);
	}
	for (at = from; at + n + 1 <= len; at++)
		if (buf[at] == (0xa0 | n) && !memcmp(buf + at + 1, key, n))
			break;
	T_ASSERT(at + n + 1 <= len);
	at += 1 + n;
	T_ASSERT((old = s_int_len(buf + at)) > 0);
	s_out.n = 0;
	w_raw(&s_out, buf, at);
	w_int(&s_out, v);
	w_raw(&s_out, buf + at + old, len - at - old);
	s_expect(s_out.b, s_out.n, code, what);
	free(buf);
}

static void s_patched(enum lst_msg_type t, const char *after, const char *key, int64_t v, int code,
		      const char *what)
{
	lst_msg *m = lst_example_msg(t, LST_EXAMPLE_TYPICAL);

	s_expect_patched(m, after, key, v, code, what);
	lst_msg_destroy(&m);
}

/* Each rule of the new keys and types, on decode. */
static void s_test_verify_decode(void)
{
	/* The job spec's stamp. */
	s_patched(LST_MSG_PREPARE, "stamp", "gen", 65536, -EINVAL,
		  "prepare: key 'jobs[0].stamp.gen' is 65536, at most 65535 allowed");
	s_patched(LST_MSG_PREPARE, "stamp", "agent", 65536, -EINVAL,
		  "prepare: key 'jobs[0].stamp.agent' is 65536, at most 65535 allowed");
	s_patched(LST_MSG_PREPARE, "stamp", "path", -1, -EBADMSG,
		  "prepare: key 'jobs[0].stamp.path' must be an unsigned integer");
	/* PREPARED's streams. */
	s_patched(LST_MSG_PREPARED, "streams", "spec", 64, -EINVAL,
		  "prepared: key 'streams[0].spec' is 64, at most 63 allowed");
	s_patched(LST_MSG_PREPARED, "streams", "bs", 1000, -EINVAL,
		  "prepared: streams[0]: bs 1000 is not a multiple of 4096 up to 16777216");
	s_patched(LST_MSG_PREPARED, "streams", "bs", 0, -EINVAL,
		  "prepared: streams[0]: bs 0 is not a multiple of 4096");
	s_patched(LST_MSG_PREPARED, "streams", "bs", 32 << 20, -EINVAL,
		  "prepared: streams[0]: bs 33554432 is not a multiple of 4096 up to");
	s_patched(LST_MSG_PREPARED, "streams", "lo", 1 << 30, -EINVAL,
		  "prepared: streams[0]: lo 1073741824 is not below hi 1073741824");
	s_patched(LST_MSG_PREPARED, "streams", "random", 2, -EINVAL,
		  "prepared: key 'streams[0].random' is 2, at most 1 allowed");
	s_patched(LST_MSG_PREPARED, "streams", "read_pct", 101, -EINVAL,
		  "prepared: key 'streams[0].read_pct' is 101, at most 100 allowed");
	/* SAMPLE's marks and verify. */
	s_patched(LST_MSG_SAMPLE, "marks", "stream", 256, -EINVAL,
		  "sample: key 'marks[0].stream' is 256, at most 255 allowed");
	s_patched(LST_MSG_SAMPLE, "marks", "low", 6000, -EINVAL,
		  "sample: marks[0]: low 6000 is above issued 5032");
	s_patched(LST_MSG_SAMPLE, "marks", "werr", 6000, -EINVAL,
		  "sample: marks[0]: werr 6000 is above issued 5032");
	s_patched(LST_MSG_SAMPLE, "verify", "bad", -1, -EBADMSG,
		  "sample: key 'verify.bad' must be an unsigned integer");
	s_kv_key("verify");
	w_arr(&s_kv, 0);
	s_expect_override(LST_MSG_SAMPLE, -EBADMSG, "sample: key 'verify' must be a map");
	s_kv_key("marks");
	w_byte(&s_kv, 0xdd);
	w_be(&s_kv, LST_MAX_STREAMS + 1, 4);
	for (uint32_t i = 0; i <= LST_MAX_STREAMS; i++) {
		w_map(&s_kv, 4);
		w_str(&s_kv, "stream");
		w_uint(&s_kv, 0);
		w_str(&s_kv, "low");
		w_uint(&s_kv, 0);
		w_str(&s_kv, "issued");
		w_uint(&s_kv, 0);
		w_str(&s_kv, "werr");
		w_uint(&s_kv, 0);
	}
	s_expect_override(LST_MSG_SAMPLE, -EINVAL,
			  "sample: key 'marks' has 257 entries, allowed 0 to 256");
	/* JOURNAL. */
	s_patched(LST_MSG_JOURNAL, "streams", "gen", 0, -EINVAL,
		  "journal: key 'streams[0].gen' is 0, at least 1 allowed");
	s_patched(LST_MSG_JOURNAL, "streams", "gen", 65536, -EINVAL,
		  "journal: key 'streams[0].gen' is 65536, at most 65535 allowed");
	s_patched(LST_MSG_JOURNAL, "streams", "agent", 65536, -EINVAL,
		  "journal: key 'streams[0].agent' is 65536, at most 65535 allowed");
	s_patched(LST_MSG_JOURNAL, "streams", "path", 70000, -EINVAL,
		  "journal: key 'streams[0].path' is 70000, at most 65535 allowed");
	s_patched(LST_MSG_JOURNAL, "streams", "low", 300000, -EINVAL,
		  "journal: streams[0]: low 300000 is above issued 262144");
	s_patched(LST_MSG_JOURNAL, "streams", "complete", 2, -EINVAL,
		  "journal: key 'streams[0].complete' is 2, at most 1 allowed");
	s_patched(LST_MSG_JOURNAL, "streams", "bs", 4095, -EINVAL,
		  "journal: streams[0]: bs 4095 is not a multiple of 4096");
	s_patched(LST_MSG_JOURNAL, NULL, "total", 130, -EINVAL,
		  "journal: streams 128..131 of a journal of 130 streams");
	s_patched(LST_MSG_JOURNAL, NULL, "from", UINT32_MAX, -EINVAL,
		  "journal: streams 4294967295..4294967298 of a journal of 131 streams");
	s_kv_key("streams");
	w_arr(&s_kv, 1);
	w_uint(&s_kv, 1);
	s_expect_override(LST_MSG_JOURNAL, -EBADMSG, "journal: key 'streams[0]' must be a map");
	/* INTEGRITY. */
	s_patched(LST_MSG_INTEGRITY, "bad", "kind", 6, -EINVAL,
		  "integrity: key 'bad[0].kind' is 6, at most 5 allowed");
	s_patched(LST_MSG_INTEGRITY, "bad", "stamp_kind", 5, -EINVAL,
		  "integrity: key 'bad[0].stamp_kind' is 5, at most 4 allowed");
	s_patched(LST_MSG_INTEGRITY, "bad", "spec", 64, -EINVAL,
		  "integrity: key 'bad[0].spec' is 64, at most 63 allowed");
	s_patched(LST_MSG_INTEGRITY, "found", "agent", 65536, -EINVAL,
		  "integrity: key 'bad[0].found.agent' is 65536, at most 65535 allowed");
	s_kv_key("bad");
	w_arr(&s_kv, 0);
	s_expect_override(LST_MSG_INTEGRITY, -EINVAL,
			  "integrity: key 'bad' has 0 entries, allowed 1 to 64");
	/* DONE. */
	s_patched(LST_MSG_DONE, NULL, "integrity", -1, -EBADMSG,
		  "done: key 'integrity' must be an unsigned integer");
	s_patched(LST_MSG_DONE, NULL, "integrity", 1ll << 32, -EINVAL,
		  "done: key 'integrity' is 4294967296, at most 4294967295 allowed");
}

/* The encoder refuses what the decoder would. */
static void s_test_verify_encode(void)
{
	lst_msg *m;
	uint8_t *buf = NULL;
	size_t len;
	lst_err err;

#define S_REFUSED(m, what)                                                                         \
	do {                                                                                       \
		T_EQ_INT(lst_msg_encode(m, &buf, &len, &err), -EINVAL);                            \
		T_ASSERT(buf == NULL);                                                             \
		T_CONTAINS(err.msg, what);                                                         \
		lst_msg_destroy(&m);                                                               \
	} while (0)
	m = lst_example_msg(LST_MSG_PREPARED, LST_EXAMPLE_TYPICAL);
	m->u.prepared.streams[1].s.bs = 512;
	S_REFUSED(m, "prepared: streams[1]: bs 512 is not a multiple of 4096");
	m = lst_example_msg(LST_MSG_PREPARED, LST_EXAMPLE_TYPICAL);
	m->u.prepared.streams[0].s.hi = m->u.prepared.streams[0].s.lo;
	S_REFUSED(m, "prepared: streams[0]: lo 0 is not below hi 0");
	m = lst_example_msg(LST_MSG_PREPARED, LST_EXAMPLE_TYPICAL);
	m->u.prepared.streams[0].s.read_pct = 101;
	S_REFUSED(m, "prepared: key 'streams[0].read_pct' is out of its range");
	m = lst_example_msg(LST_MSG_PREPARED, LST_EXAMPLE_TYPICAL);
	m->u.prepared.nstreams = LST_MAX_STREAMS + 1;
	S_REFUSED(m, "prepared: key 'streams' has 257 entries, allowed 0 to 256");
	m = lst_example_msg(LST_MSG_PREPARE, LST_EXAMPLE_TYPICAL);
	m->u.prepare.jobs[0].stamp.gen = 65536;
	S_REFUSED(m, "prepare: key 'jobs[0].stamp.gen' is out of its range");
	m = lst_example_msg(LST_MSG_SAMPLE, LST_EXAMPLE_TYPICAL);
	m->u.sample.marks[1].issued = 0;
	S_REFUSED(m, "sample: marks[1]: low 5001 is above issued 0");
	m = lst_example_msg(LST_MSG_SAMPLE, LST_EXAMPLE_TYPICAL);
	m->u.sample.marks[0].stream = LST_MAX_STREAMS;
	S_REFUSED(m, "sample: key 'marks[0].stream' is out of its range");
	m = lst_example_msg(LST_MSG_JOURNAL, LST_EXAMPLE_TYPICAL);
	m->u.journal.streams[2].gen = 0;
	S_REFUSED(m, "journal: key 'streams[2].gen' is out of its range");
	m = lst_example_msg(LST_MSG_JOURNAL, LST_EXAMPLE_TYPICAL);
	m->u.journal.streams[2].complete = 2;
	S_REFUSED(m, "journal: key 'streams[2].complete' holds an unknown value");
	m = lst_example_msg(LST_MSG_JOURNAL, LST_EXAMPLE_TYPICAL);
	m->u.journal.total = 3;
	S_REFUSED(m, "journal: streams 128..131 of a journal of 3 streams");
	m = lst_example_msg(LST_MSG_INTEGRITY, LST_EXAMPLE_TYPICAL);
	m->u.integrity.nbad = 0;
	S_REFUSED(m, "integrity: key 'bad' has 0 entries, allowed 1 to 64");
	m = lst_example_msg(LST_MSG_INTEGRITY, LST_EXAMPLE_TYPICAL);
	m->u.integrity.bad[1].kind = LST_VK_FUTURE + 1;
	S_REFUSED(m, "integrity: key 'bad[1].kind' holds an unknown value");
	m = lst_example_msg(LST_MSG_INTEGRITY, LST_EXAMPLE_TYPICAL);
	m->u.integrity.bad[0].stamp_kind = LST_STAMP_TARGET + 1;
	S_REFUSED(m, "integrity: key 'bad[0].stamp_kind' holds an unknown value");
#undef S_REFUSED
}

/* Frames of peers that predate data integrity (none of its keys) decode with zeros, and frames
 * without verified jobs carry none of its keys. */
static void s_test_verify_old_peers(void)
{
	static const struct {
		enum lst_msg_type t;
		const char *keys[3];
	} cases[] = {
		{ LST_MSG_PREPARE, { "stamp" } },
		{ LST_MSG_PREPARED, { "streams" } },
		{ LST_MSG_SAMPLE, { "verify", "marks" } },
		{ LST_MSG_DONE, { "integrity", "bad_unreported" } },
	};

	for (size_t c = 0; c < LST_ARRAY_SIZE(cases); c++) {
		lst_msg *m = lst_example_msg(cases[c].t, LST_EXAMPLE_TYPICAL), *d;
		size_t len;
		uint8_t *buf = s_encode(m, &len);

		for (size_t k = 0; k < LST_ARRAY_SIZE(cases[c].keys) && cases[c].keys[k]; k++)
			s_rename(buf, len, NULL, cases[c].keys[k]); /* now unknown: ignored */
		d = s_decode_ok(buf, len);
		switch (cases[c].t) {
		case LST_MSG_PREPARE:
			T_EQ_U64(d->u.prepare.jobs[0].has_stamp, 0);
			T_EQ_U64(d->u.prepare.jobs[0].stamp.gen, 0);
			break;
		case LST_MSG_PREPARED:
			T_EQ_U64(d->u.prepared.nstreams, 0);
			break;
		case LST_MSG_SAMPLE:
			T_EQ_U64(d->u.sample.nmarks, 0);
			T_EQ_U64(d->u.sample.s.verify.ok + d->u.sample.s.verify.bad, 0);
			break;
		default:
			T_EQ_U64(d->u.done.integrity, 0);
			T_EQ_U64(d->u.done.bad_unreported, 0);
		}
		lst_msg_destroy(&d);
		free(buf);
		lst_msg_destroy(&m);
	}
	/* SMALL has no verified job: no stamp, streams, marks or verify in the frame. */
	{
		static const struct {
			enum lst_msg_type t;
			const char *key;
		} none[] = {
			{ LST_MSG_PREPARE, "\xa5stamp" }, /* (the workload has a "verify" key) */
			{ LST_MSG_PREPARED, "\xa7streams" },
			{ LST_MSG_SAMPLE, "\xa5marks" },
			{ LST_MSG_SAMPLE, "\xa6verify" },
		};

		for (size_t t = 0; t < LST_ARRAY_SIZE(none); t++) {
			lst_msg *m = lst_example_msg(none[t].t, LST_EXAMPLE_SMALL);
			size_t len;
			uint8_t *buf = s_encode(m, &len);

			T_ASSERT(!memmem(buf, len, none[t].key, strlen(none[t].key)));
			free(buf);
			lst_msg_destroy(&m);
		}
	}
	/* A TYPICAL PREPARE stamps its first job only: one "stamp" key. */
	{
		lst_msg *m = lst_example_msg(LST_MSG_PREPARE, LST_EXAMPLE_TYPICAL);
		size_t len;
		uint8_t *buf = s_encode(m, &len);

		T_EQ_INT(s_count(buf, len, "\xa5stamp"), 1);
		free(buf);
		lst_msg_destroy(&m);
	}
}

/* The parts' verify counts add up to the sample's; lst_sample_check bounds them. */
static void s_test_verify_parts(void)
{
	lst_msg *m = lst_example_sample_split(3, false), *d;
	size_t len;
	uint8_t *buf;
	char why[256];
	lst_err err;

	T_EQ_INT(lst_msg_sample_parts_check(&m->u.sample, 3, why, sizeof(why)), 0);
	T_ASSERT(m->u.sample.s.verify.ok > 0);
	buf = s_encode(m, &len);
	T_EQ_INT(s_count(buf, len, "\xa6verify"), 4); /* the sample's and each part's */
	d = s_decode_ok(buf, len);
	T_EQ_INT(lst_msg_sample_parts_check(&d->u.sample, 3, why, sizeof(why)), 0);
	d->u.sample.parts[1].s.verify.bad++;
	T_EQ_INT(lst_msg_sample_parts_check(&d->u.sample, 3, why, sizeof(why)), -EINVAL);
	T_CONTAINS(why, "paths: verify ok/pending/unwritten/bad add up to 60003/1/9/2, the "
			"sample has 60003/1/9/1");
	lst_msg_destroy(&d);
	free(buf);
	/* A part with none while the sample has some: no "verify" key in it, still checked. */
	m->u.sample.parts[2].s.verify = (struct lst_sample_verify){ 0 };
	T_EQ_INT(lst_msg_sample_parts_check(&m->u.sample, 3, why, sizeof(why)), -EINVAL);
	buf = s_encode(m, &len);
	T_EQ_INT(s_count(buf, len, "\xa6verify"), 3);
	free(buf);
	lst_msg_destroy(&m);

	/* Bounds: 2^52 units in all in one interval. */
	{
		lst_sample s;

		lst_sample_init(&s, 1);
		s.start_ns = s.end_ns = 0; /* an interval with no I/O */
		s.verify.ok = 1ull << 52;
		if (lst_sample_check(&s, &err))
			T_FAIL("%s", err.msg);
		s.verify.bad = 1;
		T_EQ_INT(lst_sample_check(&s, &err), -EBADMSG);
		T_CONTAINS(err.msg,
			   "verify: 4503599627370496/0/0/1 units ok/pending/unwritten/bad, "
			   "more than 2^52 in one interval");
		s.verify = (struct lst_sample_verify){ .pending = UINT64_MAX };
		T_EQ_INT(lst_sample_check(&s, &err), -EBADMSG);
		s.verify = (struct lst_sample_verify){ .ok = UINT64_MAX, .bad = 2 };
		T_EQ_INT(lst_sample_check(&s, &err), -EBADMSG);
	}
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} sections[] = {
		{ "names", s_test_names },
		{ "roundtrip", s_test_roundtrip },
		{ "truncated", s_test_truncated },
		{ "size", s_test_size },
		{ "huge", s_test_huge },
		{ "malformed", s_test_malformed },
		{ "types", s_test_wrong_types },
		{ "missing", s_test_missing },
		{ "strings", s_test_long_strings },
		{ "arrays", s_test_arrays },
		{ "workload", s_test_workload },
		{ "unknown", s_test_unknown_keys },
		{ "version", s_test_version },
		{ "encode", s_test_encode_errors },
		{ "garbage", s_test_garbage },
		{ "devstats", s_test_devstats },
		{ "parts", s_test_parts },
		{ "parts_decode", s_test_parts_decode },
		{ "parts_check", s_test_parts_check },
		{ "hooks_decode", s_test_hooks_decode },
		{ "hooks_old_peers", s_test_hooks_old_peers },
		{ "hooks_encode", s_test_hooks_encode },
		{ "hooks_dup", s_test_hooks_dup },
		{ "verify_decode", s_test_verify_decode },
		{ "verify_encode", s_test_verify_encode },
		{ "verify_old_peers", s_test_verify_old_peers },
		{ "verify_parts", s_test_verify_parts },
	};
	int ran = 0;

	for (size_t i = 0; i < LST_ARRAY_SIZE(sections); i++) {
		if (argc > 1 && strcmp(argv[1], sections[i].name))
			continue;
		sections[i].fn();
		printf("ok %s\n", sections[i].name);
		ran++;
	}
	if (!ran)
		T_FAIL("no section named '%s'", argv[1]);
	return 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The write journal and integrity.csv (coordinator/folder/lst_integrity.c): a journal written
 * byte for byte (an unchanged mark writes nothing, the seed past 2^63 as a string), read back
 * equal (streams with their last mark or end applied, maxgen); a resume that appends and goes
 * on from the largest sid and generation; bad journals refused with their exact messages (cut
 * mid-line, a bad first line, a mark of an unknown stream, a stream of an undeclared target, a
 * number out of range), while a journal cut at a line boundary is valid (the stream just has no
 * end); a target declared again (the same: nothing written; another drive: refused);
 * integrity.csv's header and rows, its header-only touch, and a resume cutting it back.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lst_integrity.h"
#include "lst_test.h"
#include "lst_util.h"

static char s_top[64];

static char *s_read(const char *dir, const char *name)
{
	char *path = lst_asprintf("%s/%s", dir, name), *text = NULL;
	size_t len;

	T_EQ_INT(lst_read_file(path, 1 << 20, &text, &len), 0);
	free(path);
	return text;
}

static void s_write(const char *dir, const char *name, const char *text)
{
	char *path = lst_asprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	T_ASSERT(f);
	fputs(text, f);
	fclose(f);
	free(path);
}

static lst_results *s_folder(const char *name)
{
	char *dir = lst_asprintf("%s/%s", s_top, name);
	lst_err err;
	lst_results *r = lst_results_new(dir, &err);

	if (!r)
		T_FAIL("%s", err.msg);
	free(dir);
	return r;
}

static const struct lst_journal_where s_where = { "d", "fill", 2, "a", "/dev/loop0", 1.5 };
static const struct lst_journal_stream s_st = {
	.s = { .seed = 18446744073709551557ull,
	       .lo = 0,
	       .hi = 1 << 20,
	       .bs = 8192,
	       .random = 1,
	       .read_pct = 0,
	       .job = 3 },
	.gen = 1,
	.agent = 0,
	.path = 1,
};

#define S_HEAD "{\"type\":\"journal\",\"version\":1,\"run\":\"r1\"}\n"
#define S_TARGET                                                                                   \
	"{\"type\":\"target\",\"target\":\"d\",\"id\":%u,\"size\":1048576,"                        \
	"\"identity\":\"loop:/dev/shm/x\"}\n"
#define S_STREAM(sid, gen, agent)                                                                  \
	"{\"type\":\"stream\",\"sid\":" #sid ",\"gen\":" #gen ",\"target\":\"d\","                 \
	"\"phase\":\"fill\",\"point\":2,\"agent\":\"" agent "\",\"agent_index\":0,"                \
	"\"path\":\"/dev/loop0\",\"path_index\":1,\"t0_s\":1.5,"                                   \
	"\"seed\":\"18446744073709551557\",\"lo\":0,\"hi\":1048576,\"bs\":8192,\"random\":1,"      \
	"\"read_pct\":0,\"job\":3}\n"

/* Write, compare the bytes, read back. */
static void s_roundtrip(void)
{
	lst_results *r = s_folder("rt");
	char *dir = lst_asprintf("%s/rt", s_top), *text, want[4096];
	struct lst_journal_stream st2 = s_st;
	lst_journal_read jr;
	lst_journal *j;
	lst_err err;

	j = lst_journal_open(r, "r1", &err);
	if (!j)
		T_FAIL("%s", err.msg);
	T_EQ_U64(lst_journal_next_sid(j), 1);
	T_EQ_INT(lst_journal_maxgen(j), 0);
	T_EQ_INT(lst_journal_target(j, "d", lst_verify_target_id("d"), 1 << 20, "loop:/dev/shm/x",
				    &err),
		 0);
	T_EQ_INT(lst_journal_target(j, "d", lst_verify_target_id("d"), 1 << 20, "loop:/dev/shm/x",
				    &err),
		 0); /* no line */
	T_EQ_INT(lst_journal_stream(j, 1, &s_where, &s_st, &err), 0);
	st2.gen = 2;
	T_EQ_INT(lst_journal_stream(j, 7, &s_where, &st2, &err), 0);
	T_EQ_INT(lst_journal_mark(j, 1, 10, 12, 0, &err), 0);
	T_EQ_INT(lst_journal_mark(j, 1, 10, 12, 0, &err), 0); /* unchanged: no line */
	T_EQ_INT(lst_journal_mark(j, 7, 3, 4, 1, &err), 0);
	T_EQ_INT(lst_journal_end(j, 1, 20, 20, 0, true, &err), 0);
	/* a mark of an unknown or ended stream is the caller's error, and writes nothing */
	T_EQ_INT(lst_journal_mark(j, 9, 1, 1, 0, &err), -EINVAL);
	T_CONTAINS(err.msg, "mark of unknown stream 9");
	T_EQ_INT(lst_journal_mark(j, 1, 21, 21, 0, &err), -EINVAL);
	T_CONTAINS(err.msg, "mark of an ended stream 1");
	T_EQ_U64(lst_journal_next_sid(j), 8);
	T_EQ_INT(lst_journal_maxgen(j), 2);
	lst_journal_close(&j);
	T_ASSERT(!j);
	lst_journal_close(&j); /* safe twice */

	text = s_read(dir, "integrity/journal.jsonl");
	snprintf(want, sizeof(want),
		 S_HEAD S_TARGET S_STREAM(1, 1, "a") S_STREAM(
			 7, 2,
			 "a") "{\"type\":\"mark\",\"sid\":1,\"low\":10,\"issued\":12,\"werr\":0}\n"
			      "{\"type\":\"mark\",\"sid\":7,\"low\":3,\"issued\":4,\"werr\":1}\n"
			      "{\"type\":\"end\",\"sid\":1,\"low\":20,\"issued\":20,\"werr\":0,"
			      "\"complete\":true}\n",
		 lst_verify_target_id("d"));
	T_EQ_STR(text, want);
	free(text);

	if (lst_journal_load(dir, &jr, &err))
		T_FAIL("%s", err.msg);
	T_EQ_STR(jr.run, "r1");
	T_EQ_INT(jr.ntargets, 1);
	T_EQ_STR(jr.targets[0].name, "d");
	T_EQ_U64(jr.targets[0].id, lst_verify_target_id("d"));
	T_EQ_U64(jr.targets[0].size, 1 << 20);
	T_EQ_STR(jr.targets[0].identity, "loop:/dev/shm/x");
	T_ASSERT(lst_journal_find_target(&jr, "d") == &jr.targets[0]);
	T_ASSERT(!lst_journal_find_target(&jr, "e"));
	T_EQ_INT(jr.nentries, 2);
	T_EQ_INT(jr.maxgen, 2);
	{
		const struct lst_journal_entry *e = &jr.entries[0], *f = &jr.entries[1];

		T_EQ_U64(e->sid, 1);
		T_EQ_STR(e->where.target, "d");
		T_EQ_STR(e->where.phase, "fill");
		T_EQ_INT(e->where.point, 2);
		T_EQ_STR(e->where.agent, "a");
		T_EQ_STR(e->where.path, "/dev/loop0");
		T_NEAR(e->where.t0_s, 1.5, 0);
		T_EQ_U64(e->st.s.seed, s_st.s.seed);
		T_EQ_U64(e->st.s.lo, 0);
		T_EQ_U64(e->st.s.hi, 1 << 20);
		T_EQ_INT(e->st.s.bs, 8192);
		T_EQ_INT(e->st.s.random, 1);
		T_EQ_INT(e->st.s.read_pct, 0);
		T_EQ_INT(e->st.s.job, 3);
		T_EQ_INT(e->st.gen, 1);
		T_EQ_INT(e->st.agent, 0);
		T_EQ_INT(e->st.path, 1);
		T_EQ_U64(e->st.low, 20);
		T_EQ_U64(e->st.issued, 20);
		T_EQ_U64(e->st.werr, 0);
		T_EQ_INT(e->st.complete, 1);
		T_ASSERT(e->ended);
		T_EQ_U64(f->sid, 7);
		T_EQ_INT(f->st.gen, 2);
		T_EQ_U64(f->st.low, 3);
		T_EQ_U64(f->st.issued, 4);
		T_EQ_U64(f->st.werr, 1);
		T_EQ_INT(f->st.complete, 0);
		T_ASSERT(!f->ended);
	}
	lst_journal_read_free(&jr);

	/* a resume: a last line cut short is dropped, the file appended, numbering goes on */
	{
		char *path = lst_asprintf("%s/integrity/journal.jsonl", dir);
		FILE *f = fopen(path, "a");

		fputs("{\"type\":\"mark\",\"sid\":7,\"lo", f);
		fclose(f);
		j = lst_journal_open(r, "r1", &err);
		if (!j)
			T_FAIL("%s", err.msg);
		T_EQ_U64(lst_journal_next_sid(j), 8);
		T_EQ_INT(lst_journal_maxgen(j), 2);
		/* its targets are known: the same again writes nothing, another drive is refused */
		T_EQ_INT(lst_journal_target(j, "d", lst_verify_target_id("d"), 1 << 20,
					    "loop:/dev/shm/x", &err),
			 0);
		T_EQ_INT(lst_journal_target(j, "d", lst_verify_target_id("d"), 2 << 20,
					    "loop:/dev/shm/y", &err),
			 -EINVAL);
		T_CONTAINS(err.msg, "target d was 1048576 bytes, \"loop:/dev/shm/x\"; now it is "
				    "2097152 bytes, \"loop:/dev/shm/y\": not the drive the journal "
				    "is of");
		T_EQ_INT(lst_journal_end(j, 7, 4, 4, 1, false, &err), 0);
		lst_journal_close(&j);
		text = s_read(dir, "integrity/journal.jsonl");
		T_ASSERT(!strncmp(text, want, strlen(want)));
		T_EQ_STR(text + strlen(want), "{\"type\":\"end\",\"sid\":7,\"low\":4,\"issued\":4,"
					      "\"werr\":1,\"complete\":false}\n");
		free(text);
		free(path);
	}
	/* a crash in the middle of the first line: the resume starts a new journal */
	{
		s_write(dir, "integrity/journal.jsonl", "{\"type\":\"jour");
		j = lst_journal_open(r, "r2", &err);
		if (!j)
			T_FAIL("%s", err.msg);
		T_EQ_U64(lst_journal_next_sid(j), 1);
		lst_journal_close(&j);
		text = s_read(dir, "integrity/journal.jsonl");
		T_EQ_STR(text, "{\"type\":\"journal\",\"version\":1,\"run\":\"r2\"}\n");
		free(text);
	}
	T_ASSERT(!lst_results_failed(r));
	lst_results_destroy(&r);
	free(dir);
}

/* Load text as a journal in a folder of its own; returns the error message (or "" when it
 * loads), in a static buffer. */
static const char *s_load(const char *name, const char *text, lst_journal_read *jr)
{
	static char msg[LST_ERR_MAX];
	char *dir = lst_asprintf("%s/%s", s_top, name), *sub = lst_asprintf("%s/integrity", dir);
	lst_journal_read tmp;
	lst_err err;

	T_EQ_INT(lst_mkdir_p(sub), 0);
	s_write(dir, "integrity/journal.jsonl", text);
	if (lst_journal_load(dir, jr ? jr : &tmp, &err)) {
		snprintf(msg, sizeof(msg), "%s", err.msg + strlen(dir) + 1);
		T_EQ_INT(err.code, -EINVAL);
	} else {
		msg[0] = 0;
		if (!jr)
			lst_journal_read_free(&tmp);
	}
	free(sub);
	free(dir);
	return msg;
}

static void s_bad_journals(void)
{
	char head[512], full[4096], cut[4096];
	lst_journal_read jr;
	lst_err err;
	char *dir = lst_asprintf("%s/none", s_top);

	/* a missing file */
	T_EQ_INT(lst_journal_load(dir, &jr, &err), -ENOENT);
	T_CONTAINS(err.msg,
		   "none/integrity/journal.jsonl: cannot open it: No such file or directory");
	free(dir);

	/* a FIFO in its place is refused, not waited on */
	dir = lst_asprintf("%s/fifo", s_top);
	{
		char *sub = lst_asprintf("%s/integrity", dir),
		     *fifo = lst_asprintf("%s/journal.jsonl", sub);

		T_EQ_INT(lst_mkdir_p(sub), 0);
		T_EQ_INT(mkfifo(fifo, 0600), 0);
		T_EQ_INT(lst_journal_load(dir, &jr, &err), -EINVAL);
		T_CONTAINS(err.msg, "fifo/integrity/journal.jsonl: a FIFO, not a regular file");
		free(fifo);
		free(sub);
	}
	free(dir);

	snprintf(head, sizeof(head), S_HEAD S_TARGET, lst_verify_target_id("d"));
	snprintf(full, sizeof(full),
		 "%s" S_STREAM(1, 1, "a") "{\"type\":\"mark\",\"sid\":1,\"low\":5,\"issued\":6,"
					  "\"werr\":0,\"later\":[1]}\n"
					  "{\"type\":\"end\",\"sid\":1,\"low\":8,\"issued\":8,"
					  "\"werr\":0,\"complete\":true}\n",
		 head);
	T_EQ_STR(s_load("ok", full, NULL), "");

	/* cut mid-line: an error naming the line */
	snprintf(cut, strlen(full) - 10, "%s", full);
	T_EQ_STR(s_load("cut1", cut, NULL),
		 "integrity/journal.jsonl:5: line cut short (a truncated journal)");

	/* cut at a line boundary, losing the end: valid, the stream is not ended */
	snprintf(cut, sizeof(cut),
		 "%s" S_STREAM(1, 1, "a") "{\"type\":\"mark\",\"sid\":1,"
					  "\"low\":5,\"issued\":6,\"werr\":0}\n",
		 head);
	T_EQ_STR(s_load("cut2", cut, &jr), "");
	T_EQ_INT(jr.nentries, 1);
	T_ASSERT(!jr.entries[0].ended);
	T_EQ_INT(jr.entries[0].st.complete, 0);
	T_EQ_U64(jr.entries[0].st.low, 5);
	T_EQ_U64(jr.entries[0].st.issued, 6);
	lst_journal_read_free(&jr);

	T_EQ_STR(s_load("first", "{\"type\":\"target\",\"target\":\"d\"}\n", NULL),
		 "integrity/journal.jsonl:1: not a lockstep write journal (the first line must be "
		 "{\"type\":\"journal\",\"version\":1,\"run\":...})");
	T_EQ_STR(s_load("version", "{\"type\":\"journal\",\"version\":2,\"run\":\"r\"}\n", NULL),
		 "integrity/journal.jsonl:1: journal version 2 is not supported (1 is)");
	T_EQ_STR(s_load("notjson", "hello\n", NULL),
		 "integrity/journal.jsonl:1: not a JSON object: '[' or '{' expected near 'hello'");
	T_EQ_STR(s_load("empty", "", NULL), "integrity/journal.jsonl: empty (not a lockstep write "
					    "journal)");

	snprintf(cut, sizeof(cut),
		 "%s{\"type\":\"mark\",\"sid\":4,\"low\":1,\"issued\":1,"
		 "\"werr\":0}\n",
		 head);
	T_EQ_STR(s_load("unknown", cut, NULL),
		 "integrity/journal.jsonl:3: mark of unknown stream 4");
	snprintf(cut, sizeof(cut),
		 "%s{\"type\":\"end\",\"sid\":4,\"low\":1,\"issued\":1,"
		 "\"werr\":0,\"complete\":true}\n",
		 head);
	T_EQ_STR(s_load("unknown_end", cut, NULL),
		 "integrity/journal.jsonl:3: end of unknown stream 4");
	snprintf(cut, sizeof(cut), S_HEAD S_STREAM(1, 1, "a"));
	T_EQ_STR(s_load("undeclared", cut, NULL),
		 "integrity/journal.jsonl:2: stream of undeclared target \"d\"");
	snprintf(cut, sizeof(cut), "%s" S_STREAM(1, 1, "a") S_STREAM(1, 2, "b"), head);
	T_EQ_STR(s_load("twice", cut, NULL), "integrity/journal.jsonl:4: stream 1 declared twice");
	snprintf(cut, sizeof(cut), "%s{\"type\":\"snapshot\"}\n", head);
	T_EQ_STR(s_load("type", cut, NULL), "integrity/journal.jsonl:3: unknown type \"snapshot\"");
	/* numbers: integers in range */
	snprintf(cut, sizeof(cut),
		 "%s" S_STREAM(1, 1, "a") "{\"type\":\"mark\",\"sid\":1,"
					  "\"low\":1.5,\"issued\":2,\"werr\":0}\n",
		 head);
	T_EQ_STR(s_load("real", cut, NULL), "integrity/journal.jsonl:4: \"low\" must be an integer "
					    "in 0..9223372036854775807");
	snprintf(cut, sizeof(cut),
		 "%s" S_STREAM(1, 1, "a") "{\"type\":\"mark\",\"sid\":1,"
					  "\"low\":-1,\"issued\":2,\"werr\":0}\n",
		 head);
	T_EQ_STR(s_load("negative", cut, NULL), "integrity/journal.jsonl:4: \"low\" must be an "
						"integer in 0..9223372036854775807");
	snprintf(cut, sizeof(cut),
		 "%s" S_STREAM(1, 1, "a") "{\"type\":\"mark\",\"sid\":1,"
					  "\"low\":3,\"issued\":2,\"werr\":0}\n",
		 head);
	T_EQ_STR(s_load("lowissued", cut, NULL),
		 "integrity/journal.jsonl:4: stream 1: low is larger than issued");
	snprintf(cut, sizeof(cut), "%s" S_STREAM(1, 0, "a"), head);
	T_EQ_STR(s_load("gen0", cut, NULL), "integrity/journal.jsonl:3: \"gen\" must be >= 1");
	/* agent_index past 65535 */
	snprintf(cut, sizeof(cut), "%s%s", head, S_STREAM(1, 1, "a"));
	{
		char *p = strstr(cut, "\"agent_index\":0");

		T_ASSERT(p);
		memmove(p + 19, p + 15, strlen(p + 15) + 1);
		memcpy(p, "\"agent_index\":65536", 19);
	}
	T_EQ_STR(s_load("agentidx", cut, NULL),
		 "integrity/journal.jsonl:3: \"agent_index\" must be an integer in 0..65535");
	/* a seed that is a number, not a string */
	snprintf(cut, sizeof(cut), "%s%s", head, S_STREAM(1, 1, "a"));
	{
		char *p = strstr(cut, "\"seed\":\"");

		memmove(p + 7, p + 8, strlen(p + 8) + 1);
		p = strchr(p + 7, '"');
		memmove(p, p + 1, strlen(p + 1) + 1);
	}
	/* jansson refuses integers past 2^63: that is why the seed is a string */
	T_EQ_STR(s_load("seednum", cut, NULL), "integrity/journal.jsonl:3: not a JSON object: too "
					       "big integer near '18446744073709551557'");
}

static void s_integrity_csv(void)
{
	lst_results *r = s_folder("csv");
	char *dir = lst_asprintf("%s/csv", s_top), *text;
	struct lst_integrity_row row = {
		.phase = "verify",
		.point = 0,
		.target = "d",
		.agent = "b",
		.path = "/dev/loop1",
		.offset = 8192,
		.kind = "stale",
		.exp_gen = 2,
		.exp_agent = "a",
		.exp_path = "/dev/loop0",
		.exp_t_s = 12.5,
		.found = "stamp",
		.found_gen = 1,
		.found_agent = "a",
		.found_path = "/dev/loop0",
		.found_lba = 2,
		.found_t_s = NAN,
	};
	static const char header[] =
		"phase,point,target,agent,path,offset,kind,expected_gen,expected_agent,"
		"expected_path,expected_t_s,found,found_gen,found_agent,found_path,found_lba,"
		"found_t_s\n";
	json_t *sizes;
	lst_err err;

	lst_results_integrity_touch(r);
	text = s_read(dir, "integrity.csv");
	T_EQ_STR(text, header);
	free(text);
	lst_results_integrity(r, &row);
	sizes = lst_results_sizes(r);
	T_ASSERT(json_integer_value(json_object_get(sizes, "integrity.csv")) > 0);
	row.kind = "no stamp";
	row.found = "no stamp";
	row.found_agent = row.found_path = "";
	row.found_gen = 0;
	row.found_lba = 0;
	lst_results_integrity(r, &row);
	lst_results_integrity_touch(r); /* leaves rows alone */
	text = s_read(dir, "integrity.csv");
	T_EQ_STR(text,
		 "phase,point,target,agent,path,offset,kind,expected_gen,expected_agent,"
		 "expected_path,expected_t_s,found,found_gen,found_agent,found_path,found_lba,"
		 "found_t_s\n"
		 "verify,0,d,b,\"/dev/loop1\",8192,stale,2,a,\"/dev/loop0\",12.500,stamp,1,a,"
		 "\"/dev/loop0\",2,\n"
		 "verify,0,d,b,\"/dev/loop1\",8192,no stamp,2,a,\"/dev/loop0\",12.500,no stamp,"
		 "0,,\"\",0,\n");
	free(text);
	T_ASSERT(!lst_results_failed(r));
	lst_results_destroy(&r);
	/* a resume from the point after the first row cuts the second away */
	r = lst_results_reopen(dir, sizes, NULL, &err);
	if (!r)
		T_FAIL("%s", err.msg);
	text = s_read(dir, "integrity.csv");
	T_EQ_U64(strlen(text), json_integer_value(json_object_get(sizes, "integrity.csv")));
	T_ASSERT(!strstr(text, "no stamp"));
	free(text);
	lst_results_destroy(&r);
	json_decref(sizes);
	free(dir);
}

/* The scratch folder goes at exit, after a failure too. */
static void s_cleanup(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", s_top);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", s_top);
}

int main(void)
{
	snprintf(s_top, sizeof(s_top), "/tmp/lst_integrity.XXXXXX");
	T_ASSERT(mkdtemp(s_top));
	atexit(s_cleanup);
	s_roundtrip();
	s_bad_journals();
	s_integrity_csv();
	return 0;
}

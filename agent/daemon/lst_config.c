/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Agent settings from a YAML file and from flags, through one lst_opt table.
 *
 * The file is read into common/lst_yaml's node tree (the reader plans use too, so both refuse
 * the same YAML: syntax errors, anchors and aliases, control characters, duplicate keys). It is
 * one flat map: each key is looked up in lst_config_settings and its value, a scalar or a list
 * of scalars, goes through the operations of the setting's type that the flags use too, so a
 * setting is checked identically wherever it comes from. Every error is placed at the line and column of the offending key or
 * value, and only the first in the file is reported.
 */
#include "lst_config.h"
#include "lst_config_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_file.h"
#include "lst_identity.h"
#include "lst_log.h"
#include "lst_msg.h"
#include "lst_text.h"
#include "lst_time.h"
#include "lst_util.h"
#include "lst_yaml.h"

#define S_MAX_FILE (1024 * 1024)

#define S_SET(f) offsetof(struct lst_config, f)
#define S_NS(s) ((int64_t)(s)*1000000000)

/*
 * THE description of the agent's settings, in the order --help and docs/agent.md list them:
 * the file reader, the flag parser (lst_config_cli.c), --help, --list-settings and the tables
 * of docs/agent.md and lockstep-agent(8) all read it; there is no other list. A setting's flag
 * is --name with '-' for '_', unless its type is read from the file only (hooks, collectors).
 * help's first sentence is the --help line; all of it (Markdown) is the docs' meaning. A
 * setting without a default is not set until given, and its help says what applies then.
 */
const struct lst_opt lst_config_settings[] = {
	{ .name = "listen",
	  .type = LST_OPT_CUSTOM,
	  .offset = S_SET(listen),
	  .def = LST_CONFIG_DEFAULT_LISTEN,
	  .ops = &lst_config__endpoint_ops,
	  .help = "ZeroMQ endpoint to bind. `" LST_CONFIG_DEFAULT_LISTEN "` is every interface, "
		  "port 7270; `tcp://192.0.2.10:7270` binds one address; `tcp://127.0.0.1:7270` "
		  "loopback only (`tcp://localhost:7270` means the same: ZeroMQ binds addresses, "
		  "not host names, so the agent binds 127.0.0.1)." },
	{ .name = "name",
	  .type = LST_OPT_CUSTOM,
	  .offset = S_SET(name),
	  .ops = &lst_config__name_ops,
	  .help = "Agent name reported to coordinators in WELCOME (default: the host name)." },
	{ .name = "log",
	  .type = LST_OPT_CUSTOM,
	  .offset = S_SET(log),
	  .ops = &lst_config__file_ops,
	  .help = "Log file (default " LST_CONFIG_DEFAULT_LOG " when daemonized, stderr in the "
		  "foreground). Reopened on SIGHUP. Never opened through a symlink, and never a "
		  "block device or a FIFO nobody reads (refused at once, at start or on SIGHUP); "
		  "`/dev/null` will do." },
	{ .name = "pidfile",
	  .type = LST_OPT_CUSTOM,
	  .offset = S_SET(pidfile),
	  .ops = &lst_config__file_ops,
	  .help = "Write the daemon's pid to this file, removed at exit. A regular file only: a "
		  "symlink, a FIFO or a device there is refused, never written through." },
	{ .name = "foreground",
	  .type = LST_OPT_BOOL,
	  .offset = S_SET(foreground),
	  .def = "false",
	  .help = "Do not daemonize; log to stderr unless --log is given." },
	{ .name = "allow_write",
	  .type = LST_OPT_CUSTOM,
	  .offset = S_SET(allow_write),
	  .ops = &lst_config__globs_ops,
	  .help = "A path glob the agent may write, trim or purge (repeatable; nothing by "
		  "default). On the command line the globs **replace** the config file's list." },
	{ .name = "read_only",
	  .type = LST_OPT_BOOL,
	  .offset = S_SET(read_only),
	  .def = "false",
	  .help = "Refuse every write and purge, whatever allow_write says." },
	{ .name = "debug",
	  .type = LST_OPT_CUSTOM,
	  .offset = S_SET(debug),
	  .ops = &lst_config__debug_ops,
	  .help = "Debug categories, comma-separated. `io`, `net`, `time`, `plan`, `proto` (every "
		  "message in and out), `dev` (device checks), `all`." },
	{ .name = "lease_max",
	  .type = LST_OPT_DURATION,
	  .offset = S_SET(lease_max),
	  .def = "10m",
	  .min = S_NS(1),
	  .max = S_NS(24 * 3600),
	  .help = "Cap on the lease a coordinator asks for. It also sizes the spool (below)." },
	{ .name = "key",
	  .type = LST_OPT_CUSTOM,
	  .offset = S_SET(key),
	  .ops = &lst_config__file_ops,
	  .help = "This agent's CURVE secret key (NAME.key from 'lockstep keygen'); turns on "
		  "encryption and authentication. Mode 0600: a key that group or others may read "
		  "is refused. Needs `--authorized-keys`. Its `NAME.pub` is what plans give as "
		  "this agent's `key:`." },
	{ .name = "authorized_keys",
	  .type = LST_OPT_CUSTOM,
	  .offset = S_SET(authorized_keys),
	  .ops = &lst_config__dir_ops,
	  .help = "Folder of the coordinator public keys (*.pub) accepted. One `*.pub` file each "
		  "(czmq certificates from `lockstep keygen`, or the 40-character Z85 text), read "
		  "again at every connection, so adding or removing a file needs no restart. Must "
		  "not be writable by group or others, and must be owned by root or the agent's "
		  "user (as must the folders above it; docs/security.md)." },
	{ .name = "insecure",
	  .type = LST_OPT_BOOL,
	  .offset = S_SET(insecure),
	  .def = "false",
	  .help = "Allow plain text beyond loopback (warned at every start). Without it, an agent "
		  "with no key starts only on a loopback `--listen` (`127.0.0.0/8`, `[::1]`, "
		  "`localhost`, `ipc://`)." },
	{ .name = "mem_max",
	  .type = LST_OPT_SIZE,
	  .offset = S_SET(mem_max),
	  .min = (int64_t)LST_CONFIG_MEM_MAX_MIN,
	  .max = INT64_MAX,
	  .help = "Memory one point may ask for, I/O buffers and per-job state (default "
		  "25% of RAM); a PREPARE above it is refused. Its I/O buffers are jobs x iodepth "
		  "x bs over every job spec, its per-job state about 0.5 MiB a job. Sizes take "
		  "`k`, `m`, `g`, `t` (binary: `4g` = 4 GiB). The default is 25% of the host's "
		  "MemTotal; a PREPARE over it is refused before anything is allocated (see "
		  "\"Memory\" below)." },
	{ .name = "hooks",
	  .type = LST_OPT_CUSTOM,
	  .offset = S_SET(hooks),
	  .ops = &lst_config__cmds_ops,
	  .help = "Commands a plan may run by name at instants of a point (`events:`) or around a "
		  "phase (`before:`, `after:`) (config file only). No shell: the list is the "
		  "argv, its first entry an absolute path to an executable file (checked when "
		  "the config is read). A plan names them, it never passes arguments. See "
		  "\"Hooks and collectors\" below." },
	{ .name = "collectors",
	  .type = LST_OPT_CUSTOM,
	  .offset = S_SET(collectors),
	  .ops = &lst_config__cmds_ops,
	  .help = "Commands printing JSON on stdout (drive telemetry) a plan may run by name "
		  "before and after a phase (config file only). The same rules as `hooks`." },
	{ .name = "hook_timeout",
	  .type = LST_OPT_DURATION,
	  .offset = S_SET(hook_timeout),
	  .def = "60s",
	  .min = S_NS(1),
	  .max = S_NS(3600),
	  .help = "Longest a hook or collector may run. Then its process group gets SIGTERM, and "
		  "SIGKILL 2 s later." },
	{ .name = "trace_dir",
	  .type = LST_OPT_CUSTOM,
	  .offset = S_SET(trace_dir),
	  .def = LST_CONFIG_DEFAULT_TRACE_DIR,
	  .ops = &lst_config__abs_dir_ops,
	  .help = "Folder of the I/O traces that write_iolog records and read_iolog replays. A "
		  "record is `NAME.AGENT.K.lstrace`, K the job spec's index; `read_iolog` names a "
		  "file in it, never a path. Created with mode 0750 when a recording first needs "
		  "it. Like `authorized_keys`, it and the folders above it must be owned by root "
		  "or the agent's user and not writable by group or others." },
#ifdef LST_TEST_EXTRA_SETTING /* one entry more and nothing else: tests/integration/docs/CMakeLists.txt */
	{ .name = "extra_probe",
	  .type = LST_OPT_DURATION,
	  .offset = S_SET(extra_probe),
	  .def = "5s",
	  .min = S_NS(1),
	  .max = S_NS(60),
	  .help = "A setting only the settings test's build has. Nothing reads it." },
#endif
	{ .name = NULL },
};

_Static_assert(LST_ARRAY_SIZE(lst_config_settings) <= 33, "one bit of lst_config.set each");

static const struct lst_opt *s_find(const char *name)
{
	return lst_opt_find(lst_config_settings, name);
}

static uint32_t s_bit(const struct lst_opt *o)
{
	return 1u << (o - lst_config_settings);
}

lst_config *lst_config_new(void)
{
	lst_config *cfg = lst_calloc(1, sizeof(lst_config));

	lst_opt_defaults(lst_config_settings, cfg);
	return cfg;
}

int lst_config_policy(const lst_config *cfg, lst_dev_policy *p, lst_err *err)
{
	for (size_t i = 0; i < cfg->allow_write.n; i++)
		if (lst_dev_policy_allow(p, cfg->allow_write.v[i]))
			return lst_err_set(err, -EINVAL, "allow_write: '%s' is not a usable glob",
					   cfg->allow_write.v[i]);
	lst_dev_policy_set_read_only(p, cfg->read_only);
	return 0;
}

const struct lst_config_cmd *lst_config_cmd_find(const struct lst_config_cmd *cmds, size_t n,
						 const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(cmds[i].name, name))
			return &cmds[i];
	return NULL;
}

void lst_config_destroy(lst_config **p)
{
	lst_config *cfg = *p;

	if (!cfg)
		return;
	for (const struct lst_opt *o = lst_config_settings; o->name; o++)
		lst_opt_clear(o, cfg);
	free(cfg);
	*p = NULL;
}

uint64_t lst_config_mem_max_default(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	uint64_t mem = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;

	mem = mem / 100 * LST_CONFIG_MEM_MAX_PERCENT;
	return mem > LST_CONFIG_MEM_MAX_MIN ? mem : LST_CONFIG_MEM_MAX_MIN;
}

int lst_config_set(lst_config *cfg, const char *key, const char *value, lst_err *err)
{
	const struct lst_opt *o = s_find(key);
	int rc;

	if (!o)
		return lst_err_set(err, -EINVAL, "unknown setting '%s'", key);
	/* A list given again gains the value; given for the first time, it starts afresh. */
	if (lst_opt_is_list(o) && !(cfg->set & s_bit(o)))
		lst_opt_clear(o, cfg);
	rc = lst_opt_is_list(o) ? lst_opt_add(o, cfg, value, err)
				: lst_opt_parse(o, cfg, value, err);
	if (rc)
		return -EINVAL;
	cfg->set |= s_bit(o);
	return 0;
}

bool lst_config_is_set(const lst_config *cfg, const char *key)
{
	const struct lst_opt *o = s_find(key);

	return o && (cfg->set & s_bit(o));
}

void lst_config_override(lst_config *dst, const lst_config *src)
{
	for (const struct lst_opt *o = lst_config_settings; o->name; o++)
		if (src->set & s_bit(o))
			lst_opt_copy(o, dst, src);
	dst->set |= src->set;
}

/* ---------------------------------------------------------------- the file */

/*
 * The one problem reported for a file. lst_yaml reports what is wrong with the YAML (syntax,
 * anchors, aliases, control characters, duplicate keys) while it builds the tree, and the walk
 * below what is wrong with a setting, stopping at the first; of them all the earliest place in
 * the file wins, as it did when the file was read as a stream, and at the same place the
 * walk's message, which names the setting ("'name' is given twice").
 */
struct s_reader {
	const char *name; /* the file, as given */
	lst_config *cfg;
	bool failed;
	int line, col; /* of msg */
	char msg[LST_ERR_MAX];
	const struct lst_yaml_node *seen[LST_ARRAY_SIZE(lst_config_settings)]; /* keys so far */
};

static void s_keep(struct s_reader *r, int line, int col, const char *msg, bool setting)
{
	bool before = line < r->line || (line == r->line && col < r->col);
	bool same = line == r->line && col == r->col;

	if (r->failed && !before && !(same && setting))
		return;
	r->failed = true;
	r->line = line;
	r->col = col;
	lst_copy(r->msg, sizeof(r->msg), msg);
}

static void s_yaml_err(void *arg, int line, int col, const char *msg)
{
	s_keep(arg, line, col, msg, false);
}

static int s_fail(struct s_reader *r, const struct lst_yaml_node *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int s_fail(struct s_reader *r, const struct lst_yaml_node *at, const char *fmt, ...)
{
	char msg[LST_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	s_keep(r, at->mark.line, at->mark.col, msg, true);
	return -EINVAL;
}

/* What a node is, as the config's messages say it ("a value" for any scalar). */
static const char *s_what(const struct lst_yaml_node *n)
{
	return n->type == LST_YAML_SCALAR ? "a value" : lst_yaml_what(n);
}

/* The field of setting o in the config being read. */
static void *s_field(struct s_reader *r, const struct lst_opt *o)
{
	return (char *)r->cfg + o->offset;
}

/* One scalar value v for setting o: the whole value, or (item) one entry of a list. */
static int s_value(struct s_reader *r, const struct lst_opt *o, const struct lst_yaml_node *v,
		   bool item)
{
	lst_err e;
	int rc = item ? lst_opt_add(o, r->cfg, v->text, &e) : lst_opt_parse(o, r->cfg, v->text, &e);

	if (rc)
		return s_fail(r, v, "%s", e.msg);
	r->cfg->set |= s_bit(o);
	return 0;
}

/* A list value v for setting o (allow_write or debug): every entry through the list's add. */
static int s_read_list(struct s_reader *r, const struct lst_opt *o, const struct lst_yaml_node *v)
{
	for (size_t i = 0; i < v->n; i++) {
		const struct lst_yaml_node *item = v->kids[i];

		if (item->bad)
			return -EINVAL; /* lst_yaml said why */
		if (item->type != LST_YAML_SCALAR || item->null)
			return s_fail(r, item, "%s: every entry must be a string, not %s", o->name,
				      item->type == LST_YAML_SCALAR ? "empty" : s_what(item));
		if (s_value(r, o, item, true))
			return -EINVAL;
	}
	r->cfg->set |= s_bit(o);
	return 0;
}

/* Is name a usable hook or collector name ([A-Za-z0-9_.-], under LST_NAME_MAX bytes)? */
static bool s_cmd_name_ok(const char *name)
{
	size_t len = strlen(name);

	if (!len || len >= LST_NAME_MAX)
		return false;
	return strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") ==
	       len;
}

/* argv[0] of a command: an absolute path to an executable regular file, now (at load). */
static int s_check_program(struct s_reader *r, const struct lst_opt *k, const char *name,
			   const struct lst_yaml_node *v)
{
	char what[2 * LST_NAME_MAX];
	struct stat st;
	lst_err err;

	if (v->text[0] != '/')
		return s_fail(r, v,
			      "%s: %s: '%s' is not an absolute path (no shell, no PATH lookup)",
			      k->name, name, v->text);
	if (stat(v->text, &st))
		return s_fail(r, v, "%s: %s: %s: %s", k->name, name, v->text, strerror(errno));
	if (!S_ISREG(st.st_mode) || access(v->text, X_OK))
		return s_fail(r, v, "%s: %s: %s is not an executable file", k->name, name, v->text);
	/* The agent runs it as root: whoever may change it could run anything as root. */
	snprintf(what, sizeof(what), "%s: %s", k->name, name);
	if (lst_file_check_owned(v->text, what, "make the agent run anything as root", &err))
		return s_fail(r, v, "%s", err.msg);
	return 0;
}

/* One NAME: [argv...] entry into c (its name already checked). */
static int s_read_cmd(struct s_reader *r, const struct lst_opt *k, const struct lst_yaml_node *key,
		      const struct lst_yaml_node *v, struct lst_config_cmd *c)
{
	if (v->bad)
		return -EINVAL; /* lst_yaml said why */
	if (v->type != LST_YAML_LIST)
		return s_fail(r, v,
			      "%s: %s must be a list [/absolute/program, arguments...], not %s",
			      k->name, key->text,
			      v->type == LST_YAML_SCALAR && v->null ? "empty" : s_what(v));
	if (!v->n)
		return s_fail(r, v, "%s: %s: the list is empty: it needs at least the program",
			      k->name, key->text);
	for (size_t i = 0; i < v->n; i++) {
		const struct lst_yaml_node *a = v->kids[i];

		if (a->bad)
			return -EINVAL;
		if (a->type != LST_YAML_SCALAR || a->null || !a->text[0])
			return s_fail(r, a,
				      "%s: %s: every entry must be a non-empty string, not %s",
				      k->name, key->text,
				      a->type == LST_YAML_SCALAR ? "empty" : s_what(a));
	}
	if (s_check_program(r, k, key->text, v->kids[0]))
		return -EINVAL;
	c->name = lst_strdup(key->text);
	c->argc = v->n;
	c->argv = lst_calloc(v->n + 1, sizeof(char *));
	for (size_t i = 0; i < v->n; i++)
		c->argv[i] = lst_strdup(v->kids[i]->text);
	return 0;
}

/* hooks: or collectors: a map of NAME: [argv...], replacing what cfg had. */
static int s_read_argv_map(struct s_reader *r, const struct lst_opt *k,
			   const struct lst_yaml_node *v)
{
	struct lst_config_cmds *c = s_field(r, k);
	struct lst_config_cmd **cmds = &c->v;
	size_t *n = &c->n;

	lst_opt_clear(k, r->cfg);
	r->cfg->set |= s_bit(k);
	if (v->type == LST_YAML_SCALAR && v->null)
		return 0; /* hooks: (nothing) = none */
	if (v->type != LST_YAML_MAP)
		return s_fail(r, v, "%s must be %s, not %s", k->name, lst_config__what(k),
			      s_what(v));
	*cmds = lst_calloc(v->n / 2 + 1, sizeof(**cmds));
	for (size_t i = 0; i + 1 < v->n; i += 2) {
		const struct lst_yaml_node *key = v->kids[i];
		const struct lst_config_cmd *prev;

		if (key->bad)
			return -EINVAL;
		if (key->type != LST_YAML_SCALAR || !s_cmd_name_ok(key->text))
			return s_fail(r, key,
				      "%s: a name must be 1 to %d of A-Z a-z 0-9 _ . -, not %s%s%s",
				      k->name, LST_NAME_MAX - 1,
				      key->type == LST_YAML_SCALAR ? "'" : s_what(key),
				      key->type == LST_YAML_SCALAR ? key->text : "",
				      key->type == LST_YAML_SCALAR ? "'" : "");
		if ((prev = lst_config_cmd_find(*cmds, *n, key->text)))
			return s_fail(r, key, "%s: '%s' is defined twice", k->name, key->text);
		if (*n >= LST_MAX_HOOKS)
			return s_fail(r, key, "%s: more than %d entries", k->name, LST_MAX_HOOKS);
		if (s_read_cmd(r, k, key, v->kids[i + 1], &(*cmds)[*n]))
			return -EINVAL;
		(*n)++;
	}
	return 0;
}

/* The value v of setting k. */
static int s_read_value(struct s_reader *r, const struct lst_opt *k, const struct lst_yaml_node *v)
{
	if (v->bad)
		return -EINVAL; /* lst_yaml said why */
	if (lst_config__file_only(k))
		return s_read_argv_map(r, k, v);
	if (v->type == LST_YAML_SCALAR && v->null) {
		if (!lst_opt_is_list(k))
			return s_fail(r, v, "%s needs a value (%s)", k->name, lst_config__what(k));
		r->cfg->set |= s_bit(k); /* allow_write: (nothing) = no globs */
		return 0;
	}
	if (v->type == LST_YAML_SCALAR)
		return s_value(r, k, v, false);
	if (v->type != LST_YAML_LIST || !lst_opt_is_list(k))
		return s_fail(r, v, "%s must be %s, not %s", k->name, lst_config__what(k),
			      s_what(v));
	return s_read_list(r, k, v);
}

/* "unknown key", the known ones, and the nearest (within two edits) as "did you mean". */
static int s_unknown_key(struct s_reader *r, const struct lst_yaml_node *key)
{
	char known[256] = "";
	const char *near = NULL;
	size_t best = 3;

	for (const struct lst_opt *k = lst_config_settings; k->name; k++) {
		size_t d;

		snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s",
			 known[0] ? ", " : "", k->name);
		d = lst_text_distance(key->text, k->name);
		if (d < best && d < strlen(k->name) && d < strlen(key->text)) {
			best = d;
			near = k->name;
		}
	}
	if (near)
		return s_fail(r, key, "unknown key '%s' (known: %s); did you mean '%s'?", key->text,
			      known, near);
	return s_fail(r, key, "unknown key '%s' (known: %s)", key->text, known);
}

/* One "key: value" of the settings map. */
static int s_read_setting(struct s_reader *r, const struct lst_yaml_node *key,
			  const struct lst_yaml_node *v)
{
	const struct lst_opt *k;
	size_t idx;

	if (key->type != LST_YAML_SCALAR) /* lst_yaml said so too, in words about any key */
		return s_fail(r, key, "a setting's name must be a string, not %s", s_what(key));
	if (key->bad)
		return -EINVAL; /* lst_yaml said why */
	k = s_find(key->text);
	if (!k)
		return s_unknown_key(r, key);
	idx = (size_t)(k - lst_config_settings);
	if (r->seen[idx])
		return s_fail(r, key, "'%s' is given twice (first at %d:%d)", k->name,
			      r->seen[idx]->mark.line, r->seen[idx]->mark.col);
	r->seen[idx] = key;
	if (lst_opt_is_list(k)) { /* the file's list replaces what was there */
		lst_opt_clear(k, r->cfg);
		r->cfg->set &= ~s_bit(k);
	}
	return s_read_value(r, k, v);
}

/* The document: a map of settings, or nothing at all. */
static void s_read_root(struct s_reader *r, const struct lst_yaml_node *root)
{
	if (root->bad || (root->type == LST_YAML_SCALAR && root->null))
		return;
	if (root->type != LST_YAML_MAP) {
		s_fail(r, root, "the agent config must be a map of settings (key: value), not %s",
		       s_what(root));
		return;
	}
	for (size_t i = 0; i + 1 < root->n; i += 2)
		if (s_read_setting(r, root->kids[i], root->kids[i + 1]))
			return;
}

int lst_config_parse(lst_config *cfg, const char *name, const char *text, size_t len, lst_err *err)
{
	struct s_reader r = { .name = name, .cfg = cfg };
	struct lst_yaml_node *root = lst_yaml_load(text, len, "config", s_yaml_err, &r);

	if (root)
		s_read_root(&r, root);
	lst_yaml_free(root);
	if (!r.failed)
		return 0;
	return lst_err_set(err, -EINVAL, "%s:%d:%d: %s", name, r.line, r.col, r.msg);
}

int lst_config_load(lst_config *cfg, const char *path, lst_err *err)
{
	char *text;
	size_t len;
	int rc = lst_read_file(path, S_MAX_FILE, &text, &len);

	if (rc == -EFBIG)
		return lst_err_set(err, rc, "%s: larger than %d bytes; is this the config file?",
				   path, S_MAX_FILE);
	if (rc)
		return lst_err_sys(err, rc, "%s: cannot read the config file", path);
	rc = lst_config_parse(cfg, path, text, len, err);
	free(text);
	return rc;
}

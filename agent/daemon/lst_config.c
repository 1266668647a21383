/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Agent settings from a YAML file and from flags, through one key table.
 *
 * The file is read into common/lst_yaml's node tree (the reader plans use too, so both refuse
 * the same YAML: syntax errors, anchors and aliases, control characters, duplicate keys). It is
 * one flat map: each key is looked up in lst_config_settings and its value, a scalar or a list
 * of scalars, goes through the same setter the flags use, so a setting is checked identically
 * wherever it comes from. Every error is placed at the line and column of the offending key or
 * value, and only the first in the file is reported.
 */
#include "lst_config.h"

#include <errno.h>
#include <stdarg.h>
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

#define S_STR2(x) #x
#define S_STR(x) S_STR2(x)

/*
 * THE description of the agent's settings: every config key and every flag, in the order
 * --help and docs/agent.md list them. The file reader, the flag parser (lst_config_cli.c),
 * --help and the tables of docs/agent.md (lockstep-agent --write-doc) all read it; there is no
 * other list. A key's flag is --key with '-' for '_'; entries of type LST_CONFIG_FLAG are flags
 * only (no config key).
 */
const struct lst_config_setting lst_config_settings[] = {
	{ "listen", LST_CONFIG_STR, LST_CFG_LISTEN, "ENDPOINT", "string", "`\"tcp://*:7270\"`",
	  "ZeroMQ endpoint to bind (default " LST_CONFIG_DEFAULT_LISTEN ")",
	  "ZeroMQ endpoint to bind. Default `tcp://*:7270` (every interface, port 7270). "
	  "`tcp://192.0.2.10:7270` binds one address; `tcp://127.0.0.1:7270` loopback only "
	  "(`tcp://localhost:7270` means the same: ZeroMQ binds addresses, not host names, so the "
	  "agent binds 127.0.0.1)." },
	{ "name", LST_CONFIG_STR, LST_CFG_NAME, "NAME", "string", "`host-a`",
	  "agent name reported to coordinators (default: host name)",
	  "Name reported to coordinators in WELCOME (at most 63 bytes). Default: the host name." },
	{ "config", LST_CONFIG_FLAG, 0, "FILE", NULL, NULL,
	  "YAML file with these settings; flags override it",
	  "Read settings from this YAML file first (see below)." },
	{ "log", LST_CONFIG_STR, LST_CFG_LOG, "FILE", "string (path)",
	  "`/var/log/lockstep-agent.log`",
	  "log file (default " LST_CONFIG_DEFAULT_LOG " when daemonized)",
	  "Append log lines to FILE. Default when daemonized: `/var/log/lockstep-agent.log`. "
	  "Reopened on SIGHUP. Never opened through a symlink, and never a block device or a FIFO "
	  "nobody reads (refused at once, at start or on SIGHUP); `/dev/null` will do." },
	{ "pidfile", LST_CONFIG_STR, LST_CFG_PIDFILE, "FILE", "string (path)",
	  "`/run/lockstep-agent.pid`", "write the daemon's pid here",
	  "Write the daemon's pid to FILE; removed at exit. A regular file only: a symlink, a FIFO "
	  "or a device there is refused, never written through." },
	{ "foreground", LST_CONFIG_BOOL, LST_CFG_FOREGROUND, NULL,
	  "boolean (`true`/`false`, `yes`/`no`, `on`/`off`)", "`true`",
	  "do not daemonize; log to stderr unless --log is given",
	  "Do not daemonize. Logs go to stderr unless `--log` is given." },
	{ "allow_write", LST_CONFIG_LIST, LST_CFG_ALLOW_WRITE, "GLOB",
	  "list of absolute path globs", "`[\"/dev/disk/by-id/wwn-0x5000039*\"]`",
	  "paths the agent may write or purge (repeatable; nothing\n"
	  "by default); replaces the config file's list",
	  "A path glob the agent may write, trim or purge. Repeatable. Nothing is writable by "
	  "default. On the command line the globs **replace** the config file's list." },
	{ "read_only", LST_CONFIG_BOOL, LST_CFG_READ_ONLY, NULL, "boolean", "`false`",
	  "refuse every write and purge",
	  "Refuse every write and purge, whatever `allow_write` says." },
	{ "debug", LST_CONFIG_STR_LIST, LST_CFG_DEBUG, "LIST",
	  "string (`\"net,proto\"`) or list of strings", "`[net, proto]`",
	  "debug categories:" /* the logger's names follow */,
	  "Debug categories, comma-separated: `io`, `net`, `time`, `plan`, `proto` (every message "
	  "in and out), `dev` (device checks), `all`." },
	{ "lease_max", LST_CONFIG_DURATION, LST_CFG_LEASE_MAX, "DURATION",
	  "duration (`30s`, `10m`, `1h`; a bare number is seconds)", "`10m`",
	  "cap on a coordinator's lease (default 10m)",
	  "Cap on the lease a coordinator asks for (`10m` by default; 1 s to 24 h). It also sizes "
	  "the spool (below)." },
	{ "key", LST_CONFIG_STR, LST_CFG_KEY, "FILE", "string (path)", "`/etc/lockstep/agent.key`",
	  "this agent's CURVE secret key (NAME.key from 'lockstep\n"
	  "keygen'); turns on encryption and authentication",
	  "This agent's CURVE secret key, `NAME.key` from `lockstep keygen` (mode 0600: a key that "
	  "group or others may read is refused). Turns on CURVE; needs `--authorized-keys`. Its "
	  "`NAME.pub` is what plans give as this agent's `key:`." },
	{ "authorized_keys", LST_CONFIG_STR, LST_CFG_AUTHORIZED_KEYS, "DIR",
	  "string (path of a folder)", "`/etc/lockstep/authorized_keys`",
	  "folder of the coordinator public keys (*.pub) accepted",
	  "Folder of the coordinator public keys accepted, one `*.pub` file each (czmq "
	  "certificates from `lockstep keygen`, or the 40-character Z85 text). Read again at every "
	  "connection, so adding or removing a file needs no restart. Must not be writable by group "
	  "or others, and must be owned by root or the agent's user (as must the folders above it; "
	  "docs/security.md)." },
	{ "insecure", LST_CONFIG_BOOL, LST_CFG_INSECURE, NULL, "boolean", "`false`",
	  "allow plain text beyond loopback (warned at every start);\n"
	  "without --key only a loopback --listen is allowed",
	  "Allow plain text on an address beyond loopback (no key). Warned about at every start. "
	  "Without it, an agent with no key starts only on a loopback `--listen` (`127.0.0.0/8`, "
	  "`[::1]`, `localhost`, `ipc://`)." },
	{ "mem_max", LST_CONFIG_SIZE, LST_CFG_MEM_MAX, "SIZE",
	  "size (`512m`, `4g`; a bare number is bytes)", "`4g`",
	  "memory one point may ask for: I/O buffers and per-job\n"
	  "state, e.g. 4g (default " S_STR(LST_CONFIG_MEM_MAX_PERCENT) "% of RAM); PREPARE above "
								       "it\nis refused",
	  "The most memory one point may ask for: its I/O buffers (jobs x iodepth x bs over every "
	  "job spec) plus per-job state (about 0.5 MiB a job). Sizes take `k`, `m`, `g`, `t` "
	  "(binary: `4g` = 4 GiB); at least `16m`. Default: 25% of the host's RAM (MemTotal). A "
	  "PREPARE over it is refused before anything is allocated (see \"Memory\" below)." },
	{ "hooks", LST_CONFIG_ARGV_MAP, LST_CFG_HOOKS, NULL,
	  "map of NAME: [absolute program, arguments...] (config file only)",
	  "`{port_down: [/usr/local/sbin/port, down, b]}`", "(config file only)",
	  "Commands a plan may run by name at instants of a point (`events:`) or around a phase "
	  "(`before:`, `after:`). No shell: the list is the argv, its first entry an absolute path "
	  "to an executable file (checked when the config is read). A plan names them, it never "
	  "passes arguments. Config file only. See \"Hooks and collectors\" below." },
	{ "collectors", LST_CONFIG_ARGV_MAP, LST_CFG_COLLECTORS, NULL,
	  "map of NAME: [absolute program, arguments...] (config file only)",
	  "`{smart: [/usr/sbin/smartctl, -j, -a, /dev/sdb]}`", "(config file only)",
	  "Commands printing JSON on stdout (drive telemetry) a plan may run by name before and "
	  "after a phase; the same rules as `hooks`. Config file only." },
	{ "hook_timeout", LST_CONFIG_DURATION, LST_CFG_HOOK_TIMEOUT, "DURATION", "duration",
	  "`30s`", "longest a hook or collector may run (default 60s)",
	  "Longest a hook or collector may run (`60s` by default; 1 s to 1 h): then its process "
	  "group gets SIGTERM, and SIGKILL 2 s later." },
	{ "trace_dir", LST_CONFIG_STR, LST_CFG_TRACE_DIR, "DIR",
	  "string (absolute path of a folder)", "`" LST_CONFIG_DEFAULT_TRACE_DIR "`",
	  "folder of I/O traces that write_iolog records and\n"
	  "read_iolog replays (default " LST_CONFIG_DEFAULT_TRACE_DIR ")",
	  "Folder of the I/O traces a point records (`write_iolog`: "
	  "`NAME.AGENT.K.lstrace`, K the job spec's index) and replays (`read_iolog` names a file "
	  "in it, never a path). Default `" LST_CONFIG_DEFAULT_TRACE_DIR "`, created with mode "
	  "0750 when a recording first needs it. Like `authorized_keys`, it and the folders above "
	  "it must be owned by root or the agent's user and not writable by group or others." },
	{ "v", LST_CONFIG_FLAG, 0, NULL, NULL, NULL, "debug logging for every category",
	  "Debug logging for every category." },
	{ "help", LST_CONFIG_FLAG, 0, NULL, NULL, NULL, "this text", "Usage." },
	{ "version", LST_CONFIG_FLAG, 0, NULL, NULL, NULL, "print the version and exit",
	  "Print the version and exit." },
	{ "write_man", LST_CONFIG_FLAG, 0, "FILE", NULL, NULL,
	  "write this manual page, lockstep-agent(8), to FILE",
	  "Write the manual page lockstep-agent(8) to FILE: this page, with the two tables made "
	  "afresh, as roff." },
	{ "write_doc", LST_CONFIG_FLAG, 0, "FILE", NULL, NULL,
	  "rewrite the settings tables in FILE (docs/agent.md)\nfrom this table",
	  "Rewrite the two settings tables in FILE (this page) from the agent's settings table, "
	  "which also makes its flags, config keys and `--help`." },
	{ NULL, 0, 0, NULL, NULL, NULL, NULL, NULL },
};

static const struct lst_config_setting *s_find(const char *name)
{
	for (const struct lst_config_setting *k = lst_config_settings; k->name; k++)
		if (k->type != LST_CONFIG_FLAG && !strcmp(k->name, name))
			return k;
	return NULL;
}

lst_config *lst_config_new(void)
{
	return lst_calloc(1, sizeof(lst_config));
}

static void s_clear_allow(lst_config *cfg)
{
	for (size_t i = 0; i < cfg->nallow; i++)
		free(cfg->allow_write[i]);
	free(cfg->allow_write);
	cfg->allow_write = NULL;
	cfg->nallow = 0;
}

static void s_cmds_free(struct lst_config_cmd **cmds, size_t *n)
{
	for (size_t i = 0; i < *n; i++) {
		for (size_t j = 0; j < (*cmds)[i].argc; j++)
			free((*cmds)[i].argv[j]);
		free((*cmds)[i].argv);
		free((*cmds)[i].name);
	}
	free(*cmds);
	*cmds = NULL;
	*n = 0;
}

/* A deep copy of n commands (NULL when n is 0). */
static struct lst_config_cmd *s_cmds_dup(const struct lst_config_cmd *src, size_t n)
{
	struct lst_config_cmd *c = n ? lst_calloc(n, sizeof(*c)) : NULL;

	for (size_t i = 0; i < n; i++) {
		c[i].name = lst_strdup(src[i].name);
		c[i].argc = src[i].argc;
		c[i].argv = lst_calloc(src[i].argc + 1, sizeof(char *));
		for (size_t j = 0; j < src[i].argc; j++)
			c[i].argv[j] = lst_strdup(src[i].argv[j]);
	}
	return c;
}

int lst_config_policy(const lst_config *cfg, lst_dev_policy *p, lst_err *err)
{
	for (size_t i = 0; i < cfg->nallow; i++)
		if (lst_dev_policy_allow(p, cfg->allow_write[i]))
			return lst_err_set(err, -EINVAL, "allow_write: '%s' is not a usable glob",
					   cfg->allow_write[i]);
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
	free(cfg->listen);
	free(cfg->name);
	free(cfg->log);
	free(cfg->pidfile);
	free(cfg->debug);
	free(cfg->key);
	free(cfg->authorized_keys);
	free(cfg->trace_dir);
	s_clear_allow(cfg);
	s_cmds_free(&cfg->hooks, &cfg->nhooks);
	s_cmds_free(&cfg->collectors, &cfg->ncollectors);
	free(cfg);
	*p = NULL;
}

static void s_replace(char **dst, const char *value)
{
	free(*dst);
	*dst = value ? lst_strdup(value) : NULL;
}

/* Is every comma-separated word of list a debug category? (No side effect on the logger.) */
static int s_check_debug(const char *list, lst_err *err)
{
	unsigned mask;
	const char *bad;

	if (lst_log_parse_debug(list, &mask, &bad))
		return lst_err_set(err, -EINVAL, "debug: unknown category '%.*s' (known: %s)",
				   (int)strcspn(bad, ","), bad, lst_log_debug_names());
	return 0;
}

static int s_set_str(lst_config *cfg, const struct lst_config_setting *k, const char *value,
		     lst_err *err)
{
	size_t len = strlen(value);

	if (!len)
		return lst_err_set(err, -EINVAL, "%s needs a value", k->name);
	switch (k->bit) {
	case LST_CFG_LISTEN:
		if ((strncmp(value, "tcp://", 6) && strncmp(value, "ipc://", 6)) || len <= 6 ||
		    len >= 256)
			return lst_err_set(
				err, -EINVAL,
				"listen must be a ZeroMQ endpoint such as tcp://*:7270 or "
				"tcp://192.0.2.1:7270, not '%s'",
				value);
		s_replace(&cfg->listen, value);
		break;
	case LST_CFG_NAME:
		if (len >= LST_NAME_MAX)
			return lst_err_set(err, -EINVAL, "name is longer than %d bytes",
					   LST_NAME_MAX - 1);
		for (const char *c = value; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				return lst_err_set(err, -EINVAL,
						   "name must not hold control characters");
		s_replace(&cfg->name, value);
		break;
	case LST_CFG_TRACE_DIR:
		if (value[0] != '/' || len >= 4096)
			return lst_err_set(err, -EINVAL,
					   "trace_dir must be an absolute folder path, not '%s'",
					   value);
		s_replace(&cfg->trace_dir, value);
		break;
	case LST_CFG_LOG:
	case LST_CFG_PIDFILE:
	case LST_CFG_KEY:
	case LST_CFG_AUTHORIZED_KEYS:
		if (len >= 4096)
			return lst_err_set(err, -EINVAL, "%s: path too long", k->name);
		s_replace(k->bit == LST_CFG_LOG	      ? &cfg->log
			  : k->bit == LST_CFG_PIDFILE ? &cfg->pidfile
			  : k->bit == LST_CFG_KEY     ? &cfg->key
						      : &cfg->authorized_keys,
			  value);
		break;
	default:
		LST_ASSERT(0);
	}
	return 0;
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
	const struct lst_config_setting *k = s_find(key);
	bool b;
	int64_t ns;
	uint64_t bytes;
	lst_err e;

	if (!k)
		return lst_err_set(err, -EINVAL, "unknown setting '%s'", key);
	switch (k->type) {
	case LST_CONFIG_FLAG:
		LST_ASSERT(0); /* s_find finds settings only */
		break;
	case LST_CONFIG_ARGV_MAP:
		return lst_err_set(
			err, -EINVAL,
			"%s: a map of NAME: [program, args...], set in the config file only",
			k->name);
	case LST_CONFIG_STR:
		if (s_set_str(cfg, k, value, err))
			return -EINVAL;
		break;
	case LST_CONFIG_BOOL:
		if (lst_parse_bool(value, &b, &e))
			return lst_err_set(err, -EINVAL, "%s must be true or false, not '%s'",
					   k->name, value);
		if (k->bit == LST_CFG_FOREGROUND)
			cfg->foreground = b;
		else if (k->bit == LST_CFG_INSECURE)
			cfg->insecure = b;
		else
			cfg->read_only = b;
		break;
	case LST_CONFIG_LIST:
		if (value[0] != '/')
			return lst_err_set(err, -EINVAL,
					   "allow_write: '%s' is not an absolute path glob", value);
		if (strlen(value) >= LST_PATH_MAX)
			return lst_err_set(err, -EINVAL, "allow_write: glob longer than %d bytes",
					   LST_PATH_MAX - 1);
		cfg->allow_write = lst_realloc(cfg->allow_write,
					       (cfg->nallow + 1) * sizeof(*cfg->allow_write));
		cfg->allow_write[cfg->nallow++] = lst_strdup(value);
		break;
	case LST_CONFIG_STR_LIST:
		if (s_check_debug(value, err))
			return -EINVAL;
		if (cfg->debug && (cfg->set & k->bit)) {
			char *joined = lst_asprintf("%s,%s", cfg->debug, value);

			free(cfg->debug);
			cfg->debug = joined;
		} else {
			s_replace(&cfg->debug, value);
		}
		break;
	case LST_CONFIG_DURATION:
		if (lst_parse_duration(value, &ns, &e))
			return lst_err_set(err, -EINVAL, "%s: %s", k->name, e.msg);
		if (k->bit == LST_CFG_HOOK_TIMEOUT) {
			if (ns < LST_NS_PER_S || ns > 3600 * LST_NS_PER_S)
				return lst_err_set(err, -EINVAL,
						   "hook_timeout must be between 1s and 1h");
			cfg->hook_timeout = ns;
			break;
		}
		if (ns < LST_NS_PER_S || ns > 24 * 3600 * LST_NS_PER_S)
			return lst_err_set(err, -EINVAL, "lease_max must be between 1s and 24h");
		cfg->lease_max = ns;
		break;
	case LST_CONFIG_SIZE:
		if (lst_parse_size(value, &bytes, &e))
			return lst_err_set(err, -EINVAL, "%s: %s", k->name, e.msg);
		if (bytes < LST_CONFIG_MEM_MAX_MIN)
			return lst_err_set(err, -EINVAL,
					   "mem_max must be at least 16m (16 MiB), not '%s'",
					   value);
		cfg->mem_max = bytes;
		break;
	}
	cfg->set |= k->bit;
	return 0;
}

void lst_config_override(lst_config *dst, const lst_config *src)
{
	if (src->set & LST_CFG_LISTEN)
		s_replace(&dst->listen, src->listen);
	if (src->set & LST_CFG_NAME)
		s_replace(&dst->name, src->name);
	if (src->set & LST_CFG_LOG)
		s_replace(&dst->log, src->log);
	if (src->set & LST_CFG_PIDFILE)
		s_replace(&dst->pidfile, src->pidfile);
	if (src->set & LST_CFG_FOREGROUND)
		dst->foreground = src->foreground;
	if (src->set & LST_CFG_ALLOW_WRITE) {
		s_clear_allow(dst);
		dst->allow_write = lst_calloc(src->nallow + 1, sizeof(*dst->allow_write));
		for (size_t i = 0; i < src->nallow; i++)
			dst->allow_write[i] = lst_strdup(src->allow_write[i]);
		dst->nallow = src->nallow;
	}
	if (src->set & LST_CFG_READ_ONLY)
		dst->read_only = src->read_only;
	if (src->set & LST_CFG_DEBUG)
		s_replace(&dst->debug, src->debug);
	if (src->set & LST_CFG_LEASE_MAX)
		dst->lease_max = src->lease_max;
	if (src->set & LST_CFG_KEY)
		s_replace(&dst->key, src->key);
	if (src->set & LST_CFG_AUTHORIZED_KEYS)
		s_replace(&dst->authorized_keys, src->authorized_keys);
	if (src->set & LST_CFG_INSECURE)
		dst->insecure = src->insecure;
	if (src->set & LST_CFG_MEM_MAX)
		dst->mem_max = src->mem_max;
	if (src->set & LST_CFG_HOOKS) {
		s_cmds_free(&dst->hooks, &dst->nhooks);
		dst->hooks = s_cmds_dup(src->hooks, src->nhooks);
		dst->nhooks = src->nhooks;
	}
	if (src->set & LST_CFG_COLLECTORS) {
		s_cmds_free(&dst->collectors, &dst->ncollectors);
		dst->collectors = s_cmds_dup(src->collectors, src->ncollectors);
		dst->ncollectors = src->ncollectors;
	}
	if (src->set & LST_CFG_HOOK_TIMEOUT)
		dst->hook_timeout = src->hook_timeout;
	if (src->set & LST_CFG_TRACE_DIR)
		s_replace(&dst->trace_dir, src->trace_dir);
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

static const char *s_type_what(enum lst_config_type t)
{
	switch (t) {
	case LST_CONFIG_BOOL:
		return "true or false";
	case LST_CONFIG_LIST:
		return "a list of absolute path globs";
	case LST_CONFIG_STR_LIST:
		return "a comma-separated string or a list of debug categories";
	case LST_CONFIG_DURATION:
		return "a duration such as 10m or 600s";
	case LST_CONFIG_SIZE:
		return "a size such as 4g or 512m";
	case LST_CONFIG_ARGV_MAP:
		return "a map of NAME: [/absolute/program, arguments...]";
	default:
		return "a string";
	}
}

/* One scalar value v for key k, through the setter the flags use. */
static int s_value(struct s_reader *r, const struct lst_config_setting *k,
		   const struct lst_yaml_node *v)
{
	lst_err e;

	if (lst_config_set(r->cfg, k->name, v->text, &e))
		return s_fail(r, v, "%s", e.msg);
	return 0;
}

/* A list value v for key k (allow_write or debug): every entry through the setter. */
static int s_read_list(struct s_reader *r, const struct lst_config_setting *k,
		       const struct lst_yaml_node *v)
{
	for (size_t i = 0; i < v->n; i++) {
		const struct lst_yaml_node *item = v->kids[i];

		if (item->bad)
			return -EINVAL; /* lst_yaml said why */
		if (item->type != LST_YAML_SCALAR || item->null)
			return s_fail(r, item, "%s: every entry must be a string, not %s", k->name,
				      item->type == LST_YAML_SCALAR ? "empty" : s_what(item));
		if (s_value(r, k, item))
			return -EINVAL;
	}
	r->cfg->set |= k->bit;
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
static int s_check_program(struct s_reader *r, const struct lst_config_setting *k, const char *name,
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
static int s_read_cmd(struct s_reader *r, const struct lst_config_setting *k,
		      const struct lst_yaml_node *key, const struct lst_yaml_node *v,
		      struct lst_config_cmd *c)
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
static int s_read_argv_map(struct s_reader *r, const struct lst_config_setting *k,
			   const struct lst_yaml_node *v)
{
	bool hooks = k->bit == LST_CFG_HOOKS;
	struct lst_config_cmd **cmds = hooks ? &r->cfg->hooks : &r->cfg->collectors;
	size_t *n = hooks ? &r->cfg->nhooks : &r->cfg->ncollectors;

	s_cmds_free(cmds, n);
	r->cfg->set |= k->bit;
	if (v->type == LST_YAML_SCALAR && v->null)
		return 0; /* hooks: (nothing) = none */
	if (v->type != LST_YAML_MAP)
		return s_fail(r, v, "%s must be %s, not %s", k->name, s_type_what(k->type),
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

/* The value v of key k. */
static int s_read_value(struct s_reader *r, const struct lst_config_setting *k,
			const struct lst_yaml_node *v)
{
	if (v->bad)
		return -EINVAL; /* lst_yaml said why */
	if (k->type == LST_CONFIG_ARGV_MAP)
		return s_read_argv_map(r, k, v);
	if (v->type == LST_YAML_SCALAR && k->type == LST_CONFIG_LIST) {
		if (!v->null)
			return s_fail(r, v, "%s must be %s, not a single value ('%s')", k->name,
				      s_type_what(k->type), v->text);
		r->cfg->set |= k->bit; /* allow_write: (nothing) = no globs */
		return 0;
	}
	if (v->type == LST_YAML_SCALAR) {
		if (v->null)
			return s_fail(r, v, "%s needs a value (%s)", k->name, s_type_what(k->type));
		return s_value(r, k, v);
	}
	if (v->type != LST_YAML_LIST ||
	    (k->type != LST_CONFIG_LIST && k->type != LST_CONFIG_STR_LIST))
		return s_fail(r, v, "%s must be %s, not %s", k->name, s_type_what(k->type),
			      s_what(v));
	return s_read_list(r, k, v);
}

/* "unknown key", the known ones, and the nearest (within two edits) as "did you mean". */
static int s_unknown_key(struct s_reader *r, const struct lst_yaml_node *key)
{
	char known[256] = "";
	const char *near = NULL;
	size_t best = 3;

	for (const struct lst_config_setting *k = lst_config_settings; k->name; k++) {
		size_t d;

		if (k->type == LST_CONFIG_FLAG)
			continue;
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
	const struct lst_config_setting *k;
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
	if (k->type == LST_CONFIG_LIST)
		s_clear_allow(r->cfg); /* the file's list replaces what was there */
	if (k->type == LST_CONFIG_STR_LIST)
		r->cfg->set &= ~k->bit; /* so that list entries join from scratch */
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

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The agent's settings: one table of keys read from a YAML config file (so Ansible can template
 * it) and from command-line flags, with the same names, types and checks for both. Flags win:
 * lst_config_override() copies every setting the command line gave over the file's.
 *
 * The settings, their flags, types, defaults and help are described once, in
 * lst_config_settings[] (lst_config.c): the file reader, the flag parser, --help and the tables
 * of docs/agent.md are made from it. The file is one flat map of those keys
 * (deploy/agent.yaml is an example).
 *
 * The file is read with common/lst_yaml, as plans are. Unknown keys, wrong types, bad values,
 * duplicate keys, YAML syntax errors, anchors, aliases and control characters are all errors of
 * the form "FILE:LINE:COL: message", the first in the file; the caller exits on one.
 */
#ifndef LST_CONFIG_H
#define LST_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lst_dev.h"
#include "lst_err.h"

#define LST_CONFIG_DEFAULT_LISTEN "tcp://*:7270"
#define LST_CONFIG_DEFAULT_LOG "/var/log/lockstep-agent.log"
/* Inside the unit's StateDirectory=lockstep: the one folder under /var/lib it may write. */
#define LST_CONFIG_DEFAULT_TRACE_DIR "/var/lib/lockstep/traces"
/* This agent's key pair by convention (the key: of the shipped agent.yaml), without ".key". */
#define LST_CONFIG_DEFAULT_KEY_BASE "/etc/lockstep/agent"
#define LST_CONFIG_LEASE_MAX_DEFAULT (10 * 60 * (int64_t)1000000000) /* 10 min, ns */
#define LST_CONFIG_MEM_MAX_PERCENT 25		    /* default mem_max: this share of MemTotal */
#define LST_CONFIG_MEM_MAX_MIN ((uint64_t)16 << 20) /* 16 MiB */

/* Which settings were given (file or flags); lst_config_override copies only these. */
enum lst_config_key {
	LST_CFG_LISTEN = 1u << 0,
	LST_CFG_NAME = 1u << 1,
	LST_CFG_LOG = 1u << 2,
	LST_CFG_PIDFILE = 1u << 3,
	LST_CFG_FOREGROUND = 1u << 4,
	LST_CFG_ALLOW_WRITE = 1u << 5,
	LST_CFG_READ_ONLY = 1u << 6,
	LST_CFG_DEBUG = 1u << 7,
	LST_CFG_LEASE_MAX = 1u << 8,
	LST_CFG_KEY = 1u << 9,
	LST_CFG_AUTHORIZED_KEYS = 1u << 10,
	LST_CFG_INSECURE = 1u << 11,
	LST_CFG_MEM_MAX = 1u << 12,
	LST_CFG_HOOKS = 1u << 13,
	LST_CFG_COLLECTORS = 1u << 14,
	LST_CFG_HOOK_TIMEOUT = 1u << 15,
	LST_CFG_TRACE_DIR = 1u << 16,
};

/* How a setting's value is read (the same from the file and from a flag). */
enum lst_config_type {
	LST_CONFIG_STR,	     /* one scalar */
	LST_CONFIG_BOOL,     /* true/false */
	LST_CONFIG_LIST,     /* a sequence of scalars; a repeatable flag */
	LST_CONFIG_STR_LIST, /* a scalar, or a sequence of scalars joined with ',' */
	LST_CONFIG_DURATION, /* "10m", "600" (seconds) */
	LST_CONFIG_SIZE,     /* bytes: "4g", "512m", "1048576" */
	LST_CONFIG_FLAG,     /* a command-line flag only, not a setting (--config, --help) */
	LST_CONFIG_ARGV_MAP, /* a map of NAME: [argv...]; in the file only (no flag) */
};

/* One setting (or flag) of the agent: everything every description of it needs. */
struct lst_config_setting {
	const char *name; /* config key; the flag is --name with '-' for '_' ("v" is -v) */
	enum lst_config_type type;
	unsigned bit;	     /* enum lst_config_key; 0 for a flag only */
	const char *arg;     /* the flag's value as --help names it; NULL: takes none */
	const char *what;    /* docs: the config file's type column (NULL for a flag only) */
	const char *example; /* docs: an example value, Markdown */
	const char *help;    /* --help: a phrase; '\n' starts a continuation line */
	const char *doc;     /* docs/agent.md: what it does, Markdown */
};

/* The agent's settings and flags, ended by a NULL name. */
extern const struct lst_config_setting lst_config_settings[];

typedef struct lst_config {
	char *listen;  /* NULL = LST_CONFIG_DEFAULT_LISTEN */
	char *name;    /* NULL = the host name */
	char *log;     /* NULL = stderr in the foreground, LST_CONFIG_DEFAULT_LOG otherwise */
	char *pidfile; /* NULL = none */
	bool foreground;
	char **allow_write; /* absolute globs, nallow of them */
	size_t nallow;
	bool read_only;
	char *debug;	       /* comma-separated debug categories, NULL = none */
	int64_t lease_max;     /* ns; 0 = LST_CONFIG_LEASE_MAX_DEFAULT */
	char *key;	       /* the agent's CURVE secret key file (NAME.key); NULL = plain text */
	char *authorized_keys; /* folder of accepted coordinator public keys (*.pub) */
	bool insecure;	       /* plain text allowed beyond loopback (warned at every start) */
	uint64_t mem_max; /* bytes a point may ask for; 0 = LST_CONFIG_MEM_MAX_PERCENT of RAM */
	/* what a plan may run on this host, by name (hooks at instants or around
	 * phases; collectors before and after phases). No shell: argv[0] is an absolute path. */
	struct lst_config_cmd *hooks; /* nhooks of them, in the order written */
	size_t nhooks;
	struct lst_config_cmd *collectors;
	size_t ncollectors;
	int64_t hook_timeout; /* ns a hook or collector may take; 0 = LST_CONFIG_HOOK_TIMEOUT_DEFAULT */
	/* the folder of I/O traces (write_iolog, read_iolog name files in it);
	 * NULL = LST_CONFIG_DEFAULT_TRACE_DIR, created (0750) when a record first needs it */
	char *trace_dir;
	unsigned set; /* enum lst_config_key bits */
} lst_config;

#define LST_CONFIG_HOOK_TIMEOUT_DEFAULT (60 * (int64_t)1000000000) /* 60 s, ns */

/* One named command of the config (a hook or a collector): NAME: [/abs/program, arg, ...]. */
struct lst_config_cmd {
	char *name;  /* [A-Za-z0-9_.-], under LST_NAME_MAX bytes */
	char **argv; /* argc strings and a NULL; argv[0] an absolute path */
	size_t argc; /* >= 1 */
};

/*
 * Add cfg's disk rules to p: every allow_write glob and read_only. Returns 0, or -EINVAL with
 * err naming a glob the policy cannot use.
 */
int lst_config_policy(const lst_config *cfg, lst_dev_policy *p, lst_err *err);

/* The command called name in cmds[n], or NULL. */
const struct lst_config_cmd *lst_config_cmd_find(const struct lst_config_cmd *cmds, size_t n,
						 const char *name);

/* An empty config (nothing set). Never NULL. */
lst_config *lst_config_new(void);

/* Free *p and set it to NULL; safe on NULL and twice. */
void lst_config_destroy(lst_config **p);

/*
 * Set one key from text, as a flag gives it ("listen", "tcp://..."): the same checks as the file.
 * allow_write appends one glob; foreground and read_only take a boolean ("true", "yes", "1"...).
 * Returns 0, or -EINVAL with err saying what is wrong (no position: the caller adds one).
 */
int lst_config_set(lst_config *cfg, const char *key, const char *value, lst_err *err);

/*
 * Read a YAML config file into cfg (keys it sets replace cfg's). Returns 0, -errno when the file
 * cannot be read, or -EINVAL; err then reads "FILE:LINE:COL: message" (FILE as given).
 */
int lst_config_load(lst_config *cfg, const char *path, lst_err *err);

/*
 * Parse YAML text as if it came from a file called name (for tests and lst_config_load).
 * Same returns as lst_config_load.
 */
int lst_config_parse(lst_config *cfg, const char *name, const char *text, size_t len, lst_err *err);

/* The default mem_max: LST_CONFIG_MEM_MAX_PERCENT of the host's physical memory (MemTotal),
 * never below LST_CONFIG_MEM_MAX_MIN. */
uint64_t lst_config_mem_max_default(void);

/* Copy every setting src has set over dst (flags over the file); allow_write is replaced. */
void lst_config_override(lst_config *dst, const lst_config *src);

/* What the command line asked for besides settings. */
struct lst_config_cli {
	const char *config;    /* --config FILE, or NULL */
	const char *write_doc; /* --write-doc FILE, or NULL */
	const char *write_man; /* --write-man FILE, or NULL */
	int verbose;	       /* how many -v */
	bool help;	       /* --help or -h: print lst_config_usage and exit 0 */
	bool version;	       /* --version: print the version and exit 0 */
};

/*
 * Parse the daemon's command line (argv[0] is the program) from lst_config_settings: settings go
 * into flags through lst_config_set, the rest into cli. Stops at --help or --version. Returns 0,
 * or -EINVAL with err saying what is wrong ("unknown option '--x' (see --help)").
 */
int lst_config_parse_flags(lst_config *flags, struct lst_config_cli *cli, int argc, char **argv,
			   lst_err *err);

/* The daemon's --help text, from lst_config_settings. */
void lst_config_usage(FILE *f);

/*
 * Rewrite the two generated tables of the Markdown file at path (docs/agent.md: the options and
 * the config keys, each between its <!-- lockstep-agent --write-doc ... --> and <!-- end -->
 * lines) from lst_config_settings. Returns 0, or -errno / -EINVAL (markers missing) with err.
 */
int lst_config_write_doc(const char *path, lst_err *err);

/*
 * Write lockstep-agent(8) to path (created or truncated): docs/agent.md as built in, with its two
 * settings tables made afresh from lst_config_settings, as man(7) roff. Returns 0, or -errno /
 * -EINVAL with err.
 */
int lst_config_write_man(const char *path, lst_err *err);

#endif

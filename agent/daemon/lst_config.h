/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The agent's settings: one table of keys read from a YAML config file (so Ansible can template
 * it) and from command-line flags, with the same names, types and checks for both. Flags win:
 * lst_config_override() copies every setting the command line gave over the file's.
 *
 * The settings are described once, as an lst_opt table (lst_config_settings[], lst_config.c:
 * name, type, default, range, meaning), and the flags that are not settings as another
 * (lst_config_flags[], lst_config_cli.c): the file reader, the flag parser, --help, the tables
 * of docs/agent.md, lockstep-agent(8) and --list-settings are all made from them, so a new
 * setting is one entry. Each value type is a set of lst_opt operations (lst_config_types.c),
 * so no code branches on which setting it is. The file is one flat map of the settings' keys
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
#include "lst_flag.h"
#include "lst_opt.h"

#define LST_CONFIG_DEFAULT_LISTEN "tcp://*:7270"
#define LST_CONFIG_DEFAULT_LOG "/var/log/lockstep-agent.log"
/* Inside the unit's StateDirectory=lockstep: the one folder under /var/lib it may write. */
#define LST_CONFIG_DEFAULT_TRACE_DIR "/var/lib/lockstep/traces"
/* This agent's key pair by convention (the key: of the shipped agent.yaml), without ".key". */
#define LST_CONFIG_DEFAULT_KEY_BASE "/etc/lockstep/agent"
#define LST_CONFIG_LEASE_MAX_DEFAULT (10 * 60 * (int64_t)1000000000) /* 10 min, ns */
#define LST_CONFIG_MEM_MAX_PERCENT 25		    /* default mem_max: this share of MemTotal */
#define LST_CONFIG_MEM_MAX_MIN ((uint64_t)16 << 20) /* 16 MiB */

/* The agent's settings (each a config key, and a flag unless it is read from the file only),
 * ended by a NULL name; lst_config.set has bit i for lst_config_settings[i]. */
extern const struct lst_opt lst_config_settings[];

/* The flags of the daemon that are not settings (--config, --version...), on struct
 * lst_config_cli, ended by a NULL name. */
extern const struct lst_flag lst_config_flags[];

/* A list of strings the config owns (allow_write's globs), NULL-terminated. */
struct lst_config_strs {
	char **v;
	size_t n;
};

/* Named commands (hooks, collectors), in the order written. */
struct lst_config_cmds {
	struct lst_config_cmd *v;
	size_t n;
};

/* Every field is a setting's value, at the offset its table entry gives: the scalars are
 * int64_t as lst_opt keeps them, a string NULL when not given (the default then applies). */
typedef struct lst_config {
	char *listen;  /* LST_CONFIG_DEFAULT_LISTEN unless given */
	char *name;    /* NULL = the host name */
	char *log;     /* NULL = stderr in the foreground, LST_CONFIG_DEFAULT_LOG otherwise */
	char *pidfile; /* NULL = none */
	int64_t foreground;
	struct lst_config_strs allow_write; /* absolute globs */
	int64_t read_only;
	char *debug;	       /* comma-separated debug categories, NULL = none */
	int64_t lease_max;     /* ns */
	char *key;	       /* the agent's CURVE secret key file (NAME.key); NULL = plain text */
	char *authorized_keys; /* folder of accepted coordinator public keys (*.pub) */
	int64_t insecure;      /* plain text allowed beyond loopback (warned at every start) */
	int64_t mem_max; /* bytes a point may ask for; 0 = LST_CONFIG_MEM_MAX_PERCENT of RAM */
	/* what a plan may run on this host, by name (hooks at instants or around
	 * phases; collectors before and after phases). No shell: argv[0] is an absolute path. */
	struct lst_config_cmds hooks;
	struct lst_config_cmds collectors;
	int64_t hook_timeout; /* ns a hook or collector may take */
	/* the folder of I/O traces (write_iolog, read_iolog name files in it), created (0750)
	 * when a record first needs it */
	char *trace_dir;
	uint32_t set; /* bit i: lst_config_settings[i] was given (file or flag) */
#ifdef LST_TEST_EXTRA_SETTING
	/* the one setting more of the settings test's build (tests/integration/docs/CMakeLists.txt): last,
	 * so the library's files, built without it, read every other field where it is */
	int64_t extra_probe;
#endif
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

/* A config with every default and nothing set. Never NULL. */
lst_config *lst_config_new(void);

/* Free *p and set it to NULL; safe on NULL and twice. */
void lst_config_destroy(lst_config **p);

/*
 * Set one key from text, as a flag gives it ("listen", "tcp://..."): the same checks as the file.
 * A list (allow_write, debug) gains the value; a boolean takes "true", "yes", "1"... Returns 0,
 * or -EINVAL with err saying what is wrong (no position: the caller adds one).
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

/* Copy every setting src has set over dst (flags over the file); a list is replaced. */
void lst_config_override(lst_config *dst, const lst_config *src);

/* Whether lst_config_settings' entry named key was given (file or flag). */
bool lst_config_is_set(const lst_config *cfg, const char *key);

/* What the command line asked for besides settings (lst_config_flags[] describes it). */
struct lst_config_cli {
	const char *config;    /* --config FILE, or NULL (borrowed from argv) */
	const char *write_doc; /* --write-doc FILE, or NULL */
	const char *write_man; /* --write-man FILE, or NULL */
	int64_t verbose;       /* -v, --verbose */
	int64_t help;	       /* --help or -h: print lst_config_usage and exit 0 */
	int64_t version;       /* --version: print the version and exit 0 */
	int64_t list_settings; /* --list-settings: print lst_config_list and exit 0 */
};

/*
 * Parse the daemon's command line (argv[0] is the program; lst_flag reorders it) with lst_flag:
 * a flag for each setting of lst_config_settings (into flags, through lst_config_set) and
 * lst_config_flags (into cli, overwritten). Stops at -h/--help. Returns 0, or -EINVAL with err
 * saying what is wrong ("unknown option '--x' (see --help)").
 */
int lst_config_parse_flags(lst_config *flags, struct lst_config_cli *cli, int argc, char **argv,
			   lst_err *err);

/* The daemon's --help text, from lst_config_settings and lst_config_flags. */
void lst_config_usage(FILE *f);

/* Every entry of both tables, one a line: its config key and its flag, "-" for none
 * ("allow_write --allow-write", "hooks -", "- --config"), for tests and tools. */
void lst_config_list(FILE *f);

/*
 * The answer to the shell's Tab for lockstep-agent (completion/lockstep.bash, in
 * lst_flag_complete's form): words[0..n) the command line, words[cword] the word completed.
 * Returns 0 when answered, 1 for a subcommand's words (bench, keygen), which are not the
 * daemon's to answer.
 */
int lst_config_complete(int n, char **words, int cword, FILE *f);

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

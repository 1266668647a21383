/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The agent's settings (agent/daemon/lst_config): the YAML reader (every key, errors placed at
 * FILE:LINE:COL: wrong shapes, bad values, what common/lst_yaml refuses, the first problem in the
 * file winning), the setter shared with flags, flags over the file, the command line made from
 * the settings table (every setting has its flag, cli-only flags, errors), and --write-doc's
 * splice into a Markdown file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lst_config.h"
#include "lst_log.h"
#include "lst_opt.h"
#include "lst_test.h"
#include "lst_time.h"
#include "lst_util.h"

static lst_config *s_parse_ok(const char *yaml)
{
	lst_config *cfg = lst_config_new();
	lst_err err;

	if (lst_config_parse(cfg, "t.yaml", yaml, strlen(yaml), &err))
		T_FAIL("'%s' refused: %s", yaml, err.msg);
	return cfg;
}

/* yaml must be refused with a message containing want. */
static void s_parse_bad(const char *yaml, const char *want)
{
	lst_config *cfg = lst_config_new();
	lst_err err;

	T_EQ_INT(lst_config_parse(cfg, "t.yaml", yaml, strlen(yaml), &err), -EINVAL);
	T_CONTAINS(err.msg, want);
	lst_config_destroy(&cfg);
}

static void test_file(void)
{
	lst_config *cfg = s_parse_ok("listen: \"tcp://127.0.0.1:7270\"\n"
				     "name: host-a\n"
				     "log: /tmp/a.log\n"
				     "pidfile: /tmp/a.pid\n"
				     "foreground: yes\n"
				     "allow_write: [\"/dev/loop*\", \"/tmp/x\"]\n"
				     "read_only: false\n"
				     "debug: [net, proto]\n"
				     "lease_max: 2m\n"
				     "key: /etc/lockstep/agent.key\n"
				     "authorized_keys: /etc/lockstep/authorized_keys\n"
				     "insecure: on\n"
				     "mem_max: 4g\n");

	T_EQ_STR(cfg->listen, "tcp://127.0.0.1:7270");
	T_EQ_STR(cfg->name, "host-a");
	T_EQ_STR(cfg->log, "/tmp/a.log");
	T_EQ_STR(cfg->pidfile, "/tmp/a.pid");
	T_ASSERT(cfg->foreground);
	T_EQ_INT(cfg->allow_write.n, 2);
	T_EQ_STR(cfg->allow_write.v[1], "/tmp/x");
	T_ASSERT(!cfg->read_only);
	T_EQ_STR(cfg->debug, "net,proto");
	T_EQ_INT(cfg->lease_max, 2 * 60 * LST_NS_PER_S);
	T_EQ_STR(cfg->key, "/etc/lockstep/agent.key");
	T_EQ_STR(cfg->authorized_keys, "/etc/lockstep/authorized_keys");
	T_ASSERT(cfg->insecure);
	T_EQ_U64(cfg->mem_max, (uint64_t)4 << 30);
	T_EQ_STR(cfg->trace_dir, LST_CONFIG_DEFAULT_TRACE_DIR); /* the defaults, not given */
	T_EQ_INT(cfg->hook_timeout, LST_CONFIG_HOOK_TIMEOUT_DEFAULT);
	T_ASSERT(!lst_config_is_set(cfg, "trace_dir") && lst_config_is_set(cfg, "mem_max"));
	lst_config_destroy(&cfg);
	lst_config_destroy(&cfg); /* safe twice */
}

static void test_file_errors(void)
{
	/* The known keys are the settings table's, in its order, flags only left out. */
	s_parse_bad("listne: x\n",
		    "t.yaml:1:1: unknown key 'listne' (known: listen, name, log, pidfile, "
		    "foreground, allow_write, read_only, debug, lease_max, key, authorized_keys, "
		    "insecure, mem_max, hooks, collectors, hook_timeout, "
		    "trace_dir)");
	s_parse_bad("trace_dir: traces\n", "trace_dir: 'traces' is not an absolute folder path");
	s_parse_bad("config: /x\n", "unknown key 'config'");
	s_parse_bad("help: true\n", "unknown key 'help'");
	s_parse_bad("name: a\nname: b\n", "t.yaml:2:1: 'name' is given twice (first at 1:1)");
	s_parse_bad("log: /x\nallow_write: /dev/loop*\n",
		    "t.yaml:2:14: allow_write: a list of absolute path globs is needed, not a "
		    "single value ('/dev/loop*')");
	s_parse_bad("foreground: maybe\n", "foreground: 'maybe' is not a boolean");
	s_parse_bad("lease_max: 0.5s\n", "lease_max must be between 1.0 s and 24 h 00 m");
	s_parse_bad("mem_max: 1m\n", "mem_max must be at least 16 MiB");
	s_parse_bad("debug: nett\n", "debug: unknown category 'nett'");
	s_parse_bad("listen: http://x\n", "listen: 'http://x' is not a ZeroMQ endpoint");
	s_parse_bad("name: [a\n", "t.yaml:");
}

/* A value of the wrong shape for its setting, placed at the value. */
static void test_file_types(void)
{
	s_parse_bad("log: /x\nname: [a, b]\n",
		    "t.yaml:2:7: name must be a string of at most 63 bytes, not a list");
	s_parse_bad("lease_max: {a: 1}\n",
		    "t.yaml:1:12: lease_max must be a duration such as 10m or 600s, not a map");
	s_parse_bad("mem_max: [1g]\n", "t.yaml:1:10: mem_max must be a size such as 4g or 512m");
	s_parse_bad("read_only: {a: 1, a: 2}\n", /* the value's place, before the inner key's */
		    "t.yaml:1:12: read_only must be true or false, not a map");
	s_parse_bad("name:\n", "t.yaml:1:6: name needs a value (a string of at most 63 bytes)");
	s_parse_bad("insecure: ~\n", "t.yaml:1:11: insecure needs a value (true or false)");
	s_parse_bad("allow_write: [/a, ~]\n",
		    "t.yaml:1:19: allow_write: every entry must be a string, not empty");
	s_parse_bad("debug: [net, [io]]\n",
		    "t.yaml:1:14: debug: every entry must be a string, not a list");
	s_parse_bad("[a]: 1\n", "t.yaml:1:1: a setting's name must be a string, not a list");
	s_parse_bad("{a: 1}: 1\n", "t.yaml:1:1: a setting's name must be a string, not a map");
}

/* Values of the right shape that the setter refuses, placed at the value. */
static void test_file_values(void)
{
	s_parse_bad("foreground: maybe\n",
		    "t.yaml:1:13: foreground: 'maybe' is not a boolean (use true or false)");
	s_parse_bad("mem_max: lots\n", "t.yaml:1:10: mem_max: ");
	s_parse_bad("mem_max: 1k\n", "t.yaml:1:10: mem_max must be at least 16 MiB");
	s_parse_bad("allow_write:\n  - /dev/loop*\n  - dev/sdb\n",
		    "t.yaml:3:5: allow_write: 'dev/sdb' is not an absolute path glob");
	s_parse_bad("debug: net,disk\n", "t.yaml:1:8: debug: unknown category 'disk'");
	s_parse_bad("name: \"a\\tb\"\n", "t.yaml:1:7: name: control characters are not allowed");
}

/* What the YAML itself gets wrong is reported by common/lst_yaml, with a place. */
static void test_file_yaml(void)
{
	s_parse_bad("log: /x\nlisten: \"tcp://127.0.0.1:1\n",
		    "t.yaml:3:1: YAML syntax error: found unexpected end of stream");
	s_parse_bad("name: a\n  b: c\n", "t.yaml:2:4: YAML syntax error: mapping values are not "
					 "allowed in this context");
	s_parse_bad("name: \"\xc3\x28\"\n", "cannot read the text: invalid trailing UTF-8 octet");
	s_parse_bad("name: &a host\n", "t.yaml:1:7: anchor '&a': anchors and aliases are not "
				       "allowed in configs");
	s_parse_bad("name: *a\n", "t.yaml:1:7: alias '*a': anchors and aliases are not allowed");
	s_parse_bad("name: a\n---\nname: b\n", "t.yaml:2:1: a config is one YAML document");
	s_parse_bad("log: \"/tmp/a\\eb\"\n", "t.yaml:1:6: this text holds the control character "
					     "0x1b");
	s_parse_bad("name: \"a\\0b\"\n", "t.yaml:1:7: this text holds a NUL byte");
}

/* The document must be a map of settings; an empty one sets nothing. */
static void test_file_document(void)
{
	static const char *const empty[] = { "", "---\n", "~\n", "null\n", "# nothing\n" };

	s_parse_bad("- listen\n", "t.yaml:1:1: the agent config must be a map of settings "
				  "(key: value), not a list");
	s_parse_bad("hello\n", "t.yaml:1:1: the agent config must be a map of settings "
			       "(key: value), not a value");
	for (size_t i = 0; i < sizeof(empty) / sizeof(empty[0]); i++) {
		lst_config *cfg = s_parse_ok(empty[i]);

		T_EQ_INT(cfg->set, 0);
		lst_config_destroy(&cfg);
	}
}

/* The first problem in the file is the one reported, whoever finds it. */
static void test_file_first_error(void)
{
	s_parse_bad("foo: x\nname: a\nname: b\n", "t.yaml:1:1: unknown key 'foo'");
	s_parse_bad("name: a\nname: b\nfoo: x\n", "t.yaml:2:1: 'name' is given twice (first at "
						  "1:1)");
	s_parse_bad("listne: x\nname: &a host\n", "t.yaml:1:1: unknown key 'listne'");
	s_parse_bad("name: &a host\nlistne: x\n", "t.yaml:1:7: anchor '&a'");
	s_parse_bad("name: a\n---\nlistne: b\n", "t.yaml:2:1: a config is one YAML document");
}

/* Lists: empty means none, the file's allow_write replaces, debug entries join. */
static void test_file_lists(void)
{
	lst_config *cfg = s_parse_ok("allow_write:\ndebug: [net, io]\n");
	lst_err err;

	T_EQ_INT(cfg->allow_write.n, 0);
	T_ASSERT(lst_config_is_set(cfg, "allow_write") && lst_config_is_set(cfg, "debug"));
	T_ASSERT(!lst_config_is_set(cfg, "name"));
	T_EQ_STR(cfg->debug, "net,io");
	T_EQ_INT(lst_config_parse(cfg, "u.yaml", "allow_write: [/x]\n", 18, &err), 0);
	T_EQ_INT(lst_config_parse(cfg, "u.yaml", "allow_write: [/y, /z]\n", 22, &err), 0);
	T_EQ_INT(cfg->allow_write.n, 2);
	T_EQ_STR(cfg->allow_write.v[0], "/y");
	T_EQ_INT(lst_config_parse(cfg, "u.yaml", "debug: proto\n", 13, &err), 0);
	T_EQ_STR(cfg->debug, "proto");
	lst_config_destroy(&cfg);
}

static void test_load(void)
{
	char path[] = "/tmp/lst-test-config-XXXXXX";
	int fd = mkstemp(path);
	lst_config *cfg = lst_config_new();
	lst_err err;

	T_ASSERT(fd >= 0);
	T_EQ_INT(write(fd, "name: a\nfoo: 1\n", 15), 15);
	close(fd);
	T_EQ_INT(lst_config_load(cfg, path, &err), -EINVAL);
	T_CONTAINS(err.msg, ":2:1: unknown key 'foo'");
	T_ASSERT(!strncmp(err.msg, path, strlen(path))); /* FILE as given */
	unlink(path);
	T_EQ_INT(lst_config_load(cfg, path, &err), -ENOENT);
	T_CONTAINS(err.msg, ": cannot read the config file");
	lst_config_destroy(&cfg);
}

static void test_override(void)
{
	lst_config *cfg = s_parse_ok("name: file\nallow_write: [/a, /b]\nread_only: true\n");
	lst_config *flags = lst_config_new();
	lst_err err;

	T_EQ_INT(lst_config_set(flags, "allow_write", "/c", &err), 0);
	T_EQ_INT(lst_config_set(flags, "read_only", "false", &err), 0);
	T_EQ_INT(lst_config_set(flags, "nosuch", "1", &err), -EINVAL);
	T_CONTAINS(err.msg, "unknown setting 'nosuch'");
	lst_config_override(cfg, flags);
	T_EQ_STR(cfg->name, "file");
	T_EQ_INT(cfg->allow_write.n, 1); /* the flags' list replaces the file's */
	T_EQ_STR(cfg->allow_write.v[0], "/c");
	T_ASSERT(!cfg->read_only);
	lst_config_destroy(&flags);
	lst_config_destroy(&cfg);
}

/* Parse argv (NULL-terminated, "lockstep-agent" first) into flags and cli. */
static int s_flags(lst_config *flags, struct lst_config_cli *cli, lst_err *err, char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	optind = 1;
	return lst_config_parse_flags(flags, cli, argc, argv, err);
}

#define FLAGS(flags, cli, err, ...)                                                                \
	s_flags(flags, cli, err, (char *[]){ "lockstep-agent", __VA_ARGS__, NULL })

static void test_flags(void)
{
	lst_config *flags = lst_config_new();
	struct lst_config_cli cli = { 0 };
	lst_err err;

	T_EQ_INT(FLAGS(flags, &cli, &err, "--listen", "tcp://127.0.0.1:1", "--allow-write", "/a",
		       "--allow-write", "/b", "--read-only", "-v", "-v", "--config", "c.yaml",
		       "--mem-max=32m", "--lease-max", "30s"),
		 0);
	T_EQ_STR(flags->listen, "tcp://127.0.0.1:1");
	T_EQ_INT(flags->allow_write.n, 2);
	T_ASSERT(flags->read_only);
	T_ASSERT(cli.verbose);
	T_EQ_STR(cli.config, "c.yaml");
	T_EQ_U64(flags->mem_max, (uint64_t)32 << 20);
	T_EQ_INT(flags->lease_max, 30 * LST_NS_PER_S);
	T_ASSERT(!cli.help && !cli.version && !cli.write_doc);

	T_EQ_INT(FLAGS(flags, &cli, &err, "--help", "--frobnicate"), 0);
	T_ASSERT(cli.help); /* stops at --help */
	T_EQ_INT(FLAGS(flags, &cli, &err, "-h"), 0);
	T_ASSERT(cli.help);
	T_EQ_INT(FLAGS(flags, &cli, &err, "--version"), 0);
	T_ASSERT(cli.version);
	T_EQ_INT(FLAGS(flags, &cli, &err, "--write-doc", "x.md"), 0);
	T_EQ_STR(cli.write_doc, "x.md");

	T_EQ_INT(FLAGS(flags, &cli, &err, "--frobnicate"), -EINVAL);
	T_EQ_STR(err.msg, "unknown option '--frobnicate' (see --help)");
	T_EQ_INT(FLAGS(flags, &cli, &err, "--l", "x"), -EINVAL); /* listen, log, lease-max */
	T_EQ_STR(err.msg, "unknown option '--l' (see --help)");
	T_EQ_INT(FLAGS(flags, &cli, &err, "--name"), -EINVAL);
	T_EQ_STR(err.msg, "--name needs a value (see --help)");
	T_EQ_INT(FLAGS(flags, &cli, &err, "--foreground", "x"), -EINVAL);
	T_EQ_STR(err.msg, "unexpected argument 'x' (see --help)");
	T_EQ_INT(FLAGS(flags, &cli, &err, "--lease-max", "2d"), -EINVAL);
	T_CONTAINS(err.msg, "--lease-max must be between 1.0 s and 24 h 00 m (see --help)");
	T_EQ_INT(FLAGS(flags, &cli, &err, "--debug", "net", "--debug", "io,dev"), 0);
	T_EQ_STR(flags->debug, "net,io,dev"); /* a repeated list flag gains its values */
	lst_config_destroy(&flags);
}

/* A value each setting's type takes, by the name its flag gives the value. */
static const char *s_example(const struct lst_opt *o)
{
	const char *arg = lst_opt_arg(o);

	if (!arg)
		return NULL;
	if (!strcmp(arg, "ENDPOINT"))
		return "tcp://127.0.0.1:1";
	if (!strcmp(arg, "LIST"))
		return "net";
	if (!strcmp(arg, "DURATION"))
		return "1m";
	if (!strcmp(arg, "SIZE"))
		return "1g";
	return "/x";
}

/* Every setting of the table is a config key and a flag of the same name ('-' for '_'),
 * except those of the file only (hooks, collectors), which no flag sets. */
static void test_table(void)
{
	size_t n = 0;

	for (const struct lst_opt *s = lst_config_settings; s->name; s++) {
		lst_config *flags = lst_config_new();
		struct lst_config_cli cli = { 0 };
		char flag[64];
		const char *value = s_example(s);
		lst_err err;
		int rc;

		T_ASSERT(s->help && s->help[0]);
		snprintf(flag, sizeof(flag), "--%s", s->name);
		for (char *c = flag; (c = strchr(c, '_'));)
			*c = '-';
		if (!strcmp(s->name, "hooks") || !strcmp(s->name, "collectors")) {
			T_EQ_INT(FLAGS(flags, &cli, &err, flag, "x"), -EINVAL);
			T_CONTAINS(err.msg, "unknown option");
			T_EQ_INT(lst_config_set(flags, s->name, "x", &err), -EINVAL);
			T_CONTAINS(err.msg, "set in the config file only");
			lst_config_destroy(&flags);
			continue;
		}
		n++;
		rc = value ? FLAGS(flags, &cli, &err, flag, (char *)value)
			   : FLAGS(flags, &cli, &err, flag);
		if (rc)
			T_FAIL("%s %s: %s", flag, value ? value : "", err.msg);
		T_EQ_U64(flags->set, 1u << (s - lst_config_settings));
		lst_config_destroy(&flags);
	}
	T_EQ_INT(n, 15); /* 17 settings, hooks and collectors in the file only */
}

/* What is made from the tables names every entry: --help each flag, --list-settings each key
 * and flag, the docs' tables each key and flag; and the debug setting's help every category
 * the logger knows. */
static void test_generated(void)
{
	char *help = NULL, *list = NULL, *cats = lst_strdup(lst_log_debug_names());
	size_t size = 0;
	FILE *f = open_memstream(&help, &size);

	lst_config_usage(f);
	fclose(f);
	f = open_memstream(&list, &size);
	lst_config_list(f);
	fclose(f);
	T_CONTAINS(list, "listen --listen\n");
	T_CONTAINS(list, "hooks -\n");
	T_CONTAINS(list, "- --config\n");
	T_CONTAINS(list, "- --verbose\n");
	T_CONTAINS(list, "- --list-settings\n");
	T_CONTAINS(help, "      --allow-write GLOB\n                        A path glob the agent");
	T_CONTAINS(help, "                        Cap on the lease a coordinator asks for (default "
			 "10m)\n");
	T_CONTAINS(help, "  -v, --verbose         debug logging for every category\n");
	T_CONTAINS(help, "      --debug LIST      Debug categories, comma-separated (io, net,");
	T_CONTAINS(help, "      --list-settings   print every setting's");
	T_ASSERT(!strstr(help, "--hooks"));
	T_ASSERT(!strstr(help, "`"));
	for (char *c = strtok(cats, ", "); c; c = strtok(NULL, ", "))
		T_CONTAINS(lst_opt_find(lst_config_settings, "debug")->help, c);
	free(cats);
	free(list);
	free(help);
}

static void test_write_doc(void)
{
	char path[] = "/tmp/lst-test-config-XXXXXX";
	int fd = mkstemp(path);
	const char *text = "# Agent\n\nintro\n\n<!-- lockstep-agent --write-doc: options -->\nold\n"
			   "<!-- end -->\n\nmiddle\n\n<!-- lockstep-agent --write-doc: keys -->\n"
			   "<!-- end -->\n\ntail\n";
	char buf[16384];
	FILE *f;
	size_t len;
	lst_err err;

	T_ASSERT(fd >= 0);
	T_EQ_INT(write(fd, "no markers\n", 11), 11);
	close(fd);
	T_EQ_INT(lst_config_write_doc(path, &err), -EINVAL);
	T_CONTAINS(err.msg, "no '<!-- lockstep-agent --write-doc: options -->'");

	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	T_EQ_INT(lst_config_write_doc(path, &err), 0);
	f = fopen(path, "r");
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';
	T_ASSERT(!strstr(buf, "old\n"));
	T_CONTAINS(buf, "# Agent\n\nintro\n\n<!-- lockstep-agent --write-doc: options -->\n"
			"| option | config key | meaning |\n");
	T_CONTAINS(buf, "| `--mem-max SIZE` | `mem_max` | Memory one point may ask for");
	T_CONTAINS(buf, "| - | `hooks` | Commands a plan may run");
	T_CONTAINS(buf, "| `-v, --verbose` | - | debug logging for every category |\n");
	T_CONTAINS(buf, "| `-h, --help` | - | print the usage and exit |\n<!-- end -->\n\nmiddle");
	T_CONTAINS(buf, "<!-- lockstep-agent --write-doc: keys -->\n| key | type | default |\n");
	T_CONTAINS(buf, "| `insecure` | true or false | `false` |\n| `mem_max` |");
	T_CONTAINS(buf, "| `lease_max` | a duration such as 10m or 600s (1.0 s .. 24 h 00 m) | "
			"`10m` |");
	T_CONTAINS(buf, "<!-- end -->\n\ntail\n");
	T_ASSERT(!strstr(buf, "| `config` |")); /* flags only are not config keys */
	unlink(path);
}

int main(void)
{
	test_file();
	test_file_errors();
	test_file_types();
	test_file_values();
	test_file_yaml();
	test_file_document();
	test_file_first_error();
	test_file_lists();
	test_load();
	test_override();
	test_flags();
	test_table();
	test_generated();
	test_write_doc();
	printf("ok\n");
	return 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The agent's command line and the generated descriptions of its settings, all made from
 * lst_config_settings[] (lst_config.c) and lst_config_flags[] (here): lst_flag, the engine of
 * every lockstep command's flags, parses the command line (a setting's flag, its key with '-'
 * for '_', is made from its entry and set through lst_config_set; a flag is matched whole, so
 * an ambiguous prefix is refused), writes --help and answers the shell's Tab (__complete).
 * The two tables of docs/agent.md are written from the same entries (--write-doc), and
 * integration.daemon_config regenerates and compares them. lockstep-agent(8) (--write-man
 * FILE) is docs/agent.md itself, compiled in at build time, with those two tables made afresh
 * and the whole rendered as roff by lst_roff: the page and the Markdown reference are one text.
 */
#include "lst_config.h"
#include "lst_config_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_flag.h"
#include "lst_log.h"
#include "lst_roff.h"
#include "lst_util.h"

/* docs/agent.md as it was at build time (agent/daemon/CMakeLists.txt embeds it). */
extern const char lst__agent_doc_md[];

#define S_NAME_MAX 32 /* bytes of a flag's name */
#define S_MAX_DOC (1024 * 1024)
#define S_OPTIONS_BEGIN "<!-- lockstep-agent --write-doc: options -->\n"
#define S_KEYS_BEGIN "<!-- lockstep-agent --write-doc: keys -->\n"
#define S_END "<!-- end -->\n"

#define S_CLI(f) offsetof(struct lst_config_cli, f)

/* The daemon's flags that are not settings (lst_flag entries: -h/--help is lst_flag's own),
 * each help a phrase, as lst_flag's tables say it. */
const struct lst_flag lst_config_flags[] = {
	{ .opt = { .name = "config",
		   .type = LST_OPT_CUSTOM,
		   .offset = S_CLI(config),
		   .ops = &lst_flag_string,
		   .help = "YAML file with these settings; flags override it" },
	  .arg = "FILE",
	  .complete = LST_FLAG_FILE },
	{ .opt = { .name = "verbose",
		   .type = LST_OPT_BOOL,
		   .offset = S_CLI(verbose),
		   .help = "debug logging for every category" },
	  .letter = 'v' },
	{ .opt = { .name = "version",
		   .type = LST_OPT_BOOL,
		   .offset = S_CLI(version),
		   .help = "print the version and exit" } },
	{ .opt = { .name = "list-settings",
		   .type = LST_OPT_BOOL,
		   .offset = S_CLI(list_settings),
		   .help = "print every setting's config key and flag, one a line, and exit" } },
	{ .opt = { .name = "write-man",
		   .type = LST_OPT_CUSTOM,
		   .offset = S_CLI(write_man),
		   .ops = &lst_flag_string,
		   .help = "write this manual page, lockstep-agent(8), to FILE as roff" },
	  .arg = "FILE",
	  .complete = LST_FLAG_FILE },
	{ .opt = { .name = "write-doc",
		   .type = LST_OPT_CUSTOM,
		   .offset = S_CLI(write_doc),
		   .ops = &lst_flag_string,
		   .help = "rewrite the settings tables in FILE (docs/agent.md) from the tables" },
	  .arg = "FILE",
	  .complete = LST_FLAG_FILE },
	{ .opt = { .name = NULL } },
};

/* What lst_flag_parse fills: the other flags (first, where their offsets point) and the
 * settings given as flags. */
struct s_cmdline {
	struct lst_config_cli cli;
	lst_config *flags;
};

/* The daemon's command line as lst_flag sees it: a flag made for each setting a flag may set,
 * then lst_config_flags, with their --help sentences; made from the tables at each use. */
struct s_cmd {
	struct lst_flag *settings; /* ended by a NULL name; names and helps are ours */
	const struct lst_flag *groups[3];
	struct lst_flag_cmd cmd;
};

/* "allow_write" -> "allow-write" (a flag's name from a key), and back. */
static char *s_swap(const char *name, char from, char to)
{
	char *s = lst_strdup(name);

	for (char *c = s; (c = strchr(c, from));)
		*c = to;
	return s;
}

/* A help's first sentence, without Markdown's marks and its full stop: what --help says of
 * it, before the default lst_flag adds. Caller frees. */
static char *s_sentence(const char *help)
{
	const char *stop = strstr(help, ". ");
	size_t len = stop ? (size_t)(stop - help) + 1 : strlen(help);
	char *line = lst_calloc(len + 1, 1), *w = line;

	for (size_t i = 0; i < len; i++)
		if (help[i] != '`' && !(help[i] == '*' && help[i + 1] == '*') &&
		    !(i && help[i] == '*' && help[i - 1] == '*'))
			*w++ = help[i];
	if (w > line && w[-1] == '.')
		w[-1] = '\0';
	return line;
}

/* A setting given as a flag: into the config of flags, through the setter the file uses. */
static int s_set_setting(const struct lst_flag *f, void *base, const char *value, lst_err *err)
{
	struct s_cmdline *c = base;
	char *key = s_swap(f->opt.name, '-', '_');
	int rc = lst_config_set(c->flags, key, value ? value : "true", err);

	/* say it as the flag: lst_flag turns "allow-write..." into "--allow-write..." */
	if (rc && err && !strncmp(err->msg, key, strlen(key)))
		memcpy(err->msg, f->opt.name, strlen(key));
	free(key);
	return rc;
}

/* The debug categories the logger knows, offered and shown for --debug. */
static const char *s_debug_words(void)
{
	return lst_log_debug_names();
}

/* The flag a setting has on the command line. */
static struct lst_flag s_setting_flag(const struct lst_opt *o)
{
	const char *arg = lst_opt_arg(o);
	struct lst_flag f = { .opt = *o, .arg = arg, .set = s_set_setting };

	f.opt.name = s_swap(o->name, '_', '-');
	f.opt.help = s_sentence(o->help);
	if (arg && !strcmp(arg, "FILE"))
		f.complete = LST_FLAG_FILE;
	else if (arg && !strcmp(arg, "DIR"))
		f.complete = LST_FLAG_DIR;
	if (o->ops == &lst_config__debug_ops)
		f.words = s_debug_words;
	return f;
}

static void s_cmd_init(struct s_cmd *c)
{
	size_t n = 0, k = 0;

	while (lst_config_settings[n].name)
		n++;
	c->settings = lst_calloc(n + 1, sizeof(*c->settings));
	for (const struct lst_opt *o = lst_config_settings; o->name; o++)
		if (!lst_config__file_only(o))
			c->settings[k++] = s_setting_flag(o);
	c->groups[0] = c->settings;
	c->groups[1] = lst_config_flags;
	c->groups[2] = NULL;
	c->cmd = (struct lst_flag_cmd){
		.name = "lockstep-agent",
		.about = "The agent daemon a coordinator drives. Also:\n"
			 "  lockstep-agent bench [options]     run one workload here and print it\n"
			 "  lockstep-agent keygen [PATH/NAME]  make this host's key pair (default\n"
			 "                                     " LST_CONFIG_DEFAULT_KEY_BASE
			 ".key and .pub)\n"
			 "\nEvery setting is also a key of the --config file, with '_' for '-'.\n",
		.more = "'lockstep-agent bench --help' lists the workload options, 'lockstep-agent "
			"keygen\n--help' the key options. See docs/agent.md.\n",
		.groups = c->groups,
	};
}

static void s_cmd_exit(struct s_cmd *c)
{
	for (struct lst_flag *f = c->settings; f->opt.name; f++) {
		free((char *)f->opt.name);
		free((char *)f->opt.help);
	}
	free(c->settings);
}

int lst_config_parse_flags(lst_config *flags, struct lst_config_cli *cli, int argc, char **argv,
			   lst_err *err)
{
	struct s_cmdline line = { .flags = flags };
	struct s_cmd c;
	int rc;

	s_cmd_init(&c);
	rc = lst_flag_parse(&c.cmd, argc, argv, &line, err);
	s_cmd_exit(&c);
	*cli = line.cli;
	if (rc == 0) /* -h or --help: nothing else was parsed */
		cli->help = true;
	else if (rc > 0 && rc < argc && !cli->version)
		rc = lst_err_set(err, -EINVAL, "unexpected argument '%s'", argv[rc]);
	if (rc < 0 && err) {
		char msg[LST_ERR_MAX];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		return lst_err_set(err, rc, "%s (see --help)", msg);
	}
	return rc < 0 ? rc : 0;
}

void lst_config_usage(FILE *f)
{
	struct s_cmd c;

	s_cmd_init(&c);
	lst_flag_help(&c.cmd, f);
	s_cmd_exit(&c);
}

int lst_config_complete(int n, char **words, int cword, FILE *f)
{
	struct s_cmd c;

	if (n > 1 && cword > 1 && (!strcmp(words[1], "bench") || !strcmp(words[1], "keygen")))
		return 1; /* a subcommand's flags: not the daemon's */
	if (cword == 1 && (cword >= n || words[1][0] != '-')) {
		fputs("words\nbench\nkeygen\n", f);
		return 0;
	}
	s_cmd_init(&c);
	lst_flag_complete(&c.cmd, n, words, cword, f);
	s_cmd_exit(&c);
	return 0;
}

/* A flag's tag in the docs: "-v, --verbose", "--listen ENDPOINT". */
static const char *s_tag(const struct lst_flag *fl, char *buf, size_t size)
{
	size_t n = 0;

	if (fl->letter)
		n = (size_t)snprintf(buf, size, "-%c, ", fl->letter);
	snprintf(buf + n, size - n, "--%s%s%s", fl->opt.name, fl->arg ? " " : "",
		 fl->arg ? fl->arg : "");
	return buf;
}

void lst_config_list(FILE *f)
{
	for (const struct lst_opt *o = lst_config_settings; o->name; o++) {
		char *flag = s_swap(o->name, '_', '-');

		fprintf(f, "%s %s%s\n", o->name, lst_config__file_only(o) ? "" : "--",
			lst_config__file_only(o) ? "-" : flag);
		free(flag);
	}
	for (const struct lst_flag *fl = lst_config_flags; fl->opt.name; fl++)
		fprintf(f, "- --%s\n", fl->opt.name);
}

/* The options table of docs/agent.md: every setting and flag, with its whole help. */
static void s_doc_options(FILE *f)
{
	char tag[64];

	fputs("| option | config key | meaning |\n|---|---|---|\n", f);
	for (const struct lst_opt *o = lst_config_settings; o->name; o++) {
		if (lst_config__file_only(o)) {
			fprintf(f, "| - | `%s` | %s |\n", o->name, o->help);
			continue;
		}
		struct lst_flag fl = s_setting_flag(o);

		fprintf(f, "| `%s` | `%s` | %s |\n", s_tag(&fl, tag, sizeof(tag)), o->name,
			o->help);
		free((char *)fl.opt.name);
		free((char *)fl.opt.help);
	}
	for (const struct lst_flag *fl = lst_config_flags; fl->opt.name; fl++)
		fprintf(f, "| `%s` | - | %s |\n", s_tag(fl, tag, sizeof(tag)), fl->opt.help);
	fputs("| `-h, --help` | - | print the usage and exit |\n", f);
}

/* The config keys table of docs/agent.md: each key's type and default. */
static void s_doc_keys(FILE *f)
{
	fputs("| key | type | default |\n|---|---|---|\n", f);
	for (const struct lst_opt *o = lst_config_settings; o->name; o++) {
		char range[128] = "";

		if (o->type == LST_OPT_SIZE && o->max == INT64_MAX) /* no top to speak of */
			snprintf(range, sizeof(range), " (at least %s)",
				 lst_fmt_size((uint64_t)o->min, (char[32]){ 0 }, 32));
		else if (o->type == LST_OPT_DURATION || o->type == LST_OPT_SIZE)
			snprintf(range, sizeof(range), " (%s)",
				 lst_opt_describe_range(o, (char[96]){ 0 }, 96));
		if (lst_config__file_only(o))
			snprintf(range, sizeof(range), " (config file only)");
		fprintf(f, "| `%s` | %s%s | %s%s%s |\n", o->name, lst_config__what(o), range,
			o->def ? "`" : "", o->def ? o->def : "see above", o->def ? "`" : "");
	}
}

/* Write text up to the end of marker begin (found in text), then table, then skip to S_END. */
static int s_splice(FILE *out, const char **text, const char *begin, void (*table)(FILE *),
		    const char *path, lst_err *err)
{
	const char *b = strstr(*text, begin), *e;

	if (!b || !(e = strstr(b, S_END)))
		return lst_err_set(err, -EINVAL, "%s: no '%.*s' ... '%.*s' lines", path,
				   (int)strlen(begin) - 1, begin, (int)strlen(S_END) - 1, S_END);
	b += strlen(begin);
	fwrite(*text, 1, (size_t)(b - *text), out);
	table(out);
	*text = e;
	return 0;
}

/* text (a docs/agent.md named path) with its two tables made afresh, into *out (the caller
 * frees it). Returns 0, or -EINVAL when the markers are missing. */
static int s_doc_text(const char *text, const char *path, char **out, size_t *size, lst_err *err)
{
	const char *at = text;
	FILE *f = open_memstream(out, size);
	int rc;

	if (!f)
		return lst_err_sys(err, -errno, "open_memstream");
	rc = s_splice(f, &at, S_OPTIONS_BEGIN, s_doc_options, path, err);
	if (!rc)
		rc = s_splice(f, &at, S_KEYS_BEGIN, s_doc_keys, path, err);
	if (!rc)
		fputs(at, f);
	fclose(f);
	if (rc) {
		free(*out);
		*out = NULL;
	}
	return rc;
}

int lst_config_write_doc(const char *path, lst_err *err)
{
	char *text = NULL, *buf = NULL;
	size_t len, size = 0;
	int rc;

	rc = lst_read_file(path, S_MAX_DOC, &text, &len);
	if (rc)
		return lst_err_sys(err, rc, "%s: cannot read", path);
	rc = s_doc_text(text, path, &buf, &size, err);
	free(text);
	if (!rc) {
		int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);

		rc = fd < 0 ? -errno : lst_write_all(fd, buf, size);
		if (fd >= 0)
			close(fd);
		if (rc)
			lst_err_sys(err, rc, "%s: cannot write", path);
	}
	free(buf);
	return rc;
}

int lst_config_write_man(const char *path, lst_err *err)
{
	char *md = NULL;
	size_t size = 0;
	FILE *f;
	int rc;

	rc = s_doc_text(lst__agent_doc_md, "docs/agent.md", &md, &size, err);
	if (rc)
		return rc;
	f = fopen(path, "w");
	if (!f) {
		rc = lst_err_sys(err, -errno, "%s: cannot write", path);
		goto free_md;
	}
	lst_roff_head(f, "lockstep-agent", 8, NULL);
	lst_roff_md(f, md);
	rc = ferror(f) ? -EIO : 0;
	if (fclose(f) && !rc)
		rc = -errno;
	if (rc)
		lst_err_sys(err, rc, "%s: cannot write", path);
free_md:
	free(md);
	return rc;
}

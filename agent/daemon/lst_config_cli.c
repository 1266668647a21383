/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The agent's command line and the generated descriptions of its settings, all made from
 * lst_config_settings[] (lst_config.c): the getopt_long table (a setting's flag is its key with
 * '-' for '_'; each flag gets its own value, so an ambiguous prefix is still refused), the
 * --help text and the two tables of docs/agent.md, which the test integration.daemon_config
 * regenerates and compares. lockstep-agent(8) (--write-man FILE) is docs/agent.md itself,
 * compiled in at build time, with those two tables made afresh from the table and the whole
 * rendered as roff by lst_roff: the page and the Markdown reference are one text.
 */
#include "lst_config.h"
#include "lst_config_int.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_log.h"
#include "lst_roff.h"
#include "lst_util.h"

/* docs/agent.md as it was at build time (agent/daemon/CMakeLists.txt embeds it). */
extern const char lst__agent_doc_md[];

#define S_OPT_SETTING 256 /* getopt_long value of lst_config_settings[i]: S_OPT_SETTING + i */
#define S_OPT_FLAG 512	  /* and of lst_config_flags[i]: S_OPT_FLAG + i */
#define S_NAME_MAX 32	  /* bytes of a flag's name */
#define S_MAX_DOC (1024 * 1024)
#define S_OPTIONS_BEGIN "<!-- lockstep-agent --write-doc: options -->\n"
#define S_KEYS_BEGIN "<!-- lockstep-agent --write-doc: keys -->\n"
#define S_END "<!-- end -->\n"

#define S_CLI(f) offsetof(struct lst_config_cli, f)

/*
 * The daemon's flags that are not settings, described as the settings are (a one-letter name
 * is a short flag: "v" is -v). help's first sentence is the --help line, all of it the docs'.
 */
const struct lst_opt lst_config_flags[] = {
	{ .name = "config",
	  .type = LST_OPT_CUSTOM,
	  .offset = S_CLI(config),
	  .ops = &lst_config__file_ops,
	  .help = "YAML file with these settings; flags override it. It is read before the flags "
		  "apply (see below)." },
	{ .name = "v",
	  .type = LST_OPT_BOOL,
	  .offset = S_CLI(verbose),
	  .help = "Debug logging for every category." },
	{ .name = "help",
	  .type = LST_OPT_BOOL,
	  .offset = S_CLI(help),
	  .help = "Print this usage and exit (also -h)." },
	{ .name = "version",
	  .type = LST_OPT_BOOL,
	  .offset = S_CLI(version),
	  .help = "Print the version and exit." },
	{ .name = "list_settings",
	  .type = LST_OPT_BOOL,
	  .offset = S_CLI(list_settings),
	  .help = "Print every setting's config key and flag, one a line, and exit. For tests "
		  "and tools that check each setting is documented everywhere." },
	{ .name = "write_man",
	  .type = LST_OPT_CUSTOM,
	  .offset = S_CLI(write_man),
	  .ops = &lst_config__file_ops,
	  .help = "Write this manual page, lockstep-agent(8), to FILE. It is this page, with the "
		  "two tables made afresh, as roff." },
	{ .name = "write_doc",
	  .type = LST_OPT_CUSTOM,
	  .offset = S_CLI(write_doc),
	  .ops = &lst_config__file_ops,
	  .help = "Rewrite the settings tables in FILE (docs/agent.md) from the settings table. "
		  "That table also makes the agent's flags, config keys and `--help`." },
	{ .name = NULL },
};

/* The two tables, settings first, as the command line, --help and the docs list them. */
static const struct lst_opt *const s_tables[] = { lst_config_settings, lst_config_flags };

/* Whether o is a flag on the command line (every entry but a setting of the file only). */
static bool s_is_flag(const struct lst_opt *o)
{
	return !lst_config__file_only(o);
}

/* Whether o is a setting (a config key) rather than a flag only. */
static bool s_is_setting(const struct lst_opt *o)
{
	for (const struct lst_opt *s = lst_config_settings; s->name; s++)
		if (s == o)
			return true;
	return false;
}

/* Entries of both tables. */
static size_t s_count(void)
{
	size_t n = 0;

	for (size_t t = 0; t < LST_ARRAY_SIZE(s_tables); t++)
		for (const struct lst_opt *o = s_tables[t]; o->name; o++)
			n++;
	return n;
}

/* "allow_write" -> "--allow-write", "v" -> "-v" (a flag's name). */
static const char *s_flag_name(const struct lst_opt *o, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s", strlen(o->name) < 2 ? "-" : "--", o->name);
	for (char *c = buf; (c = strchr(c, '_'));)
		*c = '-';
	return buf;
}

/* The getopt_long table: one entry per long flag of both tables. Caller frees. */
static struct option *s_long_options(char names[][S_NAME_MAX], char *shorts, size_t nshorts)
{
	size_t k = 0, s = 0;
	struct option *opts = lst_calloc(s_count() + 1, sizeof(*opts));

	for (size_t t = 0; t < LST_ARRAY_SIZE(s_tables); t++) {
		for (const struct lst_opt *o = s_tables[t]; o->name; o++) {
			int val = (t ? S_OPT_FLAG : S_OPT_SETTING) + (int)(o - s_tables[t]);
			char flag[S_NAME_MAX];

			if (!s_is_flag(o))
				continue;
			if (strlen(o->name) < 2) { /* -v */
				LST_ASSERT(s + 1 < nshorts);
				shorts[s++] = o->name[0];
				continue;
			}
			s_flag_name(o, flag, sizeof(flag));
			snprintf(names[k], S_NAME_MAX, "%s", flag + 2);
			opts[k] = (struct option){ names[k],
						   lst_opt_arg(o) ? required_argument : no_argument,
						   NULL, val };
			k++;
		}
	}
	shorts[s] = '\0';
	return opts;
}

/* The entry getopt_long returned c for, or NULL (a short flag is looked up by its letter). */
static const struct lst_opt *s_entry(int c)
{
	if (c >= S_OPT_FLAG)
		return &lst_config_flags[c - S_OPT_FLAG];
	if (c >= S_OPT_SETTING)
		return &lst_config_settings[c - S_OPT_SETTING];
	if (c == 'h')
		return lst_opt_find(lst_config_flags, "help");
	for (const struct lst_opt *o = lst_config_flags; o->name; o++)
		if (strlen(o->name) == 1 && o->name[0] == c)
			return o;
	return NULL;
}

/* One flag given: a setting into flags, anything else into cli. */
static int s_apply(const struct lst_opt *o, lst_config *flags, struct lst_config_cli *cli,
		   lst_err *err)
{
	const char *value = lst_opt_arg(o) ? optarg : "true";

	if (s_is_setting(o))
		return lst_config_set(flags, o->name, value, err);
	return lst_opt_parse(o, cli, value, err);
}

void lst_config_cli_clear(struct lst_config_cli *cli)
{
	for (const struct lst_opt *o = lst_config_flags; o->name; o++)
		lst_opt_clear(o, cli);
	memset(cli, 0, sizeof(*cli));
}

int lst_config_parse_flags(lst_config *flags, struct lst_config_cli *cli, int argc, char **argv,
			   lst_err *err)
{
	char(*names)[S_NAME_MAX] = lst_calloc(s_count(), sizeof(*names));
	char optstring[16] = ":h", *shorts = optstring + 2;
	struct option *opts = s_long_options(names, shorts, sizeof(optstring) - 2);
	int c, rc = 0;

	memset(cli, 0, sizeof(*cli));
	opterr = 0;
	while ((c = getopt_long(argc, argv, optstring, opts, NULL)) != -1) {
		const struct lst_opt *o = s_entry(c);

		if (o) {
			if (s_apply(o, flags, cli, err)) {
				rc = -EINVAL;
				break;
			}
			if (cli->help || cli->version)
				break;
		} else if (c == ':') {
			rc = lst_err_set(err, -EINVAL, "%s needs a value (see --help)",
					 argv[optind - 1]);
			break;
		} else {
			rc = lst_err_set(err, -EINVAL, "unknown option '%s' (see --help)",
					 argv[optind - 1]);
			break;
		}
	}
	if (!rc && !cli->help && !cli->version && optind < argc)
		rc = lst_err_set(err, -EINVAL, "unexpected argument '%s' (see --help)",
				 argv[optind]);
	free(opts);
	free(names);
	return rc;
}

/* The flag with its value's name: "--listen ENDPOINT", "-v". */
static const char *s_flag_arg(const struct lst_opt *o, char *buf, size_t size)
{
	char flag[S_NAME_MAX];
	const char *arg = lst_opt_arg(o);

	snprintf(buf, size, "%s%s%s", s_flag_name(o, flag, sizeof(flag)), arg ? " " : "",
		 arg ? arg : "");
	return buf;
}

/* o's help as --help says it: its first sentence, without Markdown's marks, and its default
 * (a boolean's is false). Caller frees. */
static char *s_help_line(const struct lst_opt *o)
{
	size_t len = strcspn(o->help, "");
	const char *stop = strstr(o->help, ". ");
	char *line, *w;

	if (stop)
		len = (size_t)(stop - o->help) + 1;
	line = lst_calloc(len + 1, 1);
	w = line;
	for (size_t i = 0; i < len; i++)
		if (o->help[i] != '`' && !(o->help[i] == '*' && o->help[i + 1] == '*') &&
		    !(i && o->help[i] == '*' && o->help[i - 1] == '*'))
			*w++ = o->help[i];
	if (o->def && o->type != LST_OPT_BOOL) {
		char *with = lst_asprintf("%.*s (default %s)%s", (int)(w - line - 1), line, o->def,
					  w[-1] == '.' ? "." : "");

		free(line);
		return with;
	}
	return line;
}

/* One --help line: the flag, then its help, wrapped at 79 columns under itself. */
static void s_usage_line(FILE *f, const struct lst_opt *o)
{
	char flag[64], *help = s_help_line(o);
	size_t col = 23;

	fprintf(f, "  %-20s", s_flag_arg(o, flag, sizeof(flag)));
	if (strlen(flag) > 20) {
		fprintf(f, "\n%23s", "");
	} else {
		fputc(' ', f);
	}
	for (char *word = strtok(help, " "); word; word = strtok(NULL, " ")) {
		if (col > 23 && col + 1 + strlen(word) > 79) {
			fprintf(f, "\n%23s", "");
			col = 23;
		}
		col += (size_t)fprintf(f, "%s%s", col > 23 ? " " : "", word);
	}
	fputc('\n', f);
	free(help);
}

void lst_config_usage(FILE *f)
{
	fputs("usage: lockstep-agent [options]           run the agent daemon\n"
	      "       lockstep-agent bench [options]     run one workload here and print it\n"
	      "       lockstep-agent keygen [PATH/NAME]  make this host's key pair (default\n"
	      "                                          " LST_CONFIG_DEFAULT_KEY_BASE
	      ".key and .pub)\n"
	      "       lockstep-agent --version\n"
	      "\n"
	      "settings (each also a key of the --config file, with '_' for '-'):\n",
	      f);
	for (const struct lst_opt *o = lst_config_settings; o->name; o++)
		if (s_is_flag(o))
			s_usage_line(f, o);
	fputs("\nother options:\n", f);
	for (const struct lst_opt *o = lst_config_flags; o->name; o++)
		s_usage_line(f, o);
	fputs("\n'lockstep-agent bench --help' lists the workload options, 'lockstep-agent keygen\n"
	      "--help' the key options. See docs/agent.md.\n",
	      f);
}

void lst_config_list(FILE *f)
{
	for (size_t t = 0; t < LST_ARRAY_SIZE(s_tables); t++) {
		for (const struct lst_opt *o = s_tables[t]; o->name; o++) {
			char flag[S_NAME_MAX];

			fprintf(f, "%s %s\n", s_is_setting(o) ? o->name : "-",
				s_is_flag(o) ? s_flag_name(o, flag, sizeof(flag)) : "-");
		}
	}
}

/* The options table of docs/agent.md: every flag and every setting, with its whole help. */
static void s_doc_options(FILE *f)
{
	fputs("| option | config key | meaning |\n|---|---|---|\n", f);
	for (size_t t = 0; t < LST_ARRAY_SIZE(s_tables); t++) {
		for (const struct lst_opt *o = s_tables[t]; o->name; o++) {
			char flag[64];

			fprintf(f, "| %s%s%s | %s%s%s | %s |\n", s_is_flag(o) ? "`" : "",
				s_is_flag(o) ? s_flag_arg(o, flag, sizeof(flag)) : "-",
				s_is_flag(o) ? "`" : "", s_is_setting(o) ? "`" : "",
				s_is_setting(o) ? o->name : "-", s_is_setting(o) ? "`" : "",
				o->help);
		}
	}
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

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

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_log.h"
#include "lst_roff.h"
#include "lst_util.h"

/* docs/agent.md as it was at build time (agent/daemon/CMakeLists.txt embeds it). */
extern const char lst__agent_doc_md[];

#define S_OPT_BASE 256 /* getopt_long value of lst_config_settings[i]: S_OPT_BASE + i */
#define S_MAX_DOC (1024 * 1024)
#define S_OPTIONS_BEGIN "<!-- lockstep-agent --write-doc: options -->\n"
#define S_KEYS_BEGIN "<!-- lockstep-agent --write-doc: keys -->\n"
#define S_END "<!-- end -->\n"

static size_t s_count(void)
{
	size_t n = 0;

	while (lst_config_settings[n].name)
		n++;
	return n;
}

/* "allow_write" -> "allow-write" (a flag's name). */
static void s_flag_name(const char *name, char *buf, size_t size)
{
	snprintf(buf, size, "%s", name);
	for (char *c = buf; (c = strchr(c, '_'));)
		*c = '-';
}

/* The getopt_long table: one entry per long flag ("v" is the short -v). Caller frees. */
static struct option *s_long_options(char names[][32])
{
	size_t n = s_count(), k = 0;
	struct option *o = lst_calloc(n + 1, sizeof(*o));

	for (size_t i = 0; i < n; i++) {
		const struct lst_config_setting *s = &lst_config_settings[i];

		if (strlen(s->name) < 2 || s->type == LST_CONFIG_ARGV_MAP)
			continue; /* -v; hooks and collectors are read from the file only */
		s_flag_name(s->name, names[i], 32);
		o[k++] = (struct option){ names[i], s->arg ? required_argument : no_argument, NULL,
					  S_OPT_BASE + (int)i };
	}
	return o;
}

/* A flag that is not a setting. Returns 1 when parsing should stop (help, version). */
static int s_flag(const struct lst_config_setting *s, struct lst_config_cli *cli)
{
	if (!strcmp(s->name, "config"))
		cli->config = optarg;
	else if (!strcmp(s->name, "write_doc"))
		cli->write_doc = optarg;
	else if (!strcmp(s->name, "write_man"))
		cli->write_man = optarg;
	else if (!strcmp(s->name, "help"))
		cli->help = true;
	else if (!strcmp(s->name, "version"))
		cli->version = true;
	return cli->help || cli->version;
}

int lst_config_parse_flags(lst_config *flags, struct lst_config_cli *cli, int argc, char **argv,
			   lst_err *err)
{
	char(*names)[32] = lst_calloc(s_count(), sizeof(*names));
	struct option *opts = s_long_options(names);
	int c, rc = 0;

	memset(cli, 0, sizeof(*cli));
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":vh", opts, NULL)) != -1) {
		const struct lst_config_setting *s = NULL;

		if (c >= S_OPT_BASE)
			s = &lst_config_settings[c - S_OPT_BASE];
		if (s && s->type != LST_CONFIG_FLAG) {
			if (lst_config_set(flags, s->name, s->arg ? optarg : "true", err)) {
				rc = -EINVAL;
				break;
			}
		} else if (s) {
			if (s_flag(s, cli))
				break;
		} else if (c == 'v') {
			cli->verbose++;
		} else if (c == 'h') {
			cli->help = true;
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

/* One --help line: the flag, then its phrase, continuation lines indented under it. */
static void s_usage_line(FILE *f, const struct lst_config_setting *s)
{
	char flag[64], name[32];

	s_flag_name(s->name, name, sizeof(name));
	snprintf(flag, sizeof(flag), "%s%s%s%s", strlen(s->name) < 2 ? "-" : "--", name,
		 s->arg ? " " : "", s->arg ? s->arg : "");
	fprintf(f, "  %-20s ", flag);
	for (const char *h = s->help; *h; h++) {
		fputc(*h, f);
		if (*h == '\n')
			fprintf(f, "%23s", "");
	}
	if (s->type == LST_CONFIG_STR_LIST)
		fprintf(f, " %s", lst_log_debug_names());
	fputc('\n', f);
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
	      "daemon options (each also a key of the --config file, with '_' for '-'):\n",
	      f);
	for (const struct lst_config_setting *s = lst_config_settings; s->name; s++)
		if (s->type != LST_CONFIG_ARGV_MAP)
			s_usage_line(f, s);
	fputs("\n'lockstep-agent bench --help' lists the workload options, 'lockstep-agent keygen\n"
	      "--help' the key options. See docs/agent.md.\n",
	      f);
}

/* The options table of docs/agent.md. */
static void s_doc_options(FILE *f)
{
	fputs("| option | config key | meaning |\n|---|---|---|\n", f);
	for (const struct lst_config_setting *s = lst_config_settings; s->name; s++) {
		char name[32];

		if (s->type == LST_CONFIG_ARGV_MAP) {
			fprintf(f, "| - | `%s` | %s |\n", s->name, s->doc);
			continue;
		}
		s_flag_name(s->name, name, sizeof(name));
		fprintf(f, "| `%s%s%s%s` | %s%s%s | %s |\n", strlen(s->name) < 2 ? "-" : "--", name,
			s->arg ? " " : "", s->arg ? s->arg : "",
			s->type == LST_CONFIG_FLAG ? "-" : "`",
			s->type == LST_CONFIG_FLAG ? "" : s->name,
			s->type == LST_CONFIG_FLAG ? "" : "`", s->doc);
	}
}

/* The config keys table of docs/agent.md. */
static void s_doc_keys(FILE *f)
{
	fputs("| key | type | example |\n|---|---|---|\n", f);
	for (const struct lst_config_setting *s = lst_config_settings; s->name; s++)
		if (s->type != LST_CONFIG_FLAG)
			fprintf(f, "| `%s` | %s | %s |\n", s->name, s->what, s->example);
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

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The daemon command, `lockstep-agent` without a subcommand: turn flags and the config file
 * into settings (a bad one exits 2 before anything is opened), open the log, daemonize, write
 * the pidfile, then make the daemon (lst_daemon) and serve until SIGTERM. Each step is its own
 * function over one struct s_agent; s_agent_exit undoes whatever was done.
 */
#include "lst_agent.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lst_auth.h"
#include "lst_config.h"
#include "lst_daemon.h"
#include "lst_daemonize.h"
#include "lst_hook_tree.h"
#include "lst_dev.h"
#include "lst_log.h"
#include "lst_util.h"

/* A path made absolute against the current directory (the daemon changes to /). */
static char *s_absolute(const char *path)
{
	char cwd[PATH_MAX];

	if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		return lst_strdup(path);
	return lst_asprintf("%s/%s", cwd, path);
}

/* Parse the command line into flags and act on --help, --version, --list-settings, --write-doc
 * and --write-man.
 * Returns 0 to go on, 1 when the program should exit 0, or -EINVAL after printing the problem. */
static int s_parse_flags(int argc, char **argv, lst_config *flags, struct lst_config_cli *cli)
{
	lst_err err;

	if (lst_config_parse_flags(flags, cli, argc, argv, &err)) {
		fprintf(stderr, "lockstep-agent: %s\n", err.msg);
		return -EINVAL;
	}
	if (cli->help) {
		lst_config_usage(stdout);
		return 1;
	}
	if (cli->version) {
		printf("lockstep-agent %s\n", LST_VERSION);
		return 1;
	}
	if (cli->list_settings) {
		lst_config_list(stdout);
		return 1;
	}
	if (cli->write_doc || cli->write_man) {
		if ((cli->write_doc && lst_config_write_doc(cli->write_doc, &err)) ||
		    (cli->write_man && lst_config_write_man(cli->write_man, &err))) {
			fprintf(stderr, "lockstep-agent: %s\n", err.msg);
			return -EINVAL;
		}
		return 1;
	}
	return 0;
}

/*
 * CURVE or plain text, decided before anything is opened: with a key, load it and check the
 * authorized_keys folder; without one, only a loopback listen address, or --insecure. Returns
 * 0, or -EINVAL after printing what to change (the caller exits 2).
 */
static int s_security(const lst_config *cfg, const char *listen, struct lst_keypair *kp,
		      char **key_file, char **auth_dir)
{
	lst_authkeys ak;
	lst_err err;

	if (cfg->key && !cfg->authorized_keys) {
		fprintf(stderr, "lockstep-agent: key is given without authorized_keys: no "
				"coordinator could connect; add --authorized-keys DIR (a folder of "
				"coordinator .pub files)\n");
		return -EINVAL;
	}
	if (!cfg->key && cfg->authorized_keys) {
		fprintf(stderr,
			"lockstep-agent: authorized_keys needs the agent's own key: add --key "
			"FILE (make one with 'lockstep keygen /etc/lockstep/agent')\n");
		return -EINVAL;
	}
	if (!cfg->key) {
		if (lst_auth_endpoint_is_local(listen) || cfg->insecure)
			return 0;
		fprintf(stderr,
			"lockstep-agent: listening on %s needs CURVE: give --key FILE (this agent's "
			"secret key, from 'lockstep keygen') and --authorized-keys DIR (the "
			"coordinator keys to accept), or listen on a loopback address; --insecure "
			"accepts plain text from anyone who can reach the port (see "
			"docs/security.md)\n",
			listen);
		return -EINVAL;
	}
	*key_file = s_absolute(cfg->key);
	*auth_dir = s_absolute(cfg->authorized_keys);
	if (lst_auth_load_keypair(*key_file, kp, &err)) {
		fprintf(stderr, "lockstep-agent: key: %s\n", err.msg);
		return -EINVAL;
	}
	if (lst_authkeys_load(*auth_dir, &ak, &err)) {
		fprintf(stderr, "lockstep-agent: %s\n", err.msg);
		return -EINVAL;
	}
	for (size_t i = 0; i < ak.nwarn; i++)
		fprintf(stderr, "lockstep-agent: warning: authorized_keys: %s\n", ak.warn[i]);
	lst_authkeys_clear(&ak);
	return 0;
}

/* The daemon's state between its start-up steps. */
struct s_agent {
	lst_config *cfg, *flags;
	lst_dev_policy *policy;
	struct lst_config_cli cli;
	const char *listen;
	struct lst_keypair kp;
	char host[256], *log, *pidfile, *key_file, *auth_dir;
	int notify; /* the pipe to the waiting parent, -1 when none */
	lst_daemon *d;
};

/* Apply the settings (flags over the config file) to the policy and the logger. Returns 0 or
 * -EINVAL after printing the problem (exit 2). */
static int s_apply(struct s_agent *a)
{
	lst_config *cfg = a->cfg;
	lst_err err;

	if (a->cli.config && lst_config_load(cfg, a->cli.config, &err)) {
		fprintf(stderr, "lockstep-agent: %s\n", err.msg);
		return -EINVAL;
	}
	lst_config_override(cfg, a->flags);
	if (lst_config_policy(cfg, a->policy, &err)) {
		fprintf(stderr, "lockstep-agent: %s\n", err.msg);
		return -EINVAL;
	}
	a->listen = cfg->listen ? cfg->listen : LST_CONFIG_DEFAULT_LISTEN;
	if (s_security(cfg, a->listen, &a->kp, &a->key_file, &a->auth_dir))
		return -EINVAL;
	if (cfg->debug)
		lst_log_set_debug(cfg->debug, NULL); /* checked by lst_config_set */
	if (a->cli.verbose)
		lst_log_set_level(LST_LOG_DEBUG);
	if (!cfg->name && gethostname(a->host, sizeof(a->host)))
		snprintf(a->host, sizeof(a->host), "agent");
	a->host[sizeof(a->host) - 1] = '\0';
	if (cfg->log)
		a->log = s_absolute(cfg->log);
	else if (!cfg->foreground)
		a->log = lst_strdup(LST_CONFIG_DEFAULT_LOG);
	if (cfg->pidfile)
		a->pidfile = s_absolute(cfg->pidfile);
	return 0;
}

/* Open the log, daemonize unless in the foreground, write the pidfile. Returns 0 or -1 (the
 * failure is logged or printed; exit 1). */
static int s_start(struct s_agent *a)
{
	lst_err err;

	lst_log_set_timestamps(true);
	if (a->log && lst_log_open(a->log, &err)) {
		fprintf(stderr, "lockstep-agent: cannot open the log: %s\n", err.msg);
		return -1;
	}
	if (!a->cfg->foreground) {
		a->notify = lst_daemonize(a->log);
		if (a->notify < 0) {
			lst_log_error("cannot daemonize: %s", strerror(-a->notify));
			return -1;
		}
	}
	if (a->pidfile && lst_pidfile_write(a->pidfile, &err)) {
		lst_log_error("cannot write the pidfile: %s", err.msg);
		free(a->pidfile);
		a->pidfile = NULL;
		return -1;
	}
	return 0;
}

/* Make the daemon, report the start to the parent and serve until asked to stop. Returns the
 * exit status (0, or 1 when the daemon cannot be made or its reactor fails). */
static int s_serve(struct s_agent *a)
{
	const lst_config *cfg = a->cfg;
	struct lst_daemon_opts o;
	lst_err err;
	int rc;

	memset(&o, 0, sizeof(o));
	o.listen = a->listen;
	o.name = cfg->name ? cfg->name : a->host;
	o.lease_max = cfg->lease_max;
	o.mem_max = cfg->mem_max;
	o.policy = a->policy;
	o.log_path = a->log;
	o.hooks = cfg->hooks.v;
	o.nhooks = cfg->hooks.n;
	o.collectors = cfg->collectors.v;
	o.ncollectors = cfg->collectors.n;
	o.hook_timeout = cfg->hook_timeout;
	o.trace_dir = cfg->trace_dir;
	if (cfg->key) {
		o.curve_secret = a->kp.secret;
		o.curve_public = a->kp.pub;
		o.key_file = a->key_file;
		o.authorized_keys = a->auth_dir;
	}
	a->d = lst_daemon_new(&o, &err);
	explicit_bzero(&a->kp, sizeof(a->kp));
	if (!a->d) {
		lst_log_error("%s", err.msg);
		return 1;
	}
	if (lst_dev_policy_read_only(a->policy))
		lst_log_info("read-only: every write and purge is refused");
	else if (!cfg->allow_write.n)
		lst_log_info("allow_write is empty: every write and purge is refused");
	for (size_t i = 0; i < cfg->allow_write.n; i++)
		lst_log_info("allow_write: %s", cfg->allow_write.v[i]);
	for (size_t i = 0; i < cfg->hooks.n; i++)
		lst_log_info("hook %s: %s (%zu arguments)", cfg->hooks.v[i].name,
			     cfg->hooks.v[i].argv[0], cfg->hooks.v[i].argc - 1);
	for (size_t i = 0; i < cfg->collectors.n; i++)
		lst_log_info("collector %s: %s (%zu arguments)", cfg->collectors.v[i].name,
			     cfg->collectors.v[i].argv[0], cfg->collectors.v[i].argc - 1);
	lst_daemonize_notify(a->notify, 0);
	a->notify = -1;
	rc = lst_daemon_run(a->d) ? 1 : 0;
	lst_log_info("exiting (%d)", rc);
	return rc;
}

static void s_agent_exit(struct s_agent *a)
{
	size_t left = lst_hook_tree_end_all(); /* hooks still running, and what they started */

	if (left)
		lst_log_info("exiting: ended %zu processes that hooks had started", left);
	lst_daemonize_notify(a->notify, 1);
	lst_daemon_destroy(&a->d);
	if (a->pidfile)
		lst_pidfile_remove(a->pidfile);
	free(a->pidfile);
	free(a->log);
	free(a->key_file);
	free(a->auth_dir);
	explicit_bzero(&a->kp, sizeof(a->kp));
	lst_dev_policy_destroy(&a->policy);
	lst_config_destroy(&a->flags);
	lst_config_destroy(&a->cfg);
	lst_log_close();
}

int lst_agent_config_policy(const char *path, lst_dev_policy *p, lst_err *err)
{
	lst_config *cfg = lst_config_new();
	int rc = lst_config_load(cfg, path, err);

	if (!rc)
		rc = lst_config_policy(cfg, p, err);
	lst_config_destroy(&cfg);
	return rc;
}

/* The daemon: exit 2 for a bad command line or config, 1 for a failure to start or serve. */
int lst_agent_main(int argc, char **argv)
{
	struct s_agent a = { .notify = -1 };
	int rc;

	a.cfg = lst_config_new();
	a.flags = lst_config_new();
	a.policy = lst_dev_policy_new();
	rc = s_parse_flags(argc, argv, a.flags, &a.cli);
	if (rc)
		rc = rc > 0 ? 0 : 2;
	else if (s_apply(&a))
		rc = 2;
	else if (s_start(&a))
		rc = 1;
	else
		rc = s_serve(&a);
	s_agent_exit(&a);
	return rc;
}

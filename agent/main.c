/*
 * lockstep-agent: the agent command. `lockstep-agent bench ...` runs one workload here; with no
 * subcommand it is the daemon a coordinator drives. This file only turns flags and the config
 * file into settings, daemonizes, and hands over to lst_daemon.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lst_auth.h"
#include "lst_bench.h"
#include "lst_config.h"
#include "lst_daemon.h"
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

/* Parse the command line into flags and act on --help, --version and --write-doc. Returns 0 to
 * go on, 1 when the program should exit 0, or -EINVAL after printing the problem. */
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
	if (cli->write_doc) {
		if (lst_config_write_doc(cli->write_doc, &err)) {
			fprintf(stderr, "lockstep-agent: %s\n", err.msg);
			return -EINVAL;
		}
		return 1;
	}
	return 0;
}

/*
 * Detach: fork, setsid, chdir /, stdio to /dev/null. The parent waits on a pipe until the
 * daemon reports that it is listening (byte 0) or failed (byte 1), and exits with that status,
 * so `lockstep-agent` run by hand or by a script still says whether the agent started.
 * Returns the write end of the pipe in the daemon, or -errno.
 */
static int s_daemonize(const char *log)
{
	int p[2], fd;
	pid_t pid;
	char status = 1;

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid > 0) {
		close(p[1]);
		if (read(p[0], &status, 1) != 1)
			status = 1;
		if (status)
			fprintf(stderr, "lockstep-agent: the daemon failed to start; see %s\n",
				log);
		_exit(status);
	}
	close(p[0]);
	if (setsid() < 0)
		return -errno;
	if (chdir("/"))
		return -errno;
	umask(022);
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		if (fd > STDERR_FILENO)
			close(fd);
	}
	return p[1];
}

static int s_write_pidfile(const char *path)
{
	char buf[32];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int rc, n;

	if (fd < 0)
		return -errno;
	n = snprintf(buf, sizeof(buf), "%d\n", (int)getpid());
	rc = lst_write_all(fd, buf, (size_t)n);
	close(fd);
	return rc;
}

/* Remove the pidfile only if it still names this process. */
static void s_remove_pidfile(const char *path)
{
	char *text = NULL;
	size_t len;

	if (!lst_read_file(path, 64, &text, &len) && atoi(text) == (int)getpid())
		unlink(path);
	free(text);
}

static void s_notify(int fd, char status)
{
	if (fd >= 0) {
		if (write(fd, &status, 1) != 1)
			lst_log_warn("cannot report start-up to the parent: %s", strerror(errno));
		close(fd);
	}
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

static int s_daemon_main(int argc, char **argv)
{
	lst_config *cfg = lst_config_new(), *flags = lst_config_new();
	lst_dev_policy *policy = lst_dev_policy_new();
	struct lst_daemon_opts o;
	lst_daemon *d = NULL;
	struct lst_config_cli cli;
	const char *listen;
	struct lst_keypair kp;
	char host[256], *log = NULL, *pidfile = NULL, *key_file = NULL, *auth_dir = NULL;
	int rc = 2, notify = -1;
	lst_err err;

	rc = s_parse_flags(argc, argv, flags, &cli);
	if (rc) {
		rc = rc > 0 ? 0 : 2;
		goto out;
	}
	rc = 2;
	if (cli.config && lst_config_load(cfg, cli.config, &err)) {
		fprintf(stderr, "lockstep-agent: %s\n", err.msg);
		goto out;
	}
	lst_config_override(cfg, flags);
	for (size_t i = 0; i < cfg->nallow; i++) {
		if (lst_dev_policy_allow(policy, cfg->allow_write[i])) {
			fprintf(stderr, "lockstep-agent: allow_write: '%s' is not a usable glob\n",
				cfg->allow_write[i]);
			goto out;
		}
	}
	lst_dev_policy_set_read_only(policy, cfg->read_only);
	memset(&kp, 0, sizeof(kp));
	listen = cfg->listen ? cfg->listen : LST_CONFIG_DEFAULT_LISTEN;
	if (s_security(cfg, listen, &kp, &key_file, &auth_dir))
		goto out;
	if (cfg->debug)
		lst_log_set_debug(cfg->debug, NULL); /* checked by lst_config_set */
	if (cli.verbose)
		lst_log_set_level(LST_LOG_DEBUG);
	if (!cfg->name && gethostname(host, sizeof(host)))
		snprintf(host, sizeof(host), "agent");
	host[sizeof(host) - 1] = '\0';
	if (cfg->log)
		log = s_absolute(cfg->log);
	else if (!cfg->foreground)
		log = lst_strdup(LST_CONFIG_DEFAULT_LOG);
	if (cfg->pidfile)
		pidfile = s_absolute(cfg->pidfile);

	/* From here on, failures are run-time failures: exit 1. */
	rc = 1;
	lst_log_set_timestamps(true);
	if (log && (rc = lst_log_open(log))) {
		fprintf(stderr, "lockstep-agent: cannot open the log %s: %s\n", log, strerror(-rc));
		rc = 1;
		goto out;
	}
	rc = 1;
	if (!cfg->foreground) {
		notify = s_daemonize(log);
		if (notify < 0) {
			lst_log_error("cannot daemonize: %s", strerror(-notify));
			goto out;
		}
	}
	if (pidfile && (rc = s_write_pidfile(pidfile))) {
		lst_log_error("cannot write the pidfile %s: %s", pidfile, strerror(-rc));
		rc = 1;
		free(pidfile);
		pidfile = NULL;
		goto out;
	}
	memset(&o, 0, sizeof(o));
	o.listen = listen;
	o.name = cfg->name ? cfg->name : host;
	o.lease_max = cfg->lease_max;
	o.mem_max = cfg->mem_max;
	o.policy = policy;
	o.log_path = log;
	if (cfg->key) {
		o.curve_secret = kp.secret;
		o.curve_public = kp.pub;
		o.key_file = key_file;
		o.authorized_keys = auth_dir;
	}
	d = lst_daemon_new(&o, &err);
	explicit_bzero(&kp, sizeof(kp));
	if (!d) {
		lst_log_error("%s", err.msg);
		rc = 1;
		goto out;
	}
	if (lst_dev_policy_read_only(policy))
		lst_log_info("read-only: every write and purge is refused");
	else if (!cfg->nallow)
		lst_log_info("allow_write is empty: every write and purge is refused");
	for (size_t i = 0; i < cfg->nallow; i++)
		lst_log_info("allow_write: %s", cfg->allow_write[i]);
	s_notify(notify, 0);
	notify = -1;
	rc = lst_daemon_run(d) ? 1 : 0;
	lst_log_info("exiting (%d)", rc);
out:
	s_notify(notify, 1);
	lst_daemon_destroy(&d);
	if (pidfile)
		s_remove_pidfile(pidfile);
	free(pidfile);
	free(log);
	free(key_file);
	free(auth_dir);
	explicit_bzero(&kp, sizeof(kp));
	lst_dev_policy_destroy(&policy);
	lst_config_destroy(&flags);
	lst_config_destroy(&cfg);
	lst_log_close();
	return rc;
}

int main(int argc, char **argv)
{
	lst_log_set_ident("lockstep-agent");
	if (argc >= 2 && !strcmp(argv[1], "bench"))
		return lst_bench_main(argc - 1, argv + 1);
	return s_daemon_main(argc, argv);
}

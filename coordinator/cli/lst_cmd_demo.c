/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep demo`: lockstep's main job on an embedded default, with nothing to set up.
 *
 * It starts two agents on loopback (real lockstep-agent processes, each allowed to write only
 * the scratch target), makes a scratch target (as root: two loop devices over one file in
 * /dev/shm, the two ports of one "dual-port drive"; otherwise a plain file both agents share),
 * runs a short plan through the same coordinator as `lockstep run`, prints the summary and
 * leaves a results folder. Everything it made is removed at the end, also on Ctrl-C.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <jansson.h>
#include <libgen.h>
#include <linux/loop.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lst_cli.h"
#include "lst_cli_results.h"
#include "lst_coord.h"
#include "lst_inventory.h"
#include "lst_log.h"
#include "lst_plan.h"
#include "lst_proc.h"
#include "lst_time.h"
#include "lst_util.h"

#define S_SCRATCH_SIZE (512ull << 20)

static const char s_plan[] =
	"# lockstep demo plan: two agents drive one target, as two hosts drive the ports of a\n"
	"# dual-port SAS drive; host a reaches it through two paths (two HBAs), host b through\n"
	"# one. Each path gets its own slice of the LBA range (share: split), so no two paths\n"
	"# overwrite each other's blocks, and each path gets its own rows in the results.\n"
	"lockstep: 1\n"
	"name: demo\n"
	"description: \"lockstep demo: two local agents, one scratch target, a short plan\"\n"
	"agents:\n"
	"  - {name: a, address: \"tcp://127.0.0.1:%d\"}\n"
	"  - {name: b, address: \"tcp://127.0.0.1:%d\"}\n"
	"targets:\n"
	"  - name: scratch\n"
	"    paths: {a: %s, b: \"%s\"}\n"
	"defaults: {interval: 500ms}\n"
	"phases:\n"
	"  - name: seq-write\n"
	"    workload: {rw: write, bs: 128k, iodepth: 8}\n"
	"    stop: {runtime: 4s}\n"
	"  - name: randrw-70-30\n"
	"    workload: {rw: randrw, rwmixread: 70, bs: 4k}\n"
	"    sweep: {iodepth: [1, 4, 16]}\n"
	"    round: {ramp: 500ms, duration: 3s}\n"
	"  - name: randread\n"
	"    workload: {rw: randread, bs: 4k, iodepth: 16, jobs: 2, runtime: 4s}\n"
	"  - name: ports\n"
	"    # one path, then host a's paths, then every path: the report prints the scaling\n"
	"    workload: {rw: read, bs: 128k, iodepth: 8, runtime: 2s}\n"
	"    sweep: {ports: [[b], [a], [a, b]]}\n";

struct s_demo {
	char tmp[64];	   /* scratch folder for the plan and agent logs */
	char file[128];	   /* backing file */
	char paths[3][64]; /* a's two paths, then b's (as root: three loops over one file) */
	bool loops;	   /* paths are loop devices (else all three are the file) */
	int loop_fd[3];	   /* held open; the loop devices clear themselves on close */
	pid_t agents[2];
	int ports[2];
};

static const struct lst_flag s_own[] = {
	{ .opt = { .name = "output",
		   .ops = &lst_flag_string,
		   .offset = offsetof(struct lst_cli_flags, out),
		   .help = "results folder (default results/demo-DATE-TIME)" },
	  .letter = 'o',
	  .arg = "DIR",
	  .complete = LST_FLAG_DIR },
	{ .opt = { .name = NULL } },
};

static const struct lst_flag *const s_groups[] = { s_own, lst_cli_quiet_flags,
						   lst_cli_metrics_flags, NULL };

const struct lst_flag_cmd lst_cmd_demo_flags = {
	.name = "lockstep demo",
	.groups = s_groups,
	.about =
		"Run lockstep's main job on an embedded default, with nothing to set up: start two\n"
		"agents on 127.0.0.1, make a scratch target (as root three loop devices over one file\n"
		"in /dev/shm, like the ports of a dual-port drive: agent a reaches it through two\n"
		"of them, agent b through the third; otherwise a plain file), show how the agents'\n"
		"devices group by drive (as `lockstep inventory` does), run a short plan (sequential\n"
		"write, a 70/30 random sweep over queue depth, random read, and a sequential read\n"
		"through one, two and three paths), print the summary as 'lockstep run' does (each\n"
		"agent's and path's rows under each point, and the port scaling), and leave a\n"
		"results folder.\n"
		"Everything else it made is removed at the end. 'make demo' runs this.\n",
	.more = "Example:\n"
		"  lockstep demo -o /tmp/demo && lockstep report /tmp/demo\n",
};

static int s_free_port(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), port = -1;

	if (fd < 0)
		return -1;
	if (!bind(fd, (struct sockaddr *)&sa, sizeof(sa)) &&
	    !getsockname(fd, (struct sockaddr *)&sa, &len))
		port = ntohs(sa.sin_port);
	close(fd);
	return port;
}

/* Attach a loop device over fd, cleared automatically when its last user closes it. */
static int s_loop_attach(int file_fd, char *path, size_t size)
{
	struct loop_info64 info;
	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC), n, fd;

	if (ctl < 0)
		return -errno;
	n = ioctl(ctl, LOOP_CTL_GET_FREE);
	close(ctl);
	if (n < 0)
		return -errno;
	snprintf(path, size, "/dev/loop%d", n);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, LOOP_SET_FD, file_fd)) {
		int rc = -errno;

		close(fd);
		return rc;
	}
	memset(&info, 0, sizeof(info));
	info.lo_flags = LO_FLAGS_AUTOCLEAR;
	ioctl(fd, LOOP_SET_STATUS64, &info);
	return fd;
}

static int s_scratch(struct s_demo *d, lst_err *err)
{
	bool root = geteuid() == 0;
	int fd;

	snprintf(d->file, sizeof(d->file), "%s/lockstep-demo.XXXXXX",
		 root && !access("/dev/shm", W_OK) ? "/dev/shm" : d->tmp);
	fd = mkstemp(d->file);
	if (fd < 0)
		return lst_err_sys(err, -errno, "cannot create a scratch file in %s", d->file);
	if (ftruncate(fd, (off_t)S_SCRATCH_SIZE)) {
		close(fd);
		return lst_err_sys(err, -errno, "cannot size %s", d->file);
	}
	if (root) {
		for (int i = 0; i < 3; i++) {
			d->loop_fd[i] = s_loop_attach(fd, d->paths[i], sizeof(d->paths[i]));
			if (d->loop_fd[i] < 0) {
				lst_log_warn(
					"cannot attach a loop device (%s); using the file itself",
					strerror(-d->loop_fd[i]));
				root = false;
				break;
			}
		}
	}
	d->loops = root;
	if (!root)
		for (int i = 0; i < 3; i++)
			snprintf(d->paths[i], sizeof(d->paths[i]), "%s", d->file);
	close(fd);
	return 0;
}

static int s_start_agent(struct s_demo *d, int i, const char *agent_bin, lst_err *err)
{
	char listen[64], log[128], name[2] = { (char)('a' + i), 0 };
	/* a drives paths 0 and 1, b path 2 */
	const char *const argv[] = { agent_bin,
				     "--foreground",
				     "--listen",
				     listen,
				     "--name",
				     name,
				     "--allow-write",
				     d->paths[2 * i],
				     "--allow-write",
				     d->paths[1 + i],
				     "--log",
				     log,
				     NULL };
	pid_t pid;

	/* The kernel may offer agent a's port again before agent a has bound it. */
	do
		d->ports[i] = s_free_port();
	/* cppcheck-suppress arrayIndexOutOfBoundsCond ; i is 0 or 1, the two agents main starts */
	while (i > 0 && d->ports[i] == d->ports[0]);
	if (d->ports[i] < 0)
		return lst_err_sys(err, -errno, "cannot find a free port on 127.0.0.1");
	snprintf(listen, sizeof(listen), "tcp://127.0.0.1:%d", d->ports[i]);
	snprintf(log, sizeof(log), "%s/agent-%s.log", d->tmp, name);
	pid = lst_proc_spawn(argv);
	if (pid < 0)
		return lst_err_sys(err, (int)pid, "cannot start %s", agent_bin);
	d->agents[i] = pid;
	return 0;
}

static void s_cleanup(struct s_demo *d, const char *results)
{
	for (int i = 0; i < 2; i++) {
		if (d->agents[i] > 0)
			lst_proc_stop(d->agents[i]);
	}
	for (int i = 0; i < 2; i++) {
		char from[128], to[512];

		snprintf(from, sizeof(from), "%s/agent-%c.log", d->tmp, 'a' + i);
		if (results) /* never a NULL for %s */
			snprintf(to, sizeof(to), "%s/agent-%c.log", results, 'a' + i);
		if (!results || rename(from, to))
			unlink(from);
	}
	for (int i = 0; i < 3; i++)
		if (d->loop_fd[i] > 0)
			close(d->loop_fd[i]);
	if (d->file[0])
		unlink(d->file);
	{
		char plan[128];

		snprintf(plan, sizeof(plan), "%s/demo.yaml", d->tmp);
		unlink(plan);
	}
	rmdir(d->tmp);
}

/*
 * What `lockstep inventory` finds on the demo's agents: their devices grouped by drive. Prints
 * the drive the demo made (reached by a through two paths and by b through one) and returns
 * the agents' inventory (for inventory.json), or NULL when it cannot be had (said).
 */
static json_t *s_inventory(const struct s_demo *d)
{
	struct lst_coord_agent agents[2] = { { "a", NULL, NULL }, { "b", NULL, NULL } };
	char addr[2][64];
	json_t *inv = NULL, *drives, *g;
	size_t i;

	for (int k = 0; k < 2; k++) {
		snprintf(addr[k], sizeof(addr[k]), "tcp://127.0.0.1:%d", d->ports[k]);
		agents[k].address = addr[k];
	}
	if (lst_inventory_collect(agents, 2, NULL, &inv) || !inv) {
		lst_log_warn("the agents' inventory could not be had; going on without it");
		json_decref(inv);
		return NULL;
	}
	drives = lst_inventory_group(inv);
	json_array_foreach (drives, i, g) {
		const char *id = json_string_value(json_object_get(g, "identity"));
		json_t *paths = json_object_get(g, "paths"), *p, *mine;
		size_t k;

		if (!id || !strstr(id, d->file))
			continue;
		/* Both agents run here and see every device: show what each may write. */
		mine = json_array();
		json_array_foreach (paths, k, p)
			if (json_is_true(json_object_get(p, "allow_write")))
				json_array_append(mine, p);
		printf("inventory: drive %s is reached by", id);
		json_array_foreach (mine, k, p)
			printf("%s %s as %s",
			       k ? (k + 1 == json_array_size(mine) ? " and" : ",") : "",
			       json_string_value(json_object_get(p, "agent")),
			       json_string_value(json_object_get(p, "path")));
		printf("\n           (the paths each agent may write; both see all %zu, being on "
		       "one machine)\n",
		       json_array_size(paths) / 2);
		json_decref(mine);
	}
	json_decref(drives);
	return inv;
}

/* Wait until both agents accept connections (they bind within milliseconds). */
static bool s_agents_up(struct s_demo *d)
{
	for (int tries = 0; tries < 100; tries++) {
		int up = 0;

		for (int i = 0; i < 2; i++) {
			struct sockaddr_in sa = { .sin_family = AF_INET,
						  .sin_port = htons((uint16_t)d->ports[i]),
						  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
			int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

			if (fd >= 0 && !connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
				up++;
			if (fd >= 0)
				close(fd);
			if (waitpid(d->agents[i], NULL, WNOHANG) == d->agents[i]) {
				d->agents[i] = 0;
				return false;
			}
		}
		if (up == 2)
			return true;
		lst_sleep_ns(50 * LST_NS_PER_MS);
	}
	return false;
}

/* lockstep-agent next to our own binary, into bin. Returns 0, or 2 when it is not there (said). */
static int s_agent_binary(char *bin, size_t size)
{
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0) {
		fprintf(stderr, "lockstep demo: cannot find my own binary\n");
		return 2;
	}
	self[n] = '\0';
	snprintf(bin, size, "%s/lockstep-agent", dirname(self));
	if (access(bin, X_OK)) {
		fprintf(stderr, "lockstep demo: %s not found next to lockstep; build it first\n",
			bin);
		return 2;
	}
	return 0;
}

/* The demo plan for d's agents and paths, written to d's folder and loaded. NULL with err. */
static lst_plan *s_demo_plan(const struct s_demo *d, lst_err *err)
{
	char *apaths = d->loops ? lst_asprintf("[\"%s\", \"%s\"]", d->paths[0], d->paths[1])
				: lst_asprintf("\"%s\"", d->paths[0]);
	char *text = lst_asprintf(s_plan, d->ports[0], d->ports[1], apaths, d->paths[2]);
	char planfile[128];
	lst_errlist errs = { 0 };
	lst_plan *plan;
	int fd;

	snprintf(planfile, sizeof(planfile), "%s/demo.yaml", d->tmp);
	fd = open(planfile, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || lst_write_all(fd, text, strlen(text))) {
		lst_err_sys(err, -errno, "cannot write %s", planfile);
		if (fd >= 0)
			close(fd);
		free(text);
		free(apaths);
		return NULL;
	}
	close(fd);
	free(text);
	free(apaths);
	plan = lst_plan_load(planfile, &errs);
	if (!plan) {
		lst_errlist_print(&errs, stderr);
		lst_errlist_free(&errs);
		lst_err_set(err, -EINVAL, "the embedded demo plan does not parse (a bug)");
	}
	return plan;
}

int lst_cmd_demo(int argc, char **argv)
{
	struct lst_coord_opts opts = { 0 };
	struct lst_cli_flags fl = { 0 };
	struct s_demo d;
	char agent_bin[4200], *outdir = NULL;
	lst_plan *plan = NULL;
	lst_coord *c = NULL;
	lst_folder_lock *lock = NULL; /* the results folder's: demo writes it as run does */
	json_t *inventory = NULL;
	lst_err err;
	int first, rc;

	lst_cli_line_buffered(); /* `make demo | tee log`: whole lines, in order */
	if ((rc = lst_cli_parse(&lst_cmd_demo_flags, argc, argv, &fl, &first)) >= 0)
		return rc;
	if (first != argc) {
		fprintf(stderr,
			"lockstep demo: unexpected argument '%s' (see 'lockstep demo --help')\n",
			argv[first]);
		return 2;
	}
	lst_cli_coord_opts(&fl, &opts);
	rc = 2;
	memset(&d, 0, sizeof(d));
	if (s_agent_binary(agent_bin, sizeof(agent_bin)))
		return 2;
	snprintf(d.tmp, sizeof(d.tmp), "/tmp/lockstep-demo.XXXXXX");
	if (!mkdtemp(d.tmp)) {
		perror("lockstep demo: mkdtemp");
		return 2;
	}
	lst_coord_handle_signals();
	if (s_scratch(&d, &err) || s_start_agent(&d, 0, agent_bin, &err) ||
	    s_start_agent(&d, 1, agent_bin, &err))
		goto fail;
	if (!s_agents_up(&d)) {
		lst_err_set(&err, -EIO, "the demo agents did not start; see %s/agent-*.log", d.tmp);
		goto fail;
	}
	if (!(plan = s_demo_plan(&d, &err)))
		goto fail;
	if (!opts.quiet)
		inventory = s_inventory(&d);
	if (!opts.quiet)
		printf("lockstep demo: two agents on 127.0.0.1:%d and :%d, target %s%s%s%s%s\n",
		       d.ports[0], d.ports[1], d.paths[0], d.loops ? " + " : "",
		       d.loops ? d.paths[1] : "", d.loops ? " + " : "", d.loops ? d.paths[2] : "");
	fflush(stdout);
	if (!opts.outdir) {
		char stamp[32];
		time_t now = time(NULL);
		struct tm tm;

		localtime_r(&now, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
		outdir = lst_asprintf("results/demo-%s", stamp);
		opts.outdir = outdir;
	}
	c = lst_coord_new(plan, &opts, &err);
	if (!c || !(lock = lst_folder_lock_take(opts.outdir, "demo", &err)))
		goto fail;
	rc = lst_coord_run(c);
	lst_cli_print_summary(stdout, opts.outdir); /* with the port scaling of its ports phase */
	if (inventory) {
		char *file = lst_asprintf("%s/inventory.json", opts.outdir);

		json_dump_file(inventory, file, JSON_INDENT(2));
		free(file);
	}
	printf("\nresults: %s (run.json, summary.csv and .json, timeseries.csv, curves.csv, "
	       "devstats.csv, clock.csv, inventory.json, samples/, plots/)\n",
	       opts.outdir);
	s_cleanup(&d, opts.outdir);
	goto out;
fail:
	fprintf(stderr, "lockstep demo: %s\n", err.msg);
	s_cleanup(&d, NULL);
out:
	lst_coord_destroy(&c);
	lst_cli_unlock_dir(&lock, opts.outdir);
	lst_plan_destroy(&plan);
	json_decref(inventory);
	free(outdir);
	return rc;
}

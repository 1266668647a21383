/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep inventory ADDR... | PLAN.yaml`: every agent's block devices (lst_inventory_collect
 * asks them), a table per agent, then the devices grouped by drive across all agents, so the
 * engineer sees which names on which hosts are one drive through different ports. Writes the
 * whole as JSON (docs/inventory.md); --targets prints a plan's `targets:` section instead, one
 * target per drive reached through two or more paths.
 * The grouping is lst_inventory_group's.
 */
#include <stddef.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_cli.h"
#include "lst_inventory.h"
#include "lst_plan.h"
#include "lst_util.h"

struct s_flags {
	struct lst_cli_flags c; /* first: the shared groups store into it */
	int64_t targets;
};

static const struct lst_flag s_own[] = {
	{ .opt = { .name = "output",
		   .ops = &lst_flag_string,
		   .offset = offsetof(struct s_flags, c.out),
		   .def = "inventory.json",
		   .help = "write the inventory as JSON to FILE, in the current folder unless a "
			   "path; '-' for none. Fields: docs/inventory.md" },
	  .letter = 'o',
	  .arg = "FILE",
	  .complete = LST_FLAG_FILE },
	{ .opt = { .name = "targets",
		   .type = LST_OPT_BOOL,
		   .offset = offsetof(struct s_flags, targets),
		   .help = "print only a plan's 'targets:' section (YAML): one target per drive "
			   "seen through two or more paths, with its identity and 'share: split'; "
			   "paste it into a plan and 'lockstep validate' it" } },
	{ .opt = { .name = NULL } },
};

static const struct lst_flag *const s_groups[] = { s_own, lst_cli_key_flags, NULL };

const struct lst_flag_cmd lst_cmd_inventory_flags = {
	.name = "lockstep inventory",
	.operands = "ADDRESS[=KEY]... | PLAN.yaml",
	.operand = LST_FLAG_PLAN,
	.groups = s_groups,
	.about =
		"Ask each agent for its block devices (whole disks; loop devices with nothing\n"
		"attached are left out) and show, per agent: name, transport (sas, sata, nvme,\n"
		"loop, virtio, usb, scsi), size, WWN or loop backing file, the port it is reached\n"
		"through (SAS target port address; NVMe controller), whether it is in use (mounted,\n"
		"swap, holders: the agent's disk-safety rules) and whether the agent's allow_write\n"
		"lets a run write it. Then the devices of all agents grouped by drive:\n"
		"\n"
		"  drive naa.5000c500a1b2c3d4 is reached by a as /dev/sdb (port 0x5000c500a1b2c3d5)\n"
		"    and by b as /dev/sdc (port 0x5000c500a1b2c3d6)\n"
		"\n"
		"Devices are one drive when they share a WWN (else a serial); loop devices when\n"
		"they are over the same backing file. An address is tcp://HOST:PORT or\n"
		"HOST[:PORT] (port 7270 by default); with a plan, its agents and their keys.\n"
		"ADDRESS=KEY reaches that agent over CURVE; KEY is its public key: a file (its\n"
		"NAME.pub) or the 40-character Z85 text.\n",
	.more = "An agent that cannot be reached, refuses our key or is busy with another\n"
		"coordinator's run is listed with the reason; the others are still shown.\n"
		"\n"
		"Exit status: 0 every agent answered, 1 some did not, 2 usage, keys or the JSON\n"
		"file.\n"
		"\n"
		"Example: the targets of a dual-port drive seen from two hosts, for a plan:\n"
		"  lockstep inventory --targets -o - hosta hostb\n",
};

/* --- printing --------------------------------------------------------------------------------- */

static const char *s_str(json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	return v && v[0] ? v : "-";
}

/* One agent's table. */
static void s_print_agent(json_t *e, FILE *out)
{
	json_t *d;
	size_t k;

	fprintf(out, "agent %s (%s)", s_str(e, "agent"), s_str(e, "address"));
	if (json_object_get(e, "error")) {
		fprintf(out, ": %s\n\n", s_str(e, "error"));
		return;
	}
	fprintf(out, ", host %s\n", s_str(e, "host"));
	fprintf(out, "  %-12s %-9s %10s  %-34s %-20s %-5s %s\n", "NAME", "TRANSPORT", "SIZE_GB",
		"WWN / BACKING FILE", "PORT", "WRITE", "IN USE");
	json_array_foreach (json_object_get(e, "devices"), k, d) {
		const char *back = json_string_value(json_object_get(d, "backing_file"));

		fprintf(out, "  %-12s %-9s %10.1f  %-34s %-20s %-5s %s\n", s_str(d, "name"),
			s_str(d, "transport"),
			(double)json_integer_value(json_object_get(d, "size")) / 1e9,
			back && back[0] ? back : s_str(d, "wwn"), s_str(d, "port"),
			json_is_true(json_object_get(d, "allow_write")) ? "yes" : "no",
			json_is_true(json_object_get(d, "in_use")) ? s_str(d, "why") : "no");
	}
	fputc('\n', out);
}

/* "drive X is reached by a as /dev/sdb (port P) and by b as /dev/sdc (port Q)". */
static void s_print_drive(json_t *drive, FILE *out)
{
	json_t *p;
	size_t k;

	fprintf(out, "drive %s is reached", s_str(drive, "identity"));
	json_array_foreach (json_object_get(drive, "paths"), k, p) {
		fprintf(out, "%s by %s as %s", k ? " and" : "", s_str(p, "agent"),
			s_str(p, "node"));
		if (json_string_length(json_object_get(p, "port")))
			fprintf(out, " (port %s)", s_str(p, "port"));
		if (json_is_true(json_object_get(p, "in_use")))
			fprintf(out, " [in use %s]", s_str(p, "why"));
	}
	fputc('\n', out);
}

static void s_print(json_t *doc, FILE *out)
{
	json_t *e, *drive;
	size_t i, shared = 0;

	json_array_foreach (json_object_get(doc, "agents"), i, e)
		s_print_agent(e, out);
	json_array_foreach (json_object_get(doc, "drives"), i, drive) {
		if (json_array_size(json_object_get(drive, "paths")) < 2)
			continue;
		s_print_drive(drive, out);
		shared++;
	}
	if (!shared)
		fprintf(out, "no drive is reached through two or more paths\n");
}

/* Agent's paths to a drive (its group's paths) as a plan writes them: one, or a list. */
static void s_print_agent_paths(json_t *paths, const char *agent, FILE *out)
{
	json_t *p;
	size_t k, n = 0, busy = 0;

	json_array_foreach (paths, k, p)
		if (!strcmp(s_str(p, "agent"), agent)) {
			n++;
			busy += json_is_true(json_object_get(p, "in_use"));
		}
	fprintf(out, "      %s: %s", agent, n > 1 ? "[" : "");
	n = 0;
	json_array_foreach (paths, k, p) {
		char *q;

		if (strcmp(s_str(p, "agent"), agent))
			continue;
		q = json_dumps(json_object_get(p, "path"), JSON_ENCODE_ANY);
		fprintf(out, "%s%s", n++ ? ", " : "", q ? q : "\"\"");
		free(q);
	}
	fprintf(out, "%s%s\n", n > 1 ? "]" : "", busy ? "   # in use" : "");
}

/*
 * The `targets:` section: one target per drive with two or more paths, each agent with its
 * path, or its list of paths when it reaches the drive through several.
 */
static void s_print_targets(json_t *doc, FILE *out)
{
	json_t *drive, *p;
	size_t i, k, n = 0;

	fprintf(out, "targets:\n");
	json_array_foreach (json_object_get(doc, "drives"), i, drive) {
		json_t *seen = json_object(), *paths = json_object_get(drive, "paths");

		if (json_array_size(paths) < 2 ||
		    !json_string_length(json_object_get(drive, "identity"))) {
			json_decref(seen);
			continue;
		}
		fprintf(out,
			"  - name: drive%zu\n    identity: \"%s\"\n    share: split\n"
			"    paths:\n",
			++n, s_str(drive, "identity"));
		json_array_foreach (paths, k, p) {
			const char *agent = s_str(p, "agent");

			if (!json_object_get(seen, agent))
				s_print_agent_paths(paths, agent, out);
			json_object_set_new(seen, agent, json_true());
		}
		json_decref(seen);
	}
	if (!n)
		fprintf(out, "  []  # no drive is reached through two or more paths\n");
}

/* --- the command ------------------------------------------------------------------------------ */

struct s_args {
	struct s_flags fl;
	struct lst_coord_opts sec;
	struct lst_coord_agent *agents;
	char **owned;
	size_t n;
	lst_plan *plan;
};

/* Options and agents. Returns -1 to go on, else the exit code. */
static int s_parse(struct s_args *a, int argc, char **argv)
{
	int first, rc;

	if ((rc = lst_cli_parse(&lst_cmd_inventory_flags, argc, argv, &a->fl, &first)) >= 0)
		return rc;
	lst_cli_coord_opts(&a->fl.c, &a->sec);
	a->agents = lst_calloc((size_t)argc, sizeof(*a->agents));
	a->owned = lst_calloc((size_t)argc, sizeof(*a->owned));
	for (int i = first; i < argc; i++) {
		size_t len = strlen(argv[i]);

		if (len > 5 &&
		    (!strcmp(argv[i] + len - 5, ".yaml") || !strcmp(argv[i] + len - 4, ".yml"))) {
			if ((rc = lst_cli_add_plan_agents("inventory", argv[i], &a->plan,
							  &a->agents, &a->n, (size_t)argc)))
				return rc;
			continue;
		}
		a->owned[i] = lst_cli_agent_from_address(argv[i], &a->agents[a->n++]);
	}
	if (!a->n) {
		fprintf(stderr, "lockstep inventory: which agents? give addresses (HOST[:PORT]) or "
				"a PLAN.yaml (see 'lockstep inventory --help')\n");
		return 2;
	}
	return -1;
}

static int s_write_json(json_t *doc, const char *path)
{
	if (!strcmp(path, "-"))
		return 0;
	if (json_dump_file(doc, path, JSON_INDENT(2) | JSON_SORT_KEYS)) {
		fprintf(stderr, "lockstep inventory: cannot write %s\n", path);
		return 2;
	}
	return 0;
}

int lst_cmd_inventory(int argc, char **argv)
{
	struct s_args a = { 0 };
	json_t *agents = NULL, *doc;
	int rc, wrc;

	if ((rc = s_parse(&a, argc, argv)) >= 0)
		goto out;
	lst_coord_handle_signals();
	rc = lst_inventory_collect(a.agents, a.n, &a.sec, &agents);
	if (!agents)
		goto out;
	doc = json_pack("{s:o, s:o}", "agents", agents, "drives", lst_inventory_group(agents));
	if (a.fl.targets)
		s_print_targets(doc, stdout);
	else
		s_print(doc, stdout);
	for (size_t i = 0; i < json_array_size(agents); i++)
		if (json_object_get(json_array_get(agents, i), "error"))
			fprintf(stderr, "lockstep inventory: agent %s: %s\n",
				s_str(json_array_get(agents, i), "agent"),
				s_str(json_array_get(agents, i), "error"));
	if ((wrc = s_write_json(doc, a.fl.c.out)))
		rc = wrc;
	json_decref(doc);
out:
	for (int i = 0; i < argc && a.owned; i++)
		free(a.owned[i]);
	free(a.owned);
	free(a.agents);
	lst_plan_destroy(&a.plan);
	return rc;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Plans (lst_plan.h): the public entry points. Loading reads the file with a size cap and hands
 * the text to the reader (lst_plan_read.c), which fills the plan from the schema tables
 * (lst_plan_schema.c) and runs the checks across keys (lst_plan_check.c); a plan with any
 * problem is freed here and never returned. What a read plan answers (points, roles, indexes)
 * is in lst_plan_query.c, below the reader and the checks that ask it too.
 */
#include "lst_plan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lst_plan_int.h"
#include "lst_file.h"
#include "lst_util.h"

#define S_MAX_FILE (16u << 20)

/* The plan's folder as an absolute path, for relative key files; the file need not exist. */
static char *s_dir_of(const char *file)
{
	const char *slash = strrchr(file, '/');
	char *dir, *cwd, *abs;
	const char *d;

	if (!slash)
		dir = lst_strdup(".");
	else if (slash == file)
		dir = lst_strdup("/");
	else
		dir = lst_asprintf("%.*s", (int)(slash - file), file);
	if (dir[0] == '/')
		return dir;
	cwd = getcwd(NULL, 0);
	if (!cwd)
		return dir;
	d = dir;
	while (d[0] == '.' && (d[1] == '/' || d[1] == '\0'))
		d += d[1] ? 2 : 1;
	abs = *d ? lst_asprintf("%s/%s", cwd, d) : lst_strdup(cwd);
	free(cwd);
	free(dir);
	return abs;
}

lst_plan *lst_plan_parse(const char *text, size_t len, const char *name, lst_errlist *errs)
{
	lst_plan *p = lst_calloc(1, sizeof(*p));

	p->file = lst_strdup(name);
	p->dir = s_dir_of(name);
	p->text = lst_malloc(len + 1);
	memcpy(p->text, text, len);
	p->text[len] = '\0';
	if (lst__plan_read(p, &lst__plan_top, text, len, NULL, errs)) {
		lst_plan_destroy(&p);
		return NULL;
	}
	return p;
}

lst_plan *lst_plan_build(const struct lst_yaml_node *tree, const char *name, lst_errlist *errs)
{
	lst_plan *p = lst_calloc(1, sizeof(*p));

	p->file = lst_strdup(name);
	p->dir = s_dir_of(name);
	p->text = lst_yaml_text(tree); /* the record (plan.yaml, plan_sha1), never read back */
	if (lst__plan_read(p, &lst__plan_top, NULL, 0, tree, errs)) {
		lst_plan_destroy(&p);
		return NULL;
	}
	return p;
}

lst_plan *lst_plan_load(const char *file, lst_errlist *errs)
{
	char *text = NULL;
	size_t len = 0;
	lst_plan *p;
	lst_err err;
	/* By the file rule: `lockstep verify DIR` reads DIR/plan.yaml, where a FIFO must not hang */
	int rc = lst_file_read(file, "plan", S_MAX_FILE, &text, &len, &err);

	if (rc == -EFBIG) {
		if (errs)
			lst_errlist_add(errs, "%s: the plan is larger than %u MiB", file,
					S_MAX_FILE >> 20);
		return NULL;
	}
	if (rc == -EINVAL || rc == -ELOOP) { /* a FIFO, a device: err says which */
		if (errs)
			lst_errlist_add(errs, "%s", err.msg);
		return NULL;
	}
	if (rc) {
		if (errs)
			lst_errlist_add(errs, "%s: cannot read the plan: %s", file, strerror(-rc));
		return NULL;
	}
	p = lst_plan_parse(text, len, file, errs);
	free(text);
	return p;
}

void lst_plan_destroy(lst_plan **pp)
{
	lst_plan *p;

	if (!pp || !*pp)
		return;
	p = *pp;
	for (size_t i = 0; i < p->nagents; i++) {
		free(p->agents[i].name);
		free(p->agents[i].address);
		free(p->agents[i].key);
	}
	free(p->agents);
	for (size_t i = 0; i < p->ntargets; i++) {
		struct lst_plan_target *t = &p->targets[i];

		free(t->name);
		free(t->identity);
		for (size_t j = 0; j < t->npaths; j++)
			free(t->paths[j].path);
		free(t->paths);
	}
	free(p->targets);
	for (size_t i = 0; i < p->nphases; i++) {
		struct lst_plan_phase *ph = &p->phases[i];

		free(ph->name);
		free(ph->targets);
		for (size_t a = 0; a < ph->naxes; a++) {
			free(ph->axes[a].values);
			free(ph->axes[a].raw);
			lst__plan_port_sets_free(&ph->axes[a]);
		}
		for (size_t r = 0; r < ph->nroles; r++)
			free(ph->roles[r].sel.path);
		free(ph->roles);
		lst_map_destroy(&ph->role_index);
		free(ph->curve_pcts);
		free(ph->hir_gaps);
		free(ph->xsr_segments);
		free(ph->record);
		free(ph->replay_trace);
		lst__plan_hooks_free(ph);
	}
	free(p->phases);
	lst_map_destroy(&p->agent_names);
	lst_map_destroy(&p->target_names);
	free(p->file);
	free(p->dir);
	free(p->text);
	free(p->name);
	free(p->description);
	free(p->report.sponsor);
	free(p->report.nand);
	free(p->report.form_factor);
	free(p->report.interface);
	free(p->journal);
	free(p);
	*pp = NULL;
}

/*
 * Plans (lst_plan.h): the public entry points. Loading reads the file with a size cap and hands
 * the text to the reader (lst_plan_read.c), which fills the plan from the schema tables
 * (lst_plan_schema.c) and runs the checks across keys (lst_plan_check.c); a plan with any
 * problem is freed here and never returned. A phase's sweep points are computed, not stored:
 * point i is the phase's workload with each axis set to its value for i, first axis outermost.
 */
#include "lst_plan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_plan_int.h"
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
	if (lst__plan_read(p, text, len, errs)) {
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
	int rc = lst_read_file(file, S_MAX_FILE, &text, &len);

	if (rc == -EFBIG) {
		if (errs)
			lst_errlist_add(errs, "%s: the plan is larger than %u MiB", file,
					S_MAX_FILE >> 20);
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
		for (size_t a = 0; a < ph->naxes; a++)
			free(ph->axes[a].values);
		free(ph->curve_pcts);
		free(ph->hir_gaps);
	}
	free(p->phases);
	free(p->file);
	free(p->dir);
	free(p->text);
	free(p->name);
	free(p->description);
	free(p);
	*pp = NULL;
}

size_t lst_plan_phase_points(const struct lst_plan_phase *ph)
{
	size_t n = 1;

	for (size_t a = 0; a < ph->naxes; a++)
		n *= ph->axes[a].n;
	return n;
}

void lst_plan_phase_point(const struct lst_plan_phase *ph, size_t i, struct lst_workload *w,
			  char *label, size_t label_size)
{
	size_t rest = i, len = 0;
	size_t idx[LST_SWEEP_MAX_AXES];

	LST_ASSERT(i < lst_plan_phase_points(ph));
	*w = ph->w;
	/* the last axis moves fastest: it is the innermost loop */
	for (size_t a = ph->naxes; a-- > 0;) {
		idx[a] = rest % ph->axes[a].n;
		rest /= ph->axes[a].n;
	}
	if (label && label_size)
		label[0] = '\0';
	for (size_t a = 0; a < ph->naxes; a++) {
		char val[64];

		lst__plan_sweep_set(ph, a, idx[a], w);
		if (!label || len >= label_size)
			continue;
		len += (size_t)snprintf(label + len, label_size - len, "%s%s=%s", a ? " " : "",
					ph->axes[a].opt->name,
					lst_opt_format(ph->axes[a].opt, w, val, sizeof(val)));
	}
}

void lst__plan_sweep_set(const struct lst_plan_phase *ph, size_t axis, size_t i,
			 struct lst_workload *w)
{
	*(int64_t *)lst__plan_at(w, ph->axes[axis].opt->offset) = ph->axes[axis].values[i];
}

int lst_plan_agent_index(const lst_plan *p, const char *name)
{
	for (size_t i = 0; i < p->nagents; i++)
		if (p->agents[i].name && !strcmp(p->agents[i].name, name))
			return (int)i;
	return -1;
}

int lst_plan_target_index(const lst_plan *p, const char *name)
{
	for (size_t i = 0; i < p->ntargets; i++)
		if (p->targets[i].name && !strcmp(p->targets[i].name, name))
			return (int)i;
	return -1;
}

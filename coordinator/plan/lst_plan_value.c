/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Plan values: one reader per kind of key (lst__plan_kind), called by the walk in
 * lst_plan_read.c for each key a map gives. Options go through lst_opt_parse as `bench` flags
 * do; names, addresses, keys, target lists, sweeps and number lists have their own rules and
 * messages here (paths, roles and the ports axis in lst_plan_paths.c; hooks and telemetry in
 * lst_plan_hooks.c). A value that is wrong
 * is reported at its place and left at its default, so reading goes on and every problem is
 * found in one pass.
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_auth_text.h"
#include "lst_identity.h"
#include "lst_plan_int.h"
#include "lst_text.h"
#include "lst_util.h"

static void s_set_str(void *base, size_t offset, const char *text)
{
	char **p = lst__plan_at(base, offset);

	free(*p);
	*p = lst_strdup(text);
}

/* Check and normalize "tcp://HOST[:PORT]"; returns the address with the port, or NULL. */
static char *s_address(const char *s, char *why, size_t size)
{
	const char *rest, *host, *port = NULL;
	size_t hostlen;
	int64_t p = LST_AGENT_PORT;
	lst_err err;

	if (strncmp(s, "tcp://", 6)) {
		snprintf(why, size, "must start with tcp:// (like tcp://host:%d)", LST_AGENT_PORT);
		return NULL;
	}
	rest = host = s + 6;
	if (*rest == '[') {
		const char *end = strchr(rest, ']');

		if (!end || end == rest + 1) {
			snprintf(why, size, "has an unclosed or empty [IPv6] host");
			return NULL;
		}
		hostlen = (size_t)(end + 1 - rest);
		if (end[1] == ':')
			port = end + 2;
		else if (end[1]) {
			snprintf(why, size, "has '%s' after the host; expected :PORT", end + 1);
			return NULL;
		}
	} else {
		const char *colon = strchr(rest, ':');

		hostlen = colon ? (size_t)(colon - rest) : strlen(rest);
		if (colon)
			port = colon + 1;
	}
	if (hostlen == 0) {
		snprintf(why, size, "has no host (like tcp://host:%d)", LST_AGENT_PORT);
		return NULL;
	}
	for (size_t i = 0; i < hostlen; i++) {
		if (isspace((unsigned char)host[i]) || host[i] == '/' || host[i] == '*') {
			snprintf(why, size, "has a host with '%c' in it", host[i]);
			return NULL;
		}
	}
	if (port) {
		bool digits = *port != '\0';

		for (const char *c = port; *c; c++)
			digits = digits && isdigit((unsigned char)*c);
		if (!digits || lst_parse_int(port, 1, 65535, &p, &err)) {
			snprintf(why, size, "has port '%s'; a port is a number from 1 to 65535",
				 port);
			return NULL;
		}
	}
	return lst_asprintf("tcp://%.*s:%" PRId64, (int)hostlen, host, p);
}

static void s_double(struct lst__plan_ctx *ctx, const struct lst__plan_key *k, const char *pfx,
		     const struct lst_yaml_node *v, double *out)
{
	const char *text = lst__plan_scalar(ctx, k->o.name, v);
	char num[64];
	size_t n;
	lst_err err;
	double d;

	if (!text)
		return;
	n = strlen(text);
	if (k->pct && n > 1 && n < sizeof(num) && text[n - 1] == '%') {
		memcpy(num, text, n - 1); /* 50% is 50 */
		num[n - 1] = '\0';
		text = num;
	}
	if (lst_parse_double(text, -INFINITY, INFINITY, &d, &err)) {
		lst__plan_error(ctx, v, "%s%s: '%s' is not a number", pfx, k->o.name, text);
		return;
	}
	if (d < k->dmin || d > k->dmax || (k->dmin_open && d == k->dmin)) {
		lst__plan_error(ctx, v, "%s%s must be %s %g and <= %g", pfx, k->o.name,
				k->dmin_open ? ">" : ">=", k->dmin, k->dmax);
		return;
	}
	*out = d;
}

static void s_capacity(struct lst__plan_ctx *ctx, const struct lst__plan_key *k, const char *pfx,
		       const struct lst_yaml_node *v, void *base)
{
	const char *text = lst__plan_scalar(ctx, k->o.name, v);
	char num[64];
	size_t n;
	lst_err err;
	double d;

	if (!text)
		return;
	snprintf(num, sizeof(num), "%s", text);
	n = strlen(num);
	if (n && (num[n - 1] == 'x' || num[n - 1] == 'X'))
		num[n - 1] = '\0';
	if (lst_parse_double(num, -INFINITY, INFINITY, &d, &err)) {
		lst__plan_error(ctx, v,
				"%s%s: '%s' is not a multiple of the capacity (like 2x or 2.5x)",
				pfx, k->o.name, text);
		return;
	}
	if (d <= 0 || d > 1000) {
		lst__plan_error(ctx, v,
				"%s%s must be more than 0 and at most 1000 (a multiple of the "
				"target's capacity, like 2x)",
				pfx, k->o.name);
		return;
	}
	*(double *)lst__plan_at(base, k->o.offset) = d;
}

static void s_workload(struct lst__plan_ctx *ctx, const struct lst__plan_key *k,
		       const struct lst_yaml_node *v, void *base)
{
	bool ok;
	const struct lst_yaml_node *map = lst__plan_map(ctx, k->o.name, v, &ok);

	lst__plan_workload_keys(ctx, map, k->o.name, lst__plan_at(base, k->o.offset),
				k->aux ? lst__plan_at(base, k->aux) : NULL, NULL, NULL);
}

static void s_target_refs(struct lst__plan_ctx *ctx, const struct lst__plan_key *k,
			  const struct lst_yaml_node *v, void *base)
{
	struct lst_plan_phase *ph = base;
	const lst_plan *p = ctx->plan;
	long n = lst__plan_list(ctx, k->o.name, v);
	lst_map *listed;

	/* the phase started with every target (lst__plan_phase_init) */
	free(ph->targets);
	ph->targets = NULL;
	ph->ntargets = 0;
	if (n < 0)
		return;
	if (n == 0) {
		lst__plan_error(ctx, v,
				"targets must list at least one target; leave it out to use all");
		return;
	}
	ph->targets = lst_calloc((size_t)n, sizeof(*ph->targets));
	listed = lst_map_new();
	for (size_t i = 0; i < (size_t)n; i++) {
		const struct lst_yaml_node *item = v->kids[i];
		const char *name = lst__plan_scalar(ctx, "a target in targets", item);
		int t;

		if (!name)
			continue;
		t = lst_plan_target_index(p, name);
		if (t < 0) {
			char known[512];

			lst__plan_error(ctx, item, "unknown target '%s' (known: %s)", name,
					lst__plan_known_names(p, false, known, sizeof(known)));
			continue;
		}
		if (!lst_map_add_str(listed, name, i, NULL)) {
			lst__plan_error(ctx, item, "target '%s' is listed twice", name);
			continue;
		}
		ph->targets[ph->ntargets++] = (size_t)t;
	}
	lst_map_destroy(&listed);
}

/* The workload option a sweep key names, or NULL after saying why it cannot be swept. */
static const struct lst_opt *s_sweep_opt(struct lst__plan_ctx *ctx, const struct lst_yaml_node *kn)
{
	const struct lst_opt *o = lst_opt_find(lst_workload_opts, kn->text);
	const char *why, *near;

	if (!o) {
		/* the nearest option, else ports if that is near */
		near = lst_opt_suggest_name(lst_workload_opts, kn->text);
		if (!near && lst_text_distance(kn->text, "ports") <= 2)
			near = "ports";
		if (near)
			lst__plan_error(ctx, kn, "sweep: unknown axis '%s' (did you mean '%s'?)",
					kn->text, near);
		else
			lst__plan_error(ctx, kn,
					"sweep: unknown axis '%s' (axes: any workload option, or "
					"ports for sets of paths)",
					kn->text);
		return NULL;
	}
	why = lst__plan_sweep_fixed(o);
	/* a value that owns memory cannot be copied into each point as plain bytes */
	LST_ASSERT(why || !o->ops || !o->ops->dup);
	if (why) {
		lst__plan_error(ctx, kn, "sweep: %s cannot be swept: %s; give one phase per value",
				kn->text, why);
		return NULL;
	}
	return o;
}

/* Keep the swept value of o that w holds as ax's next value. */
static void s_sweep_keep(struct lst_sweep_axis *ax, const struct lst_workload *w, size_t cap)
{
	const struct lst_opt *o = ax->opt;
	size_t size = lst_opt_size(o);

	if (!lst_opt_is_struct(o)) {
		if (!ax->values)
			ax->values = lst_calloc(cap, sizeof(*ax->values));
		ax->values[ax->n++] = lst_opt_get(o, w);
		return;
	}
	if (!ax->raw)
		ax->raw = lst_calloc(cap, size);
	memcpy(ax->raw + ax->n++ * size, (const unsigned char *)w + o->offset, size);
}

/*
 * Read the n values of list vn into ax, each parsed and checked exactly as the option is in a
 * workload (lst_workload_parse, then lst_workload_check with the phase's other options).
 */
static void s_sweep_values(struct lst__plan_ctx *ctx, const struct lst_plan_phase *ph,
			   struct lst_sweep_axis *ax, const struct lst_yaml_node *vn, size_t n)
{
	const struct lst_opt *o = ax->opt;
	lst_map *listed = lst_map_new();

	for (size_t j = 0; j < n; j++) {
		const struct lst_yaml_node *item = vn->kids[j];
		const char *text = lst__plan_scalar(ctx, o->name, item);
		struct lst_workload w = ph->w;
		lst_err err, base_err;
		char val[LST_OPT_WIRE_MAX];

		if (!text || lst_workload_parse(o, &w, text, &err)) {
			if (text)
				lst__plan_error(ctx, item, "sweep: %s", err.msg);
			continue;
		}
		/* one value, one text form: "random" and "compressible=100" are the same */
		if (!lst_map_add_str(listed, lst_opt_format(o, &w, val, sizeof(val)), j, NULL)) {
			lst__plan_error(ctx, item, "sweep: %s value '%s' is listed twice", o->name,
					text);
			continue;
		}
		/* Checks across options that this one value breaks on its own. */
		if (lst_workload_check(&w, 0, &err) && !lst_workload_check(&ph->w, 0, &base_err))
			lst__plan_error(ctx, item, "sweep: %s", err.msg);
		s_sweep_keep(ax, &w, n);
	}
	lst_map_destroy(&listed);
}

/*
 * Add the axis kn: vn to ph. Returns the axis, or NULL when it was refused (reported) or all
 * of its values were (then it is left out of the points).
 */
static const struct lst_sweep_axis *s_sweep_axis(struct lst__plan_ctx *ctx,
						 struct lst_plan_phase *ph,
						 const struct lst_yaml_node *kn,
						 const struct lst_yaml_node *vn)
{
	const struct lst_opt *o;
	struct lst_sweep_axis *ax;
	long n;

	if (!strcmp(kn->text, "ports"))
		return lst__plan_ports_axis(ctx, ph, kn, vn);
	o = s_sweep_opt(ctx, kn);
	if (!o)
		return NULL;
	for (size_t j = 0; j < ph->naxes; j++) {
		if (ph->axes[j].opt == o && o->fio) {
			lst__plan_error(ctx, kn,
					"sweep: %s and %s are the same axis (%s is fio's name for "
					"%s); give one",
					kn->text, strcmp(kn->text, o->name) ? o->name : o->fio,
					o->fio, o->name);
			return NULL;
		}
	}
	if (ph->naxes == LST_SWEEP_MAX_AXES) {
		lst__plan_error(ctx, kn, "sweep: at most %d axes", LST_SWEEP_MAX_AXES);
		return NULL;
	}
	n = lst__plan_list(ctx, kn->text, vn);
	if (n < 0)
		return NULL;
	if (n == 0) {
		lst__plan_error(ctx, vn, "sweep: %s needs at least one value, like [1, 2, 4]",
				kn->text);
		return NULL;
	}
	ax = &ph->axes[ph->naxes++];
	ax->opt = o;
	ax->mark = kn->mark;
	s_sweep_values(ctx, ph, ax, vn, (size_t)n);
	if (ax->n == 0) {
		/* every value was wrong (and reported): keep the axis out of the points */
		free(ax->values);
		free(ax->raw);
		memset(ax, 0, sizeof(*ax));
		ph->naxes--;
		return NULL;
	}
	return ax;
}

/* A phase's sweep: axes in the order written, at most LST_PLAN_MAX_POINTS points in all. */
static void s_sweep(struct lst__plan_ctx *ctx, const struct lst__plan_key *k,
		    const struct lst_yaml_node *v, void *base)
{
	struct lst_plan_phase *ph = base;
	bool ok;
	const struct lst_yaml_node *map = lst__plan_map(ctx, k->o.name, v, &ok);
	size_t points = 1;

	if (!ok)
		return;
	if (!map || map->n == 0) {
		lst__plan_error(ctx, v,
				"sweep must name at least one axis (a workload option such as "
				"iodepth, bs or pattern, or ports) with a list of values");
		return;
	}
	for (size_t i = 0; i + 1 < map->n; i += 2) {
		const struct lst_yaml_node *kn = map->kids[i];
		const struct lst_sweep_axis *ax;

		if (kn->type != LST_YAML_SCALAR ||
		    !(ax = s_sweep_axis(ctx, ph, kn, map->kids[i + 1])))
			continue;
		if (points > LST_PLAN_MAX_POINTS / ax->n) {
			lst__plan_error(ctx, kn, "sweep: more than %d points; split it into phases",
					LST_PLAN_MAX_POINTS);
			continue;
		}
		points *= ax->n;
	}
}

static void s_num_list(struct lst__plan_ctx *ctx, const struct lst__plan_key *k, const char *pfx,
		       const struct lst_yaml_node *v, void *base)
{
	long n = lst__plan_list(ctx, k->o.name, v);
	size_t got = 0;
	double *pcts = NULL;
	int64_t *durs = NULL;

	if (n < 0)
		return;
	if (n == 0) {
		lst__plan_error(ctx, v, "%s%s needs at least one value; leave it out for %s", pfx,
				k->o.name, k->o.def);
		return;
	}
	if (k->kind == K_PCT_LIST)
		pcts = lst_calloc((size_t)n, sizeof(*pcts));
	else
		durs = lst_calloc((size_t)n, sizeof(*durs));
	for (size_t i = 0; i < (size_t)n; i++) {
		const struct lst_yaml_node *item = v->kids[i];

		if (pcts) {
			double d = NAN;

			s_double(ctx, k, pfx, item, &d);
			if (isnan(d))
				continue;
			if (got && d <= pcts[got - 1]) {
				lst__plan_error(ctx, item, "%s%s must go up: %g after %g", pfx,
						k->o.name, d, pcts[got - 1]);
				continue;
			}
			pcts[got++] = d;
		} else {
			struct lst_opt tmp = k->o;
			const char *text = lst__plan_scalar(ctx, k->o.name, item);
			int64_t val;
			lst_err err;

			tmp.offset = 0;
			if (!text)
				continue;
			if (lst_opt_parse(&tmp, &val, text, &err)) {
				lst__plan_error(ctx, item, "%s%s", pfx, err.msg);
				continue;
			}
			durs[got++] = val;
		}
	}
	if (pcts) {
		free(*(double **)lst__plan_at(base, k->o.offset));
		*(double **)lst__plan_at(base, k->o.offset) = pcts;
	} else {
		free(*(int64_t **)lst__plan_at(base, k->o.offset));
		*(int64_t **)lst__plan_at(base, k->o.offset) = durs;
	}
	*(size_t *)lst__plan_at(base, k->aux) = got;
}

/* A bool (true/false) into base. */
static void s_bool(struct lst__plan_ctx *ctx, const struct lst__plan_key *k, const char *pfx,
		   const struct lst_yaml_node *v, void *base)
{
	struct lst_opt tmp = k->o;
	const char *text = lst__plan_scalar(ctx, k->o.name, v);
	int64_t b;
	lst_err err;

	tmp.offset = 0;
	if (text && lst_opt_parse(&tmp, &b, text, &err))
		lst__plan_error(ctx, v, "%s%s", pfx, err.msg);
	else if (text)
		*(bool *)lst__plan_at(base, k->o.offset) = b;
}

/* Non-empty text of bounded length into base. */
static void s_string(struct lst__plan_ctx *ctx, const struct lst__plan_key *k,
		     const struct lst_yaml_node *v, void *base)
{
	const char *text = lst__plan_scalar(ctx, k->o.name, v);

	if (text && !*text)
		lst__plan_error(ctx, v, "%s must not be empty; leave it out instead", k->o.name);
	else if (text && strlen(text) >= LST_TEXT_MAX)
		lst__plan_error(ctx, v, "%s is longer than %d bytes", k->o.name, LST_TEXT_MAX - 1);
	else if (text)
		s_set_str(base, k->o.offset, text);
}

/* A name (letters, digits, '_', '.', '-') into base. */
static void s_name(struct lst__plan_ctx *ctx, const struct lst__plan_key *k,
		   const struct lst_yaml_node *v, void *base)
{
	const char *text = lst__plan_scalar(ctx, k->o.name, v);

	if (text && !lst__plan_name_ok(text))
		lst__plan_error(ctx, v,
				"%s '%s' may only use letters, digits, '_', '.' and '-', "
				"at most %d of them",
				k->o.name, text, LST__PLAN_NAME_MAX);
	else if (text)
		s_set_str(base, k->o.offset, text);
}

/* An agent's address, normalized with its port, into base. */
static void s_address_value(struct lst__plan_ctx *ctx, const struct lst__plan_key *k,
			    const struct lst_yaml_node *v, void *base)
{
	const char *text = lst__plan_scalar(ctx, k->o.name, v);
	char why[256];
	char *addr;

	if (!text)
		return;
	addr = s_address(text, why, sizeof(why));
	if (!addr) {
		lst__plan_error(ctx, v, "address '%s' %s", text, why);
		return;
	}
	free(*(char **)lst__plan_at(base, k->o.offset));
	*(char **)lst__plan_at(base, k->o.offset) = addr;
}

/* An agent's key: Z85 text or an absolute path as written, a relative path made absolute
 * against the plan's folder. */
static void s_key(struct lst__plan_ctx *ctx, const struct lst__plan_key *k,
		  const struct lst_yaml_node *v, void *base)
{
	const char *text = lst__plan_scalar(ctx, k->o.name, v);

	if (text && !*text)
		lst__plan_error(ctx, v, "key must not be empty; leave it out for plain text");
	else if (text && (text[0] == '/' || lst_auth_is_key_text(text)))
		s_set_str(base, k->o.offset, text);
	else if (text) {
		free(*(char **)lst__plan_at(base, k->o.offset));
		*(char **)lst__plan_at(base, k->o.offset) =
			lst_asprintf("%s/%s", ctx->plan->dir, text);
	}
}

/* `lockstep:`, the plan format version: only LST_PLAN_VERSION is read. */
static void s_version(struct lst__plan_ctx *ctx, const struct lst__plan_key *k,
		      const struct lst_yaml_node *v, void *base)
{
	const char *text = lst__plan_scalar(ctx, k->o.name, v);
	int64_t ver;
	lst_err err;

	if (text && lst_parse_int(text, INT64_MIN, INT64_MAX, &ver, &err))
		lst__plan_error(ctx, v,
				"lockstep: '%s' is not a plan format version; write "
				"lockstep: %d",
				text, LST_PLAN_VERSION);
	else if (text && ver != LST_PLAN_VERSION)
		lst__plan_error(ctx, v,
				"lockstep: plan format %" PRId64 " is not supported; this "
				"lockstep reads format %d",
				ver, LST_PLAN_VERSION);
	else if (text)
		*(int64_t *)lst__plan_at(base, k->o.offset) = ver;
}

/* A nested map (round, steady, ...) read into the same struct. */
static void s_sub_section(struct lst__plan_ctx *ctx, const struct lst__plan_key *k,
			  const struct lst_yaml_node *v, void *base)
{
	bool ok;
	const struct lst_yaml_node *map = lst__plan_map(ctx, k->o.name, v, &ok);

	if (ok)
		lst__plan_section_read(ctx, k->sub, v, map, base);
}

/* Read one key's value v into base, by the key's kind. */
void lst__plan_value(struct lst__plan_ctx *ctx, const struct lst__plan_section *sec,
		     const struct lst__plan_key *k, const struct lst_yaml_node *v, void *base)
{
	/* Values in a phase's sub-map say which map: "round: duration must be ..." */
	char pfx[32] = "";
	const char *text;
	lst_err err;

	if (sec->in[0] && sec != ctx->top)
		snprintf(pfx, sizeof(pfx), "%s: ", sec->name);
	switch (k->kind) {
	case K_OPT:
		text = lst__plan_scalar(ctx, k->o.name, v);
		if (text && lst_opt_parse(&k->o, base, text, &err))
			lst__plan_error(ctx, v, "%s%s", pfx, err.msg);
		break;
	case K_BOOL:
		s_bool(ctx, k, pfx, v, base);
		break;
	case K_DOUBLE:
		s_double(ctx, k, pfx, v, lst__plan_at(base, k->o.offset));
		break;
	case K_CAPACITY:
		s_capacity(ctx, k, pfx, v, base);
		break;
	case K_STRING:
		s_string(ctx, k, v, base);
		break;
	case K_NAME:
		s_name(ctx, k, v, base);
		break;
	case K_ADDRESS:
		s_address_value(ctx, k, v, base);
		break;
	case K_KEY:
		s_key(ctx, k, v, base);
		break;
	case K_VERSION:
		s_version(ctx, k, v, base);
		break;
	case K_WORKLOAD:
		s_workload(ctx, k, v, base);
		break;
	case K_SECTION:
		s_sub_section(ctx, k, v, base);
		break;
	case K_LIST:
		lst__plan_items(ctx, k, v, base);
		break;
	case K_TARGET_REFS:
		s_target_refs(ctx, k, v, base);
		break;
	case K_SWEEP:
		s_sweep(ctx, k, v, base);
		break;
	case K_PCT_LIST:
	case K_DURATION_LIST:
		s_num_list(ctx, k, pfx, v, base);
		break;
	default:
		/* A kind read in its own file (paths, roles, hooks, ...): the schema names the
		 * reader, so this dispatcher calls none of them by name. */
		LST_ASSERT(k->read);
		k->read(ctx, k, v, base);
	}
}

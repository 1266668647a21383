/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The inventory's questions to the agents: HELLO, then INVENTORY page after page (from 0, then
 * from the number received, while below the agent's total) to every agent at once, then BYE.
 * An agent that is unreachable, refuses us, or answers with ERROR gets an "error" entry instead
 * of devices; the others still answer. Each reply's strings were made printable by lst_conn.
 */
#include "lst_inventory.h"

#include "lst_time.h"
#include "lst_util.h"

#include "lst_session.h"

#define S_PAGE_TIMEOUT_NS (10 * LST_NS_PER_S) /* per page and agent set */
#define S_MAX_PAGES 1024		      /* 32768 devices: far beyond any host */

/* One device as JSON (PROTOCOL.md 6.16's keys). */
static json_t *s_device_json(const struct lst_inv_device *d)
{
	json_t *links = json_array();

	for (uint32_t k = 0; k < d->nlinks && k < LST_INV_LINKS; k++)
		json_array_append_new(links, json_string(d->links[k]));
	return json_pack("{s:s, s:s, s:o, s:I, s:s, s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:b, s:s, "
			 "s:s, s:s, s:s, s:I, s:I, s:b, s:s, s:b}",
			 "name", d->name, "node", d->node, "links", links, "links_omitted",
			 (json_int_t)d->links_omitted, "wwn", d->wwn, "serial", d->serial, "vendor",
			 d->vendor, "model", d->model, "firmware", d->firmware, "size",
			 (json_int_t)d->size, "lbs", (json_int_t)d->lbs, "pbs", (json_int_t)d->pbs,
			 "rotational", (int)d->rotational, "transport", d->transport, "port",
			 d->port, "nqn", d->nqn, "backing_file", d->backing_file, "backing_dev",
			 (json_int_t)d->backing_dev, "backing_ino", (json_int_t)d->backing_ino,
			 "in_use", (int)d->in_use, "why", d->why, "allow_write",
			 (int)d->allow_write);
}

/* Why agent i has no devices: why it was lost, else what (as JSON). */
static json_t *s_why(const lst_session *s, size_t i, const char *what)
{
	const char *why = lst_session__lost_why(s, i);

	return json_string(why[0] ? why : what);
}

/* Send INVENTORY from `from` to agent i, when it is still in the query. */
static void s_ask(lst_session *s, size_t i, uint32_t from)
{
	lst_msg *m = lst_msg_new(LST_MSG_INVENTORY);

	m->u.inventory.from = from;
	lst_session__ask(s, i, &m);
}

/*
 * Take agent i's reply: its devices appended to devs. Returns true when it has more to send
 * (*from set to the next index), false when done or failed (err_out set on failure).
 */
static bool s_take(lst_session *s, size_t i, json_t *devs, uint32_t *from, json_t *entry)
{
	const lst_msg *reply = lst_session__take(s, i);
	const struct lst_msg_inventory_reply *r;

	if (!reply) {
		json_object_set_new(entry, "error", s_why(s, i, "no answer to INVENTORY"));
		return false;
	}
	if (reply->type == LST_MSG_ERROR) {
		json_object_set_new(entry, "error", json_string(reply->u.error.text));
		return false;
	}
	if (reply->type != LST_MSG_INVENTORY_REPLY) {
		json_object_set_new(
			entry, "error",
			json_sprintf("answered INVENTORY with %s", lst_msg_type_name(reply->type)));
		return false;
	}
	r = &reply->u.inventory_reply;
	for (uint32_t k = 0; k < r->ndevices; k++)
		json_array_append_new(devs, s_device_json(&r->devices[k]));
	*from = r->from + r->ndevices;
	return r->ndevices && *from < r->total;
}

/* Page through every agent that said WELCOME; each entry gets devices or an error. */
static void s_query(lst_session *s, size_t n, json_t *entries)
{
	uint32_t *from = lst_calloc(n, sizeof(*from));
	bool *asking = lst_calloc(n, sizeof(*asking));
	bool any = false;

	for (size_t i = 0; i < n; i++) {
		json_t *e = json_array_get(entries, i);

		if (!lst_session__usable(s, i)) {
			json_object_set_new(e, "error", s_why(s, i, "unreachable"));
			continue;
		}
		json_object_set_new(e, "devices", json_array());
		asking[i] = any = true;
	}
	for (int page = 0; any && page < S_MAX_PAGES; page++) {
		for (size_t i = 0; i < n; i++)
			if (asking[i])
				s_ask(s, i, from[i]);
		lst_session__wait(s, S_PAGE_TIMEOUT_NS);
		any = false;
		for (size_t i = 0; i < n; i++) {
			json_t *e = json_array_get(entries, i);

			if (!asking[i])
				continue;
			asking[i] = s_take(s, i, json_object_get(e, "devices"), &from[i], e);
			any |= asking[i];
		}
	}
	free(asking);
	free(from);
}

int lst_inventory_collect(const struct lst_coord_agent *agents, size_t n,
			  const struct lst_coord_opts *sec, json_t **out)
{
	json_t *entries;
	lst_session *s;
	int rc = 0;

	*out = NULL;
	s = lst_session__query_new(agents, n, sec);
	if (!s)
		return 2;
	entries = json_array();
	for (size_t i = 0; i < n; i++) {
		const struct lst_msg_welcome *w = lst_conn_info(lst_session__conn(s, i));

		json_array_append_new(entries,
				      json_pack("{s:s, s:s, s:s}", "agent", agents[i].name,
						"address", agents[i].address, "host", w->host));
	}
	s_query(s, n, entries);
	for (size_t i = 0; i < n; i++)
		if (json_object_get(json_array_get(entries, i), "error"))
			rc = 1;
	lst_session__end(&s);
	*out = entries;
	return rc;
}

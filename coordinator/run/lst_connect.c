/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reaching the agents: our CURVE key pair (loaded only when an agent has a key), one connection
 * per agent (CURVE, or plain text where loopback or --insecure allows it), and the first
 * HELLO -> WELCOME of the session.
 */
#include <errno.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_log.h"
#include "lst_util.h"

#include "lst_session_int.h"

int lst_coord__hello(lst_coord *c)
{
	for (size_t i = 0; i < lst_coord__n(c); i++) {
		lst_msg *m = lst_coord__hello_msg(c);

		lst_coord__session(c)->a[i].st.in_point = true;
		lst_coord__command(c, i, &m);
	}
	lst_coord__pump_until(c, lst_coord__all_welcomed, lst_coord__opts(c)->connect_timeout_ns);
	if (lst_coord__interrupted) /* Ctrl-C, not a silent agent */
		return -1;
	for (size_t i = 0; i < lst_coord__n(c); i++) {
		struct lst_coord__agent *a = &lst_coord__session(c)->a[i];

		a->st.in_point = false;
		if (lst_conn_lost(a->conn))
			continue;
		if (!a->replied) {
			lst_coord__lose(
				c, i,
				"no answer from %s within %.0f s; is lockstep-agent running "
				"there, and is the address right?",
				lst_conn_address(a->conn),
				(double)lst_coord__opts(c)->connect_timeout_ns / 1e9);
		} else if (a->reply->type == LST_MSG_ERROR) {
			lst_coord__lose(c, i, "%s", a->reply->u.error.text);
		} else if (a->reply->type == LST_MSG_WELCOME) {
			lst_conn_welcome(a->conn, &a->reply->u.welcome);
			a->instance = a->reply->u.welcome.instance;
			a->welcomed_on = lst_conn_handshakes(a->conn);
		} else {
			lst_coord__lose(c, i, "answered HELLO with %s",
					lst_msg_type_name(a->reply->type));
		}
	}
	for (size_t i = 0; i < lst_coord__n(c); i++)
		if (lst_conn_lost(lst_coord__session(c)->a[i].conn))
			return -1;
	return 0;
}

/* Our CURVE key pair, loaded once, when the first agent with a key is connected; every
 * connection borrows it until the session's end (lst_coord__session_destroy). */
struct lst_coord__keys {
	struct lst_keypair own;
	char *own_file;
};

/* Our key pair, from opts.key_file or the default, for agent i (the first with a key). */
static int s_load_own(lst_coord *c, size_t i, lst_err *err)
{
	const char *name = lst_coord__session(c)->agents[i].name;
	struct lst_coord__keys *k = lst_calloc(1, sizeof(*k));
	lst_err kerr;
	int rc;

	lst_coord__session(c)->keys = k;
	k->own_file = lst_coord__opts(c)->key_file ? lst_strdup(lst_coord__opts(c)->key_file)
						   : lst_auth_default_key();
	rc = lst_auth_load_keypair(k->own_file, &k->own, &kerr);
	if (rc == -ENOENT) {
		char *twin = lst_auth_public_twin(k->own_file);

		lst_err_set(err, rc,
			    "agent %s has a key: in the plan, so we speak CURVE, but there is no "
			    "coordinator key %s: make one with 'lockstep keygen %.*s' and copy %s "
			    "into every agent's authorized_keys folder, or give --key FILE",
			    name, k->own_file, (int)(strlen(twin) - 4), twin, twin);
		free(twin);
		return rc;
	}
	if (rc)
		return lst_err_set(err, rc, "coordinator key: %s", kerr.msg);
	return 0;
}

/*
 * Connect to agent i: CURVE when the plan gives its key, plain text otherwise, which needs a
 * loopback address or --insecure. Returns 0 or -errno with err.
 */
int lst_coord__connect_agent(lst_coord *c, size_t i, lst_err *err)
{
	const struct lst_coord_agent *ag = &lst_coord__session(c)->agents[i];
	struct lst_conn_curve cv;
	char pub[LST_KEY_TEXT];
	lst_err kerr;
	int rc;

	if (!ag->key) {
		if (!lst_auth_endpoint_is_local(ag->address) && !lst_coord__opts(c)->insecure)
			return lst_err_set(
				err, -EPERM,
				"agent %s (%s) has no key: in the plan, and plain text is "
				"allowed only to loopback addresses: add the agent's public "
				"key (key: keys/%s.pub, made by 'lockstep keygen' on that "
				"host), or run with --insecure",
				ag->name, ag->address, ag->name);
		if (!lst_auth_endpoint_is_local(ag->address))
			lst_log_warn(
				"agent %s (%s): plain text (--insecure): anyone on the way can "
				"read the traffic and forge commands; give the agent a key: "
				"(docs/security.md)",
				ag->name, ag->address);
		lst_coord__session(c)->a[i].conn =
			lst_conn_new(i, ag->name, ag->address, NULL, err);
		return lst_coord__session(c)->a[i].conn ? 0 : -EIO;
	}
	if ((rc = lst_auth_load_public(ag->key, pub, &kerr)))
		return lst_err_set(err, rc, "agent %s: key: %s", ag->name, kerr.msg);
	if (!lst_coord__session(c)->keys && (rc = s_load_own(c, i, err)))
		return rc;
	cv.own = &lst_coord__session(c)->keys->own;
	cv.own_file = lst_coord__session(c)->keys->own_file;
	cv.agent_pub = pub;
	cv.agent_src = lst_auth_is_key_text(ag->key) && access(ag->key, F_OK)
			       ? "the plan's key text"
			       : ag->key;
	lst_coord__session(c)->a[i].conn = lst_conn_new(i, ag->name, ag->address, &cv, err);
	return lst_coord__session(c)->a[i].conn ? 0 : -EIO;
}

struct lst_coord__session *lst_coord__session_new(const struct lst_coord_agent *agents, size_t n,
						  int64_t lease, int64_t interval)
{
	struct lst_coord__session *s = lst_calloc(1, sizeof(*s));

	s->n = n;
	s->agents = lst_calloc(n, sizeof(*s->agents));
	memcpy(s->agents, agents, n * sizeof(*agents));
	s->lease = lease;
	s->a = lst_calloc(n, sizeof(*s->a));
	lst_coord__pump_new(s);
	/*
	 * One model for silence: unreachable after 3 s (or 3 intervals); lost once the lease has
	 * run out on the agent too, which it measures from the last message it had from us (at
	 * most a PING interval before our last from it), plus a margin for the network.
	 */
	s->unreach_after = LST_MAX(3 * LST_NS_PER_S, 3 * interval);
	s->lost_after = LST_MAX(s->unreach_after, lease + LST_COORD__PING_EVERY + LST_NS_PER_S / 2);
	return s;
}

void lst_coord__session_destroy(struct lst_coord__session **p)
{
	struct lst_coord__session *s = *p;

	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		lst_conn_destroy(&s->a[i].conn);
		lst_msg_destroy(&s->a[i].reply);
		lst_msg_destroy(&s->a[i].cmd);
	}
	free(s->a);
	free(s->agents);
	lst_coord__pump_destroy(s);
	if (s->keys) {
		explicit_bzero(&s->keys->own, sizeof(s->keys->own));
		free(s->keys->own_file);
		free(s->keys);
	}
	free(s);
	*p = NULL;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Link rule: disk safety (lst_agent_dev) links alone, without the protocol, ZeroMQ or msgpack.
 * Built with the whole library (every object, not only the ones used here), so any reference
 * to a protocol or ZeroMQ symbol inside it fails this link; tests/link/agent_check.sh then
 * checks that the program's link line and its shared libraries name none of them.
 */
#include <stdio.h>

#include "lst_dev.h"

int main(void)
{
	lst_dev_policy *p = lst_dev_policy_new();
	struct lst_path_identity id;
	lst_err err;
	int rc = lst_dev_identify("/", &id, &err);

	printf("%s %d %s\n", lst_dev_access_name(LST_DEV_READ), rc,
	       lst_dev_policy_allows(p, "/") ? "allowed" : "refused");
	lst_dev_policy_destroy(&p);
	return 0;
}

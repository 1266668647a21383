/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The catalog's --where language on hand-made runs: each operator, firmware and kernels
 * compared as version strings where text order is wrong (6.1.0-18 after 6.1.0-9), a term on
 * devices holding when one device matches (!= when none does), quoted values, and every bad
 * term refused with its column named.
 */
#include <stdlib.h>
#include <string.h>

#include "lst_catalog.h"
#include "lst_catwhere.h"
#include "lst_test.h"

static struct lst_cat_device s_devs[] = {
	{ .target = "ssd0", .model = "PX05SRB040", .firmware = "AS0C", .serial = "X1" },
	{ .target = "ssd1",
	  .model = "MZ7KM480",
	  .firmware = "GXM7",
	  .serial = "X2",
	  .vendor = "SAMSUNG" },
};
static struct lst_cat_agent s_agents[] = {
	{ .name = "a", .host = "lab 1", .kernel = "6.1.0-18-amd64", .version = "0.10.0" },
};
static struct lst_cat_run s_run = {
	.run_id = "20261130T060000Z-a1b2",
	.plan_name = "px05-pts",
	.started = "2026-11-30T06:00:00.000000Z",
	.status = "complete",
	.version = "0.10.0",
	.ndevices = 2,
	.devices = s_devs,
	.nagents = 1,
	.agents = s_agents,
};

static bool s_match(const char *q)
{
	lst_err err = { 0 };
	lst_catwhere *w = lst_catwhere_parse(q, &err);
	bool m;

	if (!w)
		T_FAIL("'%s' does not parse: %s", q, err.msg);
	m = lst_catwhere_match(w, &s_run);
	lst_catwhere_destroy(&w);
	lst_catwhere_destroy(&w); /* safe twice */
	return m;
}

static void s_refused(const char *q, const char *says)
{
	lst_err err = { 0 };
	lst_catwhere *w = lst_catwhere_parse(q, &err);

	if (w)
		T_FAIL("'%s' parses", q);
	T_CONTAINS(err.msg, says);
}

static void s_operators(void)
{
	T_ASSERT(s_match(""));
	T_ASSERT(s_match("model=PX05SRB040"));
	T_ASSERT(s_match("model=MZ7KM480")); /* the second device */
	T_ASSERT(!s_match("model=PX04"));
	T_ASSERT(!s_match("model!=MZ7KM480")); /* one device is */
	T_ASSERT(s_match("model!=PX04"));
	T_ASSERT(s_match("firmware>=AS0C firmware<AS0D"));
	T_ASSERT(s_match("firmware>AS0B"));
	T_ASSERT(!s_match("firmware>GXM7 firmware<AS0A"));
	T_ASSERT(s_match("firmware<=AS0C"));
	T_ASSERT(s_match("model~^PX0[45]"));
	T_ASSERT(!s_match("model~^PX04"));
	T_ASSERT(s_match("host=\"lab 1\""));
	T_ASSERT(s_match("plan=px05-pts status=complete"));
	T_ASSERT(s_match("started>=2026-11-30 date=2026-11-30"));
	T_ASSERT(!s_match("started>=2026-12-01"));
	T_ASSERT(s_match("run~^20261130"));
	/* a value the catalog lacks (the first device's vendor) equals "" and hides no other */
	T_ASSERT(s_match("vendor="));
	T_ASSERT(s_match("vendor=SAMSUNG"));
	T_ASSERT(!s_match("vendor=TOSHIBA"));
}

static void s_versions(void)
{
	/* as text, "6.1.0-18" < "6.1.0-9" and "0.10.0" < "0.9.0": as versions, the reverse */
	T_ASSERT(s_match("kernel>6.1.0-9-amd64"));
	T_ASSERT(!s_match("kernel<6.1.0-9-amd64"));
	T_ASSERT(s_match("version>0.9.0"));
	T_ASSERT(lst_catwhere_cmp("kernel", "6.1.0-18", "6.1.0-9") > 0);
	T_ASSERT(lst_catwhere_cmp("model", "6.1.0-18", "6.1.0-9") < 0); /* text */
	T_ASSERT(lst_catwhere_cmp("firmware", "AS0C", "AS0C") == 0);
}

static void s_errors(void)
{
	s_refused("modle=X", "column 1: 'modle=X': no key modle (keys: model,");
	s_refused("model=X  firmware", "column 10: 'firmware': not KEY OP VALUE");
	s_refused("model=X =Y", "column 9: '=Y': not KEY OP VALUE");
	s_refused("firmware>", "column 1: 'firmware>': no value");
	s_refused("model~[", "column 1: 'model~[':");
	T_ASSERT(lst_catwhere_is_key("firmware"));
	T_ASSERT(!lst_catwhere_is_key("firmwar"));
}

int main(void)
{
	s_operators();
	s_versions();
	s_errors();
	return 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lst_inventory_group on hand-made agent answers: a dual-port SAS drive seen by a as sdb and by
 * b as sdc (same WWN in two spellings of case, two ports), an NVMe namespace only a has, two
 * loop devices over one file (one per agent) and one over another file with the same name on a
 * different filesystem (st_dev differs: another drive), a device nothing identifies, and an agent
 * that failed.
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "lst_inventory.h"
#include "lst_test.h"

static json_t *s_dev(const char *name, const char *wwn, const char *port, const char *back,
		     long long bdev)
{
	char node[64];

	snprintf(node, sizeof(node), "/dev/%s", name);
	return json_pack("{s:s, s:s, s:[], s:s, s:s, s:s, s:s, s:I, s:I, s:b, s:s, s:b}", "name",
			 name, "node", node, "links", "wwn", wwn, "serial", "", "port", port,
			 "backing_file", back, "backing_dev", (json_int_t)bdev, "backing_ino",
			 (json_int_t)(bdev ? 77 : 0), "in_use", 0, "why", "", "allow_write", 1);
}

static json_t *s_find(json_t *drives, const char *identity, size_t *count)
{
	json_t *d, *found = NULL;
	size_t i;

	*count = 0;
	json_array_foreach (drives, i, d) {
		if (!strcmp(json_string_value(json_object_get(d, "identity")), identity)) {
			found = d;
			(*count)++;
		}
	}
	return found;
}

int main(void)
{
	json_t *a = json_pack("{s:s, s:[]}", "agent", "a", "devices");
	json_t *b = json_pack("{s:s, s:[]}", "agent", "b", "devices");
	json_t *c = json_pack("{s:s, s:s}", "agent", "c", "error", "unreachable");
	json_t *agents = json_pack("[o, o, o]", a, b, c), *drives, *d, *p;
	size_t n;

	json_array_append_new(json_object_get(a, "devices"),
			      s_dev("sdb", "naa.5000c500a1b2c3d4", "0x5000c500a1b2c3d5", "", 0));
	json_array_append_new(json_object_get(a, "devices"),
			      s_dev("nvme0n1", "eui.0025388b91c1a2b3", "nvme0 cntlid 4", "", 0));
	json_array_append_new(json_object_get(a, "devices"), s_dev("loop0", "", "", "/shm/d", 27));
	json_array_append_new(json_object_get(a, "devices"), s_dev("zram0", "", "", "", 0));
	json_array_append_new(json_object_get(b, "devices"),
			      s_dev("sdc", "NAA.5000C500A1B2C3D4", "0x5000c500a1b2c3d6", "", 0));
	json_array_append_new(json_object_get(b, "devices"), s_dev("loop3", "", "", "/shm/d", 27));
	json_array_append_new(json_object_get(b, "devices"), s_dev("loop4", "", "", "/shm/d", 28));
	json_array_append_new(json_object_get(b, "devices"), s_dev("zram0", "", "", "", 0));

	drives = lst_inventory_group(agents);
	T_EQ_U64(json_array_size(drives),
		 6); /* sas, nvme, loop@27, zram of a, loop@28, zram of b */

	d = s_find(drives, "naa.5000c500a1b2c3d4", &n);
	T_EQ_U64(n, 1);
	T_ASSERT(d);
	T_EQ_STR(json_string_value(json_object_get(d, "key")), "wwn:naa.5000c500a1b2c3d4");
	T_EQ_U64(json_array_size(json_object_get(d, "paths")), 2);
	p = json_array_get(json_object_get(d, "paths"), 0);
	T_EQ_STR(json_string_value(json_object_get(p, "agent")), "a");
	T_EQ_STR(json_string_value(json_object_get(p, "node")), "/dev/sdb");
	T_EQ_STR(json_string_value(json_object_get(p, "port")), "0x5000c500a1b2c3d5");
	p = json_array_get(json_object_get(d, "paths"), 1);
	T_EQ_STR(json_string_value(json_object_get(p, "agent")), "b");
	T_EQ_STR(json_string_value(json_object_get(p, "node")), "/dev/sdc");
	T_EQ_STR(json_string_value(json_object_get(p, "port")), "0x5000c500a1b2c3d6");

	d = s_find(drives, "eui.0025388b91c1a2b3", &n);
	T_EQ_U64(n, 1);
	T_EQ_U64(json_array_size(json_object_get(d, "paths")), 1);

	/* Same file name, two files: two drives with the same identity text. */
	s_find(drives, "loop:/shm/d", &n);
	T_EQ_U64(n, 2);
	d = json_array_get(drives, 2);
	T_EQ_STR(json_string_value(json_object_get(d, "key")), "loop:/shm/d@27:77");
	T_EQ_U64(json_array_size(json_object_get(d, "paths")), 2);

	/* Nothing identifies zram0: a drive of its own on each agent. */
	s_find(drives, "", &n);
	T_EQ_U64(n, 2);

	json_decref(drives);
	json_decref(agents);
	printf("grouping: dual-port SAS by WWN, loop by backing file and inode, unidentified apart\n");
	return 0;
}

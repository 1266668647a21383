/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The inventory's grouping: the devices of every agent (lst_inventory_collect's array) grouped by
 * drive, so that the names different hosts give one drive (its ports) come together.
 *
 * A drive's key: a loop device's backing file (and its st_dev:st_ino when the agent could stat
 * it): loop devices over one file are the ports of one test drive; else the WWN in lower case
 * (sysfs spells one drive's WWN the same way on every host and port); else the serial. A device
 * with none of them is a drive of its own.
 */
#include "lst_inventory.h"

#include <stdio.h>
#include <string.h>

/* The drive key of a device (see the top of the file) into buf; "" when it has none. */
static void s_drive_key(json_t *d, char *buf, size_t size)
{
	const char *back = json_string_value(json_object_get(d, "backing_file"));
	const char *wwn = json_string_value(json_object_get(d, "wwn"));
	const char *serial = json_string_value(json_object_get(d, "serial"));
	json_int_t dev = json_integer_value(json_object_get(d, "backing_dev"));
	json_int_t ino = json_integer_value(json_object_get(d, "backing_ino"));

	if (back && back[0] && (dev || ino))
		snprintf(buf, size, "loop:%s@%lld:%lld", back, (long long)dev, (long long)ino);
	else if (back && back[0])
		snprintf(buf, size, "loop:%s", back);
	else if (wwn && wwn[0])
		snprintf(buf, size, "wwn:%s", wwn);
	else if (serial && serial[0])
		snprintf(buf, size, "serial:%s", serial);
	else
		buf[0] = '\0';
	for (char *p = buf; *p; p++)
		if (*p >= 'A' && *p <= 'Z' && strncmp(buf, "loop:", 5))
			*p = (char)(*p - 'A' + 'a');
}

/* What a plan's `identity:` says for the drive of device d ("" when nothing identifies it). */
static void s_identity(json_t *d, char *buf, size_t size)
{
	const char *back = json_string_value(json_object_get(d, "backing_file"));
	const char *wwn = json_string_value(json_object_get(d, "wwn"));
	const char *serial = json_string_value(json_object_get(d, "serial"));

	if (back && back[0])
		snprintf(buf, size, "loop:%s", back);
	else if (wwn && wwn[0])
		snprintf(buf, size, "%s", wwn);
	else if (serial && serial[0])
		snprintf(buf, size, "serial:%s", serial);
	else
		buf[0] = '\0';
}

/* One path of a drive: who reaches it, by which name, through which port. */
static json_t *s_path_json(const char *agent, json_t *d)
{
	json_t *links = json_object_get(d, "links");
	const char *path = json_array_size(links) ? json_string_value(json_array_get(links, 0))
						  : json_string_value(json_object_get(d, "node"));

	return json_pack("{s:s, s:s?, s:s?, s:O?, s:O?, s:O?, s:O?, s:O?}", "agent", agent, "path",
			 path, "node", json_string_value(json_object_get(d, "node")), "port",
			 json_object_get(d, "port"), "transport", json_object_get(d, "transport"),
			 "in_use", json_object_get(d, "in_use"), "why", json_object_get(d, "why"),
			 "allow_write", json_object_get(d, "allow_write"));
}

json_t *lst_inventory_group(json_t *agents)
{
	json_t *drives = json_array(), *byid = json_object(), *e, *d;
	size_t i, k;
	char key[2 * 1024 + 64], ident[1100];

	json_array_foreach (agents, i, e) {
		const char *agent = json_string_value(json_object_get(e, "agent"));

		json_array_foreach (json_object_get(e, "devices"), k, d) {
			json_t *drive;

			s_drive_key(d, key, sizeof(key));
			drive = key[0] ? json_object_get(byid, key) : NULL;
			if (!drive) {
				s_identity(d, ident, sizeof(ident));
				drive = json_pack("{s:s, s:s, s:[]}", "key", key, "identity", ident,
						  "paths");
				json_array_append_new(drives, drive);
				if (key[0])
					json_object_set(byid, key, drive);
			}
			json_array_append_new(json_object_get(drive, "paths"),
					      s_path_json(agent, d));
		}
	}
	json_decref(byid);
	return drives;
}

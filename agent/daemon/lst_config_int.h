/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the files of the agent's config share and nothing else uses: the value types of its
 * settings (lst_opt operations, lst_config_types.c), which lst_config_settings[] names, and the
 * phrases the reader's errors and the generated docs both use for a setting's type.
 */
#ifndef LST_CONFIG_INT_H
#define LST_CONFIG_INT_H

#include <stdbool.h>

#include "lst_opt.h"

/* Values that are a char * the config owns (NULL: not given). Each checks its text on parse. */
extern const struct lst_opt_ops lst_config__endpoint_ops; /* tcp://... or ipc://... */
extern const struct lst_opt_ops lst_config__name_ops;	  /* an agent name, no control chars */
extern const struct lst_opt_ops lst_config__file_ops;	  /* a path */
extern const struct lst_opt_ops lst_config__dir_ops;	  /* a folder's path */
extern const struct lst_opt_ops lst_config__abs_dir_ops;  /* an absolute folder path */
extern const struct lst_opt_ops lst_config__debug_ops;	  /* debug categories, joined with ',' */
/* A struct lst_config_strs of absolute path globs: a list, so never one bare value. */
extern const struct lst_opt_ops lst_config__globs_ops;
/* A struct lst_config_cmds: NAME: [argv...] entries, which only the file reader can fill. */
extern const struct lst_opt_ops lst_config__cmds_ops;

/* Whether the setting is read from the config file only (no flag sets it). */
bool lst_config__file_only(const struct lst_opt *o);

/* What a setting's value must be, as its errors and the docs' type column say it ("true or
 * false", "a duration such as 10m or 600s"). Borrowed from the table. */
const char *lst_config__what(const struct lst_opt *o);

#endif

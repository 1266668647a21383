/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gnuplot templates: the fixed text of every plot family lives in coordinator/present/plots/
 * FAMILY.gp, embedded at build time (CMake writes lst_plot_templates.c from the files), and C
 * fills in data blocks and a few settings.
 *
 * A template file is a series of blocks, each starting with a marker line "##@ NAME"; the text
 * of a block is everything up to the next marker, written as it is except that @KEY@ is
 * replaced by the value the caller gives for KEY ("##@ NAME +" drops the block's last newline,
 * for a block that a line continues after). The plot code chooses which blocks to write,
 * in which order and how many times (a block per series, a block only for sequential phases),
 * so the templates need no logic of their own.
 */
#ifndef LST_PLOT_TPL_H
#define LST_PLOT_TPL_H

#include <stdio.h>

/* One embedded template file: plots/NAME.gp. */
struct lst_plot_family {
	const char *name;
	const char *text;
};

/* Every template of plots/, ending with { NULL, NULL } (generated). */
extern const struct lst_plot_family lst_plot_families[];

/* A value for @key@. */
struct lst_tpl_arg {
	const char *key, *value;
};

/*
 * Write block of family to f with @key@ replaced from args (NULL, or ending with a NULL key).
 * An unknown family, block or key is a programming error (the templates are built in):
 * LST_ASSERT.
 */
void lst_plot_tpl(FILE *f, const char *family, const char *block, const struct lst_tpl_arg *args);

#endif

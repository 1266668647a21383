/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Option tables, fio-style: one table (name, type, offset, default, range, help) drives parsing
 * from flags, configs, plans and the wire, the defaults, validation, and the generated help and
 * docs. Every scalar value lives in an int64_t field of the described struct (enums and
 * booleans too), so one setter serves every type and the wire codec can walk a table
 * generically. Structured types (LST_OPT_DIST, LST_OPT_BSSPLIT, LST_OPT_SKEW: lst_mix.h) live
 * in their own fixed-size structs and travel as their text form: use lst_opt_copy,
 * lst_opt_equal and lst_opt_format on them, never lst_opt_get. Each such option carries its
 * type's operations (struct lst_opt_ops, defined beside the type), so this engine names no
 * concrete type and calls into none: the types sit above it. A type whose value owns memory
 * (a path, a list: the agent's config) gives clear and dup too, and a list gives add, so a
 * repeated flag or a sequence in a file appends to it.
 */
#ifndef LST_OPT_H
#define LST_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lst_err.h"

enum lst_opt_type {
	LST_OPT_INT,	  /* whole number in [min, max] */
	LST_OPT_SIZE,	  /* bytes: "4k", "1m" */
	LST_OPT_DURATION, /* ns: "30s", "100ms" */
	LST_OPT_BOOL,	  /* true/false */
	LST_OPT_ENUM,	  /* one of choices[], stored as its index */
	LST_OPT_PATTERN,  /* write data: "random" (100), "zeros" (0), "compressible=N" / "N%" (N) */
	LST_OPT_DIST,	  /* struct lst_dist: "zipf:1.2" (lst_mix.h) */
	LST_OPT_BSSPLIT,  /* struct lst_bssplit: "4k/70:64k/30" (lst_mix.h) */
	LST_OPT_SKEW, /* struct lst_skew: "share=60 rw=randread bs=8k; share=40 ..." (lst_mix.h) */
	LST_OPT_TEXT, /* char[LST_OPT_TEXT_MAX]: a name, [A-Za-z0-9._-] only, "" = none */
	LST_OPT_CUSTOM, /* any other structured type: its ops say everything about it */
};

#define LST_OPT_TEXT_MAX 64   /* bytes of a LST_OPT_TEXT field, with its NUL */
#define LST_OPT_WIRE_MAX 2048 /* longest text form of any structured option (wire, equal) */

/*
 * A structured type's operations: its value is a struct of size bytes at the option's offset,
 * read from and written as text. parse fills *val (zeroed) or returns -errno with err (the
 * engine parses into a scratch copy, so a bad value leaves the field as it was); format returns
 * buf. Two values are equal when their text forms are. A value that owns memory gives clear
 * (free it and zero the value) and dup (a deep copy into a zeroed dst); NULL: plain bytes. A
 * list gives add, which appends one entry in place, or returns -errno with err and changes
 * nothing; NULL: not a list.
 */
struct lst_opt_ops {
	size_t size;
	int (*parse)(void *val, const char *text, lst_err *err);
	const char *(*format)(const void *val, char *buf, size_t size);
	const char *range; /* for help text: "random|zipf:θ|..." */
	const char *arg;   /* a flag's value as --help names it ("FILE"); NULL: the type's */
	void (*clear)(void *val);
	void (*dup)(void *dst, const void *src);
	int (*add)(void *val, const char *text, lst_err *err);
};

struct lst_opt {
	const char *name; /* key in plans and on the wire; flag is --name */
	enum lst_opt_type type;
	size_t offset;		    /* of the int64_t field in the struct */
	const char *def;	    /* default, as text */
	int64_t min, max;	    /* range, for INT, SIZE, DURATION */
	const char *const *choices; /* NULL-terminated, for ENUM */
	const char *help;	    /* one sentence */
	const char *fio; /* fio's name for it, accepted as an alias; NULL: same or none */
	const struct lst_opt_ops *ops; /* a structured type's operations; NULL for the others */
};

/* Set the defaults of every option in a table (terminated by a NULL name). An option without
 * one (def NULL) keeps its zero value, which its reader takes as "not given". */
void lst_opt_defaults(const struct lst_opt *table, void *base);

/* Find an option by name or by its fio alias, or NULL. */
const struct lst_opt *lst_opt_find(const struct lst_opt *table, const char *name);

/*
 * The option whose name (or fio alias) is nearest to an unknown name, for "did you mean";
 * NULL when none is near enough to suggest. Near enough: a Damerau-Levenshtein distance
 * (lst_text_distance, case-insensitive) of at most 1 + len/4 edits (3 at most) of the
 * candidate's length, and fewer edits than either word has letters. Ties go to the first
 * option in the table, a name before its alias.
 */
const struct lst_opt *lst_opt_suggest(const struct lst_opt *table, const char *name);

/* The same search, returning the spelling to suggest (the option's name or its fio alias,
 * whichever is nearer to what was typed; borrowed from the table), or NULL. */
const char *lst_opt_suggest_name(const struct lst_opt *table, const char *name);

/* A structured type (one with ops, or LST_OPT_TEXT): its value is a struct, its wire form text. */
bool lst_opt_is_struct(const struct lst_opt *o);

/* Bytes of the option's field in the struct (8 for the scalar types). */
size_t lst_opt_size(const struct lst_opt *o);

/* Copy one option's value from src to dst (structs of the table's type), replacing dst's
 * (freed through the type's clear) by a deep copy (its dup). */
void lst_opt_copy(const struct lst_opt *o, void *dst, const void *src);

/* Free what one option's value owns and zero it (nothing to do for a type without clear). */
void lst_opt_clear(const struct lst_opt *o, void *base);

/* Whether the option is a list (its type has add): a repeated flag appends to it. */
bool lst_opt_is_list(const struct lst_opt *o);

/*
 * Append one entry, given as text, to a list option's value. Returns 0, or a negative errno
 * with err starting with the option's name; the value is then unchanged.
 */
int lst_opt_add(const struct lst_opt *o, void *base, const char *text, lst_err *err);

/* How --help names the option's value when it is a flag ("SIZE", "FILE"), or NULL for a
 * boolean, which a flag sets without one. */
const char *lst_opt_arg(const struct lst_opt *o);

/* Whether two structs hold the same value of one option. */
bool lst_opt_equal(const struct lst_opt *o, const void *a, const void *b);

/*
 * Parse text into the option's field, checking type and range. Returns 0, or a negative errno
 * with err saying what is wrong in a sentence that starts with the option's name.
 */
int lst_opt_parse(const struct lst_opt *o, void *base, const char *text, lst_err *err);

/* Set from a number (the wire carries numbers), with the same range checks. */
int lst_opt_set_int(const struct lst_opt *o, void *base, int64_t v, lst_err *err);

/* Read a scalar option's value (0 for a structured one: see lst_opt_is_struct). */
int64_t lst_opt_get(const struct lst_opt *o, const void *base);

/* Format an option's value as text that lst_opt_parse reads back ("4k", "30s", "randrw"). */
const char *lst_opt_format(const struct lst_opt *o, const void *base, char *buf, size_t size);

/* Format the option's range or choices for help text ("1 .. 4096", "read|write|..."). */
const char *lst_opt_describe_range(const struct lst_opt *o, char *buf, size_t size);

#endif

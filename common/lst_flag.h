/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Command-line flags as option tables: a command is its flags (struct lst_flag: an lst_opt, so
 * a value is parsed, range-checked and defaulted by lst_opt, plus what a command line needs: a
 * short letter, the value's name, what the shell completes it with) and its texts (struct
 * lst_flag_cmd). From that one description come the parsing, the --help screen, the man page
 * section and the bash completion's answers: adding a flag is one table entry, and none of the
 * four can disagree with the others.
 *
 * Flags several commands take are written once, in a group (a table of its own) that each
 * command lists among its groups. Every group of a command stores into the same struct (its
 * base), so a shared group's offsets point into a struct the commands agree on (put it first in
 * each command's own struct). -h/--help is every command's and needs no entry.
 *
 * Values: the lst_opt types (INT, SIZE, DURATION, BOOL, ENUM, ...), lst_flag_string for text
 * kept as given (a path, an address: borrowed from argv), or a per-type lst_opt_ops of the
 * caller's. A BOOL flag without .arg is a switch: present means true.
 */
#ifndef LST_FLAG_H
#define LST_FLAG_H

#include <stdbool.h>
#include <stdio.h>

#include "lst_err.h"
#include "lst_opt.h"

/* What the shell offers for a flag's value or for an operand. */
enum lst_flag_complete {
	LST_FLAG_NONE,	  /* a number, a size, a name: nothing to offer (choices are offered) */
	LST_FLAG_FILE,	  /* any file */
	LST_FLAG_DIR,	  /* a folder */
	LST_FLAG_PLAN,	  /* a plan: *.yaml, *.yml and folders */
	LST_FLAG_RESULTS, /* a results folder (holds run.json) or a folder above some */
};

#define LST_FLAG_HIDDEN 1u   /* parsed, never shown in help, man or completion */
#define LST_FLAG_OPTIONAL 2u /* the value is optional and only given as --name=VALUE */

struct lst_flag {
	struct lst_opt opt; /* name: the long flag (--name); help: its meaning, one sentence;
			     * def: the default, parsed before the flags and shown in help */
	char letter;	    /* the short flag (-x); 0 for none */
	const char *arg;    /* the value's name in help ("DIR"); NULL: a switch (BOOL) */
	enum lst_flag_complete complete;
	unsigned flags; /* LST_FLAG_* */
	/* The words a value may be, for help and completion, when they are not the ENUM's
	 * choices (several may be given, comma-separated): "io net proto". */
	const char *(*words)(void);
	/*
	 * An action instead of storing the value into base (--debug, -v): called with the value
	 * (NULL for a switch). Returns 0, or -errno with err saying what is wrong with it.
	 */
	int (*set)(const struct lst_flag *f, void *base, const char *value, lst_err *err);
};

/* A command: its name as typed ("lockstep run"), its texts and its groups of flags. */
struct lst_flag_cmd {
	const char *name;
	const char *operands; /* after the flags in the usage line ("PLAN.yaml"); NULL: none */
	enum lst_flag_complete operand; /* what an operand is, for completion */
	const char *about;		/* what it does: paragraphs before the flags */
	const char *more;		/* paragraphs after them: details, exit status, examples */
	/* NULL-terminated list of tables, each ended by an entry with a NULL opt.name */
	const struct lst_flag *const *groups;
};

/* Text kept as given, a `const char *` field borrowing the argument (argv outlives it). */
extern const struct lst_opt_ops lst_flag_string;

/* The flag named name (its long name, without dashes) in the command's groups, or NULL. */
const struct lst_flag *lst_flag_find(const struct lst_flag_cmd *cmd, const char *name);

/*
 * Parse argv[1..argc) (argv[0] is the command's name) into base: every group's defaults first,
 * then each flag in turn. Flags and operands may mix; "--" ends the flags, "-" is an operand.
 * Forms: --name VALUE, --name=VALUE, -x VALUE, -xVALUE, and switches bundled (-qv). argv is
 * reordered so that the operands come last, in their order: the return value is the index of
 * the first (argc when there is none).
 *
 * Returns 0 when -h/--help was given (nothing else is parsed then), or -EINVAL with err
 * saying, as a sentence without the command's name, what is wrong: "unknown option '--x'",
 * "--lead needs a value", "--lead must be between 1 and 60000".
 */
int lst_flag_parse(const struct lst_flag_cmd *cmd, int argc, char **argv, void *base, lst_err *err);

/* The --help screen: usage line (from the groups), about, the flags with their values,
 * defaults and meanings, then more. */
void lst_flag_help(const struct lst_flag_cmd *cmd, FILE *f);

/* The command's part of a man page (man(7)): its usage as a synopsis, about, a tagged paragraph
 * per flag, more. The caller writes the page's head and its section heading. */
void lst_flag_man(const struct lst_flag_cmd *cmd, FILE *f);

/*
 * The answer to the shell's Tab: words[0..n) are the command line from the command's name on,
 * and words[cword] the word being completed. Writes one line saying what to offer, "words",
 * "file", "dir", "plan", "results" or "none", then for "words" the candidates, one a line
 * (all of them: the shell keeps those that start with what was typed).
 */
void lst_flag_complete(const struct lst_flag_cmd *cmd, int n, char **words, int cword, FILE *f);

#endif

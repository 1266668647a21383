/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The gnuplot template writer (see lst_plot_tpl.h): find a block by its marker, copy it line
 * by line and replace @KEY@ placeholders. Templates are small and written once per plot, so a
 * plain scan is enough.
 */
#include "lst_plot_tpl.h"

#include <stdbool.h>
#include <string.h>

#include "lst_assert.h"

#define S_MARK "##@ "

static const char *s_family(const char *name)
{
	for (const struct lst_plot_family *f = lst_plot_families; f->name; f++)
		if (!strcmp(f->name, name))
			return f->text;
	LST_ASSERT(!"no such plot template family");
	return NULL;
}

/*
 * The text of block in t (up to the next marker or the end): *len bytes from the result. A
 * marker "##@ NAME +" drops the block's last newline: the text goes on on the same line.
 */
static const char *s_block(const char *t, const char *block, size_t *len)
{
	size_t blen = strlen(block);
	const char *p = t, *start = NULL;
	bool join = false;

	while (*p) {
		const char *eol = strchr(p, '\n');
		const char *next = eol ? eol + 1 : p + strlen(p);

		if (!strncmp(p, S_MARK, strlen(S_MARK))) {
			const char *name = p + strlen(S_MARK);

			if (start)
				break;
			if ((size_t)(next - name) >= blen && !strncmp(name, block, blen) &&
			    (name[blen] == '\n' || name[blen] == '\0' ||
			     !strncmp(name + blen, " +\n", 3))) {
				start = next;
				join = name[blen] == ' ';
			}
		}
		p = next;
	}
	LST_ASSERT(start);
	*len = (size_t)(p - start);
	if (join && *len && start[*len - 1] == '\n')
		(*len)--;
	return start;
}

static const char *s_value(const struct lst_tpl_arg *args, const char *key, size_t klen)
{
	for (; args && args->key; args++)
		if (strlen(args->key) == klen && !strncmp(args->key, key, klen))
			return args->value;
	LST_ASSERT(!"a template placeholder without a value");
	return "";
}

void lst_plot_tpl(FILE *f, const char *family, const char *block, const struct lst_tpl_arg *args)
{
	size_t len;
	const char *t = s_block(s_family(family), block, &len), *end = t + len;

	while (t < end) {
		const char *at = memchr(t, '@', (size_t)(end - t)), *close;

		if (!at) {
			fwrite(t, 1, (size_t)(end - t), f);
			break;
		}
		close = memchr(at + 1, '@', (size_t)(end - at - 1));
		LST_ASSERT(close);
		fwrite(t, 1, (size_t)(at - t), f);
		fputs(s_value(args, at + 1, (size_t)(close - at - 1)), f);
		t = close + 1;
	}
}

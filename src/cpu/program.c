/* The assembled program's lookups and lifetime: symbols by name (the table
 * is sorted by name), instruction positions for runtime messages, and one
 * free that also accepts a half-filled or zeroed program. */
#include "config.h"
#include "cpu/program.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void program_free(struct program *p)
{
	if (!p)
		return;
	free(p->insns);
	for (uint32_t i = 0; p->syms && i < p->n_syms; i++)
		free(p->syms[i].name);
	free(p->syms);
	for (uint32_t i = 0; p->files && i < p->n_files; i++)
		free(p->files[i]);
	free(p->files);
	free(p->locs);
	for (uint32_t i = 0; p->marks && i < p->n_marks; i++)
		free(p->marks[i]);
	free(p->marks);
	sp_mem_free(&p->data_image);
	free(p->percpu_image);
	memset(p, 0, sizeof *p);
}

int program_add_file(struct program *p, const char *path)
{
	for (uint32_t i = 0; i < p->n_files; i++)
		if (strcmp(p->files[i], path) == 0)
			return 0;
	char **f = realloc(p->files, (p->n_files + 1) * sizeof *f);
	if (!f)
		return -1;
	p->files = f;
	if (!(f[p->n_files] = strdup(path)))
		return -1;
	p->n_files++;
	return 0;
}

const struct symbol *program_symbol(const struct program *p, const char *name)
{
	/* the first of the name: its global, which sorts before its locals */
	size_t lo = 0, hi = p->n_syms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(p->syms[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < p->n_syms && !p->syms[lo].local && strcmp(p->syms[lo].name, name) == 0)
		return &p->syms[lo];
	return NULL;
}

/* Where instruction i was written: the one lookup behind every message
 * about an instruction. NULL when the program does not say (an index past
 * the end, a program built without locations). */
static const struct src_loc *insn_loc(const struct program *p, uint32_t insn)
{
	if (insn >= p->n_insns || p->insns[insn].loc >= p->n_locs)
		return NULL;
	return &p->locs[p->insns[insn].loc];
}

static const char *loc_file(const struct program *p, const struct src_loc *l)
{
	return l->file < p->n_files ? p->files[l->file] : NULL;
}

void program_where(const struct program *p, uint32_t insn, char *buf, size_t n)
{
	if (!n)
		return;
	const struct src_loc *l = insn_loc(p, insn);
	if (!l) {
		snprintf(buf, n, "?");
		return;
	}
	const char *file = loc_file(p, l);
	snprintf(buf, n, "%s:%u", file ? file : "?", (unsigned)l->line);
}

int (program_err)(struct err *e, const struct program *p, uint32_t insn, const char *fmt, ...)
{
	const struct src_loc *l = insn_loc(p, insn);
	va_list ap;
	va_start(ap, fmt);
	err_vset(e, ERR_INPUT, l ? loc_file(p, l) : NULL, l ? (int)l->line : 0, l ? l->col : 0, fmt, ap);
	va_end(ap);
	return -1;
}

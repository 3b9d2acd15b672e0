/* The end of assembly: check the defines, place the per-CPU areas and the
 * stacks after .data, fill __per_cpu_offset, resolve forward references in
 * source order, size the symbols, and move everything into the program.
 * Per-CPU copies are line-aligned so that two CPUs never share a line. */
#include "config.h"
#include "asm/asm_internal.h"

#include <stdlib.h>
#include <string.h>

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static int check_defines(struct asm_state *st)
{
	int any_c = 0;
	for (size_t i = 0; st->in->compiled && i < st->in->n_files; i++)
		any_c |= st->in->compiled[i];
	const char *nor = any_c ? " and no C file mentions it" : "";
	for (size_t i = 0; i < st->in->n_defines; i++) {
		const struct asm_define *d = &st->in->defines[i];
		if (d->used_by_c)
			continue;
		size_t last; /* a .equ marks the last define of its name (dir_equ) */
		if (d->name && name_map_find(&st->defines, d->name, strlen(d->name), &last) &&
		    st->define_used[last])
			continue;
		const char *name = d->name ? d->name : "";
		char hint[160];
		asm_did_you_mean(st, name, SEC_ABS, hint, sizeof hint);
		if (d->file && d->line > 0)
			return err_set(st->e, d->file, d->line, d->col,
				       "define '%s' names no .equ in the program%s%s", name, nor, hint);
		if (d->file)
			return err_set(st->e, NULL, 0, 0, "%s %s=%lld: names no .equ in the program%s%s",
				       d->file, name, (long long)d->value, nor, hint);
		return err_set(st->e, NULL, 0, 0, "define '%s' names no .equ in the program%s%s", name, nor, hint);
	}
	return 0;
}

uint64_t asm_memory_size(const struct asm_state *st, uint64_t data_size, uint64_t percpu_size)
{
	uint64_t line = st->line_size;
	uint64_t pal = st->percpu_align > line ? st->percpu_align : line;
	uint64_t stride = align_up(percpu_size ? percpu_size : 1, pal);
	uint64_t base = align_up(PROG_DATA_BASE + data_size, pal > 4096 ? pal : 4096);
	uint64_t stack_base = align_up(base + (uint64_t)st->nr_cpus * stride, 4096);
	return stack_base + (uint64_t)st->nr_cpus * PROG_STACK_SIZE;
}

static int layout(struct asm_state *st, struct program *p)
{
	uint64_t line = st->line_size;
	p->nr_cpus = st->nr_cpus;
	p->line_size = st->line_size;
	p->data_base = PROG_DATA_BASE;
	p->data_size = st->data_size;
	p->percpu_size = st->percpu_size;
	uint64_t pal = st->percpu_align > line ? st->percpu_align : line;
	p->percpu_stride = align_up(p->percpu_size ? p->percpu_size : 1, pal);
	p->percpu_base = align_up(p->data_base + p->data_size, pal > 4096 ? pal : 4096);
	p->stack_base = align_up(p->percpu_base + (uint64_t)st->nr_cpus * p->percpu_stride, 4096);
	p->mem_size = p->stack_base + (uint64_t)st->nr_cpus * PROG_STACK_SIZE;
	/* The directives bound each section; alignment padding of the per-CPU
	 * stride can still add up, so check the whole map once more. */
	uint64_t beyond = asm_memory_size(st, 0, p->percpu_size);
	if (beyond > PROG_MAX_MEMORY)
		return err_set(st->e, st->n_files ? st->files[st->grow_file] : NULL, (int)st->grow_line,
			       (int)st->grow_col,
			       "simulated memory of %llu bytes beyond .data (%d per-CPU areas of %llu bytes, "
			       "stacks) exceeds the limit of %u MiB",
			       (unsigned long long)beyond, st->nr_cpus,
			       (unsigned long long)p->percpu_stride, PROG_MAX_MEMORY >> 20);
	for (int c = 0; c < st->nr_cpus; c++) {
		uint64_t off = program_percpu_offset(p, c);
		uint8_t bytes[8];
		for (int i = 0; i < 8; i++)
			bytes[i] = (uint8_t)(off >> (8 * i));
		if (sp_mem_write(&st->data, (uint64_t)c * 8, bytes, 8))
			return asm_oom(st);
	}
	return 0;
}

static int resolve_fixups(struct asm_state *st)
{
	st->line_text = NULL; /* the files' text is gone */
	for (uint32_t i = 0; i < st->n_fix; i++) {
		const struct asm_fixup *f = &st->fix[i];
		const struct src_loc *l = &st->locs[f->loc];
		st->cur_file_idx = l->file;
		st->cur_file = st->files[l->file];
		st->cur_line = l->line;
		st->err_cloc = f->cloc;
		if (asm_settle(st, f->kind, f->policy, f->flags, f->width, f->at, f->n, f->len,
			       f->loc, 0))
			return -1;
	}
	st->err_cloc = ASM_NO_LOC;
	return 0;
}

static int by_section_value(const void *a, const void *b)
{
	const struct symbol *x = a, *y = b;
	if (x->section != y->section)
		return x->section < y->section ? -1 : 1;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return x->loc < y->loc ? -1 : x->loc > y->loc;
}

/* A global before the file-local symbols of its name (program_symbol
 * finds it first), those in the order they were defined. */
static int by_name(const void *a, const void *b)
{
	const struct symbol *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	if (x->local != y->local)
		return x->local < y->local ? -1 : 1;
	return x->loc < y->loc ? -1 : x->loc > y->loc;
}

/* A data symbol's size runs to the next higher address in its section
 * (aliases at one address all get the full size), or to the section end. */
static void size_symbols(struct program *p)
{
	qsort(p->syms, p->n_syms, sizeof *p->syms, by_section_value);
	/* A run of aliases [i, j) is one size, found once for the run: a
	 * hundred thousand labels on one address stay linear. */
	for (uint32_t i = 0, j; i < p->n_syms; i = j) {
		const struct symbol *s = &p->syms[i];
		for (j = i + 1; j < p->n_syms && p->syms[j].section == s->section &&
		     p->syms[j].value == s->value; j++)
			;
		if (s->section != SEC_DATA && s->section != SEC_PERCPU)
			continue;
		uint64_t end = s->section == SEC_DATA ? p->data_base + p->data_size : p->percpu_size;
		if (j < p->n_syms && p->syms[j].section == s->section)
			end = (uint64_t)p->syms[j].value;
		for (uint32_t k = i; k < j; k++) {
			struct symbol *a = &p->syms[k];
			a->size = end - (uint64_t)a->value;
			if (strcmp(a->name, "__per_cpu_offset") == 0)
				a->size = (uint64_t)p->nr_cpus * 8;
		}
	}
	qsort(p->syms, p->n_syms, sizeof *p->syms, by_name);
}

static int build_symbols(struct asm_state *st, struct program *p)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < st->n_syms; i++)
		n += st->syms[i].defined && !st->syms[i].alias;
	p->syms = calloc(n ? n : 1, sizeof *p->syms);
	if (!p->syms)
		return asm_oom(st);
	for (uint32_t i = 0; i < st->n_syms; i++) {
		struct asm_sym *s = &st->syms[i];
		if (!s->defined || s->alias)
			continue;
		struct symbol *o = &p->syms[p->n_syms++];
		o->name = s->name;
		s->name = NULL;
		o->local = s->local;
		o->section = s->section;
		o->value = s->value;
		o->loc = s->loc;
	}
	size_symbols(p);
	return 0;
}

#define MOVE(dst, src) ((dst) = (src), (src) = NULL)

int asm_finish(struct asm_state *st, struct program *p)
{
	if (!st->percpu && !(st->percpu = calloc(1, 1)))
		return asm_oom(st);
	if (check_defines(st) || layout(st, p) || resolve_fixups(st) || build_symbols(st, p))
		return -1;
	MOVE(p->insns, st->insns);
	p->n_insns = st->n_insns;
	MOVE(p->locs, st->locs);
	p->n_locs = st->n_locs;
	MOVE(p->files, st->files);
	p->n_files = st->n_files;
	st->n_files = 0;
	MOVE(p->marks, st->marks);
	p->n_marks = st->n_marks;
	st->n_marks = 0;
	p->data_image = st->data;
	memset(&st->data, 0, sizeof st->data);
	MOVE(p->percpu_image, st->percpu);
	return 0;
}

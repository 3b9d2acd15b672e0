/* Source lines of instructions (report_source.h): each file of the program
 * read whole on first use and split into lines. */
#include "config.h"
#include "report/report_source.h"
#include "base/input_file.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct src_file {
	char *text;      /* NULL: not read yet or unreadable */
	char **lines;    /* line k (1-based) at lines[k - 1] */
	size_t n_lines;
	int tried;
};

struct rep_source {
	const struct program *p;
	const char *dirs[2];      /* stripped from paths shown */
	struct src_file *files;   /* p->n_files */
};

struct rep_source *rep_source_new(const struct runner *r)
{
	struct rep_source *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->p = &r->prog;
	s->dirs[0] = r->scen->dir;
	s->dirs[1] = r->scen->libdir;
	s->files = calloc(r->prog.n_files ? r->prog.n_files : 1, sizeof *s->files);
	if (!s->files) {
		free(s);
		return NULL;
	}
	return s;
}

void rep_source_free(struct rep_source *s)
{
	if (!s)
		return;
	for (uint32_t i = 0; i < s->p->n_files; i++) {
		free(s->files[i].text);
		free(s->files[i].lines);
	}
	free(s->files);
	free(s);
}

/* 0, or -1 when out of memory; a file that cannot be read has no text. */
static int load(struct rep_source *s, uint32_t k)
{
	struct src_file *f = &s->files[k];
	f->tried = 1;
	FILE *fp = fopen(s->p->files[k], "rb");
	if (!fp)
		return 0;
	size_t n = 0;
	char *t = input_read_all(fp, 0, &n);
	int unread = ferror(fp);
	fclose(fp);
	if (!t || unread) {
		free(t);
		return unread ? 0 : -1;
	}
	size_t lines = 1;
	for (size_t i = 0; i < n; i++)
		lines += t[i] == '\n';
	f->lines = malloc(lines * sizeof *f->lines);
	if (!f->lines) {
		free(t);
		return -1;
	}
	f->text = t;
	f->lines[f->n_lines++] = t;
	for (size_t i = 0; i < n; i++)
		if (t[i] == '\n') {
			t[i] = 0;
			f->lines[f->n_lines++] = t + i + 1;
		}
	return 0;
}

static const char *shown_path(const struct rep_source *s, const char *path)
{
	for (int i = 0; i < 2; i++) {
		size_t n = s->dirs[i] ? strlen(s->dirs[i]) : 0;
		if (n && strncmp(path, s->dirs[i], n) == 0 && path[n] == '/')
			return path + n + 1;
	}
	return path;
}

/* The instruction of a source line: past a leading label, before the
 * comment, spaces squeezed. */
static void insn_text(const char *line, char *out, size_t n)
{
	const char *p = line;
	while (isspace((unsigned char)*p))
		p++;
	const char *q = p;
	while (isalnum((unsigned char)*q) || *q == '_' || *q == '.')
		q++;
	if (*q == ':' && q > p)
		p = q + 1;
	size_t k = 0;
	int space = 0;
	for (; *p && *p != ';' && k + 1 < n; p++) {
		if (isspace((unsigned char)*p)) {
			space = k > 0;
			continue;
		}
		if (space && k + 2 < n)
			out[k++] = ' ';
		space = 0;
		out[k++] = *p;
	}
	out[k] = 0;
}

int rep_source_insn(struct rep_source *s, uint32_t pc, char *where, size_t wn, char *text, size_t tn)
{
	const struct program *p = s->p;
	snprintf(where, wn, "?");
	if (tn)
		text[0] = 0;
	if (pc >= p->n_insns || p->insns[pc].loc >= p->n_locs)
		return 0;
	const struct src_loc *l = &p->locs[p->insns[pc].loc];
	if (l->file >= p->n_files)
		return 0;
	snprintf(where, wn, "%s:%u", shown_path(s, p->files[l->file]), (unsigned)l->line);
	struct src_file *f = &s->files[l->file];
	if (!f->tried && load(s, l->file)) {
		f->tried = 0; /* the next caller may have the memory */
		return -1;
	}
	if (f->text && l->line >= 1 && l->line <= f->n_lines && tn)
		insn_text(f->lines[l->line - 1], text, tn);
	return 0;
}

/* Cores at the same instruction share a row, so 1024 spinning cores make
 * one line, not a thousand. */
void rep_print_unfinished(const struct runner *r, FILE *f)
{
	int n = r->run.cores;
	uint32_t *pc = malloc((size_t)n * sizeof *pc);
	uint8_t *act = malloc((size_t)n);
	struct rep_source *src = rep_source_new(r);
	if (!pc || !act || !src)
		goto out;
	for (int c = 0; c < n; c++) {
		struct sim_core_view v;
		sim_core_view(r->sim, c, &v);
		/* halted, or never given a thread: nothing unfinished */
		int done = v.halted || v.activity == CORE_ACT_IDLE || v.activity == CORE_ACT_HALTED;
		pc[c] = done ? MS_NO_PC : v.pc;
		act[c] = (uint8_t)v.activity;
	}
	for (int c = 0; c < n; c++) {
		if (pc[c] == MS_NO_PC)
			continue;
		char cores[256], where[256], text[160];
		size_t k = 0;
		int run_first = -1, prev = -2;
		/* this instruction's cores, as ranges; each printed once */
		uint32_t at = pc[c];
		for (int d = c; d <= n; d++) {
			int in = d < n && pc[d] == at;
			if (in && d == prev + 1 && run_first >= 0) {
				prev = d;
			} else {
				if (run_first >= 0 && k < sizeof cores)
					k += (size_t)snprintf(cores + k, sizeof cores - k, prev > run_first ? "%s%d-%d" : "%s%d",
							      k ? "," : "", run_first, prev);
				run_first = in ? d : -1;
				prev = in ? d : -2;
			}
			if (in && d > c)
				pc[d] = MS_NO_PC;
		}
		(void)rep_source_insn(src, at, where, sizeof where, text, sizeof text); /* "?" without memory */
		fprintf(f, "  %s %s (%s): %s  %s\n", strchr(cores, ',') || strchr(cores, '-') ? "cores" : "core",
			cores, core_activity_name((enum core_activity)act[c]), where, text);
	}
out:
	rep_source_free(src);
	free(act);
	free(pc);
}

/* --find over a sweep's CSV rows (sweep_find.h). The rows are the CSV the
 * sweep writes, so the answer is about exactly the figures a user would
 * read there, ratios and replicates' means included. */
#include "config.h"
#include "cli/sweep_find.h"
#include "cli/cli.h"
#include "base/suggest.h"

#include <stdlib.h>
#include <string.h>

#define FIND_FIELDS (CLI_MAX_SETS + 200)

static const char *const op_text[] = {">=", "<=", ">", "<", "="};

/* Split a copy of line into fields; NULL out of memory. */
static char *split(const char *line, char **fields, int *n)
{
	char *copy = strdup(line);
	if (!copy)
		return NULL;
	copy[strcspn(copy, "\r\n")] = 0;
	*n = csv_fields(copy, fields, FIND_FIELDS);
	return copy;
}

int sweep_find_parse(const char *text, const char *header, size_t n_params, struct sweep_find *f, struct err *e)
{
	memset(f, 0, sizeof *f);
	f->text = text;
	f->n_params = n_params;
	size_t len = strcspn(text, "<>=");
	if (!len || !text[len])
		return err_set(e, NULL, 0, 0, "--find: expected COLUMN OP NUMBER with OP one of >= <= > < =, got '%s'", text);
	const char *op = text + len;
	int k = -1;
	for (int i = 0; i < 5 && k < 0; i++)
		if (!strncmp(op, op_text[i], strlen(op_text[i])))
			k = i;
	const char *num = op + strlen(op_text[k]);
	char *end;
	f->op = (enum find_op)k;
	f->value = strtod(num, &end);
	if (end == num || *end)
		return err_set(e, NULL, 0, 0, "--find %s: '%s' is not a number", text, num);
	char *fields[FIND_FIELDS];
	int n;
	char *h = split(header, fields, &n);
	if (!h)
		return err_internal(e, "out of memory");
	f->column = -1;
	f->x = n_params ? 1 : -1;
	for (int i = 0; i < n; i++) {
		if (strlen(fields[i]) == len && !strncmp(fields[i], text, len))
			f->column = i;
		if (i >= 1 && (size_t)i <= n_params && !strcmp(fields[i], "cores"))
			f->x = i;
	}
	if (f->column < 0) {
		char col[128];
		snprintf(col, sizeof col, "%.*s", (int)len, text);
		struct suggest g;
		suggest_init(&g, col);
		for (int i = 0; i < n; i++)
			suggest_offer(&g, fields[i]);
		const char *near = suggest_best(&g);
		err_set(e, NULL, 0, 0, "--find %s: the sweep's CSV has no column '%s'%s%s%s", text, col,
			near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
		free(h);
		return -1;
	}
	free(h);
	return 0;
}

static int holds(const struct sweep_find *f, double v)
{
	switch (f->op) {
	case FIND_GE: return v >= f->value;
	case FIND_LE: return v <= f->value;
	case FIND_GT: return v > f->value;
	case FIND_LT: return v < f->value;
	case FIND_EQ: return v == f->value;
	}
	return 0;
}

/* A series' name: the variant, and the parameters other than x. */
static void series_of(const struct sweep_find *f, char **head, char **fields, char *buf, size_t size)
{
	snprintf(buf, size, "%s", fields[f->n_params + 2]);
	for (size_t i = 1; i <= f->n_params; i++)
		if ((int)i != f->x)
			snprintf(buf + strlen(buf), size - strlen(buf), " %s=%s", head[i], fields[i]);
}

void sweep_find_print(const struct sweep_find *f, const char *header, const char *const *rows, size_t n, FILE *out)
{
	char *hf[FIND_FIELDS];
	int nh;
	char *h = split(header, hf, &nh);
	char **names = calloc(n ? n : 1, sizeof *names);
	int *state = calloc(n ? n : 1, sizeof *state); /* per series: points seen, -1 once found */
	char **found = calloc(n ? n : 1, sizeof *found);
	size_t n_series = 0;
	if (!h || !names || !state || !found)
		goto out;
	for (size_t r = 0; r < n; r++) {
		char *fields[FIND_FIELDS];
		int nf;
		char *row = split(rows[r], fields, &nf);
		if (!row)
			break;
		if (nf != nh) {
			free(row);
			continue;
		}
		char label[512];
		series_of(f, hf, fields, label, sizeof label);
		size_t s = 0;
		while (s < n_series && strcmp(names[s], label))
			s++;
		if (s == n_series)
			names[n_series++] = strdup(label);
		const char *cell = fields[f->column];
		char *end;
		double v = strtod(cell, &end);
		if (state[s] >= 0) {
			state[s]++;
			if (*cell && !*end && holds(f, v)) {
				state[s] = -1;
				char at[256] = "";
				if (f->x > 0)
					snprintf(at, sizeof at, "%s=%s ", hf[f->x], fields[f->x]);
				if (asprintf(&found[s], "%s: %s first at %s(point %s): %s\n", f->text, label, at, fields[0],
					     cell) < 0)
					found[s] = NULL;
			}
		}
		free(row);
	}
	/* in the order the series first appear, found or not */
	for (size_t s = 0; s < n_series; s++) {
		if (state[s] >= 0)
			fprintf(out, "%s: %s never, in its %d point%s\n", f->text, names[s], state[s],
				state[s] == 1 ? "" : "s");
		else if (found[s])
			fputs(found[s], out);
	}
out:
	for (size_t s = 0; s < n_series; s++) {
		free(names[s]);
		free(found ? found[s] : NULL);
	}
	free(found);
	free(names);
	free(state);
	free(h);
}

/* Where the counter library defines a label that a program calls but does
 * not define: the hint of an "undefined label" message, so that a scenario
 * missing "lib/spinlock.s" in its program list is told which file to add. */
#include "config.h"
#include "asm/asm_internal.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether a line of the file at path starts with "name:". */
static int defines(const char *path, const char *name)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	char line[1024];
	size_t len = strlen(name);
	int found = 0;
	while (!found && fgets(line, sizeof line, f))
		found = strncmp(line, name, len) == 0 && line[len] == ':';
	fclose(f);
	return found;
}

/* The first lib/NAME.s, in name order, under dir that defines name. */
static int search_dir(const char *dir, const char *name, char *file, size_t n)
{
	char lib[4096];
	snprintf(lib, sizeof lib, "%s/lib", dir);
	DIR *d = opendir(lib);
	if (!d)
		return 0;
	char *names[256] = {0};
	size_t k = 0;
	struct dirent *de;
	while ((de = readdir(d)) && k < sizeof names / sizeof names[0]) {
		size_t l = strlen(de->d_name);
		if (l > 2 && strcmp(de->d_name + l - 2, ".s") == 0 && (names[k] = strdup(de->d_name)))
			k++;
	}
	closedir(d);
	qsort(names, k, sizeof names[0], cmp_name);
	int found = 0;
	for (size_t i = 0; i < k; i++) {
		char path[8192];
		snprintf(path, sizeof path, "%s/%s", lib, names[i]);
		if (!found && defines(path, name)) {
			snprintf(file, n, "lib/%s", names[i]);
			found = 1;
		}
		free(names[i]);
	}
	return found;
}

const char *asm_library_hint(const struct asm_state *st, const char *name, char *buf, size_t n)
{
	char file[300];
	if (n)
		buf[0] = 0;
	for (size_t i = 0; i < st->in->n_include_dirs; i++)
		if (search_dir(st->in->include_dirs[i], name, file, sizeof file)) {
			snprintf(buf, n, " (the counter library's %s defines it: list \"%s\" in the scenario's "
				 "\"program\")", file, file);
			break;
		}
	return buf;
}

/* `bounce list`: the CPU models, scenarios and counter-library routines in
 * the data directory, each with the one line that says what it is. */
#include "config.h"
#include "cli/cli.h"

#include <dirent.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "cli/outfile.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names in dir ending in suffix; caller frees. */
/* The names in dir ending in suffix, sorted, in *out: how many, or -1
 * when out of memory (a list cut short would be a wrong answer). A
 * directory that cannot be read lists nothing. */
static ptrdiff_t list_dir(const char *dir, const char *suffix, char ***out)
{
	DIR *d = opendir(dir);
	size_t n = 0;
	*out = NULL;
	if (!d)
		return 0;
	struct dirent *de;
	size_t sl = strlen(suffix);
	int oom = 0;
	while (!oom && (de = readdir(d))) {
		size_t l = strlen(de->d_name);
		if (l <= sl || strcmp(de->d_name + l - sl, suffix) != 0)
			continue;
		char **nn = realloc(*out, (n + 1) * sizeof *nn);
		oom = !nn || !(nn[n] = strdup(de->d_name));
		if (nn)
			*out = nn;
		n += !oom;
	}
	closedir(d);
	if (oom) {
		for (size_t i = 0; i < n; i++)
			free((*out)[i]);
		free(*out);
		*out = NULL;
		return -1;
	}
	if (n > 1)
		qsort(*out, n, sizeof **out, cmp_str);
	return (ptrdiff_t)n;
}

static void free_list(char **l, ptrdiff_t n)
{
	for (ptrdiff_t i = 0; i < n; i++)
		free(l[i]);
	free(l);
}

/* Routines are the labels that start a line in a library file (local
 * labels, which start with a digit, are not). */
static int list_routines(const char *path, cJSON *into)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	char line[1024];
	int rc = 0;
	while (!rc && fgets(line, sizeof line, f)) {
		size_t k = strspn(line, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		if (k && line[k] == ':' && !(line[0] >= '0' && line[0] <= '9')) {
			line[k] = 0;
			rc = !cJSON_AddItemToArray(into, cJSON_CreateString(line));
		}
	}
	fclose(f);
	return rc ? -1 : 0;
}

/* "224 of 448 CPUs: 8 sockets x 28 cores x 2 threads (smt-last), 1-2 hops":
 * the machine's shape, which the description need not repeat. */
static void topology_line(const struct cpu_model *m, char *buf, size_t n)
{
	struct topology t;
	if (!m->topology.sockets) {
		cpu_model_topology(m, &t);
		snprintf(buf, n, "%d CPUs: %d socket%s of %d (flat shorthand)", m->cores, t.sockets,
			 t.sockets > 1 ? "s" : "", t.cores_per_socket);
		return;
	}
	t = m->topology;
	char clusters[48] = "", hops[32] = "";
	if (t.cores_per_cluster < t.cores_per_socket)
		snprintf(clusters, sizeof clusters, " in clusters of %d", t.cores_per_cluster);
	int maxhop = 0;
	for (int a = 0; a < t.sockets; a++)
		for (int b = 0; b < t.sockets; b++)
			if (t.hops[a][b] > maxhop)
				maxhop = t.hops[a][b];
	if (maxhop > 1)
		snprintf(hops, sizeof hops, ", 1-%d hops", maxhop);
	snprintf(buf, n, "%d of %d CPUs: %d socket%s x %d cores%s x %d thread%s (%s)%s", m->cores, topo_cpus(&t),
		 t.sockets, t.sockets > 1 ? "s" : "", t.cores_per_socket, clusters, t.threads_per_core,
		 t.threads_per_core > 1 ? "s" : "", topo_numbering_name(t.numbering), hops);
}

static const char *str(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsString(v) ? v->valuestring : "";
}

/* The data directory's contents as one document: the text and --json
 * are both written from it, so they cannot disagree. */
static cJSON *list_doc(const char *dd)
{
	char path[4096];
	char **names;
	ptrdiff_t n;
	int bad = 0;
	cJSON *doc = cJSON_CreateObject(), *cpus = cJSON_AddArrayToObject(doc, "cpus"),
	      *scens = cJSON_AddArrayToObject(doc, "scenarios"), *lib = cJSON_AddArrayToObject(doc, "library");
	if (!doc || !cpus || !scens || !lib || !cJSON_AddStringToObject(doc, "datadir", dd)) {
		cJSON_Delete(doc);
		return NULL;
	}
	snprintf(path, sizeof path, "%s/cpus", dd);
	n = list_dir(path, ".json", &names);
	bad = n < 0;
	for (ptrdiff_t i = 0; i < n && !bad; i++) {
		struct cpu_model m;
		struct err e = {0};
		names[i][strlen(names[i]) - 5] = 0;
		cJSON *c = cJSON_CreateObject();
		bad = !c || !cJSON_AddItemToArray(cpus, c) || !cJSON_AddStringToObject(c, "name", names[i]);
		if (bad)
			break;
		if (scen_load_cpu(names[i], &m, &e) == 0) {
			char shape[160];
			topology_line(&m, shape, sizeof shape);
			bad = !cJSON_AddNumberToObject(c, "cores", m.cores) || !cJSON_AddStringToObject(c, "shape", shape) ||
			      !cJSON_AddStringToObject(c, "fabric", cpu_fabric_name(m.fabric)) ||
			      !cJSON_AddStringToObject(c, "protocol", cpu_protocol_name(m.protocol)) ||
			      !cJSON_AddStringToObject(c, "description", m.description);
		} else {
			/* out of memory is this run's failure, not the model's */
			bad = e.kind == ERR_INTERNAL || !cJSON_AddStringToObject(c, "broken", e.msg);
		}
	}
	free_list(names, n);

	snprintf(path, sizeof path, "%s/scenarios", dd);
	names = NULL;
	n = bad ? 0 : list_dir(path, ".json", &names);
	bad |= n < 0;
	for (ptrdiff_t i = 0; i < n && !bad; i++) {
		char file[4600];
		struct scenario s = {0};
		struct err e = {0};
		snprintf(file, sizeof file, "%s/%s", path, names[i]);
		if (strstr(names[i], "schema"))
			continue;
		cJSON *c = cJSON_CreateObject();
		bad = !c || !cJSON_AddItemToArray(scens, c) || !cJSON_AddStringToObject(c, "file", names[i]);
		if (!bad && scen_load(file, &s, &e) == 0)
			bad = !cJSON_AddStringToObject(c, "name", s.name) ||
			      !cJSON_AddNumberToObject(c, "variants", (double)s.n_variants);
		else if (!bad)
			bad = e.kind == ERR_INTERNAL || !cJSON_AddStringToObject(c, "broken", e.msg);
		scen_free(&s);
	}
	free_list(names, n);

	snprintf(path, sizeof path, "%s/scenarios/lib", dd);
	names = NULL;
	n = bad ? 0 : list_dir(path, ".s", &names);
	bad |= n < 0;
	for (ptrdiff_t i = 0; i < n && !bad; i++) {
		char file[4600];
		snprintf(file, sizeof file, "%s/%s", path, names[i]);
		cJSON *c = cJSON_CreateObject(), *r = c ? cJSON_AddArrayToObject(c, "routines") : NULL;
		bad = !c || !cJSON_AddItemToArray(lib, c) || !r || !cJSON_AddStringToObject(c, "file", names[i]) ||
		      list_routines(file, r);
	}
	free_list(names, n);
	if (bad) {
		cJSON_Delete(doc);
		return NULL;
	}
	return doc;
}

static void print_list(const cJSON *doc)
{
	const char *dd = str(doc, "datadir");
	const cJSON *c;
	printf("CPU models (%s/cpus):\n", dd);
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "cpus")) {
		if (cJSON_GetObjectItemCaseSensitive(c, "broken"))
			printf("  %-18s (broken: %s)\n", str(c, "name"), str(c, "broken"));
		else
			printf("  %-18s %s; %s %s\n  %-18s %s\n", str(c, "name"), str(c, "shape"), str(c, "fabric"),
			       str(c, "protocol"), "", str(c, "description"));
	}
	printf("\nScenarios (%s/scenarios):\n", dd);
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "scenarios")) {
		if (cJSON_GetObjectItemCaseSensitive(c, "broken"))
			printf("  %-26s (broken: %s)\n", str(c, "file"), str(c, "broken"));
		else
			printf("  %-26s %s (%d variants)\n", str(c, "file"), str(c, "name"),
			       cJSON_GetObjectItemCaseSensitive(c, "variants")->valueint);
	}
	printf("\nCounter library (%s/scenarios/lib):\n", dd);
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "library")) {
		printf("  %s\n", str(c, "file"));
		const cJSON *r;
		int col = 0;
		cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(c, "routines")) {
			printf("%s%s", col ? ", " : "    ", r->valuestring);
			col = 1;
		}
		if (col)
			printf("\n");
	}
}

int cli_list(const struct cli_opts *o)
{
	struct err e = {0};
	struct outfile *out = NULL;
	/* opened first: an output that cannot be written is refused at once */
	if (o->json && !(out = outfile_open(o->json, &e)))
		return cli_fail(&e);
	cJSON *doc = list_doc(scen_datadir());
	if (!doc) {
		outfile_abort(out);
		err_internal(&e, "out of memory");
		return cli_fail(&e);
	}
	if (cli_prints_text(o))
		print_list(doc);
	int rc = EXIT_OK;
	if (out) {
		char *text = cJSON_Print(doc);
		if (!text) {
			outfile_abort(out);
			err_internal(&e, "out of memory");
			rc = cli_fail(&e);
		} else {
			fputs(text, outfile_stream(out));
			fputc('\n', outfile_stream(out));
			free(text);
			if (outfile_commit(out, &e))
				rc = cli_fail(&e);
		}
	}
	cJSON_Delete(doc);
	return rc;
}

/* `bounce list`: the CPU models, scenarios and counter-library routines in
 * the data directory, each with the one line that says what it is. */
#include "config.h"
#include "cli/cli.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names in dir ending in suffix; caller frees. */
static size_t list_dir(const char *dir, const char *suffix, char ***out)
{
	DIR *d = opendir(dir);
	size_t n = 0;
	*out = NULL;
	if (!d)
		return 0;
	struct dirent *de;
	size_t sl = strlen(suffix);
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		if (l <= sl || strcmp(de->d_name + l - sl, suffix) != 0)
			continue;
		char **nn = realloc(*out, (n + 1) * sizeof *nn);
		if (!nn)
			break;
		*out = nn;
		if (!((*out)[n] = strdup(de->d_name)))
			break;
		n++;
	}
	closedir(d);
	if (n > 1)
		qsort(*out, n, sizeof **out, cmp_str);
	return n;
}

static void free_list(char **l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(l[i]);
	free(l);
}

/* Routines are the labels that start a line in a library file. */
static void list_routines(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	char line[1024];
	int col = 0;
	while (fgets(line, sizeof line, f)) {
		size_t k = strspn(line, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		if (k && line[k] == ':') {
			line[k] = 0;
			if (line[0] >= '0' && line[0] <= '9')
				continue;
			printf("%s%s", col ? ", " : "    ", line);
			col = 1;
		}
	}
	if (col)
		printf("\n");
	fclose(f);
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

int cli_list(const struct cli_opts *o)
{
	const char *dd = scen_datadir();
	char path[4096];
	char **names;
	size_t n;

	snprintf(path, sizeof path, "%s/cpus", dd);
	n = list_dir(path, ".json", &names);
	printf("CPU models (%s):\n", path);
	for (size_t i = 0; i < n; i++) {
		struct cpu_model m;
		struct err e = {0};
		names[i][strlen(names[i]) - 5] = 0;
		if (scen_load_cpu(names[i], &m, &e) == 0) {
			char shape[160];
			topology_line(&m, shape, sizeof shape);
			printf("  %-18s %s; %s %s\n  %-18s %s\n", names[i], shape, cpu_fabric_name(m.fabric),
			       cpu_protocol_name(m.protocol), "", m.description);
		} else
			printf("  %-18s (broken: %s)\n", names[i], e.msg);
	}
	free_list(names, n);

	snprintf(path, sizeof path, "%s/scenarios", dd);
	n = list_dir(path, ".json", &names);
	printf("\nScenarios (%s):\n", path);
	for (size_t i = 0; i < n; i++) {
		char file[4600];
		struct scenario s = {0};
		struct err e = {0};
		snprintf(file, sizeof file, "%s/%s", path, names[i]);
		if (strstr(names[i], "schema"))
			continue;
		if (scen_load(file, &s, &e) == 0)
			printf("  %-26s %s (%zu variants)\n", names[i], s.name, s.n_variants);
		else
			printf("  %-26s (broken: %s)\n", names[i], e.msg);
		scen_free(&s);
	}
	free_list(names, n);

	snprintf(path, sizeof path, "%s/scenarios/lib", dd);
	n = list_dir(path, ".s", &names);
	printf("\nCounter library (%s):\n", path);
	for (size_t i = 0; i < n; i++) {
		char file[4600];
		snprintf(file, sizeof file, "%s/%s", path, names[i]);
		printf("  %s\n", names[i]);
		list_routines(file);
	}
	free_list(names, n);
	(void)o;
	return EXIT_OK;
}

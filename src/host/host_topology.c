/* Reading this host's topology: hwloc and the sysfs CPU tree each fill one
 * raw record per logical CPU (package, physical core, the caches it sees
 * and who shares them); host_topo_derive then turns the records into
 * sockets, clusters, SMT and the Linux numbering rule, whichever source. */
#include "config.h"
#include "host/host_topology.h"

#include <dirent.h>
#include <errno.h>
#include <hwloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Irregularities go into t->notes, which calibrate reports. */
#define note(t, ...) host_list_add((t)->notes, sizeof (t)->notes, __VA_ARGS__)

int host_parse_cpulist(const char *s, int *ids, int max)
{
	int n = 0;
	const char *p = s;
	while (*p && *p != '\n') {
		char *end;
		errno = 0;
		long a = strtol(p, &end, 10), b;
		if (end == p || errno || a < 0 || a >= (long)HOST_MAX_CPUS * 64)
			return -1;
		b = a;
		p = end;
		if (*p == '-') {
			p++;
			b = strtol(p, &end, 10);
			if (end == p || errno || b < a || b >= (long)HOST_MAX_CPUS * 64)
				return -1;
			p = end;
		}
		for (long i = a; i <= b; i++) {
			if (n == max)
				return -1;
			ids[n++] = (int)i;
		}
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -1;
	}
	return n;
}

/* ---- sysfs ---- */

/* Read a small file whole; returns 0 or -1 when it does not exist. */
static int read_text(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t got = fread(buf, 1, n - 1, f);
	fclose(f);
	buf[got] = 0;
	while (got && (buf[got - 1] == '\n' || buf[got - 1] == ' '))
		buf[--got] = 0;
	return 0;
}

static int read_long(const char *path, long *v)
{
	char buf[64], *end;
	if (read_text(path, buf, sizeof buf))
		return -1;
	errno = 0;
	*v = strtol(buf, &end, 10);
	return end == buf || errno ? -1 : 0;
}

/* Cache sizes in sysfs read "32K", "1024K" or "32M". */
static int parse_size(const char *s, uint32_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (end == s || errno)
		return -1;
	if (*end == 'K')
		v <<= 10;
	else if (*end == 'M')
		v <<= 20;
	else if (*end == 'G')
		v <<= 30;
	else if (*end)
		return -1;
	if (v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int sysfs_cache(const char *dir, struct host_cpu_raw *c, struct err *e)
{
	char path[1024], buf[4096];
	for (int idx = 0; idx < 16 && c->ncache < HOST_MAX_CACHES; idx++) {
		snprintf(path, sizeof path, "%s/cache/index%d/type", dir, idx);
		if (read_text(path, buf, sizeof buf))
			continue;
		if (strcmp(buf, "Instruction") == 0)
			continue;
		struct host_cache *k = &c->cache[c->ncache];
		long level = 0, ways = 0, line = 0;
		snprintf(path, sizeof path, "%s/cache/index%d/level", dir, idx);
		if (read_long(path, &level) || level < 1 || level > 9)
			return err_set(e, path, 0, 0, "cannot read the cache level");
		snprintf(path, sizeof path, "%s/cache/index%d/size", dir, idx);
		if (read_text(path, buf, sizeof buf) || parse_size(buf, &k->size))
			return err_set(e, path, 0, 0, "cannot read the cache size");
		snprintf(path, sizeof path, "%s/cache/index%d/ways_of_associativity", dir, idx);
		if (read_long(path, &ways) || ways < 0)
			ways = 0; /* unknown: filled with a default later and noted */
		snprintf(path, sizeof path, "%s/cache/index%d/coherency_line_size", dir, idx);
		if (read_long(path, &line) || line < 0)
			line = 0;
		snprintf(path, sizeof path, "%s/cache/index%d/shared_cpu_list", dir, idx);
		int ids[HOST_MAX_CPUS];
		int n = read_text(path, buf, sizeof buf) ? -1 : host_parse_cpulist(buf, ids, HOST_MAX_CPUS);
		if (n < 0)
			k->share = c->id, k->nshare = 1;
		else
			k->share = n ? ids[0] : c->id, k->nshare = n ? n : 1;
		k->level = (int)level;
		k->ways = (uint32_t)ways;
		k->line = (uint32_t)line;
		c->ncache++;
	}
	return 0;
}

int host_topo_from_sysfs(const char *root, struct host_topo *t, struct err *e)
{
	char path[1024], buf[4096];
	memset(t, 0, sizeof *t);
	snprintf(t->from, sizeof t->from, "sysfs");
	snprintf(path, sizeof path, "%s/online", root);
	int n;
	if (read_text(path, buf, sizeof buf) == 0) {
		n = host_parse_cpulist(buf, t->id, HOST_MAX_CPUS);
		if (n <= 0)
			return err_set(e, path, 0, 0, "not a CPU list: '%s'", buf);
	} else {
		/* No online file (some containers): every cpuN directory counts. */
		DIR *d = opendir(root);
		if (!d)
			return err_set(e, root, 0, 0, "cannot read the CPU tree: %s", strerror(errno));
		char seen[HOST_MAX_CPUS] = {0};
		struct dirent *de;
		while ((de = readdir(d))) {
			char *end;
			if (strncmp(de->d_name, "cpu", 3) || !de->d_name[3])
				continue;
			long id = strtol(de->d_name + 3, &end, 10);
			if (*end || id < 0 || id >= HOST_MAX_CPUS)
				continue;
			seen[id] = 1;
		}
		closedir(d);
		n = 0;
		for (int i = 0; i < HOST_MAX_CPUS; i++)
			if (seen[i])
				t->id[n++] = i;
		if (!n)
			return err_set(e, root, 0, 0, "no cpuN directories");
	}
	t->ncpus = n;
	for (int i = 0; i < n; i++) {
		struct host_cpu_raw *c = &t->cpu[i];
		char dir[600];
		long v;
		c->id = t->id[i];
		snprintf(dir, sizeof dir, "%s/cpu%d", root, c->id);
		snprintf(path, sizeof path, "%s/topology/physical_package_id", dir);
		c->package = read_long(path, &v) || v < 0 ? 0 : (int)v;
		snprintf(path, sizeof path, "%s/topology/thread_siblings_list", dir);
		int ids[HOST_MAX_CPUS];
		int ns = read_text(path, buf, sizeof buf) ? -1 : host_parse_cpulist(buf, ids, HOST_MAX_CPUS);
		if (ns == 0 || (ns < 0 && read_text(path, buf, sizeof buf) == 0))
			return err_set(e, path, 0, 0, "not a CPU list: '%s'", buf);
		c->core = ns > 0 ? ids[0] : c->id;
		c->nsiblings = ns > 0 ? ns : 1;
		if (sysfs_cache(dir, c, e))
			return -1;
	}
	return host_topo_derive(t, e);
}

/* ---- hwloc ---- */

static int from_hwloc(struct host_topo *t, struct err *e)
{
	hwloc_topology_t topo;
	memset(t, 0, sizeof *t);
	snprintf(t->from, sizeof t->from, "hwloc");
	if (hwloc_topology_init(&topo) < 0)
		return err_set(e, NULL, 0, 0, "hwloc: cannot initialise");
	if (hwloc_topology_load(topo) < 0) {
		hwloc_topology_destroy(topo);
		return err_set(e, NULL, 0, 0, "hwloc: cannot load the topology");
	}
	int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
	if (n <= 0 || n > HOST_MAX_CPUS) {
		hwloc_topology_destroy(topo);
		return err_set(e, NULL, 0, 0, "hwloc: %d processing units (supported: 1..%d)", n, HOST_MAX_CPUS);
	}
	for (int i = 0; i < n; i++) {
		hwloc_obj_t pu = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, (unsigned)i);
		struct host_cpu_raw *c = &t->cpu[i];
		c->id = (int)pu->os_index;
		hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, pu);
		c->package = !pkg ? 0 : pkg->os_index != HWLOC_UNKNOWN_INDEX ? (int)pkg->os_index
									     : (int)pkg->logical_index;
		hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, pu);
		c->core = core ? hwloc_bitmap_first(core->cpuset) : c->id;
		c->nsiblings = core ? hwloc_bitmap_weight(core->cpuset) : 1;
		for (hwloc_obj_t o = pu->parent; o && c->ncache < HOST_MAX_CACHES; o = o->parent) {
			if (!hwloc_obj_type_is_dcache(o->type))
				continue;
			struct host_cache *k = &c->cache[c->ncache++];
			k->level = (int)o->attr->cache.depth;
			k->size = o->attr->cache.size > UINT32_MAX ? UINT32_MAX : (uint32_t)o->attr->cache.size;
			k->ways = o->attr->cache.associativity > 0 ? (uint32_t)o->attr->cache.associativity : 0;
			k->line = o->attr->cache.linesize;
			k->share = hwloc_bitmap_first(o->cpuset);
			k->nshare = hwloc_bitmap_weight(o->cpuset);
		}
	}
	hwloc_topology_destroy(topo);
	/* hwloc lists PUs in its logical order; the model wants Linux ids. */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && t->cpu[j - 1].id > t->cpu[j].id; j--) {
			struct host_cpu_raw tmp = t->cpu[j];
			t->cpu[j] = t->cpu[j - 1];
			t->cpu[j - 1] = tmp;
		}
	t->ncpus = n;
	for (int i = 0; i < n; i++)
		t->id[i] = t->cpu[i].id;
	return host_topo_derive(t, e);
}

int host_topo_detect(struct host_topo *t, struct err *e)
{
	struct err he = {0};
	if (from_hwloc(t, &he) == 0)
		return 0;
	if (host_topo_from_sysfs("/sys/devices/system/cpu", t, e))
		return -1;
	note(t, "hwloc failed (%s), read sysfs", he.msg);
	return 0;
}

/* ---- deriving the model's terms ---- */

void host_list_add(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strlen(buf);
	if (len && len + 2 < size)
		len += (size_t)snprintf(buf + len, size - len, "; ");
	va_list ap;
	va_start(ap, fmt);
	if (len < size)
		vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}

static const struct host_cache *cache_at(const struct host_cpu_raw *c, int level)
{
	for (int i = 0; i < c->ncache; i++)
		if (c->cache[i].level == level)
			return &c->cache[i];
	return NULL;
}

/* Distinct values of key(i) over the CPUs, counted into *distinct. */
static int count_distinct(const int *keys, int n)
{
	int d = 0;
	for (int i = 0; i < n; i++) {
		int seen = 0;
		for (int j = 0; j < i && !seen; j++)
			seen = keys[j] == keys[i];
		d += !seen;
	}
	return d;
}

/* The most physical cores one instance of the level-`level` cache is
 * shared by; 0 when some CPU lacks that level. */
static int cores_sharing(const struct host_topo *t, int level)
{
	int best = 0;
	int *cores = malloc(sizeof *cores * (size_t)t->ncpus);
	if (!cores)
		return 0;
	for (int i = 0; i < t->ncpus; i++) {
		const struct host_cache *k = cache_at(&t->cpu[i], level);
		if (!k) {
			best = 0;
			break;
		}
		int m = 0;
		for (int j = 0; j < t->ncpus; j++) {
			const struct host_cache *kj = cache_at(&t->cpu[j], level);
			if (kj && kj->share == k->share)
				cores[m++] = t->cpu[j].core;
		}
		int d = count_distinct(cores, m);
		if (d > best)
			best = d;
	}
	free(cores);
	return best;
}

int host_topo_derive(struct host_topo *t, struct err *e)
{
	int n = t->ncpus;
	if (n < 1 || n > HOST_MAX_CPUS)
		return err_set(e, NULL, 0, 0, "%d CPUs (supported: 1..%d)", n, HOST_MAX_CPUS);
	int *keys = malloc(sizeof *keys * (size_t)n * 2);
	if (!keys)
		return err_internal(e, "out of memory");
	int *cores = keys + n;
	for (int i = 0; i < n; i++) {
		keys[i] = t->cpu[i].package;
		cores[i] = t->cpu[i].core;
	}
	t->sockets = count_distinct(keys, n);
	int ncores = count_distinct(cores, n);
	free(keys);

	t->threads_per_core = 1;
	for (int i = 0; i < n; i++)
		if (t->cpu[i].nsiblings > t->threads_per_core)
			t->threads_per_core = t->cpu[i].nsiblings;
	if (ncores * t->threads_per_core != n)
		note(t, "SMT is not uniform: %d physical cores for %d CPUs", ncores, n);
	t->cores_per_socket = (ncores + t->sockets - 1) / t->sockets;
	if (t->cores_per_socket * t->sockets != ncores)
		note(t, "sockets differ in size: %d cores on %d sockets", ncores, t->sockets);

	/* Linux numbers siblings either next to each other or in the second
	 * half; CPU 0's first sibling tells which. */
	t->numbering = TOPO_NUM_SMT_LAST;
	for (int i = 1; i < n && t->threads_per_core > 1; i++)
		if (t->cpu[i].core == t->cpu[0].core) {
			if (t->cpu[i].id == t->cpu[0].id + 1)
				t->numbering = TOPO_NUM_SMT_ADJACENT;
			else if (t->cpu[i].id != t->cpu[0].id + ncores)
				note(t, "SMT numbering is neither adjacent nor second-half: CPU %d's sibling is CPU %d",
				     t->cpu[0].id, t->cpu[i].id);
			break;
		}

	/* A cluster: the cores under the outermost cache that a group smaller
	 * than the socket shares (EPYC's CCX L3, a module's L2). */
	t->cores_per_cluster = t->cores_per_socket;
	t->cluster_level = 0;
	for (int level = 4; level >= 2; level--) {
		int c = cores_sharing(t, level);
		if (c > 1 && c < t->cores_per_socket) {
			if (t->cores_per_socket % c) {
				note(t, "L%d is shared by %d cores, which does not divide %d per socket: no cluster level",
				     level, c, t->cores_per_socket);
				break;
			}
			t->cores_per_cluster = c;
			t->cluster_level = level;
			break;
		}
	}

	const struct host_cpu_raw *c0 = &t->cpu[0];
	const struct host_cache *l1 = cache_at(c0, 1);
	if (l1) {
		t->l1_size = l1->size;
		t->l1_ways = l1->ways;
		t->line = l1->line;
	}
	const struct host_cache *l2 = cache_at(c0, 2);
	t->l2_size = l2 ? l2->size : 0;
	for (int i = 0; i < c0->ncache; i++)
		if (c0->cache[i].level > t->llc_level && c0->cache[i].level > 1) {
			t->llc_level = c0->cache[i].level;
			t->llc_size = c0->cache[i].size;
			t->llc_ways = c0->cache[i].ways;
			t->llc_nshare = c0->cache[i].nshare;
			if (!t->line)
				t->line = c0->cache[i].line;
		}
	return 0;
}

enum topo_level host_topo_level(const struct host_topo *t, int a, int b)
{
	const struct host_cpu_raw *x = &t->cpu[a], *y = &t->cpu[b];
	if (a == b)
		return TOPO_SELF;
	if (x->package != y->package)
		return TOPO_REMOTE;
	if (x->core == y->core)
		return TOPO_SMT;
	if (t->cluster_level) {
		const struct host_cache *kx = cache_at(x, t->cluster_level), *ky = cache_at(y, t->cluster_level);
		if (kx && ky && kx->share == ky->share)
			return TOPO_CLUSTER;
	}
	return TOPO_SOCKET;
}

int host_topo_pair(const struct host_topo *t, enum topo_level level, int *b)
{
	for (int i = 1; i < t->ncpus; i++)
		if (host_topo_level(t, 0, i) == level) {
			*b = i;
			return 0;
		}
	return -1;
}

/* The "topology" object of a CPU model: levels, Linux numbering, transfer
 * latencies by level and the socket hop matrix, each error at its key.
 * What the numbers must satisfy is decided by topo_validate; this file only
 * reads them and points its message at the right node. */
#include "config.h"
#include "load/topology_json.h"

#include <stdlib.h>
#include <string.h>

const char *const topo_json_keys[] = {
	"sockets", "cores_per_socket", "cores_per_cluster", "threads_per_core",
	"numbering", "c2c", "hops", "c2c_hops", NULL,
};
/* In enum topo_level order from TOPO_SMT. */
const char *const topo_json_c2c_keys[] = {"smt", "cluster", "socket", NULL};

static int read_int(const struct jpos_doc *d, const cJSON *obj, const char *key, int need,
		    int64_t lo, int64_t hi, int *out, struct err *e)
{
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(obj, key);
	int64_t v;
	if (!n) {
		if (need)
			return jpos_error(d, obj, e, "missing key \"%s\" (every topology sets it)", key);
		return 0;
	}
	if (jpos_int(d, n, lo, hi, &v, e))
		return -1;
	*out = (int)v;
	return 0;
}

static int read_numbering(const struct jpos_doc *d, const cJSON *n, struct topology *t, struct err *e)
{
	if (cJSON_IsString(n)) {
		static const enum topo_numbering rules[] = {TOPO_NUM_SMT_LAST, TOPO_NUM_SMT_ADJACENT};
		for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
			if (!strcmp(n->valuestring, topo_numbering_name(rules[i]))) {
				t->numbering = rules[i];
				return 0;
			}
		return jpos_error(d, n, e, "unknown numbering \"%s\" (expected \"smt-last\", \"smt-adjacent\" or a list of CPU ids)",
				  n->valuestring);
	}
	if (!cJSON_IsArray(n))
		return jpos_error(d, n, e, "expected \"smt-last\", \"smt-adjacent\" or a list of CPU ids, not %s",
				  jpos_type_name(n));
	int cpus = topo_cpus(t);
	int len = cJSON_GetArraySize(n);
	if (len != cpus)
		return jpos_error(d, n, e, "lists %d CPU ids; the topology has %d hardware threads", len, cpus);
	if (cpus > TOPO_MAX_MAPPED)
		return jpos_error(d, n, e, "an explicit numbering covers at most %d CPUs", TOPO_MAX_MAPPED);
	uint8_t seen[TOPO_MAX_MAPPED] = {0};
	int i = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, n) {
		int64_t v;
		if (jpos_int(d, it, 0, 65535, &v, e))
			return -1;
		/* With as many ids as threads, one too large means one is skipped. */
		if (v >= cpus)
			return jpos_error(d, it, e, "CPU id %lld is out of range: %d hardware threads are numbered 0..%d, none skipped",
					  (long long)v, cpus, cpus - 1);
		if (seen[v]++)
			return jpos_error(d, it, e, "CPU id %lld is repeated (each id 0..%d once)", (long long)v,
					  cpus - 1);
		t->cpu_id[i++] = (uint16_t)v;
	}
	/* cpus distinct ids in 0..cpus-1: none can be skipped. */
	t->numbering = TOPO_NUM_EXPLICIT;
	return 0;
}

static int read_hops(const struct jpos_doc *d, const cJSON *n, struct topology *t, struct err *e)
{
	if (jpos_array(d, n, e))
		return -1;
	if (cJSON_GetArraySize(n) != t->sockets)
		return jpos_error(d, n, e, "has %d rows; a %d-socket machine needs %d rows of %d",
				  cJSON_GetArraySize(n), t->sockets, t->sockets, t->sockets);
	int a = 0;
	const cJSON *row;
	cJSON_ArrayForEach(row, n) {
		if (jpos_array(d, row, e))
			return -1;
		if (cJSON_GetArraySize(row) != t->sockets)
			return jpos_error(d, row, e, "row %d has %d entries; the matrix must be square (%d x %d)", a,
					  cJSON_GetArraySize(row), t->sockets, t->sockets);
		int b = 0;
		const cJSON *v;
		cJSON_ArrayForEach(v, row) {
			int64_t h;
			if (jpos_int(d, v, 0, TOPO_MAX_HOPS, &h, e))
				return -1;
			if ((a == b) != (h == 0))
				return jpos_error(d, v, e, a == b ? "a socket is 0 hops from itself"
								  : "two sockets are at least 1 hop apart");
			t->hops[a][b] = (uint8_t)h;
			b++;
		}
		a++;
	}
	for (a = 0; a < t->sockets; a++)
		for (int b = 0; b < a; b++)
			if (t->hops[a][b] != t->hops[b][a])
				return jpos_error(d, cJSON_GetArrayItem(cJSON_GetArrayItem(n, a), b), e,
						  "%d hops, but hops[%d][%d] is %d: the matrix must be symmetric",
						  t->hops[a][b], b, a, t->hops[b][a]);
	return 0;
}

int topo_json_read(const struct jpos_doc *d, const cJSON *obj, struct topology *t, struct err *e)
{
	if (jpos_object(d, obj, e) || jpos_check_keys(d, obj, topo_json_keys, e))
		return -1;
	memset(t, 0, sizeof *t);
	t->threads_per_core = 1;
	if (read_int(d, obj, "sockets", 1, 1, TOPO_MAX_SOCKETS, &t->sockets, e) ||
	    read_int(d, obj, "cores_per_socket", 1, 1, 1024, &t->cores_per_socket, e) ||
	    read_int(d, obj, "threads_per_core", 0, 1, 8, &t->threads_per_core, e))
		return -1;
	t->cores_per_cluster = t->cores_per_socket;
	if (read_int(d, obj, "cores_per_cluster", 0, 1, 1024, &t->cores_per_cluster, e))
		return -1;
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(obj, "cores_per_cluster");
	if (t->cores_per_socket % t->cores_per_cluster)
		return jpos_error(d, n, e, "%d does not divide cores_per_socket (%d): clusters must tile the socket",
				  t->cores_per_cluster, t->cores_per_socket);

	if ((n = cJSON_GetObjectItemCaseSensitive(obj, "numbering")) && read_numbering(d, n, t, e))
		return -1;

	const cJSON *c2c = cJSON_GetObjectItemCaseSensitive(obj, "c2c");
	if (!c2c)
		return jpos_error(d, obj, e, "missing key \"c2c\" (transfer cycles by level: {\"socket\": N, ...})");
	if (jpos_object(d, c2c, e) || jpos_check_keys(d, c2c, topo_json_c2c_keys, e))
		return -1;
	for (int l = TOPO_SMT; l <= TOPO_SOCKET; l++) {
		const char *key = topo_json_c2c_keys[l - TOPO_SMT];
		int exists = l == TOPO_SOCKET || (l == TOPO_SMT && t->threads_per_core > 1) ||
			     (l == TOPO_CLUSTER && t->cores_per_cluster < t->cores_per_socket);
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(c2c, key);
		int64_t x;
		if (!v && exists)
			return jpos_error(d, c2c, e, "missing key \"%s\" (this topology has that level)", key);
		if (v && !exists)
			return jpos_key_error(d, v, e, "this topology has no %s level (%s)", key,
					      l == TOPO_SMT ? "threads_per_core is 1"
							    : "cores_per_cluster equals cores_per_socket");
		if (v) {
			if (jpos_int(d, v, 1, 100000, &x, e))
				return -1;
			t->c2c[l] = (uint32_t)x;
		}
	}

	/* Without a matrix every pair of sockets is one hop apart. */
	const cJSON *hops = cJSON_GetObjectItemCaseSensitive(obj, "hops");
	if (hops) {
		if (read_hops(d, hops, t, e))
			return -1;
	} else {
		for (int a = 0; a < t->sockets; a++)
			for (int b = 0; b < t->sockets; b++)
				t->hops[a][b] = a != b;
	}
	int maxhop = 0;
	for (int a = 0; a < t->sockets; a++)
		for (int b = 0; b < t->sockets; b++)
			if (t->hops[a][b] > maxhop)
				maxhop = t->hops[a][b];
	const cJSON *ch = cJSON_GetObjectItemCaseSensitive(obj, "c2c_hops");
	if (!maxhop && ch)
		return jpos_key_error(d, ch, e, "a one-socket machine has no hops to give latencies for");
	if (maxhop && !ch)
		return jpos_error(d, obj, e, "missing key \"c2c_hops\" (transfer cycles for 1..%d hops)", maxhop);
	if (ch) {
		if (jpos_array(d, ch, e))
			return -1;
		if (cJSON_GetArraySize(ch) != maxhop)
			return jpos_error(d, ch, e, "lists %d latencies; the sockets are up to %d hops apart, so it needs %d",
					  cJSON_GetArraySize(ch), maxhop, maxhop);
		int h = 1;
		const cJSON *v;
		cJSON_ArrayForEach(v, ch) {
			int64_t x;
			if (jpos_int(d, v, 1, 100000, &x, e))
				return -1;
			t->c2c_hop[h++] = (uint32_t)x;
		}
	}
	struct err verr;
	err_clear(&verr);
	if (topo_validate(t, &verr))
		return topo_json_locate(d, obj, verr.msg, e);
	return 0;
}

/* Follow "topology.c2c.socket" or "topology.hops[2][3]" down from the
 * topology object as far as the document has nodes. */
int topo_json_locate(const struct jpos_doc *d, const cJSON *obj, const char *msg, struct err *e)
{
	const char *p = msg + strlen("topology");
	const cJSON *n = obj;
	for (;;) {
		const cJSON *next = NULL;
		size_t len;
		if (*p == '.' && (len = strspn(p + 1, "abcdefghijklmnopqrstuvwxyz0123456789_")) > 0 && len < 32) {
			char key[32];
			snprintf(key, sizeof key, "%.*s", (int)len, p + 1);
			next = cJSON_IsObject(n) ? cJSON_GetObjectItemCaseSensitive(n, key) : NULL;
			p += 1 + len;
		} else if (*p == '[' && (len = strspn(p + 1, "0123456789")) > 0 && p[1 + len] == ']') {
			int i = (int)strtol(p + 1, NULL, 10);
			next = cJSON_IsArray(n) && i < cJSON_GetArraySize(n) ? cJSON_GetArrayItem(n, i) : NULL;
			p += 2 + len;
		} else {
			break;
		}
		if (!next)
			break;
		n = next;
	}
	/* The path is the node's own: the rest of the message is what is wrong. */
	if (n != obj && p[0] == ':' && p[1] == ' ')
		return jpos_error(d, n, e, "%s", p + 2);
	return jpos_error(d, n, e, "%s", msg);
}

cJSON *topo_json_write(const struct topology *t)
{
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "sockets", t->sockets);
	cJSON_AddNumberToObject(o, "cores_per_socket", t->cores_per_socket);
	cJSON_AddNumberToObject(o, "cores_per_cluster", t->cores_per_cluster);
	cJSON_AddNumberToObject(o, "threads_per_core", t->threads_per_core);
	if (t->numbering == TOPO_NUM_EXPLICIT) {
		cJSON *ids = cJSON_AddArrayToObject(o, "numbering");
		for (int i = 0; ids && i < topo_cpus(t); i++)
			cJSON_AddItemToArray(ids, cJSON_CreateNumber(t->cpu_id[i]));
	} else {
		cJSON_AddStringToObject(o, "numbering", topo_numbering_name(t->numbering));
	}
	cJSON *c2c = cJSON_AddObjectToObject(o, "c2c");
	for (int l = TOPO_SMT; c2c && l <= TOPO_SOCKET; l++)
		if (t->c2c[l])
			cJSON_AddNumberToObject(c2c, topo_json_c2c_keys[l - TOPO_SMT], t->c2c[l]);
	int maxhop = 0;
	cJSON *hops = cJSON_AddArrayToObject(o, "hops");
	for (int a = 0; hops && a < t->sockets; a++) {
		cJSON *row = cJSON_CreateArray();
		for (int b = 0; row && b < t->sockets; b++) {
			cJSON_AddItemToArray(row, cJSON_CreateNumber(t->hops[a][b]));
			if (t->hops[a][b] > maxhop)
				maxhop = t->hops[a][b];
		}
		cJSON_AddItemToArray(hops, row);
	}
	if (maxhop) {
		cJSON *ch = cJSON_AddArrayToObject(o, "c2c_hops");
		for (int h = 1; ch && h <= maxhop; h++)
			cJSON_AddItemToArray(ch, cJSON_CreateNumber(t->c2c_hop[h]));
	}
	return o;
}

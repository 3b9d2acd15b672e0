/* Calibration: the order of the measurements, their sizes (quick or full),
 * the conversion to cycles, and the model written from them. Whatever the
 * host cannot show (a second socket, SMT siblings) is left out of the
 * topology and listed in `missing`; what is never measured gets a default
 * that the model's "source" names as one. */
#include "config.h"
#include "host/host_model.h"

#include <cpuid.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "host/host_measure.h"

#define add_missing(m, ...) host_list_add((m)->missing, sizeof (m)->missing, __VA_ARGS__)

static int say(host_progress_fn fn, void *ctx, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int say(host_progress_fn fn, void *ctx, const char *fmt, ...)
{
	char line[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	return fn ? fn(ctx, line) : 0;
}

static void cpu_identity(struct host_model *m)
{
	unsigned a, b, c, d;
	snprintf(m->vendor, sizeof m->vendor, "unknown");
	snprintf(m->brand, sizeof m->brand, "unknown x86");
	if (__get_cpuid(0, &a, &b, &c, &d)) {
		char v[13];
		memcpy(v, &b, 4);
		memcpy(v + 4, &d, 4);
		memcpy(v + 8, &c, 4);
		v[12] = 0;
		snprintf(m->vendor, sizeof m->vendor, "%s", v);
	}
	if (__get_cpuid(0x80000000, &a, &b, &c, &d) && a >= 0x80000004) {
		unsigned r[12];
		for (size_t i = 0; i < 3; i++)
			__get_cpuid(0x80000002 + (unsigned)i, &r[i * 4], &r[i * 4 + 1], &r[i * 4 + 2], &r[i * 4 + 3]);
		char s[49];
		memcpy(s, r, 48);
		s[48] = 0;
		char *p = s;
		while (*p == ' ')
			p++;
		size_t n = strlen(p);
		while (n && p[n - 1] == ' ')
			p[--n] = 0;
		if (*p)
			snprintf(m->brand, sizeof m->brand, "%s", p);
	}
}

static uint32_t cycles(double ns, double ghz)
{
	double c = round(ns * ghz);
	return c < 1 ? 1 : c > 100000 ? 100000 : (uint32_t)c;
}

/* The engine wants a power-of-two number of sets of at most 64 ways;
 * real caches (12-way L1s, 11-way LLC slices, sizes like 36 MiB) need not
 * be: round the sets down and say so. */
static void fit_cache(struct host_model *m, const char *name, uint32_t *size, uint32_t *ways,
		      uint32_t line, uint32_t max)
{
	uint32_t s0 = *size, w0 = *ways;
	if (*ways == 0) {
		*ways = 8;
		add_missing(m, "%s associativity unknown (8 assumed)", name);
	}
	if (*ways > 64)
		*ways = 64;
	uint64_t sets = (uint64_t)*size / ((uint64_t)line * *ways);
	uint64_t p = 1;
	while (p * 2 <= sets)
		p *= 2;
	uint64_t sz = p * line * *ways;
	while (sz > max) {
		p /= 2;
		sz = p * line * *ways;
	}
	*size = (uint32_t)sz;
	if (*size != s0 || (w0 && *ways != w0))
		add_missing(m, "%s %u KiB %u-way modelled as %u KiB %u-way", name, s0 >> 10, w0, *size >> 10, *ways);
}

static const char *size_text(size_t b, char *buf, size_t n)
{
	if (b >= (1u << 20))
		snprintf(buf, n, "%zu MiB", b >> 20);
	else
		snprintf(buf, n, "%zu KiB", b >> 10);
	return buf;
}

/* How many units (ALUs, store ports) x per cycle shows, 1..8: rounded
 * down, unless within a quarter of the next whole number. A core that
 * retires 3.9 adds a cycle has 4 ALUs; one that retires 3.5 is not shown
 * to have 4. */
static uint32_t per_cycle_units(double x)
{
	return x < 1 ? 1 : x > 8.5 ? 8 : (uint32_t)(x + 0.25);
}

static double chase(size_t bytes, uint32_t line, long steps, int runs, int cpu, struct host_chain **keep)
{
	struct host_chain *c = host_chain_new(bytes, line, 0x5eed + bytes);
	if (!c)
		return -1;
	double ns = host_chain_ns(c, steps, runs, cpu);
	if (keep)
		*keep = c;
	else
		host_chain_free(c);
	return ns;
}

int host_calibrate(struct host_model *m, const struct host_topo *t, int quick,
		   host_progress_fn progress, void *ctx, struct err *e)
{
	memset(m, 0, sizeof *m);
	m->topo = t;
	m->quick = quick;
	m->runs = quick ? 3 : 7;
	cpu_identity(m);
	for (int l = 0; l < TOPO_NLEVELS; l++)
		m->ns_c2c[l] = -1, m->pair[l] = -1;
	char b1[32], b2[32];
	int cpu0 = t->id[0];

	char clusters[96];
	if (t->cluster_level)
		snprintf(clusters, sizeof clusters, "clusters of %d cores sharing an L%d", t->cores_per_cluster,
			 t->cluster_level);
	else
		snprintf(clusters, sizeof clusters, "no clusters");
	if (say(progress, ctx, "topology (%s): %d CPUs = %d socket%s x %d cores x %d thread%s; %s; %s%s%s%s",
		t->from, t->ncpus, t->sockets, t->sockets > 1 ? "s" : "", t->cores_per_socket, t->threads_per_core,
		t->threads_per_core > 1 ? "s" : "", clusters, t->threads_per_core > 1 ? "SMT numbering " : "no SMT",
		t->threads_per_core > 1 ? topo_numbering_name(t->numbering) : "", t->notes[0] ? "; " : "", t->notes))
		return 1;
	if (t->threads_per_core < 2)
		add_missing(m, "no SMT: no smt level");
	if (!t->cluster_level)
		add_missing(m, "no cache shared by part of a socket: no cluster level");
	if (t->sockets < 2)
		add_missing(m, "1 socket: no hops, lat_mem_remote = local");
	else if (t->sockets > 2)
		add_missing(m, "hop distances not measured: every socket pair taken as 1 hop");

	/* Single-thread figures from the first CPU, with the caller's
	 * affinity given back at the end. */
	cpu_set_t saved;
	int have_saved = pthread_getaffinity_np(pthread_self(), sizeof saved, &saved) == 0;
	if (host_pin_self(cpu0))
		return err_set(e, NULL, 0, 0, "cannot pin a thread to CPU %d", cpu0);
	int rc = 1;
	struct host_chain *mem = NULL;

	m->ghz = host_clock_ghz(quick ? 30000000 : 200000000, m->runs);
	if (!(m->ghz > 0.05 && m->ghz < 20)) {
		rc = err_set(e, NULL, 0, 0, "the measured clock, %g GHz, is not plausible", m->ghz);
		goto out;
	}
	if (say(progress, ctx, "clock: %.2f GHz (a chain of dependent adds in thread CPU time, best of %d)", m->ghz, m->runs))
		goto out;
	m->ipc = host_adds_per_cycle(quick ? 30000000 : 200000000, m->runs, m->ghz);
	m->issue_width = per_cycle_units(m->ipc);
	if (say(progress, ctx, "issue width: %.2f independent adds per cycle; issue_width = %u", m->ipc, m->issue_width))
		goto out;
	m->spc = host_stores_per_cycle(quick ? 30000000 : 200000000, m->runs, m->ghz);
	m->store_commit_width = per_cycle_units(m->spc);
	if (say(progress, ctx, "store commit: %.2f independent stores to one line per cycle; store_commit_width = %u",
		m->spc, m->store_commit_width))
		goto out;

	m->line_size = t->line ? t->line : 64;
	if (!t->line)
		add_missing(m, "line size unknown (64 assumed)");
	m->l1_size = t->l1_size ? t->l1_size : 32768;
	m->l1_assoc = t->l1_ways;
	if (!t->l1_size)
		add_missing(m, "L1 size unknown (32 KiB assumed)");
	fit_cache(m, "L1", &m->l1_size, &m->l1_assoc, m->line_size, 64u << 20);
	if (t->llc_level) {
		m->llc_size = t->llc_size;
		m->llc_assoc = t->llc_ways;
		fit_cache(m, "LLC", &m->llc_size, &m->llc_assoc, m->line_size, 1u << 30);
	}

	m->ns_l1 = chase(4096 < m->l1_size ? 4096 : m->l1_size / 2, m->line_size, quick ? 200000 : 2000000,
			 m->runs, -1, NULL);
	if (m->ns_l1 <= 0)
		goto nomem;
	m->lat_l1_hit = cycles(m->ns_l1, m->ghz);
	if (say(progress, ctx, "L1 hit: %.2f ns = %u cycles (dependent loads in 4 KiB)", m->ns_l1, m->lat_l1_hit))
		goto out;

	if (t->llc_level) {
		/* Past the L2 and well inside the LLC. */
		size_t probe = t->llc_size / 2;
		if (t->l2_size && t->llc_level > 2 && (size_t)t->l2_size * 4 < probe)
			probe = (size_t)t->l2_size * 4;
		m->llc_probe = probe;
		m->ns_llc = chase(probe, m->line_size, quick ? 100000 : 1000000, m->runs, -1, NULL);
		if (m->ns_llc <= 0)
			goto nomem;
		m->lat_llc_hit = cycles(m->ns_llc, m->ghz);
		if (say(progress, ctx, "LLC (L%d) hit: %.1f ns = %u cycles (random pointer chase in %s)", t->llc_level,
			m->ns_llc, m->lat_llc_hit, size_text(probe, b1, sizeof b1)))
			goto out;
	} else {
		add_missing(m, "no shared cache found: llc_size 0");
	}

	size_t llc_all = (size_t)t->llc_size * (size_t)(t->llc_nshare ? (t->ncpus + t->llc_nshare - 1) / t->llc_nshare : 1);
	size_t probe = llc_all * (quick ? 2 : 4);
	size_t floor = quick ? (32u << 20) : (64u << 20);
	if (probe < floor)
		probe = floor;
	if (probe > (1u << 30))
		probe = 1u << 30;
	m->mem_probe = probe;
	m->ns_mem = chase(probe, m->line_size, quick ? 100000 : 500000, quick ? 2 : 3, -1, &mem);
	if (m->ns_mem <= 0)
		goto nomem;
	m->lat_mem_local = cycles(m->ns_mem, m->ghz);
	if (say(progress, ctx, "memory: %.1f ns = %u cycles (random pointer chase in %s)", m->ns_mem,
		m->lat_mem_local, size_text(probe, b2, sizeof b2)))
		goto out;

	/* The store buffer's depth: two chases of the memory chain side by
	 * side, N stores after each load (host_measure.h). The iteration
	 * doubles once the N stores no longer fit; the depth is put midway
	 * between the last N that fit and the first that did not. */
	m->sb_entries = HOST_DEFAULT_SB_ENTRIES;
	double sb_ns[HOST_SB_STEPS];
	if (host_sb_probe(mem, quick ? 1500 : 8000, quick ? 1 : 3, sb_ns) == 0) {
		int step = host_sb_step(sb_ns);
		if (step > 0) {
			m->sb_entries = (uint32_t)(HOST_SB_STORES(step - 1) + HOST_SB_STORES(step)) / 2;
			if (say(progress, ctx, "store buffer: a miss beside another up to %d stores between them "
				"(%.0f ns an iteration), not past %d (%.0f ns); sb_entries = %u",
				HOST_SB_STORES(step - 1), sb_ns[step - 1], HOST_SB_STORES(step), sb_ns[step],
				m->sb_entries))
				goto out;
		} else {
			add_missing(m, "store buffer depth: no step in the two-chase probe up to %d stores "
				    "(sb_entries %d assumed)", HOST_SB_STORES(HOST_SB_STEPS - 1), HOST_DEFAULT_SB_ENTRIES);
		}
	} else {
		add_missing(m, "store buffer depth: no memory chain to probe with (sb_entries %d assumed)",
			    HOST_DEFAULT_SB_ENTRIES);
	}

	m->ns_locked = host_locked_ns(quick ? 200000 : 2000000, m->runs);
	uint32_t locked = cycles(m->ns_locked, m->ghz);
	m->lat_locked_op = locked > m->lat_l1_hit ? locked - m->lat_l1_hit : 0;
	if (say(progress, ctx, "locked RMW: %.2f ns = %u cycles (back-to-back lock xadd); lat_locked_op = %u beyond the L1 hit",
		m->ns_locked, locked, m->lat_locked_op))
		goto out;

	/* A store just before a locked RMW: the RMW waits for it to drain,
	 * as the next locked RMW waits for the one before's store. The engine
	 * takes that drain out of lat_locked_op, so it is at most that. */
	m->ns_store_locked = host_store_locked_ns(quick ? 200000 : 2000000, m->runs);
	double drain = round((m->ns_store_locked - m->ns_locked) * m->ghz);
	m->lat_lock_drain = drain < 1 ? 0 : drain > m->lat_locked_op ? m->lat_locked_op : (uint32_t)drain;
	if (say(progress, ctx, "store then locked RMW: %.2f ns, %.2f ns more than the RMW alone; lat_lock_drain = %u",
		m->ns_store_locked, m->ns_store_locked - m->ns_locked, m->lat_lock_drain))
		goto out;

	/* Each inc reads what the one before it wrote: the model's forwarded
	 * load completes this long after the store it reads (cycles() keeps
	 * at least 1: a core that renames memory does a link a cycle). */
	m->ns_rmw_chain = host_rmw_chain_ns(quick ? 2000000 : 20000000, m->runs);
	m->lat_store_forward = cycles(m->ns_rmw_chain, m->ghz);
	if (say(progress, ctx, "store to load: %.2f ns = %u cycles a link (back-to-back inc of one quadword); "
		"lat_store_forward = %u", m->ns_rmw_chain, m->lat_store_forward, m->lat_store_forward))
		goto out;

	/* The engine charges an mfence lat_mfence and then a cpi cycle, as any
	 * instruction; nothing is stored here, so the fence waits for no
	 * buffered store and this is its own cost. */
	m->ns_mfence = host_mfence_ns(quick ? 300000 : 3000000, m->runs);
	uint32_t fence = cycles(m->ns_mfence, m->ghz);
	m->lat_mfence = fence > 1 ? fence - 1 : 0;
	if (say(progress, ctx, "mfence: %.2f ns = %u cycles (back to back, nothing stored); lat_mfence = %u",
		m->ns_mfence, fence, m->lat_mfence))
		goto out;
	/* A pause is charged lat_pause and nothing else. */
	m->ns_pause = host_pause_ns(quick ? 100000 : 1000000, m->runs);
	m->lat_pause = cycles(m->ns_pause, m->ghz);
	if (say(progress, ctx, "pause: %.2f ns = %u cycles (back to back); lat_pause = %u", m->ns_pause,
		m->lat_pause, m->lat_pause))
		goto out;

	static const enum topo_level levels[] = {TOPO_SMT, TOPO_CLUSTER, TOPO_SOCKET, TOPO_REMOTE};
	uint32_t inner = 0;
	for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
		enum topo_level l = levels[i];
		int b;
		if (host_topo_pair(t, l, &b))
			continue;
		m->pair[l] = t->id[b];
		/* Many short runs: on a busy host some get both CPUs throughout. */
		m->c2c_runs = quick ? 9 : 21;
		struct host_runs how = {0, -1};
		m->ns_c2c[l] = host_c2c_ns(cpu0, t->id[b], quick ? 1000 : 5000, m->c2c_runs, &how);
		m->c2c_clean[l] = how.clean;
		m->ns_c2c_median[l] = how.median;
		if (m->ns_c2c[l] < 0) {
			rc = err_set(e, NULL, 0, 0, "cannot pin threads to CPUs %d and %d", cpu0, t->id[b]);
			goto out;
		}
		m->c2c[l] = cycles(m->ns_c2c[l], m->ghz);
		if (say(progress, ctx, "c2c %s (CPU %d <-> CPU %d): %.1f ns = %u cycles per transfer (CAS ping-pong, round trip / 2; best of %d runs, %d undisturbed, median %.1f ns)",
			l == TOPO_REMOTE ? "other socket" : topo_level_name(l), cpu0, t->id[b], m->ns_c2c[l],
			m->c2c[l], m->c2c_runs, m->c2c_clean[l], m->ns_c2c_median[l]))
			goto out;
		/* Noise can make a farther pair look faster; the model needs
		 * latencies that do not shrink outwards. */
		if (m->c2c[l] < inner) {
			add_missing(m, "c2c %s measured below an inner level (%u < %u cycles): raised to it",
				    topo_level_name(l), m->c2c[l], inner);
			m->c2c[l] = inner;
		}
		inner = m->c2c[l];
	}
	if (!m->c2c[TOPO_SOCKET]) {
		/* Every model has the socket level; a host with one core (or only
		 * siblings) cannot show it. */
		uint32_t d = 2 * (m->lat_llc_hit ? m->lat_llc_hit : m->lat_l1_hit * 10);
		uint32_t in = m->c2c[TOPO_CLUSTER] ? m->c2c[TOPO_CLUSTER] : m->c2c[TOPO_SMT];
		if (d < in + in / 2)
			d = in + in / 2;
		m->c2c[TOPO_SOCKET] = d;
		add_missing(m, "no two cores: c2c.socket not measured, %u cycles assumed (2 x LLC hit)", d);
	}
	if (t->sockets > 1 && !m->c2c[TOPO_REMOTE])
		m->c2c[TOPO_REMOTE] = m->c2c[TOPO_SOCKET] * 2;

	m->lat_mem_remote = m->lat_mem_local;
	if (m->pair[TOPO_REMOTE] >= 0) {
		/* The chain's pages were first touched on CPU 0's node. */
		m->ns_mem_remote = host_chain_ns(mem, quick ? 100000 : 500000, quick ? 2 : 3, m->pair[TOPO_REMOTE]);
		if (m->ns_mem_remote > 0) {
			m->lat_mem_remote = cycles(m->ns_mem_remote, m->ghz);
			if (say(progress, ctx, "remote memory (from CPU %d): %.1f ns = %u cycles", m->pair[TOPO_REMOTE],
				m->ns_mem_remote, m->lat_mem_remote))
				goto out;
		}
	}
	say(progress, ctx, "not measured: %s; default: cpi 1", m->missing[0] ? m->missing : "-");
	rc = 0;
	goto out;
nomem:
	rc = err_internal(e, "out of memory for the pointer chase");
out:
	host_chain_free(mem);
	if (have_saved)
		pthread_setaffinity_np(pthread_self(), sizeof saved, &saved);
	return rc;
}

static enum protocol_kind protocol_of(const struct host_model *m)
{
	/* What the vendors document their coherence as: AMD's caches have an
	 * Owned state, Intel's a Forward state. */
	if (!strcmp(m->vendor, "AuthenticAMD") || !strcmp(m->vendor, "HygonGenuine"))
		return PROTO_MOESI;
	if (!strcmp(m->vendor, "GenuineIntel"))
		return PROTO_MESIF;
	return PROTO_MESI;
}

static void add_int(cJSON *o, const char *k, double v)
{
	cJSON_AddNumberToObject(o, k, v);
}

cJSON *host_model_json(const struct host_model *m)
{
	const struct host_topo *t = m->topo;
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return NULL;
	/* As large as the loader keeps. */
	char desc[sizeof ((struct cpu_model *)0)->description], src[sizeof ((struct cpu_model *)0)->source];
	char b1[32], b2[32];
	/* The short list of what this host cannot show; the long one is in
	 * "source". */
	char gaps[96];
	snprintf(gaps, sizeof gaps, "%s%s%s%s", t->threads_per_core < 2 ? ", smt level" : "",
		 !t->cluster_level ? ", cluster level" : "", t->sockets < 2 ? ", hops, remote memory" : "",
		 m->ns_c2c[TOPO_SOCKET] < 0 ? ", c2c.socket" : "");
	snprintf(desc, sizeof desc, "This host as bounce calibrate measured it: %.60s, %d CPUs (%d socket%s x %d cores x %d thread%s).%s%s%s",
		 m->brand, t->ncpus, t->sockets, t->sockets > 1 ? "s" : "", t->cores_per_socket, t->threads_per_core,
		 t->threads_per_core > 1 ? "s" : "", gaps[0] ? " Not measured: " : "", gaps[0] ? gaps + 2 : "",
		 gaps[0] ? "." : "");
	/* The pair of each measured level, for the source. */
	char pairs[160] = "";
	for (int l = TOPO_SMT; l <= TOPO_REMOTE; l++)
		if (m->ns_c2c[l] >= 0)
			snprintf(pairs + strlen(pairs), sizeof pairs - strlen(pairs), "%s%s: CPUs %d,%d",
				 pairs[0] ? ", " : "", l == TOPO_REMOTE ? "remote" : topo_level_name(l), t->id[0],
				 m->pair[l]);
	int n = snprintf(src, sizeof src,
		 "bounce calibrate%s, best of %d (host shared: noisy). Topology, caches: %s. Clock: dependent adds. "
		 "issue_width: independent adds per cycle. c2c: CAS ping-pong, round trip/2 (%.100s). lat_locked_op: lock xadd minus L1 hit. lat_lock_drain: store + lock xadd minus lock xadd (at most lat_locked_op); lat_lock_snoop: not measured, 0. lat_store_forward: back-to-back inc of one address. store_commit_width: independent stores to one line per cycle. "
		 "lat_mfence, lat_pause: back-to-back mfence (minus the cpi cycle), pause. "
		 "L1/LLC/memory: pointer chase in 4 KiB/%s/%s. sb_entries: two chases with stores between their loads. "
		 "Default, not measured: cpi. Not measured: %s",
		 m->quick ? " --quick" : "", m->runs, t->from, pairs[0] ? pairs : "not measured: one CPU",
		 m->llc_probe ? size_text(m->llc_probe, b1, sizeof b1) : "-", size_text(m->mem_probe, b2, sizeof b2),
		 m->missing[0] ? m->missing : "-");
	/* Cut to what the loader keeps; stderr had the whole list. */
	if (n >= (int)sizeof src)
		memcpy(src + sizeof src - 4, "...", 4);
	cJSON_AddStringToObject(o, "name", "host");
	cJSON_AddStringToObject(o, "description", desc);
	cJSON_AddStringToObject(o, "source", src);
	add_int(o, "ghz", round(m->ghz * 1000) / 1000);
	add_int(o, "cores", t->ncpus);

	cJSON *tp = cJSON_AddObjectToObject(o, "topology");
	add_int(tp, "sockets", t->sockets);
	add_int(tp, "cores_per_socket", t->cores_per_socket);
	add_int(tp, "cores_per_cluster", t->cores_per_cluster);
	add_int(tp, "threads_per_core", t->threads_per_core);
	cJSON_AddStringToObject(tp, "numbering", topo_numbering_name(t->numbering));
	cJSON *c2c = cJSON_AddObjectToObject(tp, "c2c");
	if (t->threads_per_core > 1)
		add_int(c2c, "smt", m->c2c[TOPO_SMT] ? m->c2c[TOPO_SMT] : m->c2c[TOPO_SOCKET]);
	if (t->cluster_level)
		add_int(c2c, "cluster", m->c2c[TOPO_CLUSTER] ? m->c2c[TOPO_CLUSTER] : m->c2c[TOPO_SOCKET]);
	add_int(c2c, "socket", m->c2c[TOPO_SOCKET]);
	if (t->sockets > 1) {
		cJSON *hops = cJSON_AddArrayToObject(tp, "c2c_hops");
		cJSON_AddItemToArray(hops, cJSON_CreateNumber(m->c2c[TOPO_REMOTE]));
	}

	add_int(o, "l1_size", m->l1_size);
	add_int(o, "l1_assoc", m->l1_assoc);
	add_int(o, "line_size", m->line_size);
	add_int(o, "llc_size", m->llc_size);
	if (m->llc_size)
		add_int(o, "llc_assoc", m->llc_assoc);
	add_int(o, "lat_l1_hit", m->lat_l1_hit);
	if (m->llc_size)
		add_int(o, "lat_llc_hit", m->lat_llc_hit);
	add_int(o, "lat_mem_local", m->lat_mem_local);
	add_int(o, "lat_mem_remote", m->lat_mem_remote);
	add_int(o, "lat_locked_op", m->lat_locked_op);
	add_int(o, "lat_lock_drain", m->lat_lock_drain);
	add_int(o, "lat_lock_snoop", 0);
	add_int(o, "lat_mfence", (int)m->lat_mfence);
	add_int(o, "lat_pause", (int)m->lat_pause);
	add_int(o, "cpi", 1);
	add_int(o, "issue_width", (int)m->issue_width);
	add_int(o, "lat_store_forward", m->lat_store_forward);
	add_int(o, "store_commit_width", (int)m->store_commit_width);
	add_int(o, "sb_entries", (int)m->sb_entries);
	cJSON_AddStringToObject(o, "fabric", "directory");
	cJSON_AddStringToObject(o, "protocol", cpu_protocol_name(protocol_of(m)));
	return o;
}

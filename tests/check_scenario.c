/* Unit tests of the scenario loader: JSON positions, CPU models, the scenario
 * format, and the exact file:line:col: $.path: message of each error. Test
 * inputs are written to a fresh temporary directory. */
#include "config.h"
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "load/cpu_json.h"
#include "load/json_pos.h"
#include "load/scenario.h"
#include "load/topology_json.h"
#include "cpu/interrupts.h"

static char tmpdir[256];

static void setup(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/check_scenario.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

/* Writes tmpdir/name and returns its path (static buffer per call site use). */
static const char *put(const char *name, const char *text, size_t len)
{
	static char path[4][512];
	static int k;
	char *p = path[k++ % 4];
	snprintf(p, 512, "%s/%s", tmpdir, name);
	FILE *f = fopen(p, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	fclose(f);
	return p;
}
#define PUT(name, text) put(name, text, strlen(text))

static const char *msg(const struct err *e)
{
	static char buf[2048];
	err_format(e, buf, sizeof buf);
	/* Drop the temporary directory so expectations read like the user sees them. */
	size_t n = strlen(tmpdir);
	if (!strncmp(buf, tmpdir, n) && buf[n] == '/')
		memmove(buf, buf + n + 1, strlen(buf + n + 1) + 1);
	return buf;
}

/* A scenario around `extra` top-level keys, with one program file. */
static const char *scen_text(const char *extra)
{
	static char buf[8192];
	snprintf(buf, sizeof buf,
		 "{\n"
		 "  \"cpu\": \"x460-8way\",\n"
		 "  \"program\": [\"w.s\"],\n"
		 "  \"threads\": [{\"cpus\": \"all\", \"entry\": \"worker\"}]%s%s\n"
		 "}\n", *extra ? ",\n  " : "", extra);
	return buf;
}

static const char *load_err(const char *name, const char *text)
{
	struct scenario s;
	struct err e;
	err_clear(&e);
	PUT("w.s", "worker:\n\thlt\n");
	const char *p = PUT(name, text);
	ck_assert_int_eq(scen_load(p, &s, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	scen_free(&s);
	return msg(&e);
}

/* ---- CPU models ---- */

START_TEST(cpus_all_load)
{
	char dir[600];
	snprintf(dir, sizeof dir, "%s/cpus", scen_datadir());
	DIR *dh = opendir(dir);
	ck_assert_ptr_nonnull(dh);
	struct dirent *de;
	int n = 0, x460 = 0;
	while ((de = readdir(dh))) {
		size_t l = strlen(de->d_name);
		if (l < 6 || strcmp(de->d_name + l - 5, ".json"))
			continue;
		char path[1200];
		struct cpu_model m;
		struct err e;
		err_clear(&e);
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		ck_assert_msg(cpu_json_load(path, &m, &e) == 0, "%s", msg(&e));
		ck_assert_int_eq(cpu_model_validate(&m, &e), 0);
		ck_assert_msg(strlen(m.source) > 20, "%s has no source", path);
		ck_assert_msg(!strncmp(de->d_name, m.name, l - 5) && strlen(m.name) == l - 5,
			      "%s: name %s differs from the file name", path, m.name);
		if (!strcmp(m.name, "x460-8way")) {
			x460 = 1;
			ck_assert_int_eq(m.cores, 8);
			ck_assert_int_eq(m.fabric, FABRIC_BUS);
			ck_assert_int_eq(m.protocol, PROTO_MESI);
			ck_assert_uint_ge(m.lat_locked_op, 100);
		}
		n++;
	}
	closedir(dh);
	ck_assert_int_ge(n, 4);
	ck_assert(x460);
	struct cpu_model m;
	struct err e;
	err_clear(&e);
	ck_assert_int_eq(scen_load_cpu("manycore-1024", &m, &e), 0);
	ck_assert_int_eq(m.cores, 1024);
	ck_assert_int_eq(scen_load_cpu("x640-8way", &m, &e), -1);
	ck_assert(strstr(e.msg, "unknown CPU model \"x640-8way\""));
}
END_TEST

static const char *cpu_text(const char *replace_key, const char *line)
{
	static const char *lines[] = {
		"\"ghz\": 2.0", "\"cores\": 4", "\"cores_per_socket\": 4", "\"l1_size\": 32768",
		"\"l1_assoc\": 8", "\"line_size\": 64", "\"lat_l1_hit\": 4", "\"lat_c2c_local\": 50",
		"\"lat_c2c_remote\": 100", "\"lat_mem_local\": 200", "\"lat_mem_remote\": 300",
		"\"lat_locked_op\": 20", "\"lat_mfence\": 30", "\"lat_pause\": 10", "\"lat_bus\": 8",
		"\"sb_entries\": 16", "\"fabric\": \"bus\"", "\"protocol\": \"MESI\"",
	};
	static char buf[4096];
	size_t len = (size_t)snprintf(buf, sizeof buf, "{\n");
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		const char *l = lines[i];
		if (replace_key && !strncmp(l + 1, replace_key, strlen(replace_key)) &&
		    l[1 + strlen(replace_key)] == '"')
			l = line;
		if (l)
			len += (size_t)snprintf(buf + len, sizeof buf - len, "%s  %s", i ? ",\n" : "", l);
	}
	snprintf(buf + len, sizeof buf - len, "\n}\n");
	return buf;
}

static const char *cpu_err(const char *key, const char *line)
{
	struct cpu_model m;
	struct err e;
	err_clear(&e);
	const char *p = PUT("c.json", cpu_text(key, line));
	ck_assert_int_eq(cpu_json_load(p, &m, &e), -1);
	return msg(&e);
}

START_TEST(cpu_errors)
{
	struct cpu_model m;
	struct err e;
	err_clear(&e);
	ck_assert_int_eq(cpu_json_load(PUT("c.json", cpu_text(NULL, NULL)), &m, &e), 0);
	ck_assert_str_eq(m.name, "c");
	ck_assert_int_eq(m.threads_per_core, 1);
	ck_assert_uint_eq(m.cpi, 1);
	ck_assert_str_eq(cpu_err("line_size", "\"line_size\": 48"),
			 "c.json:7:16: $.line_size: 48 is not a power of two in 16..256");
	ck_assert_str_eq(cpu_err("fabric", "\"fabric\": \"ring\""),
			 "c.json:18:13: $.fabric: unknown value \"ring\" (expected \"bus\" or \"directory\")");
	ck_assert_str_eq(cpu_err("protocol", "\"protocol\": \"MOSI\""),
			 "c.json:19:15: $.protocol: unknown value \"MOSI\" (expected \"MESI\" or \"MESIF\" or \"MOESI\" "
			 "or \"MSI\" or \"Dragon\")");
	ck_assert_str_eq(cpu_err("cores", "\"cores\": 0"),
			 "c.json:3:12: $.cores: 0 is out of range (expected 1..1024)");
	ck_assert_str_eq(cpu_err("cores", "\"cores\": 100000"),
			 "c.json:3:12: $.cores: 100000 is out of range (expected 1..1024)");
	ck_assert_str_eq(cpu_err("ghz", "\"ghz\": \"fast\""),
			 "c.json:2:10: $.ghz: expected a number in 0.001..99, found a string");
	ck_assert_str_eq(cpu_err("lat_bus", "\"lat_buss\": 8"),
			 "c.json:16:3: $.lat_buss: unknown key \"lat_buss\" (did you mean \"lat_bus\"?)");
	ck_assert_str_eq(cpu_err("lat_bus", NULL),
			 "c.json:1:1: $: missing key \"lat_bus\" (required when fabric is \"bus\")");
	ck_assert_str_eq(cpu_err("l1_size", "\"l1_size\": 1000"),
			 "c.json:5:14: $.l1_size: 1000 bytes does not make a power-of-two number of sets of 8 ways of 64-byte lines (max 64 MiB)");
	ck_assert_str_eq(cpu_err("lat_c2c_local", "\"lat_c2c_local\": 2.5"),
			 "c.json:9:20: $.lat_c2c_local: 2.5 is not a whole number (expected an integer in 1..100000)");
}
END_TEST

/* The field table is the one statement of a field's range and default: a
 * model built in code with a field just outside its row's range is refused
 * by cpu_model_validate naming the field, as a file's value is by the
 * loader, and a file that leaves a key out gets the row's default. */
START_TEST(cpu_table_ranges_and_defaults)
{
	struct cpu_model m;
	struct err e;
	int checked = 0;
	for (size_t i = 0; i < CPU_MODEL_NFIELDS; i++) {
		const struct cpu_model_field *f = &cpu_model_fields[i];
		if (f->type == CPU_F_STR || f->type == CPU_F_TOPOLOGY)
			continue;
		double step = f->type == CPU_F_GHZ ? f->min / 2 : 1;
		for (int above = 0; above < 2; above++) {
			/* an unsigned field's 0 has nothing below it */
			if (!above && f->min == 0 && (f->type == CPU_F_U32 || f->type == CPU_F_LAT))
				continue;
			cpu_model_default(&m);
			m.llc_size = 1u << 20; /* so that the LLC's fields apply */
			m.lat_llc_hit = 40;
			ck_assert_int_eq(cpu_model_validate(&m, &e), 0);
			cpu_model_field_set(&m, f, above ? f->max + step : f->min - step);
			err_clear(&e);
			ck_assert_msg(cpu_model_validate(&m, &e) == -1, "%s = %g accepted", f->key,
				      above ? f->max + step : f->min - step);
			ck_assert_msg(!strncmp(e.msg, f->key, strlen(f->key)) && e.msg[strlen(f->key)] == ':',
				      "%s out of range: %s", f->key, e.msg);
			checked++;
		}
	}
	ck_assert_int_ge(checked, 40);
	cpu_model_default(&m);
	m.cores = 1025;
	err_clear(&e);
	ck_assert_int_eq(cpu_model_validate(&m, &e), -1);
	ck_assert_str_eq(e.msg, "cores: 1025 is out of range (expected 1..1024)");
	cpu_model_default(&m);
	m.lat_l1_hit = 0;
	err_clear(&e);
	ck_assert_int_eq(cpu_model_validate(&m, &e), -1);
	ck_assert_str_eq(e.msg, "lat_l1_hit: 0 cycles is out of range (expected 1..100000)");
	cpu_model_default(&m);
	m.ghz = 0;
	err_clear(&e);
	ck_assert_int_eq(cpu_model_validate(&m, &e), -1);
	ck_assert_str_eq(e.msg, "ghz: 0 is out of range (expected 0.001..99)");

	/* cpu_text gives the required keys only: every other one is the row's default */
	err_clear(&e);
	ck_assert_int_eq(cpu_json_load(PUT("c.json", cpu_text(NULL, NULL)), &m, &e), 0);
	int defaults = 0;
	for (size_t i = 0; i < CPU_MODEL_NFIELDS; i++) {
		const struct cpu_model_field *f = &cpu_model_fields[i];
		if (f->need == CPU_NEED_ALWAYS || f->need == CPU_NEED_IF_FLAT || f->need == CPU_NEED_IF_BUS ||
		    f->type == CPU_F_STR || f->type == CPU_F_TOPOLOGY)
			continue;
		ck_assert_msg(cpu_model_field_get(&m, f) == f->def, "%s: loaded %g, the table's default %g", f->key,
			      cpu_model_field_get(&m, f), f->def);
		defaults++;
	}
	ck_assert_int_ge(defaults, 15);
	ck_assert_uint_eq(m.lat_irq_entry, CPU_LAT_IRQ_DEFAULT);
	ck_assert_uint_eq(m.llc_assoc, 16);
}
END_TEST

/* A CPU model in the topology form: `cores`, the topology object's text
 * (from line 4, column 15) and `extra` lines before the closing brace. */
static const char *topo_text(const char *cores, const char *topo, const char *extra)
{
	static char buf[4096];
	snprintf(buf, sizeof buf,
		 "{\n"
		 "  \"ghz\": 2.0,\n"
		 "  \"cores\": %s,\n"
		 "  \"topology\": %s,\n"
		 "  \"l1_size\": 32768, \"l1_assoc\": 8, \"line_size\": 64, \"lat_l1_hit\": 4,\n"
		 "  \"lat_mem_local\": 200, \"lat_mem_remote\": 300, \"lat_locked_op\": 20,\n"
		 "  \"lat_mfence\": 30, \"lat_pause\": 10, \"lat_bus\": 8, \"sb_entries\": 16,\n"
		 "  \"fabric\": \"bus\", \"protocol\": \"MESI\"%s%s\n"
		 "}\n", cores, topo, *extra ? ",\n  " : "", extra);
	return buf;
}

static const char *topo_err(const char *cores, const char *topo, const char *extra)
{
	struct cpu_model m;
	struct err e;
	err_clear(&e);
	const char *p = PUT("t.json", topo_text(cores, topo, extra));
	ck_assert_int_eq(cpu_json_load(p, &m, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	return msg(&e);
}

START_TEST(cpu_topology)
{
	struct cpu_model m;
	struct err e;
	err_clear(&e);
	/* Every key, with values that each mean something. */
	const char *p = PUT("t.json", topo_text("16",
		"{\"sockets\": 2, \"cores_per_socket\": 4, \"cores_per_cluster\": 2, \"threads_per_core\": 2,\n"
		"    \"numbering\": \"smt-adjacent\", \"c2c\": {\"smt\": 5, \"cluster\": 20, \"socket\": 40},\n"
		"    \"hops\": [[0, 1], [1, 0]], \"c2c_hops\": [100]}", ""));
	ck_assert_msg(cpu_json_load(p, &m, &e) == 0, "%s", msg(&e));
	const struct topology *t = &m.topology;
	ck_assert_int_eq(m.cores, 16);
	ck_assert_int_eq(t->sockets, 2);
	ck_assert_int_eq(t->cores_per_socket, 4);
	ck_assert_int_eq(t->cores_per_cluster, 2);
	ck_assert_int_eq(t->threads_per_core, 2);
	ck_assert_int_eq(t->numbering, TOPO_NUM_SMT_ADJACENT);
	ck_assert_uint_eq(t->c2c[TOPO_SMT], 5);
	ck_assert_uint_eq(t->c2c[TOPO_CLUSTER], 20);
	ck_assert_uint_eq(t->c2c[TOPO_SOCKET], 40);
	ck_assert_uint_eq(t->c2c_hop[1], 100);
	ck_assert_uint_eq(t->c2c_hop[2], 0);
	ck_assert_int_eq(t->hops[0][1], 1);
	ck_assert_int_eq(t->hops[1][0], 1);
	ck_assert_int_eq(t->hops[0][0], 0);
	/* The shorthand stays unset: the topology is the model. */
	ck_assert_int_eq(m.cores_per_socket, 0);
	ck_assert_uint_eq(m.lat_c2c_local, 0);
	/* smt-adjacent: CPU 1 is CPU 0's sibling, CPU 2 the next core. */
	struct topo_place a = cpu_model_place(&m, 1), b = cpu_model_place(&m, 2), c = cpu_model_place(&m, 8);
	ck_assert_int_eq(a.core, 0);
	ck_assert_int_eq(a.thread, 1);
	ck_assert_int_eq(b.core, 1);
	ck_assert_int_eq(c.socket, 1);
	ck_assert_int_eq(cpu_model_sockets(&m), 2);

	/* Defaults: no clusters, one thread, smt-last, every socket 1 hop apart. */
	p = PUT("t.json", topo_text("8", "{\"sockets\": 2, \"cores_per_socket\": 4, \"c2c\": {\"socket\": 40},"
				    " \"c2c_hops\": [90]}", ""));
	ck_assert_msg(cpu_json_load(p, &m, &e) == 0, "%s", msg(&e));
	ck_assert_int_eq(m.topology.cores_per_cluster, 4);
	ck_assert_int_eq(m.topology.threads_per_core, 1);
	ck_assert_int_eq(m.topology.numbering, TOPO_NUM_SMT_LAST);
	ck_assert_int_eq(m.topology.hops[1][0], 1);
	ck_assert_int_eq(cpu_model_place(&m, 5).socket, 1);

	/* Run one thread per core, the SMT level is not simulated; the model keeps it. */
	struct topology sim;
	ck_assert_int_eq(scen_load_cpu("xeon-2s-icx", &m, &e), 0);
	ck_assert_uint_eq(m.topology.c2c[TOPO_SMT], 19);
	cpu_model_topology(&m, &sim);
	ck_assert_uint_eq(sim.c2c[TOPO_SMT], 0);
	ck_assert_uint_eq(sim.c2c[TOPO_SOCKET], 115);
	m.cores = 81; /* CPU 80 is CPU 0's sibling */
	cpu_model_topology(&m, &sim);
	ck_assert_uint_eq(sim.c2c[TOPO_SMT], 19);
	ck_assert_int_eq(scen_load_cpu("epyc-9654", &m, &e), 0);
	m.cores = 1;
	cpu_model_topology(&m, &sim);
	ck_assert_uint_eq(sim.c2c[TOPO_CLUSTER], 0);
	m.cores = 2;
	cpu_model_topology(&m, &sim);
	ck_assert_uint_eq(sim.c2c[TOPO_CLUSTER], 45);

	/* The client models docs/validation.md runs at 1..4 threads on CPUs
	 * 0..3: numbered as Linux numbers these parts, those are four cores,
	 * and CPU 4 is CPU 0's sibling. */
	static const char *const clients[] = {"core-i7-6700hq", "core-i5-1035g4"};
	for (size_t i = 0; i < sizeof clients / sizeof clients[0]; i++) {
		ck_assert_msg(scen_load_cpu(clients[i], &m, &e) == 0, "%s", msg(&e));
		for (int x = 0; x < 4; x++)
			for (int y = x + 1; y < 4; y++) {
				struct topo_place pa = cpu_model_place(&m, x), pb = cpu_model_place(&m, y);
				ck_assert_int_eq(topo_level_in(&m.topology, &pa, &pb), TOPO_SOCKET);
			}
		struct topo_place p0 = cpu_model_place(&m, 0), p4 = cpu_model_place(&m, 4);
		ck_assert_int_eq(topo_level_in(&m.topology, &p0, &p4), TOPO_SMT);
	}

	/* An explicit numbering: hardware thread i (core by core, thread by
	 * thread) has id cpu_id[i]. */
	p = PUT("t.json", topo_text("4", "{\"sockets\": 1, \"cores_per_socket\": 2, \"threads_per_core\": 2,"
				    " \"numbering\": [0, 3, 1, 2], \"c2c\": {\"smt\": 5, \"socket\": 40}}", ""));
	ck_assert_msg(cpu_json_load(p, &m, &e) == 0, "%s", msg(&e));
	ck_assert_int_eq(m.topology.numbering, TOPO_NUM_EXPLICIT);
	ck_assert_int_eq(m.topology.cpu_id[1], 3);
	ck_assert_int_eq(cpu_model_place(&m, 3).core, 0);
	ck_assert_int_eq(cpu_model_place(&m, 3).thread, 1);
	ck_assert_int_eq(cpu_model_place(&m, 2).core, 1);

	/* The hop matrix. */
	ck_assert_str_eq(topo_err("12", "{\"sockets\": 3, \"cores_per_socket\": 4, \"c2c\": {\"socket\": 40},\n"
				  "    \"hops\": [[0, 1, 1], [1, 0], [1, 1, 0]], \"c2c_hops\": [90]}", ""),
			 "t.json:5:25: $.topology.hops[1]: row 1 has 2 entries; the matrix must be square (3 x 3)");
	ck_assert_str_eq(topo_err("12", "{\"sockets\": 3, \"cores_per_socket\": 4, \"c2c\": {\"socket\": 40},\n"
				  "    \"hops\": [[0, 1], [1, 0]], \"c2c_hops\": [90]}", ""),
			 "t.json:5:13: $.topology.hops: has 2 rows; a 3-socket machine needs 3 rows of 3");
	ck_assert_str_eq(topo_err("12", "{\"sockets\": 3, \"cores_per_socket\": 4, \"c2c\": {\"socket\": 40},\n"
				  "    \"hops\": [[0, 1, 2], [1, 0, 1], [1, 1, 0]], \"c2c_hops\": [90, 200]}", ""),
			 "t.json:5:37: $.topology.hops[2][0]: 1 hops, but hops[0][2] is 2: the matrix must be symmetric");
	ck_assert_str_eq(topo_err("8", "{\"sockets\": 2, \"cores_per_socket\": 4, \"c2c\": {\"socket\": 40},\n"
				  "    \"hops\": [[0, 1], [1, 1]], \"c2c_hops\": [90]}", ""),
			 "t.json:5:26: $.topology.hops[1][1]: a socket is 0 hops from itself");
	ck_assert_str_eq(topo_err("8", "{\"sockets\": 2, \"cores_per_socket\": 4, \"c2c\": {\"socket\": 40},\n"
				  "    \"hops\": [[0, 0], [0, 0]], \"c2c_hops\": [90]}", ""),
			 "t.json:5:18: $.topology.hops[0][1]: two sockets are at least 1 hop apart");
	ck_assert_str_eq(topo_err("8", "{\"sockets\": 2, \"cores_per_socket\": 4, \"c2c\": {\"socket\": 40}}", ""),
			 "t.json:4:15: $.topology: missing key \"c2c_hops\" (transfer cycles for 1..1 hops)");
	ck_assert_str_eq(topo_err("12", "{\"sockets\": 3, \"cores_per_socket\": 4, \"c2c\": {\"socket\": 40},\n"
				  "    \"hops\": [[0, 1, 2], [1, 0, 1], [2, 1, 0]], \"c2c_hops\": [90]}", ""),
			 "t.json:5:60: $.topology.c2c_hops: lists 1 latencies; the sockets are up to 2 hops apart, so it needs 2");
	ck_assert_str_eq(topo_err("4", "{\"sockets\": 1, \"cores_per_socket\": 4, \"c2c\": {\"socket\": 40},"
				  " \"c2c_hops\": [90]}", ""),
			 "t.json:4:76: $.topology.c2c_hops: a one-socket machine has no hops to give latencies for");

	/* The numbering: 1 socket x 2 cores x 2 threads, ids 0..3 once each. */
#define NUMBERED(list) "{\"sockets\": 1, \"cores_per_socket\": 2, \"threads_per_core\": 2,\n" \
		       "    \"numbering\": " list ", \"c2c\": {\"smt\": 5, \"socket\": 40}}"
	ck_assert_str_eq(topo_err("4", NUMBERED("[0, 1, 1, 3]"), ""),
			 "t.json:5:25: $.topology.numbering[2]: CPU id 1 is repeated (each id 0..3 once)");
	ck_assert_str_eq(topo_err("4", NUMBERED("[0, 1, 2]"), ""),
			 "t.json:5:18: $.topology.numbering: lists 3 CPU ids; the topology has 4 hardware threads");
	ck_assert_str_eq(topo_err("4", NUMBERED("[0, 1, 2, 4]"), ""),
			 "t.json:5:28: $.topology.numbering[3]: CPU id 4 is out of range: 4 hardware threads are numbered 0..3, none skipped");
	ck_assert_str_eq(topo_err("4", NUMBERED("\"smt-first\""), ""),
			 "t.json:5:18: $.topology.numbering: unknown numbering \"smt-first\" (expected \"smt-last\", \"smt-adjacent\" or a list of CPU ids)");
#undef NUMBERED

	/* Levels and their latencies. */
	ck_assert_str_eq(topo_err("4", "{\"sockets\": 1, \"cores_per_socket\": 4, \"cores_per_cluster\": 3,"
				  " \"c2c\": {\"cluster\": 20, \"socket\": 40}}", ""),
			 "t.json:4:74: $.topology.cores_per_cluster: 3 does not divide cores_per_socket (4): clusters must tile the socket");
	ck_assert_str_eq(topo_err("4", "{\"sockets\": 1, \"cores_per_socket\": 2, \"threads_per_core\": 2,"
				  " \"c2c\": {\"socket\": 40}}", ""),
			 "t.json:4:83: $.topology.c2c: missing key \"smt\" (this topology has that level)");
	ck_assert_str_eq(topo_err("4", "{\"sockets\": 1, \"cores_per_socket\": 4,"
				  " \"c2c\": {\"smt\": 5, \"socket\": 40}}", ""),
			 "t.json:4:61: $.topology.c2c.smt: this topology has no smt level (threads_per_core is 1)");
	ck_assert_str_eq(topo_err("4", "{\"sockets\": 1, \"cores_per_socket\": 4,"
				  " \"c2c\": {\"cluster\": 20, \"socket\": 40}}", ""),
			 "t.json:4:61: $.topology.c2c.cluster: this topology has no cluster level (cores_per_cluster equals cores_per_socket)");
	ck_assert_str_eq(topo_err("4", "{\"sockets\": 1, \"cores_per_socket\": 4, \"cores_per_cluster\": 2,"
				  " \"c2c\": {\"cluster\": 50, \"socket\": 40}}", ""),
			 "t.json:4:110: $.topology.c2c.socket: 40 cycles is less than c2c.cluster (50): an outer level cannot be faster");
	ck_assert_str_eq(topo_err("8", "{\"sockets\": 2, \"cores_per_socket\": 4, \"c2c\": {\"socket\": 40},"
				  " \"c2c_hops\": [30]}", ""),
			 "t.json:4:89: $.topology.c2c_hops[0]: 30 cycles is less than the c2c.socket (40): more hops cannot be faster");
	ck_assert_str_eq(topo_err("4", "{\"sockets\": 1, \"cores_per_socket\": 4, \"c2c\": {\"sockt\": 40}}", ""),
			 "t.json:4:61: $.topology.c2c.sockt: unknown key \"sockt\" (did you mean \"socket\"?)");
	ck_assert_str_eq(topo_err("4", "{\"cores_per_socket\": 4, \"c2c\": {\"socket\": 40}}", ""),
			 "t.json:4:15: $.topology: missing key \"sockets\" (every topology sets it)");

	/* The model around it. */
	ck_assert_str_eq(topo_err("4", "{\"sockets\": 1, \"cores_per_socket\": 4, \"c2c\": {\"socket\": 40}}",
				  "\"lat_c2c_local\": 50"),
			 "t.json:9:3: $.lat_c2c_local: \"topology\" replaces the flat shorthand key \"lat_c2c_local\": drop the key, or drop \"topology\"");
	ck_assert_str_eq(topo_err("4", "{\"sockets\": 1, \"cores_per_socket\": 4, \"c2c\": {\"socket\": 40}}",
				  "\"threads_per_core\": 2"),
			 "t.json:9:3: $.threads_per_core: \"topology\" replaces the flat shorthand key \"threads_per_core\": drop the key, or drop \"topology\"");
	ck_assert_str_eq(topo_err("9", "{\"sockets\": 1, \"cores_per_socket\": 4, \"threads_per_core\": 2,"
				  " \"c2c\": {\"smt\": 5, \"socket\": 40}}", ""),
			 "t.json:3:12: $.cores: 9 is more than the 8 logical CPUs of the topology");
	ck_assert_str_eq(topo_err("4", "[1]", ""),
			 "t.json:4:15: $.topology: expected an object, found an array");
}
END_TEST

/* ---- JSON layer ---- */

static const char *json_err(const char *text, size_t len)
{
	struct err e;
	err_clear(&e);
	struct jpos_doc *d = jpos_load(put("j.json", text, len), &e);
	ck_assert_ptr_null(d);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	return msg(&e);
}
#define JERR(t) json_err(t, strlen(t))

START_TEST(json_syntax)
{
	ck_assert_str_eq(JERR("{\n  \"a\": 1,\n}\n"),
			 "j.json:3:1: syntax error: unexpected '}' (expected a string key)");
	ck_assert_str_eq(JERR("{\"a\": [1, 2\n"),
			 "j.json:2:1: syntax error: unexpected end of input (expected ',' or ']')");
	ck_assert_str_eq(JERR("{\"a\" 1}"),
			 "j.json:1:6: syntax error: unexpected '1' (expected ':' after the key)");
	ck_assert_str_eq(JERR("{\"a\": 01}"),
			 "j.json:1:7: syntax error: number with a leading zero (expected a decimal number without one)");
	ck_assert_str_eq(JERR("{\"a\": \"x\\q\"}"),
			 "j.json:1:9: syntax error: invalid escape '\\q' (expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
	ck_assert_str_eq(JERR("{} {}"),
			 "j.json:1:4: syntax error: unexpected '{' (expected end of input after the document)");
	ck_assert_str_eq(JERR("{\"a\": tru}"),
			 "j.json:1:7: syntax error: unexpected 't' (expected a value (object, array, string, number, true, false or null))");
	/* Columns count characters, not bytes. */
	ck_assert_str_eq(JERR("{\"é\": 1,, }"),
			 "j.json:1:9: syntax error: unexpected ',' (expected a string key)");
}
END_TEST

START_TEST(json_limits)
{
	ck_assert_str_eq(json_err("", 0), "j.json:1:1: file is empty (expected a JSON document)");
	ck_assert_str_eq(JERR(" \n\t\n"), "j.json:3:1: file is empty (expected a JSON document)");
	ck_assert_str_eq(json_err("{\"a\": \"\xff\"}", 10),
			 "j.json:1:8: not UTF-8: byte 0xff (expected UTF-8 text)");
	ck_assert_str_eq(json_err("{\"a\":\n \"\xc3\x28\"}", 12),
			 "j.json:2:3: not UTF-8: byte 0xc3 (expected UTF-8 text)");
	ck_assert_str_eq(json_err("{\"a\": 1}\0", 9), "j.json:1:9: NUL byte 0x00 (expected UTF-8 text)");

	char deep[200];
	memset(deep, '[', 65);
	memset(deep + 65, ']', 65);
	deep[130] = 0;
	ck_assert_str_eq(JERR(deep), "j.json:1:65: nesting deeper than 64 levels (expected a flatter document)");
	deep[64] = ' ';
	deep[65] = ' '; /* 64 levels are fine */
	struct err e;
	err_clear(&e);
	struct jpos_doc *d = jpos_parse("ok", deep, strlen(deep), &e);
	ck_assert_msg(d != NULL, "%s", msg(&e));
	jpos_free(d);

	char dir[600];
	snprintf(dir, sizeof dir, "%s/sub", tmpdir);
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	err_clear(&e);
	ck_assert_ptr_null(jpos_load(dir, &e));
	ck_assert_str_eq(msg(&e), "sub: is a directory (expected a JSON file)");
	err_clear(&e);
	snprintf(dir, sizeof dir, "%s/none.json", tmpdir);
	ck_assert_ptr_null(jpos_load(dir, &e));
	ck_assert_str_eq(msg(&e), "none.json: cannot open: No such file or directory");

	size_t big = JPOS_MAX_BYTES + 10;
	char *huge = malloc(big);
	ck_assert_ptr_nonnull(huge);
	memset(huge, ' ', big);
	huge[0] = '1';
	err_clear(&e);
	ck_assert_ptr_null(jpos_parse("big.json", huge, big, &e));
	ck_assert_str_eq(msg(&e), "big.json: file is larger than 16 MiB (expected a smaller JSON document)");
	free(huge);
}
END_TEST

START_TEST(json_positions)
{
	const char *t = "{\n  \"a\": {\"b\": [10, {\"c d\": true}]},\n  \"e\":\"\\u00e9x\", \"f\": -1.5e3\n}";
	struct err e;
	err_clear(&e);
	struct jpos_doc *d = jpos_parse("p.json", t, strlen(t), &e);
	ck_assert_ptr_nonnull(d);
	cJSON *r = jpos_root(d);
	cJSON *b = cJSON_GetObjectItem(cJSON_GetObjectItem(r, "a"), "b");
	cJSON *cd = cJSON_GetObjectItem(cJSON_GetArrayItem(b, 1), "c d");
	cJSON *f = cJSON_GetObjectItem(r, "f");
	int l, c;
	char path[128];
	jpos_where(d, cd, &l, &c);
	ck_assert_int_eq(l, 2);
	ck_assert_int_eq(c, 27);
	jpos_key_where(d, cd, &l, &c);
	ck_assert_int_eq(c, 20);
	jpos_path(d, cd, path, sizeof path);
	ck_assert_str_eq(path, "$.a.b[1][\"c d\"]");
	jpos_where(d, f, &l, &c);
	ck_assert_int_eq(l, 3);
	ck_assert_int_eq(c, 23);
	jpos_error(d, cJSON_GetArrayItem(b, 0), &e, "too small");
	ck_assert_str_eq(msg(&e), "p.json:2:15: $.a.b[0]: too small");
	int64_t v;
	err_clear(&e);
	ck_assert_int_eq(jpos_int(d, f, -10000, 10000, &v, &e), 0);
	ck_assert_int_eq(v, -1500);
	jpos_free(d);

	err_clear(&e);
	const char *dup = "{\"a\": 1,\n \"b\": {\"x\": 1, \"y\": 2, \"x\": 3}}";
	ck_assert_ptr_null(jpos_parse("d.json", dup, strlen(dup), &e));
	ck_assert_str_eq(msg(&e), "d.json:2:24: $.b.x: duplicate key \"x\" (first at line 2, column 8)");

	/* 64-bit integers are exact. */
	const char *big = "[9007199254740993, 9223372036854775808]";
	err_clear(&e);
	d = jpos_parse("i.json", big, strlen(big), &e);
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(jpos_int(d, cJSON_GetArrayItem(jpos_root(d), 0), 0, INT64_MAX, &v, &e), 0);
	ck_assert_int_eq(v, 9007199254740993LL);
	ck_assert_int_eq(jpos_int(d, cJSON_GetArrayItem(jpos_root(d), 1), 0, INT64_MAX, &v, &e), -1);
	ck_assert_str_eq(msg(&e), "i.json:1:20: $[1]: 9223372036854775808 is out of range (expected 0..9223372036854775807)");
	jpos_free(d);

	/* Exponents and fractions are combined in decimal, not through a double. */
	const char *forms = "[9.007199254740993e15, -9223372036854775808, 120e-1, 1e19, 12e-1, 0.5e1, 1e-99999]";
	static const struct { int ok; int64_t v; const char *msg; } want[] = {
		{1, 9007199254740993LL, NULL},
		{1, INT64_MIN, NULL},
		{1, 12, NULL},
		{0, 0, "f.json:1:54: $[3]: 1e19 is out of range (expected -9223372036854775808..9223372036854775807)"},
		{0, 0, "f.json:1:60: $[4]: 12e-1 is not a whole number (expected an integer in -9223372036854775808..9223372036854775807)"},
		{1, 5, NULL},
		{0, 0, "f.json:1:74: $[6]: 1e-99999 is not a whole number (expected an integer in -9223372036854775808..9223372036854775807)"},
	};
	d = jpos_parse("f.json", forms, strlen(forms), &e);
	ck_assert_ptr_nonnull(d);
	for (int i = 0; i < (int)(sizeof want / sizeof want[0]); i++) {
		err_clear(&e);
		v = 0;
		int got = jpos_int(d, cJSON_GetArrayItem(jpos_root(d), i), INT64_MIN, INT64_MAX, &v, &e);
		ck_assert_int_eq(got, want[i].ok ? 0 : -1);
		if (want[i].ok)
			ck_assert_int_eq(v, want[i].v);
		else
			ck_assert_str_eq(msg(&e), want[i].msg);
	}
	jpos_free(d);
}
END_TEST

/* ---- scenarios ---- */

START_TEST(scen_errors)
{
	ck_assert_str_eq(load_err("s.json", scen_text("\"cores\": 0")),
			 "s.json:5:12: $.cores: 0 is out of range (expected 1..1024)");
	ck_assert_str_eq(load_err("s.json", scen_text("\"cores\": 100000")),
			 "s.json:5:12: $.cores: 100000 is out of range (expected 1..1024)");
	ck_assert_str_eq(load_err("s.json", scen_text("\"cores\": \"8\"")),
			 "s.json:5:12: $.cores: expected an integer in 1..1024, found a string");
	ck_assert_str_eq(load_err("s.json", scen_text("\"sead\": 1")),
			 "s.json:5:3: $.sead: unknown key \"sead\" (did you mean \"seed\"?)");
	ck_assert_str_eq(load_err("s.json", scen_text("\"seed\": 1, \"seed\": 2")),
			 "s.json:5:14: $.seed: duplicate key \"seed\" (first at line 5, column 3)");
	/* Text bounce prints again holds no control character; one it
	 * quotes anyway (an unknown key) comes out escaped: one line. */
	ck_assert_str_eq(load_err("s.json", scen_text("\"report\": [\"a\\tb\"]")),
			 "s.json:5:14: $.report[0]: control character U+0009 in the string (expected printable text)");
	ck_assert_str_eq(load_err("s.json", scen_text("\"name\": \"x\\u001b[31m\"")),
			 "s.json:5:11: $.name: control character U+001B in the string (expected printable text)");
	ck_assert_str_eq(load_err("s.json", scen_text("\"a\\tb\\n\\u0001\": 1")),
			 "s.json:5:3: $[\"a\\tb\\n\\x01\"]: unknown key \"a\\tb\\n\\x01\" (expected one of $schema, "
			 "name, description, cpu, cores, seed, program, defines, threads, interrupts, stop, cflags, report, "
			 "variants, expect)");
	/* The data directory is the one the loader uses: the test
	 * environment points BOUNCE_DATADIR at the source tree. */
	char want[1200];
	snprintf(want, sizeof want, "s.json:2:21: $.program[1]: program file \"nope.s\" not found (expected it "
		 "next to the scenario or in %s/scenarios)", scen_datadir());
	ck_assert_str_eq(load_err("s.json",
				  "{\"cpu\": \"x460-8way\",\n \"program\": [\"w.s\", \"nope.s\"],\n \"threads\": []}"),
			 want);
	const char *m = load_err("s.json", "{\"cpu\": \"x461\", \"program\": \"w.s\", \"threads\": []}");
	snprintf(want, sizeof want, "s.json:1:9: $.cpu: unknown CPU model \"x461\" (no file %s/cpus/x461.json; known: ",
		 scen_datadir());
	ck_assert_msg(!strncmp(m, want, strlen(want)) && strstr(m, "x460-8way"), "%s", m);
}
END_TEST

START_TEST(scen_errors2)
{
	const char *m;
	m = load_err("s.json", scen_text("\"cpu\": {\"ghz\": 1}"));
	ck_assert_str_eq(m, "s.json:5:3: $.cpu: duplicate key \"cpu\" (first at line 2, column 3)");
	ck_assert_str_eq(load_err("s.json", "{\"cpu\": {\"line_size\": 48}, \"program\": \"w.s\", \"threads\": []}"),
			 "s.json:1:9: $.cpu: missing key \"ghz\" (every CPU model sets it)");
	ck_assert_str_eq(load_err("s.json", "{\"program\": \"w.s\",\n \"threads\": [{\"cpus\": \"0-3\", \"entry\": \"w\"},\n"
				  "  {\"cpus\": [3, 4], \"entry\": \"w\"}], \"cpu\": \"x460-8way\"}"),
			 "s.json:3:12: $.threads[1].cpus: CPU 3 already runs thread 0 (expected each CPU in at most one thread)");
	ck_assert_str_eq(load_err("s.json", "{\"program\": \"w.s\", \"cpu\": \"x460-8way\",\n"
				  " \"threads\": [{\"cpus\": [0, \"6-9\"], \"entry\": \"w\"}]}"),
			 "s.json:2:23: $.threads[0].cpus: CPU 9 does not exist with 8 cores (expected ids 0..7)");
	ck_assert_str_eq(load_err("s.json", scen_text("\"variants\": [{\"name\": \"a\", \"defines\": {\"X\": 1}},\n"
						      "  {\"name\": \"a\", \"cores\": 4}]")),
			 "s.json:6:12: $.variants[1].name: duplicate variant name \"a\" (first at $.variants[0])");
	ck_assert_str_eq(load_err("s.json", scen_text("\"defines\": {\"X\": 1}, \"variants\": [{\"name\": \"a\", \"defines\": {\"X\": 1}}]")),
			 "s.json:5:37: $.variants[0]: variant \"a\" overrides nothing (its defines equal the base's) (expected one of defines, cores, cpu, seed, program, threads, interrupts, stop, cflags that differs from the base)");
	ck_assert_str_eq(load_err("s.json", scen_text("\"variants\": [{\"name\": \"a\"}]")),
			 "s.json:5:16: $.variants[0]: variant \"a\" overrides nothing (expected one of defines, cores, cpu, seed, program, threads, interrupts, stop, cflags that differs from the base)");
	ck_assert_str_eq(load_err("s.json", scen_text("\"variants\": [{\"name\": \"big\", \"cores\": 4}],\n"
						      "  \"expect\": [{\"metric\": \"variants.bog.cycles\", \"max\": 1}]")),
			 "s.json:6:25: $.expect[0].metric: metric \"variants.bog.cycles\" names no variant \"bog\" (did you mean \"big\"?)");
	ck_assert_str_eq(load_err("s.json", scen_text("\"expect\": [{\"metric\": \"variants.default.totals.bounce\", \"max\": 1}]")),
			 "s.json:5:25: $.expect[0].metric: metric \"variants.default.totals.bounce\": unknown counter \"bounce\" (did you mean \"bounces\"?)");
	ck_assert_str_eq(load_err("s.json", scen_text("\"expect\": [{\"metric\": \"variants..x\", \"max\": 1}]")),
			 "s.json:5:25: $.expect[0].metric: bad metric \"variants..x\": empty or invalid segment (expected variants.NAME.FIELD[.FIELD...], segments of letters, digits, '_', '-')");
	ck_assert_str_eq(load_err("s.json", scen_text("\"expect\": [{\"metric\": \"variants.default.cycles\"}]")),
			 "s.json:5:14: $.expect[0]: no bound (expected \"min\", \"max\" or \"equals\")");
	ck_assert_str_eq(load_err("s.json", scen_text("\"expect\": [{\"metric\": \"variants.default.cycles\", \"max\": 1, \"cores\": {}}]")),
			 "s.json:5:71: $.expect[0].cores: no bound (expected \"min\", \"max\" or both)");
	ck_assert_str_eq(load_err("s.json", scen_text("\"expect\": [{\"metric\": \"variants.default.cycles\", \"max\": 1, \"cores\": {\"min\": 0}}]")),
			 "s.json:5:79: $.expect[0].cores.min: 0 is out of range (expected 1..1024)");
	ck_assert_str_eq(load_err("s.json", scen_text("\"expect\": [{\"metric\": \"variants.default.cycles\", \"max\": 1, \"cores\": {\"min\": 8, \"max\": 4}}]")),
			 "s.json:5:89: $.expect[0].cores.max: max 4 is below min 8 (expected min <= max)");
	ck_assert_str_eq(load_err("s.json", scen_text("\"expect\": [{\"metric\": \"variants.default.cycles\", \"max\": 1, \"cores\": {\"mni\": 2}}]")),
			 "s.json:5:72: $.expect[0].cores.mni: unknown key \"mni\" (did you mean \"min\"?)");
	ck_assert_str_eq(load_err("s.json", scen_text("\"expect\": [{\"metric\": \"variants.default.cycles\", \"max\": 1, \"cores\": 2}]")),
			 "s.json:5:71: $.expect[0].cores: expected an object, found a number");
	ck_assert_str_eq(load_err("s.json", scen_text("\"interrupts\": [{\"cpus\": \"all\", \"kind\": \"nmi\", \"handler\": \"h\", \"every\": 10}]")),
			 "s.json:5:42: $.interrupts[0].kind: unknown interrupt kind \"nmi\" (expected \"hard\" or \"soft\")");
	ck_assert_str_eq(load_err("s.json", scen_text("\"interrupts\": [{\"cpus\": \"all\", \"kind\": \"soft\", \"handler\": \"h\", \"every\": 1000, \"jitter\": 1.5}]")),
			 "s.json:5:91: $.interrupts[0].jitter: 1.5 is out of range (expected 0..1)");
	ck_assert_str_eq(load_err("s.json", scen_text("\"interrupts\": [{\"cpus\": \"all\", \"kind\": \"hard\", \"handler\": \"h\", \"every\": 999}]")),
			 "s.json:5:75: $.interrupts[0].every: an interrupt every 999 cycles is more often than the floor of one every 1000 cycles (entering and leaving an interrupt alone costs that much on x86; expected \"every\": 1000 or more)");
	ck_assert_str_eq(load_err("s.json", scen_text("\"stop\": {\"halt\": false}")),
			 "s.json:5:11: $.stop: stops never (expected \"cycles\" or \"halt\": true)");
	ck_assert_str_eq(load_err("s.json", "{\"cpu\": \"x460-8way\", \"program\": \"w.s\", \"threads\": [{\"cpus\": \"all\", \"entry\": \"w\", \"regs\": {\"rxa\": 1}}]}"),
			 "s.json:1:91: $.threads[0].regs.rxa: unknown register \"rxa\" (did you mean \"rax\"?)");
	ck_assert_str_eq(load_err("s.json", "[1, 2]"), "s.json:1:1: $: expected an object, found an array");
	ck_assert_str_eq(load_err("s.json", "{}"),
			 "s.json:1:1: $: missing key \"cpu\" (expected a CPU model name such as \"x460-8way\" or an inline object)");

	/* Errors inside a CPU model file point into that file. */
	PUT("bad-cpu.json", cpu_text("line_size", "\"line_size\": 48"));
	ck_assert_str_eq(load_err("s.json", "{\"cpu\": \"bad-cpu.json\", \"program\": \"w.s\", \"threads\": []}"),
			 "bad-cpu.json:7:16: $.line_size: 48 is not a power of two in 16..256");
}
END_TEST

static const char full[] =
	"{\n"
	"  \"name\": \"full\",\n"
	"  \"description\": \"every key\",\n"
	"  \"cpu\": \"x460-8way\",\n"
	"  \"cores\": 4,\n"
	"  \"seed\": 7,\n"
	"  \"program\": [\"lib/atomic.s\", \"w.s\"],\n"
	"  \"defines\": {\"BATCH\": 32, \"USE_PERCPU\": 0},\n"
	"  \"threads\": [{\"cpus\": \"0-1\", \"entry\": \"worker\", \"regs\": {\"rdi\": 100000, \"r8\": -1}},\n"
	"              {\"cpus\": [3, 2], \"entry\": \"reader\"}],\n"
	"  \"interrupts\": [{\"cpus\": \"all\", \"kind\": \"soft\", \"handler\": \"net_rx\", \"every\": 5000, \"jitter\": 0.2},\n"
	"                 {\"cpus\": [0], \"kind\": \"hard\", \"handler\": \"timer\", \"every\": 1e6, \"poisson\": true}],\n"
	"  \"stop\": {\"cycles\": 50000000},\n"
	"  \"report\": [\"tcp_memory_allocated\", \"fbc\"],\n"
	"  \"variants\": [\n"
	"    {\"name\": \"atomic\", \"defines\": {\"USE_PERCPU\": 0, \"EXTRA\": 5}},\n"
	"    {\"name\": \"percpu\", \"description\": \"per-CPU\", \"defines\": {\"USE_PERCPU\": 1}},\n"
	"    {\"name\": \"big\", \"cores\": 96, \"cpu\": \"epyc-9654\", \"seed\": 9, \"stop\": \"halt\",\n"
	"     \"threads\": [{\"cpus\": \"all\", \"entry\": \"worker\"}]}\n"
	"  ],\n"
	"  \"expect\": [\n"
	"    {\"metric\": \"variants.percpu.symbols.fbc.bounces\", \"max\": 100, \"cores\": {\"min\": 2, \"max\": 64}},\n"
	"    {\"metric\": \"variants.atomic.symbols.tcp_memory_allocated.value\", \"equals\": 9007199254740993},\n"
	"    {\"ratio\": {\"of\": \"variants.atomic.totals.bounces\", \"to\": \"variants.percpu.totals.bounces\", \"min\": 10, \"max\": 1e9}}\n"
	"  ]\n"
	"}\n";

START_TEST(scen_full)
{
	struct scenario s;
	struct err e;
	err_clear(&e);
	PUT("w.s", "worker:\n\thlt\n");
	const char *p = PUT("full.json", full);
	ck_assert_msg(scen_load(p, &s, &e) == 0, "%s", msg(&e));
	ck_assert_str_eq(s.name, "full");
	ck_assert_str_eq(s.description, "every key");
	ck_assert_str_eq(s.dir, tmpdir);
	const struct scen_setup *b = &s.base;
	ck_assert_uint_eq(b->set, SCEN_SET_CPU | SCEN_SET_CORES | SCEN_SET_SEED | SCEN_SET_PROGRAM |
			  SCEN_SET_DEFINES | SCEN_SET_THREADS | SCEN_SET_INTERRUPTS | SCEN_SET_STOP);
	ck_assert_str_eq(b->cpu.name, "x460-8way");
	ck_assert_int_eq(b->cores, 4);
	ck_assert_uint_eq(b->seed, 7);
	ck_assert_uint_eq(b->n_program, 2);
	char lib[600];
	snprintf(lib, sizeof lib, "%s/scenarios/lib/atomic.s", scen_datadir());
	ck_assert_str_eq(b->program[0], lib);
	char w[600];
	snprintf(w, sizeof w, "%s/w.s", tmpdir);
	ck_assert_str_eq(b->program[1], w);
	ck_assert_uint_eq(b->n_defines, 2);
	ck_assert_str_eq(b->defines[0].name, "BATCH");
	ck_assert_int_eq(b->defines[0].value, 32);
	ck_assert_str_eq(b->defines[1].name, "USE_PERCPU");
	ck_assert_int_eq(b->defines[1].value, 0);
	ck_assert_uint_eq(b->n_threads, 2);
	ck_assert(!b->threads[0].cpus.all);
	ck_assert_int_eq(cpuset_count(&b->threads[0].cpus.ids), 2);
	ck_assert(cpuset_has(&b->threads[0].cpus.ids, 0) && cpuset_has(&b->threads[0].cpus.ids, 1));
	ck_assert_str_eq(b->threads[0].entry, "worker");
	ck_assert_uint_eq(b->threads[0].n_regs, 2);
	ck_assert_str_eq(b->threads[0].regs[0].name, "rdi");
	ck_assert_int_eq(b->threads[0].regs[0].value, 100000);
	ck_assert_str_eq(b->threads[0].regs[1].name, "r8");
	ck_assert_int_eq(b->threads[0].regs[1].value, -1);
	ck_assert_int_eq(cpuset_count(&b->threads[1].cpus.ids), 2);
	ck_assert(cpuset_has(&b->threads[1].cpus.ids, 2) && cpuset_has(&b->threads[1].cpus.ids, 3));
	ck_assert_int_eq(cpuset_last(&b->threads[1].cpus.ids), 3);
	ck_assert_str_eq(b->threads[1].cpus.loc.path, "$.threads[1].cpus");
	ck_assert_int_eq(b->threads[1].cpus.loc.line, 10);
	ck_assert_int_eq(b->threads[1].cpus.loc.col, 24);
	ck_assert_uint_eq(b->threads[1].n_regs, 0);
	ck_assert_uint_eq(b->n_interrupts, 2);
	ck_assert(b->interrupts[0].cpus.all);
	ck_assert_int_eq(b->interrupts[0].kind, IRQ_SOFT);
	ck_assert_str_eq(b->interrupts[0].handler, "net_rx");
	ck_assert_uint_eq(b->interrupts[0].every, 5000);
	ck_assert_double_eq(b->interrupts[0].jitter, 0.2);
	ck_assert(!b->interrupts[0].poisson);
	ck_assert_int_eq(b->interrupts[1].kind, IRQ_HARD);
	ck_assert_uint_eq(b->interrupts[1].every, 1000000);
	ck_assert(b->interrupts[1].poisson);
	ck_assert_uint_eq(b->stop.cycles, 50000000);
	ck_assert(!b->stop.halt);
	ck_assert_uint_eq(s.n_report, 2);
	ck_assert_str_eq(s.report[1], "fbc");

	ck_assert_uint_eq(s.n_variants, 3);
	ck_assert_str_eq(s.variants[0].name, "atomic");
	ck_assert_uint_eq(s.variants[0].setup.set, SCEN_SET_DEFINES);
	ck_assert_str_eq(s.variants[1].description, "per-CPU");
	ck_assert_uint_eq(s.variants[2].setup.set,
			  SCEN_SET_CORES | SCEN_SET_CPU | SCEN_SET_SEED | SCEN_SET_STOP | SCEN_SET_THREADS);
	ck_assert_str_eq(s.variants[2].setup.cpu.name, "epyc-9654");
	ck_assert(s.variants[2].setup.stop.halt);
	ck_assert_int_eq(scen_find_variant(&s, "big"), 2);
	ck_assert_int_eq(scen_find_variant(&s, "default"), -1);

	ck_assert_uint_eq(s.n_expect, 3);
	ck_assert_str_eq(s.expect[0].metric, "variants.percpu.symbols.fbc.bounces");
	ck_assert(s.expect[0].has_max && !s.expect[0].has_min && !s.expect[0].has_equals);
	ck_assert_double_eq(s.expect[0].max, 100);
	ck_assert_int_eq(s.expect[0].cores_min, 2);
	ck_assert_int_eq(s.expect[0].cores_max, 64);
	ck_assert_int_eq(s.expect[1].cores_min, 1);
	ck_assert_int_eq(s.expect[1].cores_max, CPU_MAX_CORES);
	ck_assert(s.expect[1].has_equals && s.expect[1].equals_is_int);
	ck_assert_int_eq(s.expect[1].equals_int, 9007199254740993LL);
	ck_assert_str_eq(s.expect[2].metric, "variants.atomic.totals.bounces");
	ck_assert_str_eq(s.expect[2].to, "variants.percpu.totals.bounces");
	ck_assert_double_eq(s.expect[2].min, 10);
	ck_assert_double_eq(s.expect[2].max, 1e9);

	/* Resolution: base < variant < command line. */
	struct scen_run r;
	ck_assert_int_eq(scen_resolve(&s, 0, NULL, &r, &e), 0);
	ck_assert_str_eq(r.variant, "atomic");
	ck_assert_int_eq(r.cores, 4);
	ck_assert_int_eq(r.cpu.cores, 4);
	ck_assert_uint_eq(r.n_defines, 3);
	ck_assert_str_eq(r.defines[2].name, "EXTRA");
	ck_assert_uint_eq(r.max_cycles, 50000000);
	ck_assert_uint_eq(r.n_include_dirs, 2);
	scen_run_free(&r);

	struct asm_define set = { .name = "USE_PERCPU", .value = 7 };
	struct scen_overrides o = { .cores = 2, .has_seed = true, .seed = 3, .defines = &set, .n_defines = 1 };
	ck_assert_int_eq(scen_resolve(&s, 1, &o, &r, &e), -1);
	ck_assert_str_eq(msg(&e), "full.json:10:24: $.threads[1].cpus: CPU 3 does not exist with 2 cores (--cores 2) in variant \"percpu\" (expected ids 0..1)");
	err_clear(&e);
	o.cores = 8;
	ck_assert_int_eq(scen_resolve(&s, 1, &o, &r, &e), 0);
	ck_assert_int_eq(r.cores, 8);
	ck_assert_uint_eq(r.seed, 3);
	ck_assert_int_eq(r.defines[1].value, 7);
	ck_assert_uint_eq(r.n_threads, 2);
	scen_run_free(&r);

	ck_assert_int_eq(scen_resolve(&s, 2, NULL, &r, &e), 0);
	ck_assert_int_eq(r.cores, 96);
	ck_assert_str_eq(r.cpu.name, "epyc-9654");
	ck_assert_uint_eq(r.seed, 9);
	ck_assert(r.stop.halt);
	ck_assert_uint_eq(r.max_cycles, 83333333); /* 8e9 core-cycles over 96 cores */
	ck_assert_uint_eq(sim_default_limit(8, 0), 1000000000);
	ck_assert_uint_eq(sim_default_limit(1, 0), 1000000000);
	ck_assert_uint_eq(sim_default_limit(1024, 0), 7812500);
	/* interrupt sources: 256 (source, CPU) pairs count as a core, so a
	 * source on each CPU changes nothing below 256 CPUs, and the most
	 * pairs a scenario may have still end in about a minute */
	ck_assert_uint_eq(sim_default_limit(8, 8), 1000000000);
	ck_assert_uint_eq(sim_default_limit(1024, 1024), 8000000000ull / 1028);
	ck_assert_uint_eq(sim_default_limit(1024, SCEN_MAX_IRQ_PAIRS), 6250000);
	ck_assert_uint_eq(sim_default_limit(1, SCEN_MAX_IRQ_SOURCES), 31250000);
	ck_assert_uint_eq(r.n_threads, 1);
	ck_assert_int_eq(r.defines[1].value, 0);
	scen_run_free(&r);

	ck_assert_int_eq(scen_check_cores(&s, 0, 3, NULL, 1, &e), -1);
	ck_assert_str_eq(msg(&e), "full.json:10:24: $.threads[1].cpus: CPU 3 does not exist with 3 cores in variant \"atomic\" (expected ids 0..2)");
	/* a count from the command line is named as the option */
	err_clear(&e);
	ck_assert_int_eq(scen_check_cores(&s, 0, 3, "--cores 3", 1, &e), -1);
	ck_assert_str_eq(msg(&e), "full.json:10:24: $.threads[1].cpus: CPU 3 does not exist with 3 cores (--cores 3) in variant \"atomic\" (expected ids 0..2)");
	scen_free(&s);
}
END_TEST

START_TEST(scen_default)
{
	/* The built-in text is valid JSON; it loads fully once the catalogue
	 * provides scenarios/tcp_memory_allocated.s. */
	struct err e;
	err_clear(&e);
	struct jpos_doc *d = jpos_parse("default", scen_default_text, strlen(scen_default_text), &e);
	ck_assert_ptr_nonnull(d);
	jpos_free(d);
	struct scenario s;
	char path[600];
	snprintf(path, sizeof path, "%s/scenarios/tcp_memory_allocated.s", scen_datadir());
	if (access(path, R_OK) == 0) {
		ck_assert_msg(scen_load_default(&s, &e) == 0, "%s", msg(&e));
		ck_assert_uint_eq(s.n_variants, 2);
		scen_free(&s);
	} else {
		ck_assert_int_eq(scen_load_default(&s, &e), -1);
		ck_assert(strstr(msg(&e), "<built-in default>:7:") != NULL);
	}
}
END_TEST

/* ---- scenarios/scenario.schema.json against the C tables ----
 * The schema repeats the key lists for editors; these checks make a key
 * added to a table but not to the schema (or the reverse) fail here. */

static cJSON *load_schema(void)
{
	char path[600];
	snprintf(path, sizeof path, "%s/scenarios/scenario.schema.json", scen_datadir());
	struct err e;
	err_clear(&e);
	struct jpos_doc *d = jpos_load(path, &e);
	ck_assert_msg(d != NULL, "%s", msg(&e));
	cJSON *root = cJSON_Duplicate(jpos_root(d), 1);
	jpos_free(d);
	ck_assert_ptr_nonnull(root);
	return root;
}

/* Walks a path of object keys; fails the test when one is missing. */
static const cJSON *at(const cJSON *n, const char *path)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *k = strtok(buf, "/"); k; k = strtok(NULL, "/")) {
		n = cJSON_GetObjectItemCaseSensitive(n, k);
		ck_assert_msg(n != NULL, "schema has no %s (at \"%s\")", path, k);
	}
	return n;
}

static bool has_name(const char *const *names, const char *s)
{
	for (; *names; names++)
		if (!strcmp(*names, s))
			return true;
	return false;
}

/* The keys of object `n`, or the strings of array `n`, are exactly `names`. */
static void same_names(const cJSON *n, const char *const *names, const char *what)
{
	size_t count = 0, nn = 0;
	for (const cJSON *ch = n->child; ch; ch = ch->next, count++) {
		const char *s = cJSON_IsObject(n) ? ch->string : cJSON_GetStringValue(ch);
		ck_assert_msg(s && has_name(names, s), "%s: schema has \"%s\", the C table does not", what,
			      s ? s : "(not a string)");
	}
	for (; names[nn]; nn++) {
		bool found = false;
		for (const cJSON *ch = n->child; ch && !found; ch = ch->next) {
			const char *s = cJSON_IsObject(n) ? ch->string : cJSON_GetStringValue(ch);
			found = s && !strcmp(s, names[nn]);
		}
		ck_assert_msg(found, "%s: the C table has \"%s\", the schema does not", what, names[nn]);
	}
	ck_assert_uint_eq(count, nn);
}

/* The CPU-model keys whose `need` is `need`, NULL-terminated. */
static void keys_needing(enum cpu_field_need need, const char **out)
{
	size_t k = 0;
	for (size_t i = 0; i < CPU_MODEL_NFIELDS; i++)
		if (cpu_model_fields[i].need == need)
			out[k++] = cpu_model_fields[i].key;
	out[k] = NULL;
}

static void number_is(const cJSON *o, const char *key, double want, const char *field)
{
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, key);
	ck_assert_msg(cJSON_IsNumber(n), "schema %s: no \"%s\"", field, key);
	ck_assert_msg(n->valuedouble == want, "schema %s: %s %g, the C table %g", field, key,
		      n->valuedouble, want);
}

START_TEST(schema_agrees)
{
	cJSON *sc = load_schema();
	same_names(at(sc, "properties"), scen_top_keys, "top-level keys");
	same_names(at(sc, "properties/variants/items/properties"), scen_variant_keys, "variant keys");
	same_names(at(sc, "properties/interrupts/items/properties/kind/enum"), irq_kind_names,
		   "interrupt kinds");
	same_names(at(sc, "properties/variants/items/properties/interrupts/items/properties/kind/enum"),
		   irq_kind_names, "variant interrupt kinds");

	const cJSON *cpu = at(sc, "$defs/cpu");
	const cJSON *props = at(cpu, "properties");
	const char *need[CPU_MODEL_NFIELDS + 1];
	same_names(props, cpu_model_keys, "CPU-model keys");
	keys_needing(CPU_NEED_ALWAYS, need);
	same_names(at(cpu, "required"), need, "CPU-model required keys");
	/* The conditional requirements: "if" names the key they depend on. */
	int conds = 0;
	for (const cJSON *c = at(cpu, "allOf")->child; c; c = c->next) {
		const cJSON *ifp = cJSON_GetObjectItemCaseSensitive(at(c, "if"), "properties");
		if (!ifp) {
			/* "topology" or the flat shorthand: the shorthand is required
			 * without it (IF_FLAT) and refused with it (IF_FLAT, FLAT_ONLY). */
			const cJSON *on = at(c, "if/required")->child;
			ck_assert_msg(cJSON_IsString(on) && !strcmp(on->valuestring, "topology") && !on->next,
				      "schema: a CPU-model condition on presence that is not \"topology\"");
			keys_needing(CPU_NEED_IF_FLAT, need);
			same_names(at(c, "else/required"), need, "required without topology");
			const char *flat[CPU_MODEL_NFIELDS + 1];
			size_t k = 0;
			for (size_t i = 0; i < CPU_MODEL_NFIELDS; i++)
				if (cpu_model_fields[i].need == CPU_NEED_IF_FLAT ||
				    cpu_model_fields[i].need == CPU_NEED_FLAT_ONLY)
					flat[k++] = cpu_model_fields[i].key;
			flat[k] = NULL;
			const cJSON *refused = at(c, "then/properties");
			same_names(refused, flat, "refused with topology");
			for (const cJSON *r = refused->child; r; r = r->next)
				ck_assert_msg(cJSON_IsFalse(r), "schema: \"%s\" is not refused with topology", r->string);
			conds++;
			continue;
		}
		const cJSON *on = ifp->child;
		ck_assert_ptr_nonnull(on);
		if (!strcmp(on->string, "fabric"))
			keys_needing(CPU_NEED_IF_BUS, need);
		else if (!strcmp(on->string, "llc_size"))
			keys_needing(CPU_NEED_IF_LLC, need);
		else
			ck_abort_msg("schema: CPU-model requirement on \"%s\" has no C counterpart", on->string);
		same_names(at(c, "then/required"), need, on->string);
		conds++;
	}
	ck_assert_int_eq(conds, 3);

	for (size_t i = 0; i < CPU_MODEL_NFIELDS; i++) {
		const struct cpu_model_field *f = &cpu_model_fields[i];
		const cJSON *p = at(props, f->key);
		const cJSON *en = cJSON_GetObjectItemCaseSensitive(p, "enum");
		switch (f->type) {
		case CPU_F_STR:
			number_is(p, "maxLength", (double)(f->size - 1), f->key);
			break;
		case CPU_F_GHZ:
			number_is(p, "exclusiveMinimum", 0, f->key);
			number_is(p, "maximum", f->max, f->key);
			break;
		case CPU_F_INT:
		case CPU_F_U32:
		case CPU_F_LAT:
			if (en) { /* a set of values (line_size): its ends are the range */
				ck_assert_msg(cJSON_GetArrayItem(en, 0)->valuedouble == f->min &&
					      cJSON_GetArrayItem(en, cJSON_GetArraySize(en) - 1)->valuedouble == f->max,
					      "schema %s: enum ends differ from %g..%g", f->key, f->min, f->max);
			} else {
				number_is(p, "minimum", f->min, f->key);
				number_is(p, "maximum", f->max, f->key);
			}
			break;
		case CPU_F_FABRIC:
			same_names(en, cpu_fabric_names, f->key);
			break;
		case CPU_F_PROTOCOL:
			same_names(en, cpu_protocol_names, f->key);
			break;
		case CPU_F_TOPOLOGY:
			ck_assert_str_eq(cJSON_GetStringValue(at(p, "$ref")), "#/$defs/topology");
			break;
		}
	}

	/* The topology object: its keys, c2c's levels, and the bounds
	 * base/topology.h sets. */
	const cJSON *tp = at(sc, "$defs/topology/properties");
	same_names(tp, topo_json_keys, "topology keys");
	same_names(at(tp, "c2c/properties"), topo_json_c2c_keys, "topology c2c levels");
	number_is(at(tp, "sockets"), "maximum", TOPO_MAX_SOCKETS, "topology.sockets");
	number_is(at(tp, "threads_per_core"), "maximum", 8, "topology.threads_per_core");
	number_is(at(tp, "c2c_hops"), "maxItems", TOPO_MAX_HOPS, "topology.c2c_hops");
	number_is(at(tp, "hops/items/items"), "maximum", TOPO_MAX_HOPS, "topology.hops");
	number_is(at(tp, "hops"), "maxItems", TOPO_MAX_SOCKETS, "topology.hops");
	const cJSON *list = cJSON_GetArrayItem(at(tp, "numbering/oneOf"), 1);
	number_is(list, "maxItems", TOPO_MAX_MAPPED, "topology.numbering");
	same_names(at(cJSON_GetArrayItem(at(tp, "numbering/oneOf"), 0), "enum"),
		   (const char *const[]){topo_numbering_name(TOPO_NUM_SMT_LAST),
					 topo_numbering_name(TOPO_NUM_SMT_ADJACENT), NULL},
		   "topology.numbering rules");
	cJSON_Delete(sc);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("scenario");
	TCase *tc = tcase_create("scenario");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, cpus_all_load);
	tcase_add_test(tc, cpu_errors);
	tcase_add_test(tc, cpu_table_ranges_and_defaults);
	tcase_add_test(tc, cpu_topology);
	tcase_add_test(tc, json_syntax);
	tcase_add_test(tc, json_limits);
	tcase_add_test(tc, json_positions);
	tcase_add_test(tc, scen_errors);
	tcase_add_test(tc, scen_errors2);
	tcase_add_test(tc, scen_full);
	tcase_add_test(tc, scen_default);
	tcase_add_test(tc, schema_agrees);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

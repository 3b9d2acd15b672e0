/* The scenario loader: walks the scenario JSON key by key, so that every
 * mistake is reported at its own position with its JSON path, and resolves
 * variants into flat run descriptions. Checks that depend on the final core
 * count live in scen_check_cores, which load runs once for the defaults. */
#include "config.h"
#include "load/scenario.h"

#include "base/input_file.h"
#include "base/name_map.h"
#include "load/cpu_json.h"
#include "load/json_pos.h"
#include "cpu/totals.h"
#include "mem/memsys.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef BOUNCE_DATADIR
#define BOUNCE_DATADIR "."
#endif

struct ctx {
	const struct jpos_doc *d;
	struct scenario *s;
	struct err *e;
	/* Load-time indices of lists a scenario may make long: "report" names
	 * to their place, the base's defines to theirs. */
	struct name_map report_names;
	struct name_map base_defines;
};

#define KEY_NAME(key, ID, hint) #key,
/* "$schema" lets editors find scenarios/scenario.schema.json; ignored. */
const char *const scen_top_keys[] = {
	"$schema", "name", "description", SCEN_SETUP_KEYS(KEY_NAME) "report", "variants", "expect", NULL,
};
const char *const scen_variant_keys[] = { "name", "description", SCEN_SETUP_KEYS(KEY_NAME) NULL };

/* The setup keys in the order the "overrides nothing" message names them.
 * A repeated place is a repeated enumerator and a place past the end is out
 * of the array's bounds, both compile errors: every slot is filled. */
#define KEY_BY_HINT(key, ID, hint) [hint] = #key,
#define HINT_PLACE(key, ID, hint) setup_hint_place_##hint,
enum { SCEN_SETUP_KEYS(HINT_PLACE) };
static const char *const hint_keys[SCEN_NSETUP_KEYS] = { SCEN_SETUP_KEYS(KEY_BY_HINT) };

static const char *const reg_names[] = {
	"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10", "r11",
	"r12", "r13", "r14", "r15", NULL,
};
/* The report's totals: an expectation on another name could never be met.
 * In the order the messages list them, NULL-terminated. As for hint_keys,
 * a repeated or out-of-range place does not compile. */
#define TOTAL_BY_PLACE(name, value, listed) [listed] = #name,
#define TOTAL_PLACE(name, value, listed) total_place_##listed,
enum { RUN_TOTALS(TOTAL_PLACE) };
static const char *const total_names[RUN_NTOTALS + 1] = { RUN_TOTALS(TOTAL_BY_PLACE) };

const char *scen_datadir(void)
{
	const char *d = getenv("BOUNCE_DATADIR");
	return d && *d ? d : BOUNCE_DATADIR;
}

/* ---- small helpers ---- */

static char *dup_or_fail(struct ctx *c, const char *s)
{
	char *p = strdup(s ? s : "");
	if (!p)
		err_internal(c->e, "out of memory");
	return p;
}

static void *alloc_array(struct ctx *c, size_t n, size_t elem)
{
	void *p = calloc(n ? n : 1, elem);
	if (!p)
		err_internal(c->e, "out of memory");
	return p;
}

static void loc_of(const struct jpos_doc *d, const cJSON *n, struct scen_loc *l)
{
	jpos_where(d, n, &l->line, &l->col);
	jpos_path(d, n, l->path, sizeof l->path);
}

/* Assembler symbols may also contain '.' and '$' after the first character. */
static int is_symbol(const char *s)
{
	if (!(*s == '_' || *s == '.' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
		return 0;
	for (s++; *s; s++)
		if (!(*s == '_' || *s == '.' || *s == '$' || (*s >= 'a' && *s <= 'z') ||
		      (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
			return 0;
	return 1;
}

static int is_variant_name(const char *s)
{
	for (const char *p = s; *p; p++)
		if (!(*p == '_' || *p == '-' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9')))
			return 0;
	return *s != 0;
}

static int ident_string(struct ctx *c, const cJSON *n, const char *what, const char **out)
{
	if (jpos_string(c->d, n, 127, out, c->e))
		return -1;
	if (!is_symbol(*out))
		return jpos_error(c->d, n, c->e, "\"%s\" is not a valid %s (expected letters, digits, '_', '.')",
				  *out, what);
	return 0;
}

static char *path_join(const char *dir, const char *rel)
{
	size_t n = strlen(dir) + strlen(rel) + 2;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s", dir, rel);
	return p;
}

static int file_kind(const char *path) /* 0 none, 1 regular, 2 directory, 3 other */
{
	struct stat st;
	if (stat(path, &st))
		return 0;
	return S_ISREG(st.st_mode) ? 1 : S_ISDIR(st.st_mode) ? 2 : 3;
}

/* ---- CPU sets ---- */

/* "N" or "N-M" into [lo, hi]. */
static int parse_range(const char *s, int *lo, int *hi)
{
	char *end;
	long a = strtol(s, &end, 10), b = a;
	if (end == s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	if (*end == '-') {
		const char *t = end + 1;
		if (*t < '0' || *t > '9')
			return -1;
		b = strtol(t, &end, 10);
	}
	if (*end || a < 0 || b < a || b >= CPU_MAX_CORES)
		return -1;
	*lo = (int)a;
	*hi = (int)b;
	return 0;
}

/* A thread's CPUs may also be a placement policy (placement.h): "all",
 * placed by it. An interrupt's follow the threads' placement. */
static int parse_cpuset(struct ctx *c, const cJSON *n, struct scen_cpuset *cs, int thread)
{
	memset(cs, 0, sizeof *cs);
	loc_of(c->d, n, &cs->loc);
	const char *expect = thread ? "expected \"all\", a placement (\"compact\", \"scatter\", \"cores-first\", "
				      "\"numbered\"), a range string such as \"0-3\", or an array of CPU ids"
				    : "expected \"all\", a range string such as \"0-3\", or an array of CPU ids";
	if (cJSON_IsString(n) && !strcmp(n->valuestring, "all")) {
		cs->all = true;
		return 0;
	}
	if (thread && cJSON_IsString(n) && placement_find(n->valuestring) != PLACE_NONE) {
		cs->all = true;
		cs->placement = placement_find(n->valuestring);
		return 0;
	}
	int lo, hi;
	if (cJSON_IsString(n)) {
		if (parse_range(n->valuestring, &lo, &hi))
			return jpos_error(c->d, n, c->e, "bad CPU set \"%s\" (%s, ids 0..%d)", n->valuestring,
					  expect, CPU_MAX_CORES - 1);
		for (int i = lo; i <= hi; i++)
			cpuset_add(&cs->ids, i);
		return 0;
	}
	if (!cJSON_IsArray(n))
		return jpos_error(c->d, n, c->e, "%s, found %s", expect, jpos_type_name(n));
	if (!n->child)
		return jpos_error(c->d, n, c->e, "empty CPU set (expected at least one CPU)");
	for (const cJSON *ch = n->child; ch; ch = ch->next) {
		int64_t v;
		if (cJSON_IsString(ch)) {
			if (parse_range(ch->valuestring, &lo, &hi))
				return jpos_error(c->d, ch, c->e, "bad CPU range \"%s\" (expected \"N\" or \"N-M\", ids 0..%d)",
						  ch->valuestring, CPU_MAX_CORES - 1);
		} else {
			if (jpos_int(c->d, ch, 0, CPU_MAX_CORES - 1, &v, c->e))
				return -1;
			lo = hi = (int)v;
		}
		for (int i = lo; i <= hi; i++) {
			if (cpuset_has(&cs->ids, i))
				return jpos_error(c->d, ch, c->e, "CPU %d is listed twice", i);
			cpuset_add(&cs->ids, i);
		}
	}
	return 0;
}

bool scen_cpuset_has(const struct scen_cpuset *cs, int cpu)
{
	return cs->all || cpuset_has(&cs->ids, cpu);
}

void scen_cpuset_resolve(const struct scen_cpuset *cs, int cores, struct cpuset *out)
{
	memset(out, 0, sizeof *out);
	for (int cpu = 0; cpu < cores; cpu++)
		if (scen_cpuset_has(cs, cpu))
			cpuset_add(out, cpu);
}

/* ---- the setup keys (top level and variants) ---- */

static int list_cpus(char *buf, size_t n)
{
	char *dir = path_join(scen_datadir(), "cpus");
	DIR *dh = dir ? opendir(dir) : NULL;
	size_t len = 0;
	buf[0] = 0;
	free(dir);
	if (!dh)
		return 0;
	struct dirent *de;
	while ((de = readdir(dh)) && len < n) {
		size_t l = strlen(de->d_name);
		if (l > 5 && !strcmp(de->d_name + l - 5, ".json"))
			len += (size_t)snprintf(buf + len, n - len, "%s%.*s", len ? ", " : "", (int)(l - 5), de->d_name);
	}
	closedir(dh);
	return 0;
}

char *scen_cpu_file(const char *name, const char *dir)
{
	size_t l = strlen(name);
	if (strchr(name, '/') || (l > 5 && !strcmp(name + l - 5, ".json")))
		return name[0] == '/' ? strdup(name) : path_join(dir ? dir : ".", name);
	char file[300];
	snprintf(file, sizeof file, "cpus/%s.json", name);
	return path_join(scen_datadir(), file);
}

/* Load the CPU model `name` names; the file read is kept in *read_path
 * (the caller's to free) when read_path is not NULL. */
static int load_cpu_name(const char *name, const char *dir, struct cpu_model *m, struct err *e,
			 int *missing, char **read_path)
{
	char *path = scen_cpu_file(name, dir);
	*missing = 0;
	if (!path)
		return err_internal(e, "out of memory");
	if (file_kind(path) == 0) {
		*missing = 1;
		int r = err_set(e, NULL, 0, 0, "%s", path);
		free(path);
		return r;
	}
	int r = cpu_json_load(path, m, e);
	if (read_path && r == 0)
		*read_path = path;
	else
		free(path);
	return r;
}

int scen_load_cpu(const char *name, struct cpu_model *m, struct err *e)
{
	struct err tmp;
	int missing;
	err_clear(&tmp);
	if (load_cpu_name(name, ".", m, &tmp, &missing, NULL) == 0)
		return 0;
	if (missing) {
		char known[512];
		list_cpus(known, sizeof known);
		return err_set(e, NULL, 0, 0, "unknown CPU model \"%s\" (no file %s; known: %s)", name,
			       tmp.msg, known);
	}
	*e = tmp;
	return -1;
}

static int parse_cpu(struct ctx *c, const cJSON *n, struct scen_setup *su)
{
	loc_of(c->d, n, &su->cpu_loc);
	if (cJSON_IsObject(n))
		return cpu_json_from_node(c->d, n, "inline", &su->cpu, c->e);
	const char *name;
	if (!cJSON_IsString(n))
		return jpos_error(c->d, n, c->e, "expected a CPU model name or an inline CPU model object, found %s",
				  jpos_type_name(n));
	if (jpos_string(c->d, n, 200, &name, c->e))
		return -1;
	struct err tmp;
	int missing;
	err_clear(&tmp);
	char *path = NULL;
	if (load_cpu_name(name, c->s->dir, &su->cpu, &tmp, &missing, &path) == 0) {
		char **in = realloc(c->s->cpu_files, (c->s->n_cpu_files + 1) * sizeof *in);
		if (!in) {
			free(path);
			return err_internal(c->e, "out of memory");
		}
		c->s->cpu_files = in;
		in[c->s->n_cpu_files++] = path;
		return 0;
	}
	if (!missing) {
		if (c->e && !err_is_set(c->e))
			*c->e = tmp;
		return -1;
	}
	char known[512];
	list_cpus(known, sizeof known);
	return jpos_error(c->d, n, c->e, "unknown CPU model \"%s\" (no file %s; known: %s)", name, tmp.msg,
			  known);
}

static int parse_program(struct ctx *c, const cJSON *n, struct scen_setup *su)
{
	const cJSON *one = NULL;
	size_t cnt = 0;
	if (cJSON_IsString(n)) {
		one = n;
		cnt = 1;
	} else if (cJSON_IsArray(n)) {
		cnt = (size_t)cJSON_GetArraySize(n);
		if (!cnt)
			return jpos_error(c->d, n, c->e, "empty program list (expected at least one .s or .c file)");
	} else {
		return jpos_error(c->d, n, c->e, "expected a file name or an array of file names, found %s",
				  jpos_type_name(n));
	}
	if (!(su->program = alloc_array(c, cnt, sizeof *su->program)))
		return -1;
	char *lib = path_join(scen_datadir(), "scenarios");
	if (!lib)
		return err_internal(c->e, "out of memory");
	int r = 0;
	for (const cJSON *ch = one ? one : n->child; ch && !r; ch = one ? NULL : ch->next) {
		const char *rel;
		if ((r = jpos_string(c->d, ch, 4000, &rel, c->e)))
			break;
		if (!input_is_program_name(rel)) {
			r = jpos_error(c->d, ch, c->e, "program \"%s\" is not a workload file (expected a name ending in %s)",
				       rel, INPUT_PROGRAM_NAMES);
			break;
		}
		char *a = rel[0] == '/' ? strdup(rel) : path_join(c->s->dir, rel);
		char *b = rel[0] == '/' ? NULL : path_join(lib, rel);
		if (!a || (rel[0] != '/' && !b)) {
			r = err_internal(c->e, "out of memory");
		} else if (file_kind(a) == 1) {
			su->program[su->n_program++] = a;
			a = NULL;
		} else if (b && file_kind(b) == 1) {
			su->program[su->n_program++] = b;
			b = NULL;
		} else if (file_kind(a) == 2) {
			r = jpos_error(c->d, ch, c->e, "program \"%s\" is a directory (expected a .s or .c file)", rel);
		} else if (file_kind(a) == 3) {
			struct stat st;
			r = jpos_error(c->d, ch, c->e, "program \"%s\" is %s (expected a .s or .c file)", rel,
				       stat(a, &st) ? "not a regular file" : input_kind(st.st_mode));
		} else if (b) {
			r = jpos_error(c->d, ch, c->e, "program file \"%s\" not found (expected it next to the scenario or in %s)",
				       rel, lib);
		} else {
			r = jpos_error(c->d, ch, c->e, "program file \"%s\" not found", rel);
		}
		free(a);
		free(b);
	}
	free(lib);
	return r;
}

static int parse_defines(struct ctx *c, const cJSON *n, struct scen_setup *su)
{
	if (jpos_object(c->d, n, c->e))
		return -1;
	size_t cnt = (size_t)cJSON_GetArraySize(n);
	if (!(su->defines = alloc_array(c, cnt, sizeof *su->defines)))
		return -1;
	for (const cJSON *ch = n->child; ch; ch = ch->next) {
		if (err_poll(c->e))
			return -1;
		if (!is_symbol(ch->string))
			return jpos_key_error(c->d, ch, c->e, "\"%s\" is not a valid .equ name", ch->string);
		int64_t v;
		if (jpos_int(c->d, ch, INT64_MIN, INT64_MAX, &v, c->e))
			return -1;
		char *name = dup_or_fail(c, ch->string);
		if (!name)
			return -1;
		struct asm_define d = { .name = name, .value = v, .file = c->s->file };
		jpos_key_where(c->d, ch, &d.line, &d.col);
		su->defines[su->n_defines++] = d;
	}
	return 0;
}

/* Flags for the compiles of the .c programs. Those that would change what
 * the compile produces or where (a mode, an output, dependency files) are
 * refused here: the compile's own flags decide those (c_compile.c). */
static int parse_cflags(struct ctx *c, const cJSON *n, struct scen_setup *su)
{
	static const char *const refused[] = { "-o", "-c", "-E", "-S", "-M", "-save-temps", "-x", "-pipe", NULL };
	if (jpos_array(c->d, n, c->e))
		return -1;
	size_t cnt = (size_t)cJSON_GetArraySize(n);
	if (!(su->cflags = alloc_array(c, cnt, sizeof *su->cflags)))
		return -1;
	for (const cJSON *ch = n->child; ch; ch = ch->next) {
		const char *f;
		if (jpos_string(c->d, ch, 4000, &f, c->e))
			return -1;
		if (f[0] != '-' || !f[1])
			return jpos_error(c->d, ch, c->e, "\"%s\" is not a compiler flag (expected one starting with '-', "
					  "such as \"-O3\"; C files go in \"program\")", f);
		for (const char *const *r = refused; *r; r++)
			if (strncmp(f, *r, strlen(*r)) == 0 && (strcmp(*r, "-M") == 0 || !f[strlen(*r)] ||
								 strcmp(*r, "-x") == 0 || strcmp(*r, "-o") == 0))
				return jpos_error(c->d, ch, c->e, "flag \"%s\" is bounce's to set: the compile's mode, "
						  "output and language are fixed (docs/c-workloads.md)", f);
		if (!(su->cflags[su->n_cflags++] = dup_or_fail(c, f)))
			return -1;
	}
	return 0;
}

static int parse_regs(struct ctx *c, const cJSON *n, struct scen_thread *t)
{
	if (jpos_object(c->d, n, c->e))
		return -1;
	size_t cnt = (size_t)cJSON_GetArraySize(n);
	if (!(t->regs = alloc_array(c, cnt, sizeof *t->regs)))
		return -1;
	for (const cJSON *ch = n->child; ch; ch = ch->next) {
		const char *const *r;
		for (r = reg_names; *r && strcmp(*r, ch->string); r++)
			;
		if (!*r) {
			const char *hint = jpos_suggest(ch->string, reg_names);
			if (hint)
				return jpos_key_error(c->d, ch, c->e, "unknown register \"%s\" (did you mean \"%s\"?)",
						      ch->string, hint);
			return jpos_key_error(c->d, ch, c->e, "unknown register \"%s\" (expected rax..rdi, rbp, rsp, r8..r15)",
					      ch->string);
		}
		int64_t v;
		if (jpos_int(c->d, ch, INT64_MIN, INT64_MAX, &v, c->e))
			return -1;
		snprintf(t->regs[t->n_regs].name, sizeof t->regs[0].name, "%s", *r);
		t->regs[t->n_regs++].value = v;
	}
	return 0;
}

static const cJSON *require(struct ctx *c, const cJSON *obj, const char *key, const char *what)
{
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!n)
		jpos_error(c->d, obj, c->e, "missing key \"%s\" (expected %s)", key, what);
	return n;
}

static int parse_threads(struct ctx *c, const cJSON *n, struct scen_setup *su)
{
	static const char *const keys[] = { "cpus", "entry", "regs", NULL };
	if (jpos_array(c->d, n, c->e))
		return -1;
	size_t cnt = (size_t)cJSON_GetArraySize(n);
	if (!cnt)
		return jpos_error(c->d, n, c->e, "no threads (expected at least one)");
	if (!(su->threads = alloc_array(c, cnt, sizeof *su->threads)))
		return -1;
	for (const cJSON *o = n->child; o; o = o->next) {
		struct scen_thread *t = &su->threads[su->n_threads++];
		const cJSON *k;
		const char *entry;
		if (jpos_object(c->d, o, c->e) || jpos_check_keys(c->d, o, keys, c->e))
			return -1;
		if (!(k = require(c, o, "cpus", "\"all\", a placement, \"0-3\" or [ids]")) || parse_cpuset(c, k, &t->cpus, 1))
			return -1;
		if (!(k = require(c, o, "entry", "the label the thread starts at")) ||
		    ident_string(c, k, "label", &entry) || !(t->entry = dup_or_fail(c, entry)))
			return -1;
		if ((k = cJSON_GetObjectItemCaseSensitive(o, "regs")) && parse_regs(c, k, t))
			return -1;
	}
	return 0;
}

static int parse_interrupts(struct ctx *c, const cJSON *n, struct scen_setup *su)
{
	static const char *const keys[] = { "cpus", "kind", "handler", "every", "jitter", "poisson", NULL };
	char kinds[64];
	jpos_alternatives(irq_kind_names, kinds, sizeof kinds);
	if (jpos_array(c->d, n, c->e))
		return -1;
	size_t cnt = (size_t)cJSON_GetArraySize(n);
	if (cnt > SCEN_MAX_IRQ_SOURCES) {
		const cJSON *o = n->child;
		for (size_t i = 0; i < SCEN_MAX_IRQ_SOURCES; i++)
			o = o->next;
		return jpos_error(c->d, o, c->e, "interrupt source %zu of %zu is over the limit of %d",
				  (size_t)SCEN_MAX_IRQ_SOURCES + 1, cnt, SCEN_MAX_IRQ_SOURCES);
	}
	if (!(su->interrupts = alloc_array(c, cnt, sizeof *su->interrupts)))
		return -1;
	for (const cJSON *o = n->child; o; o = o->next) {
		struct scen_interrupt *q = &su->interrupts[su->n_interrupts++];
		const cJSON *k;
		const char *s;
		int64_t v;
		if (jpos_object(c->d, o, c->e) || jpos_check_keys(c->d, o, keys, c->e))
			return -1;
		if (!(k = require(c, o, "cpus", "\"all\", \"0-3\" or [ids]")) || parse_cpuset(c, k, &q->cpus, 0))
			return -1;
		if (!(k = require(c, o, "kind", kinds)) || jpos_string(c->d, k, 0, &s, c->e))
			return -1;
		int kind = 0;
		while (irq_kind_names[kind] && strcmp(s, irq_kind_names[kind]))
			kind++;
		if (!irq_kind_names[kind])
			return jpos_error(c->d, k, c->e, "unknown interrupt kind \"%s\" (expected %s)", s, kinds);
		q->kind = (enum irq_kind)kind;
		if (!(k = require(c, o, "handler", "the handler's label")) || ident_string(c, k, "label", &s) ||
		    !(q->handler = dup_or_fail(c, s)))
			return -1;
		if (!(k = require(c, o, "every", "the period (mean interval when poisson) in cycles")) ||
		    jpos_int(c->d, k, 1, INT64_C(1) << 50, &v, c->e))
			return -1;
		if (v < SCEN_MIN_IRQ_PERIOD)
			return jpos_error(c->d, k, c->e, "an interrupt every %lld cycles is more often than the floor of "
					  "one every %d cycles (entering and leaving an interrupt alone costs that much "
					  "on x86; expected \"every\": %d or more)", (long long)v,
					  SCEN_MIN_IRQ_PERIOD, SCEN_MIN_IRQ_PERIOD);
		q->every = (uint64_t)v;
		if ((k = cJSON_GetObjectItemCaseSensitive(o, "poisson")) && jpos_bool(c->d, k, &q->poisson, c->e))
			return -1;
		if ((k = cJSON_GetObjectItemCaseSensitive(o, "jitter"))) {
			if (jpos_double(c->d, k, 0.0, 1.0, &q->jitter, c->e))
				return -1;
			if (q->poisson)
				return jpos_key_error(c->d, k, c->e,
						      "jitter has no meaning with poisson arrivals (expected one of them)");
		}
	}
	return 0;
}

static int parse_stop(struct ctx *c, const cJSON *n, struct scen_setup *su)
{
	static const char *const keys[] = { "cycles", "halt", NULL };
	memset(&su->stop, 0, sizeof su->stop);
	if (cJSON_IsString(n)) {
		if (strcmp(n->valuestring, "halt"))
			return jpos_error(c->d, n, c->e, "unknown stop \"%s\" (expected \"halt\" or {\"cycles\": N})",
					  n->valuestring);
		su->stop.halt = true;
		return 0;
	}
	if (!cJSON_IsObject(n))
		return jpos_error(c->d, n, c->e, "expected \"halt\" or an object {\"cycles\": N, \"halt\": bool}, found %s",
				  jpos_type_name(n));
	if (jpos_check_keys(c->d, n, keys, c->e))
		return -1;
	const cJSON *k;
	int64_t v;
	if ((k = cJSON_GetObjectItemCaseSensitive(n, "cycles"))) {
		if (jpos_int(c->d, k, 1, INT64_MAX, &v, c->e))
			return -1;
		if ((uint64_t)v > SCEN_MAX_STOP_CYCLES)
			return jpos_error(c->d, k, c->e, "%lld cycles is more than the maximum stop of %llu "
					  "cycles (hours of simulation)", (long long)v,
					  (unsigned long long)SCEN_MAX_STOP_CYCLES);
		su->stop.cycles = (uint64_t)v;
	}
	if ((k = cJSON_GetObjectItemCaseSensitive(n, "halt")) && jpos_bool(c->d, k, &su->stop.halt, c->e))
		return -1;
	if (!su->stop.cycles && !su->stop.halt)
		return jpos_error(c->d, n, c->e, "stops never (expected \"cycles\" or \"halt\": true)");
	return 0;
}

static int parse_cores(struct ctx *c, const cJSON *n, struct scen_setup *su)
{
	int64_t v;
	loc_of(c->d, n, &su->cores_loc);
	if (jpos_int(c->d, n, 1, CPU_MAX_CORES, &v, c->e))
		return -1;
	su->cores = (int)v;
	return 0;
}

static int parse_seed(struct ctx *c, const cJSON *n, struct scen_setup *su)
{
	int64_t v;
	if (jpos_int(c->d, n, 0, INT64_MAX, &v, c->e))
		return -1;
	su->seed = (uint64_t)v;
	return 0;
}

static int parse_setup(struct ctx *c, const cJSON *obj, struct scen_setup *su)
{
	const cJSON *n;
#define PARSE_KEY(key, ID, hint)                                           \
	if ((n = cJSON_GetObjectItemCaseSensitive(obj, #key))) {           \
		su->set |= SCEN_SET_##ID;                                  \
		if (parse_##key(c, n, su))                                 \
			return -1;                                         \
	}
	SCEN_SETUP_KEYS(PARSE_KEY)
#undef PARSE_KEY
	return 0;
}

/* ---- top level ---- */

static int parse_report(struct ctx *c, const cJSON *n)
{
	struct scenario *s = c->s;
	if (jpos_array(c->d, n, c->e))
		return -1;
	size_t cnt = (size_t)cJSON_GetArraySize(n);
	if (!(s->report = alloc_array(c, cnt, sizeof *s->report)) ||
	    !(s->report_loc = alloc_array(c, cnt, sizeof *s->report_loc)))
		return -1;
	if (name_map_reserve(&c->report_names, cnt))
		return err_internal(c->e, "out of memory");
	for (const cJSON *ch = n->child; ch; ch = ch->next) {
		const char *name;
		if (err_poll(c->e) || ident_string(c, ch, "symbol name", &name))
			return -1;
		size_t at = s->n_report;
		int added = name_map_add(&c->report_names, name, strlen(name), &at);
		if (added < 0)
			return err_internal(c->e, "out of memory");
		if (!added)
			return jpos_error(c->d, ch, c->e, "symbol \"%s\" is listed twice", name);
		loc_of(c->d, ch, &s->report_loc[s->n_report]);
		/* The map keeps the pointer it was given: the node's string
		 * lives as long as the document, which outlives the map. */
		if (!(s->report[s->n_report++] = dup_or_fail(c, name))) /* only names: never a NULL entry */
			return -1;
	}
	return 0;
}

/* The base's define of that name, or NULL (base_defines indexes them). */
static const struct asm_define *find_base_define(const struct ctx *c, const char *name)
{
	size_t i;
	if (!name_map_find(&c->base_defines, name, strlen(name), &i))
		return NULL;
	return &c->s->base.defines[i];
}

/* JSON refuses duplicate keys, so every base define is its own name. */
static int index_base_defines(struct ctx *c)
{
	const struct scen_setup *b = &c->s->base;
	if (name_map_reserve(&c->base_defines, b->n_defines))
		return err_internal(c->e, "out of memory");
	for (size_t i = 0; i < b->n_defines; i++) {
		size_t at = i;
		if (name_map_add(&c->base_defines, b->defines[i].name, strlen(b->defines[i].name), &at) < 0)
			return err_internal(c->e, "out of memory");
	}
	return 0;
}

static int parse_variants(struct ctx *c, const cJSON *n)
{
	struct scenario *s = c->s;
	if (jpos_array(c->d, n, c->e))
		return -1;
	size_t cnt = (size_t)cJSON_GetArraySize(n);
	if (!cnt)
		return jpos_error(c->d, n, c->e, "no variants (expected at least one, or leave the key out)");
	if (!(s->variants = alloc_array(c, cnt, sizeof *s->variants)))
		return -1;
	/* Variants by name (name_map), so that loading and every metric's
	 * lookup stay linear in a scenario of many variants. */
	if (name_map_reserve(&s->variant_names, cnt))
		return err_internal(c->e, "out of memory");
	if (index_base_defines(c))
		return -1;
	int i = 0;
	for (const cJSON *o = n->child; o; o = o->next, i++) {
		struct scen_variant *v = &s->variants[s->n_variants++];
		const cJSON *k;
		const char *name;
		if (jpos_object(c->d, o, c->e) || jpos_check_keys(c->d, o, scen_variant_keys, c->e))
			return -1;
		loc_of(c->d, o, &v->loc);
		if (!(k = require(c, o, "name", "the variant's name")) || jpos_string(c->d, k, 63, &name, c->e))
			return -1;
		if (!is_variant_name(name))
			return jpos_error(c->d, k, c->e, "\"%s\" is not a valid variant name (expected letters, digits, '_', '-')",
					  name);
		size_t first;
		if (name_map_find(&s->variant_names, name, strlen(name), &first))
			return jpos_error(c->d, k, c->e, "duplicate variant name \"%s\" (first at %s)", name,
					  s->variants[first].loc.path);
		if (!(v->name = dup_or_fail(c, name)))
			return -1;
		size_t at = (size_t)(v - s->variants);
		if (name_map_add(&s->variant_names, v->name, strlen(v->name), &at) < 0)
			return err_internal(c->e, "out of memory");
		if (err_poll(c->e))
			return -1;
		const char *desc = "";
		if ((k = cJSON_GetObjectItemCaseSensitive(o, "description")) && jpos_string(c->d, k, 0, &desc, c->e))
			return -1;
		if (!(v->description = dup_or_fail(c, desc)))
			return -1;
		if (parse_setup(c, o, &v->setup))
			return -1;
		/* A variant that changes nothing would report the base twice under
		 * two names and make any ratio between them meaningless. */
		int real = (v->setup.set & ~(unsigned)SCEN_SET_DEFINES) != 0;
		for (size_t j = 0; j < v->setup.n_defines && !real; j++) {
			const struct asm_define *b = find_base_define(c, v->setup.defines[j].name);
			real = !b || b->value != v->setup.defines[j].value;
		}
		if (!real) {
			char keys[200];
			size_t len = 0;
			for (size_t j = 0; j < SCEN_NSETUP_KEYS && len < sizeof keys; j++)
				len += (size_t)snprintf(keys + len, sizeof keys - len, "%s%s", j ? ", " : "", hint_keys[j]);
			return jpos_error(c->d, o, c->e, "variant \"%s\" overrides nothing%s (expected one of %s that differs from the base)",
					  name, v->setup.n_defines ? " (its defines equal the base's)" : "", keys);
		}
	}
	return 0;
}

/* variants.NAME.FIELD[.FIELD...]: checked against what load knows. */
static int check_metric(struct ctx *c, const cJSON *n, const char **out)
{
	const char *m;
	if (jpos_string(c->d, n, 255, &m, c->e))
		return -1;
	char buf[256], *seg[16];
	int nseg = 0;
	snprintf(buf, sizeof buf, "%s", m);
	for (char *p = buf, *q; p && nseg < 16; p = q) {
		q = strchr(p, '.');
		if (q)
			*q++ = 0;
		if (!*p || !is_variant_name(p))
			return jpos_error(c->d, n, c->e, "bad metric \"%s\": empty or invalid segment (expected variants.NAME.FIELD[.FIELD...], segments of letters, digits, '_', '-')",
					  m);
		seg[nseg++] = p;
	}
	if (nseg < 3 || strcmp(seg[0], "variants"))
		return jpos_error(c->d, n, c->e, "bad metric \"%s\" (expected variants.NAME.FIELD[.FIELD...], e.g. variants.%s.totals.bounces)",
				  m, c->s->variants[0].name);
	if (scen_find_variant(c->s, seg[1]) < 0) {
		const char *names[64];
		size_t k;
		for (k = 0; k < c->s->n_variants && k < 63; k++)
			names[k] = c->s->variants[k].name;
		names[k] = NULL;
		const char *hint = jpos_suggest(seg[1], names);
		if (hint)
			return jpos_error(c->d, n, c->e, "metric \"%s\" names no variant \"%s\" (did you mean \"%s\"?)", m,
					  seg[1], hint);
		return jpos_error(c->d, n, c->e, "metric \"%s\" names no variant \"%s\" (expected one of the scenario's variants)",
				  m, seg[1]);
	}
	if (!strcmp(seg[2], "totals")) {
		const char *const *t;
		if (nseg != 4)
			return jpos_error(c->d, n, c->e, "bad metric \"%s\" (expected variants.%s.totals.COUNTER)", m, seg[1]);
		for (t = total_names; *t && strcmp(*t, seg[3]); t++)
			;
		if (!*t) {
			const char *hint = jpos_suggest(seg[3], total_names);
			if (hint)
				return jpos_error(c->d, n, c->e, "metric \"%s\": unknown counter \"%s\" (did you mean \"%s\"?)",
						  m, seg[3], hint);
			char list[400];
			size_t len = 0;
			for (size_t i = 0; i < RUN_NTOTALS && len < sizeof list; i++)
				len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
							!i ? "" : i + 1 < RUN_NTOTALS ? ", " : " or ", total_names[i]);
			return jpos_error(c->d, n, c->e, "metric \"%s\": unknown counter \"%s\" (expected %s)", m, seg[3],
					  list);
		}
	} else if (!strcmp(seg[2], "symbols")) {
		size_t k;
		/* Fields may nest: symbols.fbc.accuracy.max_error. */
		if (nseg < 5)
			return jpos_error(c->d, n, c->e, "bad metric \"%s\" (expected variants.%s.symbols.SYMBOL.FIELD[.FIELD])", m,
					  seg[1]);
		if (!name_map_find(&c->report_names, seg[3], strlen(seg[3]), &k))
			return jpos_error(c->d, n, c->e, "metric \"%s\": symbol \"%s\" is not in \"report\" (expected a reported symbol)",
					  m, seg[3]);
	}
	*out = m;
	return 0;
}

static int parse_bounds(struct ctx *c, const cJSON *o, struct scen_expect *x, bool allow_equals)
{
	const cJSON *k;
	if ((k = cJSON_GetObjectItemCaseSensitive(o, "min"))) {
		if (jpos_double(c->d, k, -1e300, 1e300, &x->min, c->e))
			return -1;
		x->has_min = true;
	}
	if ((k = cJSON_GetObjectItemCaseSensitive(o, "max"))) {
		if (jpos_double(c->d, k, -1e300, 1e300, &x->max, c->e))
			return -1;
		x->has_max = true;
		if (x->has_min && x->min > x->max)
			return jpos_error(c->d, k, c->e, "max %g is below min %g (expected min <= max)", x->max, x->min);
	}
	if (allow_equals && (k = cJSON_GetObjectItemCaseSensitive(o, "equals"))) {
		if (x->has_min || x->has_max)
			return jpos_key_error(c->d, k, c->e, "\"equals\" with \"min\"/\"max\" (expected one or the other)");
		if (jpos_double(c->d, k, -1e300, 1e300, &x->equals, c->e))
			return -1;
		x->has_equals = true;
		struct err tmp;
		err_clear(&tmp);
		x->equals_is_int = jpos_int(c->d, k, INT64_MIN, INT64_MAX, &x->equals_int, &tmp) == 0;
	}
	if (!x->has_min && !x->has_max && !x->has_equals)
		return jpos_error(c->d, o, c->e, "no bound (expected \"min\", \"max\"%s)", allow_equals ? " or \"equals\"" : "");
	return 0;
}

/* "cores": {"min": A, "max": B}: the machine sizes an expectation is a
 * claim about (a scenario swept over core counts states a bound that holds
 * only at some). */
static int parse_expect_cores(struct ctx *c, const cJSON *o, struct scen_expect *x)
{
	static const char *const ckeys[] = { "min", "max", NULL };
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, "cores"), *k;
	int64_t v;
	x->cores_min = 1;
	x->cores_max = CPU_MAX_CORES;
	if (!n)
		return 0;
	if (jpos_object(c->d, n, c->e) || jpos_check_keys(c->d, n, ckeys, c->e))
		return -1;
	if ((k = cJSON_GetObjectItemCaseSensitive(n, "min"))) {
		if (jpos_int(c->d, k, 1, CPU_MAX_CORES, &v, c->e))
			return -1;
		x->cores_min = (int)v;
	}
	if ((k = cJSON_GetObjectItemCaseSensitive(n, "max"))) {
		if (jpos_int(c->d, k, 1, CPU_MAX_CORES, &v, c->e))
			return -1;
		if (v < x->cores_min)
			return jpos_error(c->d, k, c->e, "max %lld is below min %d (expected min <= max)",
					  (long long)v, x->cores_min);
		x->cores_max = (int)v;
	}
	if (!cJSON_GetObjectItemCaseSensitive(n, "min") && !cJSON_GetObjectItemCaseSensitive(n, "max"))
		return jpos_error(c->d, n, c->e, "no bound (expected \"min\", \"max\" or both)");
	return 0;
}

static int parse_expect(struct ctx *c, const cJSON *n)
{
	static const char *const keys[] = { "metric", "min", "max", "equals", "ratio", "cores", "stopped",
					    "description", NULL };
	static const char *const rkeys[] = { "of", "to", "min", "max", NULL };
	struct scenario *s = c->s;
	if (jpos_array(c->d, n, c->e))
		return -1;
	size_t cnt = (size_t)cJSON_GetArraySize(n);
	if (!(s->expect = alloc_array(c, cnt, sizeof *s->expect)))
		return -1;
	for (const cJSON *o = n->child; o; o = o->next) {
		if (err_poll(c->e))
			return -1;
		struct scen_expect *x = &s->expect[s->n_expect++];
		const cJSON *k, *r;
		const char *m, *to;
		if (jpos_object(c->d, o, c->e) || jpos_check_keys(c->d, o, keys, c->e))
			return -1;
		loc_of(c->d, o, &x->loc);
		if ((k = cJSON_GetObjectItemCaseSensitive(o, "description")) &&
		    (jpos_string(c->d, k, 0, &m, c->e) || !(x->description = dup_or_fail(c, m))))
			return -1;
		if ((k = cJSON_GetObjectItemCaseSensitive(o, "stopped")) && jpos_bool(c->d, k, &x->about_stopped, c->e))
			return -1;
		if (parse_expect_cores(c, o, x))
			return -1;
		if ((r = cJSON_GetObjectItemCaseSensitive(o, "ratio"))) {
			const cJSON *bad = cJSON_GetObjectItemCaseSensitive(o, "metric");
			if (!bad) bad = cJSON_GetObjectItemCaseSensitive(o, "min");
			if (!bad) bad = cJSON_GetObjectItemCaseSensitive(o, "max");
			if (!bad) bad = cJSON_GetObjectItemCaseSensitive(o, "equals");
			if (bad)
				return jpos_key_error(c->d, bad, c->e, "\"%s\" beside \"ratio\" (expected the bounds inside \"ratio\")",
						      bad->string);
			if (jpos_object(c->d, r, c->e) || jpos_check_keys(c->d, r, rkeys, c->e))
				return -1;
			if (!(k = require(c, r, "of", "the numerator metric")) || check_metric(c, k, &m) ||
			    !(k = require(c, r, "to", "the denominator metric")) || check_metric(c, k, &to))
				return -1;
			if (!(x->metric = dup_or_fail(c, m)) || !(x->to = dup_or_fail(c, to)))
				return -1;
			if (parse_bounds(c, r, x, false))
				return -1;
			continue;
		}
		if (!(k = require(c, o, "metric", "a report metric, or \"ratio\"")) || check_metric(c, k, &m) ||
		    !(x->metric = dup_or_fail(c, m)) || parse_bounds(c, o, x, true))
			return -1;
	}
	return 0;
}

static int parse_top(struct ctx *c, const cJSON *root)
{
	struct scenario *s = c->s;
	const cJSON *k;
	const char *str;
	if (jpos_object(c->d, root, c->e) || jpos_check_keys(c->d, root, scen_top_keys, c->e))
		return -1;
	/* Name defaults to the file's base name. */
	const char *base = strrchr(s->file, '/');
	char defname[128];
	snprintf(defname, sizeof defname, "%s", base ? base + 1 : s->file);
	char *dot = strrchr(defname, '.');
	if (dot && !strcmp(dot, ".json"))
		*dot = 0;
	str = defname;
	if ((k = cJSON_GetObjectItemCaseSensitive(root, "name")) && jpos_string(c->d, k, 200, &str, c->e))
		return -1;
	if (!(s->name = dup_or_fail(c, str)))
		return -1;
	str = "";
	if ((k = cJSON_GetObjectItemCaseSensitive(root, "description")) && jpos_string(c->d, k, 0, &str, c->e))
		return -1;
	if (!(s->description = dup_or_fail(c, str)))
		return -1;
	if (!require(c, root, "cpu", "a CPU model name such as \"x460-8way\" or an inline object") ||
	    !require(c, root, "program", "the .s and .c files to run") ||
	    !require(c, root, "threads", "[{\"cpus\": ..., \"entry\": ...}]"))
		return -1;
	if (parse_setup(c, root, &s->base))
		return -1;
	if (!(s->base.set & SCEN_SET_STOP))
		s->base.stop.halt = true;
	if ((k = cJSON_GetObjectItemCaseSensitive(root, "report")) && parse_report(c, k))
		return -1;
	if ((k = cJSON_GetObjectItemCaseSensitive(root, "variants"))) {
		if (parse_variants(c, k))
			return -1;
	} else {
		if (!(s->variants = alloc_array(c, 1, sizeof *s->variants)) ||
		    !(s->variants[0].name = dup_or_fail(c, SCEN_DEFAULT_VARIANT)) ||
		    !(s->variants[0].description = dup_or_fail(c, "")))
			return -1;
		s->n_variants = 1;
		loc_of(c->d, root, &s->variants[0].loc);
	}
	if ((k = cJSON_GetObjectItemCaseSensitive(root, "expect")) && parse_expect(c, k))
		return -1;
	for (size_t v = 0; v < s->n_variants; v++)
		if (scen_check_cores(s, v, 0, NULL, 1, c->e))
			return -1;
	return 0;
}

static int dir_of(const char *path, char **out)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		*out = strdup(".");
	else if (slash == path)
		*out = strdup("/");
	else
		*out = strndup(path, (size_t)(slash - path));
	return *out ? 0 : -1;
}

static int load_doc(struct jpos_doc *d, const char *name, const char *dir, struct scenario *s,
		    struct err *e)
{
	memset(s, 0, sizeof *s);
	if (!d)
		return -1;
	s->file = strdup(name);
	if (dir)
		s->dir = strdup(dir);
	else if (dir_of(name, &s->dir))
		s->dir = NULL;
	s->libdir = path_join(scen_datadir(), "scenarios");
	if (!s->file || !s->dir || !s->libdir) {
		jpos_free(d);
		scen_free(s);
		return err_internal(e, "out of memory");
	}
	struct ctx c = { .d = d, .s = s, .e = e };
	int r = parse_top(&c, jpos_root(d));
	name_map_free(&c.report_names);
	name_map_free(&c.base_defines);
	jpos_free(d);
	if (r) {
		scen_free(s);
		memset(s, 0, sizeof *s);
	}
	return r;
}

int scen_load(const char *path, struct scenario *s, struct err *e)
{
	memset(s, 0, sizeof *s);
	return load_doc(jpos_load(path, e), path, NULL, s, e);
}

int scen_load_string(const char *name, const char *dir, const char *text, struct scenario *s,
		     struct err *e)
{
	memset(s, 0, sizeof *s);
	char *lib = NULL;
	if (!dir && !(lib = path_join(scen_datadir(), "scenarios")))
		return err_internal(e, "out of memory");
	int r = load_doc(jpos_parse(name, text, strlen(text), e), name, dir ? dir : lib, s, e);
	free(lib);
	return r;
}

/* The built-in default: the seed's tcp memory_allocated on the 8-way x460,
 * atomic_t against percpu_counter. Program paths resolve against
 * <datadir>/scenarios, where the counter library keeps them. */
const char scen_default_text[] =
	"{\n"
	"  \"name\": \"memory_allocated: atomic_t vs percpu_counter (built-in default)\",\n"
	"  \"description\": \"The seed's struct proto.memory_allocated on an 8-way 3.3 GHz Xeon MP: every CPU sends 4096 segments, charging a page per segment to the counter and checking it against the sysctl_tcp_mem thresholds, as atomic_t and as percpu_counter (scenarios/tcp_memory_allocated.json has the full story).\",\n"
	"  \"cpu\": \"x460-8way\",\n"
	"  \"cores\": 8,\n"
	"  \"seed\": 1,\n"
	"  \"program\": [\"lib/spinlock.s\", \"lib/atomic.s\", \"lib/percpu_counter_2006.s\", \"tcp_memory_allocated.s\"],\n"
	"  \"defines\": {\"FBC_BATCH\": 32, \"PROTO_WORK\": 2000},\n"
	"  \"threads\": [{\"cpus\": \"all\", \"entry\": \"worker\", \"regs\": {\"rdi\": 4096}}],\n"
	"  \"stop\": {\"halt\": true, \"cycles\": 1000000000},\n"
	"  \"report\": [\"tcp_memory_allocated\", \"tcp_memory_allocated_pcpu\", \"final_memory_allocated\"],\n"
	"  \"variants\": [\n"
	"    {\"name\": \"atomic\", \"description\": \"before the series: atomic_t\", \"defines\": {\"USE_PERCPU\": 0}},\n"
	"    {\"name\": \"percpu\", \"description\": \"after patch 2/4: percpu_counter\", \"defines\": {\"USE_PERCPU\": 1}}\n"
	"  ],\n"
	"  \"expect\": [\n"
	"    {\"metric\": \"variants.atomic.symbols.final_memory_allocated.value\", \"equals\": 0},\n"
	"    {\"metric\": \"variants.percpu.symbols.final_memory_allocated.value\", \"equals\": 0},\n"
	"    {\"metric\": \"variants.percpu.symbols.tcp_memory_allocated_pcpu.bounces\", \"max\": 0},\n"
	"    {\"ratio\": {\"of\": \"variants.atomic.totals.bounces\", \"to\": \"variants.percpu.totals.bounces\", \"min\": 4}}\n"
	"  ]\n"
	"}\n";

int scen_load_default(struct scenario *s, struct err *e)
{
	return scen_load_string("<built-in default>", NULL, scen_default_text, s, e);
}

static void setup_free(struct scen_setup *su)
{
	for (size_t i = 0; i < su->n_program; i++)
		free(su->program[i]);
	free(su->program);
	for (size_t i = 0; i < su->n_defines; i++)
		free((char *)su->defines[i].name);
	free(su->defines);
	for (size_t i = 0; i < su->n_threads; i++) {
		free(su->threads[i].entry);
		free(su->threads[i].regs);
	}
	free(su->threads);
	for (size_t i = 0; i < su->n_interrupts; i++) {
		free(su->interrupts[i].handler);
	}
	free(su->interrupts);
	for (size_t i = 0; i < su->n_cflags; i++)
		free(su->cflags[i]);
	free(su->cflags);
}

void scen_free(struct scenario *s)
{
	if (!s)
		return;
	free(s->file);
	free(s->dir);
	free(s->libdir);
	free(s->name);
	free(s->description);
	setup_free(&s->base);
	for (size_t i = 0; i < s->n_report; i++)
		free(s->report[i]);
	free(s->report);
	free(s->report_loc);
	for (size_t i = 0; i < s->n_variants; i++) {
		free(s->variants[i].name);
		free(s->variants[i].description);
		setup_free(&s->variants[i].setup);
	}
	free(s->variants);
	name_map_free(&s->variant_names);
	for (size_t i = 0; i < s->n_expect; i++) {
		free(s->expect[i].metric);
		free(s->expect[i].to);
		free(s->expect[i].description);
	}
	free(s->expect);
	for (size_t i = 0; i < s->n_cpu_files; i++)
		free(s->cpu_files[i]);
	free(s->cpu_files);
	memset(s, 0, sizeof *s);
}

int scen_find_variant(const struct scenario *s, const char *name)
{
	size_t v;
	if (!s->variant_names.n) {
		for (size_t i = 0; i < s->n_variants; i++)
			if (!strcmp(s->variants[i].name, name))
				return (int)i;
		return -1;
	}
	return name_map_find(&s->variant_names, name, strlen(name), &v) ? (int)v : -1;
}

/* ---- resolution ---- */

static const struct scen_setup *pick(const struct scenario *s, size_t v, unsigned bit)
{
	return (s->variants[v].setup.set & bit) ? &s->variants[v].setup : &s->base;
}

static int effective_cores(const struct scenario *s, size_t v)
{
	if (s->variants[v].setup.set & SCEN_SET_CORES)
		return s->variants[v].setup.cores;
	if (s->base.set & SCEN_SET_CORES)
		return s->base.cores;
	return pick(s, v, SCEN_SET_CPU)->cpu.cores;
}

/* (interrupt source, CPU) pairs of variant v at `cores`: for each CPU that
 * runs a thread, the sources that target it (the state the driver
 * allocates, sim.c). Counting stops past SCEN_MAX_IRQ_PAIRS, and *over is
 * then the entry that went past it (else n_interrupts). -1: out of memory. */
static int runs_thread(const struct scen_setup *th, int cpu)
{
	for (size_t t = 0; t < th->n_threads; t++)
		if (scen_cpuset_has(&th->threads[t].cpus, cpu))
			return 1;
	return 0;
}

static int count_thread_cpus(const struct scen_setup *th, int cores)
{
	int n = 0;
	for (int cpu = 0; cpu < cores; cpu++)
		n += runs_thread(th, cpu);
	return n;
}

static int64_t irq_pairs(const struct scen_setup *th, const struct scen_setup *iq, int cores,
			 size_t *over)
{
	int *cpus = malloc((size_t)cores * sizeof *cpus), n = 0;
	if (!cpus)
		return -1;
	for (int cpu = 0; cpu < cores; cpu++)
		if (runs_thread(th, cpu))
			cpus[n++] = cpu;
	int64_t pairs = 0;
	*over = iq->n_interrupts;
	for (size_t q = 0; q < iq->n_interrupts; q++) {
		for (int i = 0; i < n; i++)
			pairs += scen_cpuset_has(&iq->interrupts[q].cpus, cpus[i]);
		if (pairs > SCEN_MAX_IRQ_PAIRS) {
			*over = q;
			break;
		}
	}
	free(cpus);
	return pairs;
}

static int loc_err(const struct scenario *s, const struct scen_loc *l, struct err *e, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int loc_err(const struct scenario *s, const struct scen_loc *l, struct err *e, const char *fmt, ...)
{
	char msg[800];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return err_set(e, s->file, l->line, l->col, "%s: %s", l->path, msg);
}

int scen_check_cores(const struct scenario *s, size_t v, int cores, const char *cores_arg, int check_model,
		     struct err *e)
{
	if (v >= s->n_variants)
		return err_internal(e, "scen_check_cores: no variant %zu", v);
	if (cores <= 0)
		cores = effective_cores(s, v);
	if (cores < 1 || cores > CPU_MAX_CORES)
		return err_set(e, s->file, 0, 0, "%d cores is out of range (expected 1..%d)", cores, CPU_MAX_CORES);
	/* " (--cores 8)": a CPU set of the scenario is fine, the count is not its */
	char from[80] = "";
	if (cores_arg)
		snprintf(from, sizeof from, " (%s)", cores_arg);
	const char *vn = s->n_variants > 1 || strcmp(s->variants[v].name, SCEN_DEFAULT_VARIANT) ?
		s->variants[v].name : NULL;
	const struct scen_setup *th = pick(s, v, SCEN_SET_THREADS);
	const struct scen_setup *iq = pick(s, v, SCEN_SET_INTERRUPTS);
	short *owner = calloc((size_t)cores, sizeof *owner); /* thread index + 1 */
	if (!owner)
		return err_internal(e, "out of memory");
	int r = 0;
	for (size_t t = 0; t < th->n_threads && !r; t++) {
		const struct scen_cpuset *cs = &th->threads[t].cpus;
		for (int cpu = 0; cpu < cores && !r; cpu++) {
			if (!scen_cpuset_has(cs, cpu))
				continue;
			if (owner[cpu])
				r = loc_err(s, &cs->loc, e, "CPU %d already runs thread %d%s%s%s (expected each CPU in at most one thread)",
					    cpu, owner[cpu] - 1, vn ? " (variant \"" : "", vn ? vn : "", vn ? "\")" : "");
			owner[cpu] = (short)(t + 1);
		}
		if (!r && !cs->all && cpuset_last(&cs->ids) >= cores)
			r = loc_err(s, &cs->loc, e, "CPU %d does not exist with %d cores%s%s%s%s (expected ids 0..%d)",
				    cpuset_last(&cs->ids), cores, from, vn ? " in variant \"" : "", vn ? vn : "",
				    vn ? "\"" : "", cores - 1);
	}
	free(owner);
	for (size_t q = 0; q < iq->n_interrupts && !r; q++) {
		const struct scen_cpuset *cs = &iq->interrupts[q].cpus;
		if (!cs->all && cpuset_last(&cs->ids) >= cores)
			r = loc_err(s, &cs->loc, e, "CPU %d does not exist with %d cores%s%s%s%s (expected ids 0..%d)",
				    cpuset_last(&cs->ids), cores, from, vn ? " in variant \"" : "", vn ? vn : "",
				    vn ? "\"" : "", cores - 1);
	}
	if (r)
		return r;
	size_t over;
	int64_t pairs = irq_pairs(th, iq, cores, &over);
	if (pairs < 0)
		return err_internal(e, "out of memory");
	if (over < iq->n_interrupts)
		return loc_err(s, &iq->interrupts[over].cpus.loc, e,
			       "interrupt sources 0..%zu target %lld (source, CPU) pairs of the %d CPUs that run "
			       "threads%s%s%s, over the limit of %d (64 sources on each of 1024 CPUs)",
			       over, (long long)pairs, count_thread_cpus(th, cores), vn ? " in variant \"" : "",
			       vn ? vn : "", vn ? "\"" : "", SCEN_MAX_IRQ_PAIRS);
	if (!check_model)
		return 0;
	struct cpu_model m = pick(s, v, SCEN_SET_CPU)->cpu;
	struct err verr;
	err_clear(&verr);
	m.cores = cores;
	if (ms_model_check(&m, &verr)) {
		if (cores_arg) /* the model holds its own count: the option's is too many */
			return err_set(e, NULL, 0, 0, "%s: CPU model \"%s\" of the scenario: %s", cores_arg, m.name,
				       verr.msg);
		return loc_err(s, &pick(s, v, SCEN_SET_CPU)->cpu_loc, e, "CPU model \"%s\" with %d cores: %s",
			       m.name, cores, verr.msg);
	}
	return 0;
}

/* A name set again keeps its first place; the later setting wins, and is
 * where a message points. `names` maps each name to its place in r. */
static int merge_defines(struct scen_run *r, struct name_map *names, const struct asm_define *d,
			 size_t n, struct err *e)
{
	for (size_t i = 0; i < n; i++) {
		size_t at = r->n_defines;
		int added = name_map_add(names, d[i].name, strlen(d[i].name), &at);
		if (added < 0)
			return err_internal(e, "out of memory");
		if (err_poll(e))
			return -1;
		r->defines[at] = d[i];
		r->n_defines += (size_t)added;
	}
	return 0;
}

/* The placement a run of variant v asks for: the command line's, else
 * its threads' (one policy: a policy means "all", so a second thread entry
 * would share its CPUs, which scen_check_cores refuses). */
static enum placement run_placement(const struct scenario *s, size_t v, const struct scen_overrides *o,
				    const struct scen_loc **where)
{
	const struct scen_setup *th = pick(s, v, SCEN_SET_THREADS);
	*where = NULL;
	if (o && o->placement != PLACE_NONE)
		return o->placement;
	for (size_t t = 0; t < th->n_threads; t++)
		if (th->threads[t].cpus.placement != PLACE_NONE) {
			*where = &th->threads[t].cpus.loc;
			return th->threads[t].cpus.placement;
		}
	return PLACE_NONE;
}

/* The command line's CPU-model keys, then the placement, on the model of
 * the run; then the whole model checked as the file's would be. */
static int adjust_model(const struct scenario *s, size_t v, const struct scen_overrides *o, struct scen_run *r,
			struct err *e)
{
	const struct scen_loc *where;
	r->placement = run_placement(s, v, o, &where);
	if (o) {
		r->cpu_keys = o->cpu_keys;
		r->n_cpu_keys = o->n_cpu_keys;
	}
	for (size_t i = 0; i < r->n_cpu_keys; i++)
		if (cpu_json_set(&r->cpu, r->cpu_keys[i].key, r->cpu_keys[i].value, r->cpu_keys[i].opt, e))
			return -1;
	char opts[512] = "";
	for (size_t i = 0; i < r->n_cpu_keys; i++)
		snprintf(opts + strlen(opts), sizeof opts - strlen(opts), "%s%s", i ? " " : "", r->cpu_keys[i].opt);
	if (r->placement != PLACE_NONE && r->placement != PLACE_NUMBERED) {
		struct err x;
		err_clear(&x);
		if (!r->cpu.topology.sockets)
			err_set(&x, NULL, 0, 0, "placement \"%s\" needs a CPU model with a \"topology\" object; \"%s\" gives "
				"the flat shorthand", placement_name(r->placement), r->cpu.name);
		else
			placement_apply(&r->cpu.topology, r->placement, &x);
		if (err_is_set(&x))
			return where ? loc_err(s, where, e, "%s", x.msg) : err_set(e, NULL, 0, 0, "--placement: %s", x.msg);
	}
	if (!r->n_cpu_keys && (r->placement == PLACE_NONE || r->placement == PLACE_NUMBERED))
		return 0;
	struct err verr;
	err_clear(&verr);
	if (ms_model_check(&r->cpu, &verr)) {
		if (r->n_cpu_keys)
			return err_set(e, NULL, 0, 0, "%s: CPU model \"%s\" with %d cores: %s", opts, r->cpu.name, r->cores,
				       verr.msg);
		return err_set(e, NULL, 0, 0, "CPU model \"%s\" placed \"%s\" with %d cores: %s", r->cpu.name,
			       placement_name(r->placement), r->cores, verr.msg);
	}
	return 0;
}

int scen_resolve(const struct scenario *s, size_t v, const struct scen_overrides *o,
		 struct scen_run *r, struct err *e)
{
	memset(r, 0, sizeof *r);
	if (v >= s->n_variants)
		return err_internal(e, "scen_resolve: no variant %zu", v);
	const struct scen_variant *var = &s->variants[v];
	int cores = o && o->cores ? o->cores : effective_cores(s, v);
	/* A --cpu override replaces the scenario's model: only the new one
	 * must hold `cores` CPUs (checked below). */
	char arg[48];
	snprintf(arg, sizeof arg, "--cores %d", cores);
	const char *cores_arg = o && o->cores ? (o->cores_arg ? o->cores_arg : arg) : NULL;
	if (scen_check_cores(s, v, cores, cores_arg, !(o && o->cpu), e))
		return -1;
	r->scenario = s->name;
	r->variant = var->name;
	r->cpu = o && o->cpu ? *o->cpu : pick(s, v, SCEN_SET_CPU)->cpu;
	r->cpu.cores = cores;
	r->cores = cores;
	if (o && o->cpu && !o->n_cpu_keys) {
		struct err verr;
		err_clear(&verr);
		if (ms_model_check(&r->cpu, &verr)) {
			/* The model passed alone: blame where the count came from,
			 * the option or the scenario's "cores"; only a count that is
			 * the model's own leaves its file to blame. */
			const struct scen_setup *cs = pick(s, v, SCEN_SET_CORES);
			if (cores_arg)
				return err_set(e, NULL, 0, 0, "%s: CPU model \"%s\" (--cpu): %s", cores_arg, r->cpu.name,
					       verr.msg);
			if (cs->set & SCEN_SET_CORES)
				return loc_err(s, &cs->cores_loc, e, "%d cores on CPU model \"%s\" (--cpu): %s", cores,
					       r->cpu.name, verr.msg);
			/* at its field in the model's file, which the budget's
			 * message names */
			if (o->cpu_file && cpu_json_check_cores(o->cpu_file, cores, e))
				return -1;
			return err_set(e, NULL, 0, 0, "CPU model \"%s\" with %d cores: %s", r->cpu.name, cores, verr.msg);
		}
	}
	if (adjust_model(s, v, o, r, e))
		return -1;
	r->seed = o && o->has_seed ? o->seed : pick(s, v, SCEN_SET_SEED)->seed;
	const struct scen_setup *p = pick(s, v, SCEN_SET_PROGRAM);
	r->program = (const char *const *)p->program;
	r->n_program = p->n_program;
	r->include_dirs[r->n_include_dirs++] = s->dir;
	if (strcmp(s->dir, s->libdir))
		r->include_dirs[r->n_include_dirs++] = s->libdir;
	r->cflags = (const char *const *)pick(s, v, SCEN_SET_CFLAGS)->cflags;
	r->n_cflags = pick(s, v, SCEN_SET_CFLAGS)->n_cflags;
	r->threads = pick(s, v, SCEN_SET_THREADS)->threads;
	r->n_threads = pick(s, v, SCEN_SET_THREADS)->n_threads;
	r->interrupts = pick(s, v, SCEN_SET_INTERRUPTS)->interrupts;
	r->n_interrupts = pick(s, v, SCEN_SET_INTERRUPTS)->n_interrupts;
	r->stop = pick(s, v, SCEN_SET_STOP)->stop;
	size_t over;
	int64_t pairs = r->stop.cycles ? 0 : irq_pairs(pick(s, v, SCEN_SET_THREADS), pick(s, v, SCEN_SET_INTERRUPTS),
						       cores, &over);
	if (pairs < 0)
		return err_internal(e, "out of memory");
	r->max_cycles = r->stop.cycles ? r->stop.cycles : sim_default_limit(r->cores, (uint64_t)pairs);
	r->report = s->report;
	r->report_loc = s->report_loc;
	r->n_report = s->n_report;
	size_t cap = s->base.n_defines + var->setup.n_defines + (o ? o->n_defines : 0);
	if (!(r->defines = calloc(cap ? cap : 1, sizeof *r->defines)))
		return err_internal(e, "out of memory");
	struct name_map names = {0};
	int bad = name_map_reserve(&names, cap) ? err_internal(e, "out of memory") :
		merge_defines(r, &names, s->base.defines, s->base.n_defines, e) ||
		merge_defines(r, &names, var->setup.defines, var->setup.n_defines, e) ||
		(o && merge_defines(r, &names, o->defines, o->n_defines, e));
	name_map_free(&names);
	if (bad)
		scen_run_free(r);
	return bad ? -1 : 0;
}

void scen_run_free(struct scen_run *r)
{
	free(r->defines);
	memset(r, 0, sizeof *r);
}

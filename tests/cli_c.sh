#!/bin/sh
# C workloads: .c programs compiled by the host compiler (GCC, and Clang
# where it is installed), cached by content, their defines and cflags, and
# what is refused: a compiler that is missing or fails, flags that are
# bounce's to set, a define that no C file mentions.
. "$top_srcdir/tests/lib.sh"

export XDG_CACHE_HOME="$T/cache"
cache_files() { find "$T/cache" -name '*.s' 2>/dev/null | wc -l | tr -d ' '; }

cat >"$T/count.c" <<'C'
#include <bounce.h>

#ifndef NR_ADDS
#define NR_ADDS 100
#endif

long counter ____cacheline_aligned;
DEFINE_PER_CPU(long, mine);
long total ____cacheline_aligned;
static long done ____cacheline_aligned;

void worker(long n)
{
	for (long i = 0; i < n * NR_ADDS; i++) {
		__atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
		this_cpu_inc(mine);
		bounce_op();
	}
	__atomic_fetch_add(&done, 1, __ATOMIC_RELAXED);
	if (smp_processor_id())
		return;
	while (READ_ONCE(done) < NR_CPUS)
		cpu_relax();
	int cpu;
	for_each_online_cpu(cpu)
		total += per_cpu(mine, cpu);
}
C
cat >"$T/count.json" <<'J'
{"name": "c", "cpu": "x460-8way", "cores": 4,
 "program": ["count.c"],
 "threads": [{"cpus": "all", "entry": "worker", "regs": {"rdi": 2}}],
 "stop": "halt",
 "report": ["counter", "total", "mine"]}
J
expect_status "a C program runs" 0 "$BOUNCE" run "$T/count.json" --json "$T/c.json" -q
expect_eq "every atomic add lands" 800 "$(jget "$T/c.json" variants.default.symbols.counter.value)"
expect_eq "every per-CPU add is summed" 800 "$(jget "$T/c.json" variants.default.symbols.total.value)"
expect_eq "one op a loop" 800 "$(jget "$T/c.json" variants.default.ops)"
expect_eq "the per-CPU counter never bounces" 0 "$(jget "$T/c.json" variants.default.symbols.mine.bounces)"
expect_eq "nothing compiled is left beside the scenario" "" "$(cd "$T" && ls | grep -v '\.c$\|\.json$\|^cache$\|^err$\|^out$')"
n=$(cache_files)
expect_eq "one compile cached" 1 "$n"

expect_status "the same run again" 0 "$BOUNCE" run "$T/count.json" --json "$T/c2.json" -q
expect_eq "a second run compiles nothing" "$n" "$(cache_files)"
if cmp -s "$T/c.json" "$T/c2.json"; then ok "cached and fresh compiles report alike"; else bad "reports differ"; fi

expect_status "a define reaches the C file" 0 "$BOUNCE" run "$T/count.json" --set NR_ADDS=3 --json "$T/c3.json" -q
expect_eq "NR_ADDS=3" 24 "$(jget "$T/c3.json" variants.default.symbols.counter.value)"
expect_eq "a new define is a new compile" $((n + 1)) "$(cache_files)"
expect_status "another core count" 0 "$BOUNCE" run "$T/count.json" --cores 2 --json "$T/c4.json" -q
expect_eq "NR_CPUS follows --cores" 400 "$(jget "$T/c4.json" variants.default.symbols.total.value)"

# A header edit is a new compile: the key is the preprocessed source.
mkdir "$T/inc"
printf '#define NR_ADDS 5\n' >"$T/inc/adds.h"
sed 's/#include <bounce.h>/#include <bounce.h>\n#include "inc\/adds.h"/' "$T/count.c" >"$T/hdr.c"
sed 's/count\.c/hdr.c/' "$T/count.json" >"$T/hdr.json"
expect_status "a header of the scenario's folder" 0 "$BOUNCE" run "$T/hdr.json" --json "$T/h1.json" -q
expect_eq "its define" 40 "$(jget "$T/h1.json" variants.default.symbols.counter.value)"
printf '#define NR_ADDS 6\n' >"$T/inc/adds.h"
expect_status "the header edited" 0 "$BOUNCE" run "$T/hdr.json" --json "$T/h2.json" -q
expect_eq "the edit is seen" 48 "$(jget "$T/h2.json" variants.default.symbols.counter.value)"
# A header the compiler read is an input like the program: no output may
# replace it.
expect_status "--csv naming a header" 2 "$BOUNCE" run "$T/hdr.json" --csv "$T/inc/adds.h" -q
expect_grep "--csv naming a header: message" "adds.h.*an input of this run" "$T/err"
expect_eq "the header is intact" "#define NR_ADDS 6" "$(cat "$T/inc/adds.h")"

# cflags: more flags after bounce's; a mode or output flag is refused.
sed 's/"stop": "halt",/"stop": "halt", "cflags": ["-O1", "-DNR_ADDS=7"],/' "$T/count.json" >"$T/cf.json"
expect_status "cflags" 0 "$BOUNCE" run "$T/cf.json" --json "$T/cf.out" -q
expect_eq "a -D in cflags" 56 "$(jget "$T/cf.out" variants.default.symbols.counter.value)"
sed 's/"stop": "halt",/"stop": "halt",\n "cflags": ["-o", "x"],/' "$T/count.json" >"$T/cfo.json"
expect_status "cflags -o" 2 "$BOUNCE" run "$T/cfo.json" -q
expect_grep "cflags -o: where" 'cfo.json:5:13: .*"-o" is bounce'"'"'s to set' "$T/err"
sed 's/"stop": "halt",/"stop": "halt",\n "cflags": ["count.c"],/' "$T/count.json" >"$T/cff.json"
expect_status "a file in cflags" 2 "$BOUNCE" run "$T/cff.json" -q
expect_grep "a file in cflags: message" 'cff.json:5:13: .*not a compiler flag' "$T/err"

# -O0 code keeps a frame pointer and leaves functions with `leave`.
sed 's/"stop": "halt",/"stop": "halt", "cflags": ["-O0"],/' "$T/count.json" >"$T/o0.json"
expect_status "-O0" 0 "$BOUNCE" run "$T/o0.json" --json "$T/o0.out" -q
expect_eq "-O0: counter" 800 "$(jget "$T/o0.out" variants.default.symbols.counter.value)"
expect_eq "-O0: per-CPU sum" 800 "$(jget "$T/o0.out" variants.default.symbols.total.value)"

expect_status "a define no C file mentions" 2 "$BOUNCE" run "$T/count.json" --set NO_SUCH=1 -q
expect_grep "a define no C file mentions: message" "NO_SUCH.*no C file mentions it" "$T/err"

# The compiler's own messages, unchanged (they name file:line:col), exit 2,
# and no report.
printf '#include <bounce.h>\nvoid worker(void)\n{\n\tundeclared = 1;\n}\n' >"$T/broken.c"
sed 's/count\.c/broken.c/' "$T/count.json" >"$T/broken.json"
rm -f "$T/b.json"
expect_status "a compile error" 2 "$BOUNCE" run "$T/broken.json" --json "$T/b.json" -q
expect_grep "the compiler's message" "broken.c:4:[0-9]*: error: .*undeclared" "$T/err"
expect_eq "the compiler's first error, one line" 1 "$(wc -l <"$T/err" | tr -d ' ')"
if [ -e "$T/b.json" ]; then bad "a compile error left a report"; else ok "a compile error writes no report"; fi

CC=/nonexistent/cc expect_status "no compiler" 2 "$BOUNCE" run "$T/count.json" -q
expect_grep "no compiler: names it and its package" "count.c: cannot compile: the C compiler '/nonexistent/cc' is not installed (apt-get install gcc" "$T/err"
CC=false expect_status "a compiler that does not run" 2 "$BOUNCE" run "$T/count.json" -q
expect_grep "a compiler that does not run: message" "the C compiler 'false' did not run" "$T/err"

# What the model refuses, at the C line: a call into a C library that does
# not exist here, a local array larger than the stack, unbounded recursion,
# a division by zero.
c_bad() { # c_bad NAME PATTERN C-SOURCE
	printf '%s\n' "$3" >"$T/bad.c"
	printf '{"name": "bad", "cpu": "x460-8way", "cores": 2, "program": ["bad.c"],\n "threads": [{"cpus": "all", "entry": "worker"}], "stop": "halt"}\n' >"$T/bad.json"
	rm -f "$T/bad.out"
	expect_status "$1" 2 "$BOUNCE" run "$T/bad.json" --json "$T/bad.out" -q
	expect_grep "$1: message" "$2" "$T/err"
	if [ -e "$T/bad.out" ]; then bad "$1: a report was written"; else ok "$1: no report"; fi
}
c_bad "printf" "bad.c:4:2: call to 'printf', which no program defines (there is no C library" \
	'#include <bounce.h>
extern int printf(const char *, ...);
void worker(void) {
	printf("x");
}'
c_bad "a local array past the stack" "bad.c:5:[0-9]*: core 0: stack overflow: store of 8 bytes" \
	'#include <bounce.h>
long out;
void worker(void) {
	volatile long big[1000];
	big[0] = 1;
	out = big[0];
}'
c_bad "unbounded recursion" "bad.c:3:[0-9]*: core [0-9]: stack overflow" \
	'#include <bounce.h>
long out;
long f(long n) { if (!n) return 0; long r = f(n - 1) + n; barrier(); return r; }
void worker(void) { out = f(1000000); }'
c_bad "a division by zero" "bad.c:4:[0-9]*: core [0-9]: divide error" \
	'#include <bounce.h>
volatile long d, out;
void worker(void) {
	out = 100 / d;
}'
c_bad "floating point" "bad.c:3:[0-9]*: error: " \
	'#include <bounce.h>
double x;
void worker(void) { x = x * 1.5; }'
# What the compiler leaves to its runtime library: named for the C that
# needs it, not as a call the program made.
c_bad "a 128-bit division" "bad.c:4:[0-9]*: a 128-bit division: bounce runs 64-bit integer code (the compiler called '__divti3'" \
	'#include <bounce.h>
__int128 w = 1000000007;
long out;
void worker(void) { out = (long)(w / READ_ONCE(out)); }'
c_bad "a 16-byte atomic" "bad.c:4:[0-9]*: an atomic the compiler could not inline (16 bytes, or not naturally aligned): .*(the compiler called '__atomic_compare_exchange" \
	'#include <bounce.h>
__int128 w __attribute__((aligned(16)));
long out;
void worker(void) { __int128 o = w; out = __atomic_compare_exchange_n(&w, &o, o + 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); }'
if ! { ${CC:-cc} --version 2>/dev/null | head -n 1 | grep -q clang; }; then
	c_bad "GCC's popcount" "bad.c:3:[0-9]*: __builtin_popcount on a CPU without popcnt: .*(the compiler called '__popcountdi2'" \
		'#include <bounce.h>
long v = 0xf0f0, out;
void worker(void) { out = __builtin_popcountl(READ_ONCE(v)); }'
fi

# Struct copies and clears, and the string functions: GCC's code for the
# first two needs no library; a call (any compiler's, and Clang's for a
# large struct) is to lib/string.s, and a program without it is told so.
cat >"$T/str.c" <<'C'
#include "bounce.h"
/* struct copy and clear, the string functions, checked on CPU 0: ok is 1
 * when every check passed, else minus the number of the first that failed */
struct huge { long a[200]; };
struct huge src_h, dst_h;
unsigned char buf[64];
long ok ____cacheline_aligned;

#ifndef CALLS
#define CALLS 1
#endif

static int check(void)
{
	for (int i = 0; i < 200; i++)
		src_h.a[i] = i * 3 + 1;
	dst_h = src_h;                                  /* struct copy */
	for (int i = 0; i < 200; i++)
		if (dst_h.a[i] != i * 3 + 1)
			return -1;
	struct huge z = { 0 };                          /* struct clear */
	z.a[7] = 5;
	dst_h = z;
	if (dst_h.a[0] != 0 || dst_h.a[7] != 5 || dst_h.a[199] != 0)
		return -2;
	int n = (int)READ_ONCE(src_h.a[2]);             /* 7: a length known only at run time */
	__builtin_memset(buf, 0xab, (size_t)n * 8);
	if (buf[0] != 0xab || buf[55] != 0xab || buf[56] != 0)
		return -3;
#if CALLS
	memset(buf, 0, sizeof buf);
	memset(buf + 3, 0x5a, 5);                       /* unaligned: byte by byte */
	if (buf[2] != 0 || buf[3] != 0x5a || buf[7] != 0x5a || buf[8] != 0)
		return -4;
	for (int i = 0; i < 16; i++)
		buf[i] = (unsigned char)i;
	memmove(buf + 2, buf, 10);                      /* overlapping, upwards */
	if (buf[2] != 0 || buf[11] != 9 || buf[12] != 12)
		return -5;
	memmove(buf, buf + 2, 10);                      /* overlapping, downwards */
	if (buf[0] != 0 || buf[9] != 9)
		return -6;
	memcpy(&dst_h, &src_h, sizeof dst_h);
	if (memcmp(&dst_h, &src_h, sizeof dst_h) != 0 || dst_h.a[199] != 598)
		return -7;
	dst_h.a[100] = 0;
	if (memcmp(&dst_h, &src_h, sizeof dst_h) >= 0)
		return -8;
	if (memcpy(buf, buf + 32, 0) != buf || memset(buf, 1, 0) != buf)
		return -9;
	memmove(&dst_h.a[1], &dst_h.a[0], 10 * sizeof(long));  /* by words, upwards */
	if (dst_h.a[1] != 1 || dst_h.a[10] != 28 || dst_h.a[11] != 34)
		return -10;
	memmove(&dst_h.a[0], &dst_h.a[2], 10 * sizeof(long));  /* downwards */
	if (dst_h.a[0] != 4 || dst_h.a[8] != 28 || dst_h.a[9] != 34 || dst_h.a[10] != 28)
		return -11;
#endif
	return 1;
}

void worker(void)
{
	if (smp_processor_id() == 0)
		ok = check();
}
C
cat >"$T/str.json" <<'J'
{"name": "str", "cpu": "x460-8way", "cores": 2, "program": ["lib/string.s", "str.c"],
 "threads": [{"cpus": "all", "entry": "worker"}], "stop": "halt", "report": ["ok"],
 "variants": [{"name": "calls", "defines": {"CALLS": 1}},
              {"name": "no_calls", "program": ["str.c"], "defines": {"CALLS": 0}},
              {"name": "no_library", "program": ["str.c"], "defines": {"CALLS": 1}}]}
J
string_checks() { # string_checks COMPILER
	CC=$1 expect_status "$1: the string functions" 0 "$BOUNCE" run "$T/str.json" --variant calls --json "$T/str.out" -q
	expect_eq "$1: every check of memset, memcpy, memmove, memcmp" 1 "$(jget "$T/str.out" variants.calls.symbols.ok.value)"
	CC=$1 expect_status "$1: calls without lib/string.s" 2 "$BOUNCE" run "$T/str.json" --variant no_library -q
	expect_grep "$1: calls without lib/string.s: the file to list" "str.c:[0-9]*:[0-9]*: undefined label 'mem[a-z]*' (the counter library's lib/string.s defines it: list \"lib/string.s\"" "$T/err"
}
string_checks gcc
expect_status "gcc: struct copies and clears with no library" 0 "$BOUNCE" run "$T/str.json" --variant no_calls --json "$T/str2.out" -q
expect_eq "gcc: struct copies and clears: every check" 1 "$(jget "$T/str2.out" variants.no_calls.symbols.ok.value)"

# The other compiler gives the same counts (its code differs, its answer not).
if command -v clang >/dev/null 2>&1; then
	CC=clang expect_status "Clang" 0 "$BOUNCE" run "$T/count.json" --json "$T/cl.json" -q
	expect_eq "Clang: counter" 800 "$(jget "$T/cl.json" variants.default.symbols.counter.value)"
	expect_eq "Clang: per-CPU sum" 800 "$(jget "$T/cl.json" variants.default.symbols.total.value)"
	# Clang compiles floating point to soft-float calls (call __muldf3@PLT)
	printf '#include <bounce.h>\ndouble x;\nvoid worker(void) { x = x * 1.5; }\n' >"$T/fp.c"
	printf '{"name": "fp", "cpu": "x460-8way", "cores": 2, "program": ["fp.c"],\n "threads": [{"cpus": "all", "entry": "worker"}], "stop": "halt"}\n' >"$T/fp.json"
	CC=clang expect_status "Clang: floating point" 2 "$BOUNCE" run "$T/fp.json" -q
	expect_grep "Clang: floating point, at its C line" "fp.c:3:[0-9]*: floating point (the compiler called '__muldf3'): bounce runs integer code" "$T/err"
	string_checks clang
	CC=clang expect_status "Clang: a large struct copy without lib/string.s" 2 "$BOUNCE" run "$T/str.json" --variant no_calls -q
	expect_grep "Clang: a large struct copy: the file to list" "str.c:[0-9]*:[0-9]*: undefined label 'memcpy' (the counter library's lib/string.s" "$T/err"
else
	echo "skip Clang: not installed"
fi
# Function pointers (an ops table, a callback) and a switch's jump table:
# code addresses in registers, memory and .rodata, as each compiler writes
# them; a call through a null pointer faults at its C line.
cat >"$T/fptr.c" <<'C'
#include <bounce.h>

struct counter_ops {
	void (*add)(long *c, long v);
	long (*read)(const long *c);
};

long shared ____cacheline_aligned;
long ok ____cacheline_aligned;

static __attribute__((noinline)) void add_once(long *c, long v) { __atomic_fetch_add(c, v, __ATOMIC_RELAXED); }
static __attribute__((noinline)) void add_twice(long *c, long v) { __atomic_fetch_add(c, 2 * v, __ATOMIC_RELAXED); }
static __attribute__((noinline)) long read_plain(const long *c) { return READ_ONCE(*c); }

static const struct counter_ops ops_table[] = { { add_once, read_plain }, { add_twice, read_plain } };
/* volatile: taken at run time, so that neither compiler calls by name */
const struct counter_ops *volatile ops = &ops_table[OPS];
void (*volatile hook)(long *c, long v);

static __attribute__((noinline)) void apply(void (*fn)(long *, long), long *c, long n)
{
	for (long i = 0; i < n; i++)
		fn(c, 1);
}

static __attribute__((noinline)) long step(long k, long x)
{
	switch (k) {
	case 0: x += 11; break;
	case 1: x ^= 23; break;
	case 2: x *= 37; break;
	case 3: x -= 59; break;
	case 4: x <<= 5; break;
	case 5: x = x / 3 + 1; break;
	case 6: x = ~x; break;
	default: x = -1; break;
	}
	return x;
}

static long check(void)
{
	static const long want[8] = { 111, 114, 3774, 44, 3328, 36, -107, -1 };
	for (long k = 0; k < 8; k++)
		if (step(k, 100 + k) != want[k])
			return -(k + 1);
	if (ops->read(&shared) < 10)
		return -9;
	return 1;
}

void worker(void)
{
	apply(ops->add, &shared, 10);
	if (smp_processor_id() == 0) {
		ok = check();
		if (NULL_CALL)
			hook(&shared, 1);
	}
}
C
cat >"$T/fptr.json" <<'J'
{"name": "fptr", "cpu": "x460-8way", "cores": 2, "program": ["fptr.c"],
 "threads": [{"cpus": "all", "entry": "worker"}], "stop": "halt", "report": ["ok", "shared"],
 "variants": [{"name": "once", "defines": {"OPS": 0, "NULL_CALL": 0}},
              {"name": "twice", "defines": {"OPS": 1, "NULL_CALL": 0}},
              {"name": "null", "defines": {"OPS": 0, "NULL_CALL": 1}}]}
J
fptr_checks() { # fptr_checks COMPILER
	CC=$1 expect_status "$1: function pointers and a jump table" 0 "$BOUNCE" run "$T/fptr.json" --variant once --json "$T/fp.out" -q
	expect_eq "$1: every case of the switch, and the read through the table" 1 "$(jget "$T/fp.out" variants.once.symbols.ok.value)"
	expect_eq "$1: the ops table's add, 10 a CPU" 20 "$(jget "$T/fp.out" variants.once.symbols.shared.value)"
	CC=$1 expect_status "$1: the table's other entry" 0 "$BOUNCE" run "$T/fptr.json" --variant twice --json "$T/fp.out" -q
	expect_eq "$1: the table's other entry adds twice" 40 "$(jget "$T/fp.out" variants.twice.symbols.shared.value)"
	s=$(ls -t $(grep -l add_twice $(find "$T/cache" -name '*.s')) | head -n 1)
	expect_grep "$1: a call through a register or memory was compiled" "	call	\(r[a-z0-9]*\|.*\[\)" "$s"
	expect_grep "$1: an indirect jump through a table was compiled" "	jmp	.*\[" "$s"
	CC=$1 expect_status "$1: a call through a null pointer" 2 "$BOUNCE" run "$T/fptr.json" --variant null -q
	expect_grep "$1: the null pointer's call, at its C line" "fptr.c:58:[0-9]*: core 0: \(call\|jump\) through a null pointer" "$T/err"
}
fptr_checks gcc
command -v clang >/dev/null 2>&1 && fptr_checks clang

# GCC's seq_cst fence is `lock or QWORD PTR [rsp], 0`; in an entry with no
# frame it touches the entry's return-address slot, which is stack.
printf '#include <bounce.h>\nlong x;\nvoid worker(void) { x = 1; __atomic_thread_fence(__ATOMIC_SEQ_CST); }\n' >"$T/fence.c"
printf '{"name": "fence", "cpu": "x460-8way", "cores": 2, "program": ["fence.c"],\n "threads": [{"cpus": "all", "entry": "worker"}], "stop": "halt"}\n' >"$T/fence.json"
CC=gcc expect_status "gcc: a fence in an entry with no frame" 0 "$BOUNCE" run "$T/fence.json" --json "$T/fence.out" -q
expect_eq "gcc: the fence is a locked RMW on each CPU" 2 "$(jget "$T/fence.out" variants.default.totals.locked_ops)"

# c_ok NAME WHAT: $T/NAME.json, run by each installed compiler, reports
# ok = 1 (its program's checks all passed; else the first failing one's
# negative number)
c_ok() {
	for cc in gcc clang; do
		command -v $cc >/dev/null 2>&1 || continue
		CC=$cc expect_status "$cc: $2" 0 "$BOUNCE" run "$T/$1.json" --json "$T/$1.out" -q
		expect_eq "$cc: $2: every check" 1 "$(jget "$T/$1.out" variants.default.symbols.ok.value)"
	done
}

# bounce.h's kernel atomics and per-CPU operations: every one the docs
# list, on atomic_t, atomic64_t and atomic_long_t, and as this_cpu_,
# __this_cpu_ and raw_cpu_ alike.
cat >"$T/atomics.c" <<'C'
#include <bounce.h>
atomic_t a;
atomic64_t b;
atomic_long_t c;
long ok;

#define CHECK_ALL(P, v, k)                                                             \
	do {                                                                            \
		__typeof__((v).counter) o = 2;                                          \
		P##_set(&(v), 5);                                                       \
		P##_add(3, &(v));                                                       \
		P##_sub(1, &(v));                                                       \
		P##_inc(&(v));                                                          \
		P##_dec(&(v));                                                          \
		if (P##_read(&(v)) != 7)                                                \
			return -(k + 1);                                                \
		if (P##_add_return(2, &(v)) != 9 || P##_sub_return(4, &(v)) != 5)      \
			return -(k + 2);                                                \
		if (P##_inc_return(&(v)) != 6 || P##_dec_return(&(v)) != 5)            \
			return -(k + 3);                                                \
		if (P##_fetch_add(10, &(v)) != 5 || P##_xchg(&(v), 1) != 15)           \
			return -(k + 4);                                                \
		if (P##_cmpxchg(&(v), 1, 2) != 1 || P##_cmpxchg(&(v), 1, 3) != 2)      \
			return -(k + 5);                                                \
		if (!P##_try_cmpxchg(&(v), &o, 1) || o != 2 || P##_try_cmpxchg(&(v), &o, 4) || o != 1) \
			return -(k + 6);                                                \
		if (!P##_dec_and_test(&(v)) || P##_read(&(v)) != 0)                    \
			return -(k + 7);                                                \
	} while (0)

DEFINE_PER_CPU(long, pc);

#define CHECK_PCPU(P, k)                                                               \
	do {                                                                            \
		long o = 9;                                                             \
		P##_write(pc, 12);                                                      \
		P##_add(pc, 5);                                                         \
		P##_sub(pc, 2);                                                         \
		P##_inc(pc);                                                            \
		P##_dec(pc);                                                            \
		P##_and(pc, 0xe);                                                       \
		P##_or(pc, 1);                                                          \
		if (P##_read(pc) != 15)                                                 \
			return -(k + 1);                                                \
		if (P##_cmpxchg(pc, 15, 9) != 15 || P##_cmpxchg(pc, 15, 3) != 9)       \
			return -(k + 2);                                                \
		if (!P##_try_cmpxchg(pc, &o, 4) || P##_try_cmpxchg(pc, &o, 5) || o != 4) \
			return -(k + 3);                                                \
	} while (0)

static long check(void)
{
	CHECK_ALL(atomic, a, 0);
	CHECK_ALL(atomic64, b, 10);
	CHECK_ALL(atomic_long, c, 20);
	CHECK_PCPU(this_cpu, 30);
	CHECK_PCPU(__this_cpu, 40);
	CHECK_PCPU(raw_cpu, 50);
	return 1;
}

void worker(void)
{
	if (smp_processor_id() == 0)
		ok = check();
}
C
printf '{"name": "atomics", "cpu": "x460-8way", "cores": 2, "program": ["atomics.c"],\n "threads": [{"cpus": "all", "entry": "worker"}], "stop": "halt", "report": ["ok"]}\n' >"$T/atomics.json"
c_ok atomics "every atomic and per-CPU operation of bounce.h, every form"

# lib/percpu_counter.h's API, each call's value: one CPU, so no fold
# races; a batch of 4 makes the per-CPU delta fold now and then.
cat >"$T/pcc.c" <<'C'
#include <bounce.h>
#include "lib/percpu_counter.h"
DEFINE_PERCPU_COUNTER(fbc);
long ok;

static long check(void)
{
	percpu_counter_batch = 4;
	percpu_counter_add(&fbc, 3);          /* delta 3 */
	if (percpu_counter_read(&fbc) != 0 || percpu_counter_sum(&fbc) != 3)
		return -1;
	percpu_counter_inc(&fbc);             /* 4: folds, count 4 */
	if (percpu_counter_read(&fbc) != 4)
		return -2;
	percpu_counter_sub(&fbc, 6);          /* delta -6: folds, count -2 */
	percpu_counter_dec(&fbc);             /* delta -1 */
	if (percpu_counter_read(&fbc) != -2 || percpu_counter_read_positive(&fbc) != 0)
		return -3;
	if (percpu_counter_sum(&fbc) != -3 || percpu_counter_sum_positive(&fbc) != 0)
		return -4;
	if (percpu_counter_compare(&fbc, -3) != 0 || percpu_counter_compare(&fbc, 0) >= 0)
		return -5;
	return 1;
}

void worker(void)
{
	ok = check();
}
C
printf '{"name": "pcc", "cpu": "x460-8way", "cores": 1, "program": ["lib/qspinlock.c", "lib/percpu_counter.c", "pcc.c"],\n "threads": [{"cpus": "all", "entry": "worker"}], "stop": "halt", "report": ["ok"]}\n' >"$T/pcc.json"
c_ok pcc "every call of lib/percpu_counter.h"

# At -O0 both compilers write 1UL << 63 as movabs rax, -9223372036854775808.
printf '#include <bounce.h>\nunsigned long x;\nvoid worker(void) { if (!smp_processor_id()) x = 1UL << 63; }\n' >"$T/big.c"
printf '{"name": "big", "cpu": "x460-8way", "cores": 2, "program": ["big.c"], "cflags": ["-O0"],\n "threads": [{"cpus": "all", "entry": "worker"}], "stop": "halt", "report": ["x"]}\n' >"$T/big.json"
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || continue
	CC=$cc expect_status "$cc -O0: INT64_MIN as a literal" 0 "$BOUNCE" run "$T/big.json" --json "$T/big.out" -q
	expect_eq "$cc -O0: 1UL << 63" -9223372036854775808 "$(jget "$T/big.out" variants.default.symbols.x.value)"
done

# Code the compilers end in ud2 (__builtin_trap, a null pointer GCC sees
# dereferenced, as QWORD PTR ds:0) assembles, and runs until it is reached.
cat >"$T/trap.c" <<'C'
#include <bounce.h>
long ok, arr[4];

static __attribute__((noinline)) long get(long i)
{
	if (i > 3)
		__builtin_trap();
	return arr[i];
}

void worker(long n)
{
	arr[2] = 5;
	ok = get(n);
	if (n == 3)
		ok = *(volatile long *)0;
}
C
cat >"$T/trap.json" <<'J'
{"name": "trap", "cpu": "x460-8way", "cores": 1, "program": ["trap.c"], "stop": "halt", "report": ["ok"],
 "threads": [{"cpus": "all", "entry": "worker"}],
 "variants": [{"name": "good", "threads": [{"cpus": "all", "entry": "worker", "regs": {"rdi": 2}}]},
              {"name": "trapped", "threads": [{"cpus": "all", "entry": "worker", "regs": {"rdi": 4}}]},
              {"name": "null", "threads": [{"cpus": "all", "entry": "worker", "regs": {"rdi": 3}}]}]}
J
trap_checks() { # trap_checks COMPILER
	CC=$1 expect_status "$1: a program with traps, on its good path" 0 "$BOUNCE" run "$T/trap.json" --variant good --json "$T/trap.out" -q
	expect_eq "$1: the good path's value" 5 "$(jget "$T/trap.out" variants.good.symbols.ok.value)"
	CC=$1 expect_status "$1: __builtin_trap reached" 2 "$BOUNCE" run "$T/trap.json" --variant trapped -q
	expect_grep "$1: the trap, at its C line" "trap.c:7:[0-9]*: core 0: ud2: the program trapped" "$T/err"
	CC=$1 expect_status "$1: a null pointer dereferenced" 2 "$BOUNCE" run "$T/trap.json" --variant null -q
	expect_grep "$1: the null pointer, at its C line" "trap.c:16:[0-9]*: core 0: load of 8 bytes at 0x0: address not mapped" "$T/err"
}
trap_checks gcc
command -v clang >/dev/null 2>&1 && trap_checks clang

# A sweep keys its journal by every file the program was read from,
# headers included; GCC's working-directory line marker (with -g) names no
# file and must not be taken for one.
expect_status "a C scenario swept to a CSV" 0 "$BOUNCE" sweep "$T/count.json" --set cores=1,2 --csv "$T/sw.csv" -q
expect_eq "its points" 3 "$(wc -l <"$T/sw.csv")"
finish

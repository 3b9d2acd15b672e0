/* Replay on the shipped teaching-4core model (1-cycle hits, 100 cycles to
 * memory, 100 per dirty writeback, fabric legs of 5 cycles, clean lines
 * supplied cache to cache): small traces whose every count and cycle is
 * derived by hand in the comments, with the coherence checker on. */
#include "config.h"
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "load/cpu_json.h"
#include "load/scenario.h"
#include "replay/replay_run.h"

static struct cpu_model teaching(void)
{
	struct cpu_model m;
	struct err e = {0};
	char path[4096];
	snprintf(path, sizeof path, "%s/cpus/teaching-4core.json", scen_datadir());
	ck_assert_msg(cpu_json_load(path, &m, &e) == 0, "%s", e.msg);
	return m;
}

/* Replay the traces (one string per core) to their end, checking every access. */
static void replay_strings(struct replay *r, const char *const *traces, int n)
{
	struct cpu_model m = teaching();
	struct rt_stream *s[8];
	struct err e = {0};
	for (int i = 0; i < n; i++) {
		char name[16];
		snprintf(name, sizeof name, "core%d", i);
		s[i] = rt_open_buffer(name, traces[i], strlen(traces[i]), &e);
		ck_assert_ptr_nonnull(s[i]);
	}
	ck_assert_msg(replay_create(r, &m, s, n, &e) == 0, "%s", e.msg);
	ms_set_checking(r->ms, 1);
	ck_assert_msg(replay_run(r, &e) == 0, "%s", e.msg);
	ck_assert_msg(ms_check_all(r->ms, &e) == 0, "%s", e.msg);
}

/* A stream over text, which must open. */
static struct rt_stream *open_text(const char *name, const char *text, size_t len)
{
	struct err e = {0};
	struct rt_stream *s = rt_open_buffer(name, text, len, &e);
	ck_assert_msg(s != NULL, "%s", e.msg);
	return s;
}

static const struct ms_stats *cs(const struct replay *r, int c)
{
	return ms_core_stats(r->ms, c);
}

/* I->E->M in core 0; M->S (dirty supply with writeback) and S->M by UPGRADE
 * in core 1, which invalidates core 0's S copy. */
START_TEST(mesi_dirty_line)
{
	static const char *const t[] = {
		"0 0x1000\n1 0x1000\n",             /* GETS from memory 0->100 (E), store hits: E->M at 101 */
		"2 0xc8\n0 0x1000\n1 1000\n",       /* 200 computing; GETS at 200, UPGRADE at 315 */
	};
	struct replay r;
	replay_strings(&r, t, 2);
	ck_assert_uint_eq(r.stats[0].cycles, 101);
	ck_assert_uint_eq(r.stats[0].idle_cycles, 100);
	ck_assert_uint_eq(cs(&r, 0)->gets, 1);
	ck_assert_uint_eq(cs(&r, 0)->mem_reads, 1);
	ck_assert_uint_eq(cs(&r, 0)->l1_hits, 1);
	ck_assert_uint_eq(r.stats[0].private_accesses, 2);
	/* core 1's GETS: at the agent 205, snoop reaches core 0 at 210, which
	 * writes back (100) and replies one leg later: 210 + 100 + 5 = 315.
	 * Its UPGRADE at 315: at the agent 320 (after its unblock), snoop at
	 * 325, ack at 330. */
	ck_assert_uint_eq(r.stats[1].cycles, 330);
	ck_assert_uint_eq(r.stats[1].compute_cycles, 200);
	ck_assert_uint_eq(r.stats[1].idle_cycles, 115 + 15);
	const struct ms_stats *s1 = cs(&r, 1);
	ck_assert_uint_eq(s1->gets, 1);
	ck_assert_uint_eq(s1->upgrades, 1);
	ck_assert_uint_eq(s1->getm, 0);
	ck_assert_uint_eq(s1->c2c_transfers, 1);
	ck_assert_uint_eq(s1->writebacks, 1);
	ck_assert_uint_eq(s1->hitm, 1);
	ck_assert_uint_eq(s1->invalidations, 1);
	ck_assert_uint_eq(s1->bounces, 1);
	ck_assert_uint_eq(s1->load_misses, 1);
	ck_assert_uint_eq(s1->l1_misses, 2);
	ck_assert_uint_eq(r.stats[1].shared_accesses, 2);
	ck_assert_uint_eq(ms_state_of(r.ms, 0, 0x1000), MS_I);
	ck_assert_uint_eq(ms_state_of(r.ms, 1, 0x1000), MS_M);
	replay_free(&r);
}
END_TEST

/* Clean cache-to-cache supply: E->S supplying core 1, S->I for two
 * holders when core 2 writes (GETM, data from core 0), then M->S. */
START_TEST(mesi_clean_supply)
{
	static const char *const t[] = {
		"0 2000\n2 1f4\n0 2000\n",  /* E at 100; 500 computing; at 600 a miss again (I) */
		"2 96\n0 2000\n",           /* at 150: GETS, core 0's E supplies: 155, 160, 165 */
		"2 12c\n1 2000\n0 2000\n",  /* at 300: GETM, invalidates 0 and 1: 305, 310, 315; hit 316 */
	};
	struct replay r;
	replay_strings(&r, t, 3);
	ck_assert_uint_eq(r.stats[1].cycles, 165);
	ck_assert_uint_eq(cs(&r, 1)->c2c_transfers, 1);
	ck_assert_uint_eq(cs(&r, 1)->mem_reads, 0);
	ck_assert_uint_eq(cs(&r, 1)->hitm, 0);
	ck_assert_uint_eq(cs(&r, 1)->writebacks, 0);
	ck_assert_uint_eq(r.stats[2].cycles, 316);
	ck_assert_uint_eq(cs(&r, 2)->getm, 1);
	ck_assert_uint_eq(cs(&r, 2)->invalidations, 2);
	ck_assert_uint_eq(cs(&r, 2)->c2c_transfers, 1);
	ck_assert_uint_eq(cs(&r, 2)->bounces, 1);  /* core 0 owned it (E) */
	ck_assert_uint_eq(cs(&r, 2)->l1_hits, 1);
	/* core 0 at 600: GETS, core 2's M supplies and writes back:
	 * 605, snoop 610, reply 610 + 100 + 5 = 715 */
	ck_assert_uint_eq(r.stats[0].cycles, 715);
	ck_assert_uint_eq(cs(&r, 0)->gets, 2);
	ck_assert_uint_eq(cs(&r, 0)->hitm, 1);
	ck_assert_uint_eq(cs(&r, 0)->writebacks, 1);
	ck_assert_uint_eq(ms_state_of(r.ms, 0, 0x2000), MS_S);
	ck_assert_uint_eq(ms_state_of(r.ms, 2, 0x2000), MS_S);
	ck_assert_uint_eq(ms_state_of(r.ms, 1, 0x2000), MS_I);
	replay_free(&r);
}
END_TEST

/* A 2-way set under pressure: lines 0x0, 0x800, 0x1000 share set 0 (64
 * sets of 32 bytes). The dirty victim costs its writeback. */
START_TEST(two_way_set_evictions)
{
	static const char *const t[] = {
		"1 0\n"      /* GETM, I->M: 0 -> 100 */
		"0 800\n"    /* GETS, E: 100 -> 200 */
		"0 1000\n"   /* evicts 0x0 (LRU, M): 200 -> 300 + 100 writeback = 400 */
		"0 0\n"      /* evicts 0x800 (E, clean): 400 -> 500 */
		"0 1000\n"   /* hit: 501 */
		"0 800\n",   /* evicts 0x0 (LRU, E): 501 -> 601 */
	};
	struct replay r;
	replay_strings(&r, t, 1);
	const struct ms_stats *s = cs(&r, 0);
	ck_assert_uint_eq(r.stats[0].cycles, 601);
	ck_assert_uint_eq(r.stats[0].idle_cycles, 600);
	ck_assert_uint_eq(s->l1_misses, 5);
	ck_assert_uint_eq(s->load_misses, 4);
	ck_assert_uint_eq(s->l1_hits, 1);
	ck_assert_uint_eq(s->evictions, 3);
	ck_assert_uint_eq(s->writebacks, 1);
	ck_assert_uint_eq(s->mem_reads, 5);
	ck_assert_uint_eq(s->getm, 1);
	ck_assert_uint_eq(s->gets, 4);
	ck_assert_uint_eq(s->stall_cycles, 600);
	replay_free(&r);
}
END_TEST

/* Lackey: header lines skipped, I is a cycle, an access across a line is
 * one access per line, M a load then a store, 64-bit addresses. */
START_TEST(lackey_records)
{
	static const char *const t[] = {
		"==123== Lackey, an example Valgrind tool\n"
		"I  04000000,3\n"          /* 1 cycle */
		" L 0000101e,4\n"          /* 0x1000 and 0x1020: misses 1 -> 101 -> 201 */
		" M 00001000,8\n"          /* load hit 202, store E->M 203 */
		" S 7fffffff0000,8\n"      /* GETM 203 -> 303 */
		"==123== done\n",
	};
	struct replay r;
	replay_strings(&r, t, 1);
	const struct ms_stats *s = cs(&r, 0);
	ck_assert_int_eq(rt_format_of(r.streams[0]), RT_LACKEY);
	ck_assert_uint_eq(r.stats[0].records, 5);
	ck_assert_uint_eq(r.stats[0].cycles, 303);
	ck_assert_uint_eq(r.stats[0].compute_cycles, 1);
	ck_assert_uint_eq(s->loads, 3);
	ck_assert_uint_eq(s->stores, 2);
	ck_assert_uint_eq(s->l1_hits, 2);
	ck_assert_uint_eq(s->l1_misses, 3);
	ck_assert_uint_eq(ms_state_of(r.ms, 0, 0x7fffffff0000ull), MS_M);
	replay_free(&r);
}
END_TEST

/* The one-pass lackey decoder gives the records, lines and M splits of the
 * general path record by record, whatever the batch size, and hands every
 * line it does not take (Valgrind's messages, blanks, trailing blanks, a
 * value with leading zeros past 16 digits, an M with one place left) to
 * the general path in order. */
START_TEST(lackey_batch_same_records)
{
	enum { LINES = 3000 };
	size_t cap = LINES * 48, len = 0;
	char *text = malloc(cap);
	ck_assert_ptr_nonnull(text);
	for (unsigned i = 0; i < LINES; i++) {
		unsigned long long a = 0x1000ull + 8ull * i * (i % 7 + 1);
		unsigned size = i % 13 == 0 ? 4096 : 1u << (i % 4);
		switch (i % 11) {
		case 0: len += (size_t)snprintf(text + len, cap - len, "I  %08llx,%u\n", a, size % 16 + 1); break;
		case 1: len += (size_t)snprintf(text + len, cap - len, " L %llx,%u\n", a, size); break;
		case 2: len += (size_t)snprintf(text + len, cap - len, " S %016llx,%u\n", a, size); break;
		case 3: len += (size_t)snprintf(text + len, cap - len, " M %llx,%u\n", a, size); break;
		case 4: len += (size_t)snprintf(text + len, cap - len, " M %llX,%u\n", a, size); break;
		case 5: len += (size_t)snprintf(text + len, cap - len, "==42== a message\n"); break;
		case 6: len += (size_t)snprintf(text + len, cap - len, " L %llx,%u  \n", a, size); break;
		case 7: len += (size_t)snprintf(text + len, cap - len, " S 0000%016llx,%u\n", a, size); break;
		case 8: len += (size_t)snprintf(text + len, cap - len, "\n"); break;
		default: len += (size_t)snprintf(text + len, cap - len, " M %llx,%u\n", a, 8u); break;
		}
	}
	static const int sizes[] = {1, 2, 7, 64, 1024};
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		struct err e = {0};
		struct rt_stream *a = open_text("a", text, len), *b = open_text("b", text, len);
		struct rt_rec batch[1024], one;
		int total = 0, got;
		while ((got = rt_next_batch(a, batch, sizes[k], &e)) > 0) {
			ck_assert_int_le(got, sizes[k]);
			for (int i = 0; i < got; i++, total++) {
				ck_assert_int_eq(rt_next(b, &one, &e), 1);
				ck_assert_int_eq(batch[i].kind, one.kind);
				ck_assert_uint_eq(batch[i].addr, one.addr);
				ck_assert_uint_eq(batch[i].size, one.size);
				ck_assert_uint_eq(batch[i].cycles, one.cycles);
				ck_assert_int_eq(batch[i].line, one.line);
			}
		}
		ck_assert_msg(got == 0, "batch of %d: %s", sizes[k], e.msg);
		ck_assert_int_eq(rt_next(b, &one, &e), 0);
		ck_assert_int_eq(rt_format_of(a), RT_LACKEY);
		/* 11 kinds of line, 3 of them no record and 3 an M (two) */
		ck_assert_int_gt(total, LINES);
		rt_close(a);
		rt_close(b);
	}
	free(text);
}
END_TEST

/* Each bad line stops the replay at file:line:col with what is wrong. */
/* Every message about a line has a column, and positions are 64-bit: a
 * line too long points at its first byte past the limit, and a trace of
 * more than 2^32 lines is located exactly (struct err, not an int). */
START_TEST(positions)
{
	char text[5000];   /* a second line past the 4096-byte limit, with no end in sight */
	memset(text, '0', sizeof text);
	memcpy(text, "0 10\n0 ", 7);
	struct err e = {0};
	struct rt_stream *s = rt_open_buffer("long.trace", text, sizeof text, &e);
	ck_assert_ptr_nonnull(s);
	struct rt_rec r;
	ck_assert_int_eq(rt_next(s, &r, &e), 1);
	ck_assert_int_eq(rt_next(s, &r, &e), -1);
	char msg[1200];
	err_format(&e, msg, sizeof msg);
	ck_assert_str_eq(msg, "long.trace:2:4097: line longer than 4096 bytes");
	rt_close(s);

	struct err big = {0};
	err_set(&big, "wrap.gz", 4294967297LL, 0, "not a trace record");
	err_format(&big, msg, sizeof msg);
	ck_assert_str_eq(msg, "wrap.gz:4294967297:1: not a trace record");
}
END_TEST

START_TEST(bad_records)
{
	static const struct { const char *text; int line, col; const char *msg; } cases[] = {
		{"0 10\n3 10\n", 2, 1, "expected a label"},
		{"0 10\n1 xyz\n", 2, 3, "hexadecimal value"},
		{"0 10\n1 10 junk\n", 2, 5, "unexpected text"},
		{"0 11112222333344445\n", 1, 3, "at most 64 bits"},
		{"I  0400,3\n L 1000\n", 2, 8, "expected ','"},
		{"I  0400,3\n S 1000,0\n", 2, 9, "size of 1"},
		{"I  0400,3\n0 10\n", 2, 1, "lackey record"},
		{"hello\n", 1, 1, "not a trace record"},
		{"2 10000000000000\n2 10000000000000\n", 2, 3, "past 2^52 cycles"},
		/* the store's miss takes the clock past 2^52; then any computation does */
		{"2 fffffffffffff\n1 0\n2 1\n", 3, 3, "past 2^52 cycles"},
		{" L ffffffffffffffff,8\n", 1, 4, "past the last simulated byte"},
		/* the fast paths' records know their columns too */
		{"0 0x10\n1 0x20\n2 0x30\n0 0x40\n0 0x50\n0 0x60\n0 0x70\n0 0x80\n0 0x90\n0 0xa0\n0 0xb0\n"
		 "0 0xc0\n0 0xd0\n2 0x10000000000000\n2 0x10000000000000\n0 0x10\n0 0x20\n0 0x30\n0 0x40\n"
		 "0 0x50\n0 0x60\n0 0x70\n0 0x80\n0 0x90\n0 0xa0\n", 14, 5, "past 2^52 cycles"},
	};
	struct cpu_model m = teaching();
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct err e = {0};
		struct rt_stream *s = rt_open_buffer("bad.trace", cases[i].text, strlen(cases[i].text), &e);
		struct replay r;
		ck_assert_int_eq(replay_create(&r, &m, &s, 1, &e), 0);
		ck_assert_int_eq(replay_run(&r, &e), -1);
		ck_assert_int_eq(e.kind, ERR_INPUT);
		ck_assert_str_eq(e.file, "bad.trace");
		ck_assert_int_eq(e.line, cases[i].line);
		ck_assert_int_eq(e.col, cases[i].col);
		ck_assert_msg(strstr(e.msg, cases[i].msg), "case %zu: %s", i, e.msg);
		replay_free(&r);
	}
}
END_TEST

/* Batches: the one-pass decoder and rt_next read the same records with
 * the same lines, and a bad line past good ones in one batch is reported
 * only after them, so an earlier record's own error comes first. */
START_TEST(batch_in_trace_order)
{
	/* every spelling of a value the format allows, 1 to 16 digits and more with leading zeros */
	static const char *const spell[] = {"0x%llx", "0X%llX", "%llx", "0x%016llx", "0x%020llx"};
	char text[8192];
	uint64_t want[200];
	size_t len = 0;
	for (int i = 0; i < 200; i++) {
		want[i] = i % 3 == 2 ? (uint64_t)i : (0x1000 + 4ull * (uint64_t)i) << (4 * (i % 9));
		len += (size_t)snprintf(text + len, sizeof text - len, "%d ", i % 3);
		len += (size_t)snprintf(text + len, sizeof text - len, spell[i % 5], (unsigned long long)want[i]);
		text[len++] = '\n';
	}
	text[len] = 0;
	struct err e = {0};
	struct rt_stream *a = open_text("a.trace", text, len), *b = open_text("b.trace", text, len);
	struct rt_rec batch[64], one;
	int total = 0;
	for (int got; (got = rt_next_batch(a, batch, 64, &e)) > 0;)
		for (int i = 0; i < got; i++, total++) {
			ck_assert_int_eq(rt_next(b, &one, &e), 1);
			ck_assert_int_eq(batch[i].kind, one.kind);
			ck_assert_int_eq(batch[i].kind, total % 3);
			ck_assert_uint_eq(batch[i].addr, want[total]);
			ck_assert_uint_eq(batch[i].addr, one.addr);
			ck_assert_uint_eq(batch[i].cycles, one.cycles);
			ck_assert_int_eq(batch[i].line, total + 1);
			ck_assert_int_eq(one.line, total + 1);
		}
	ck_assert_int_eq(total, 200);
	ck_assert_int_eq(rt_next(b, &one, &e), 0);
	rt_close(a);
	rt_close(b);

	/* line 150 accesses the last byte (the driver's error), line 180 does not parse */
	char *p150 = text;
	for (int i = 1; i < 150; i++)
		p150 = strchr(p150, '\n') + 1;
	char bad[16384];
	char *p180 = p150;
	for (int i = 150; i < 180; i++)
		p180 = strchr(p180, '\n') + 1;
	snprintf(bad, sizeof bad, "%.*s0 0xffffffffffffffff\n%.*s7 0x10\n%s", (int)(p150 - text), text,
		 (int)(p180 - strchr(p150, '\n') - 1), strchr(p150, '\n') + 1, strchr(p180, '\n') + 1);
	struct cpu_model m = teaching();
	for (int with_150 = 1; with_150 >= 0; with_150--) {
		if (!with_150)   /* line 150 made good: now line 180 is the error */
			memcpy(strstr(bad, "0 0xffffffffffffffff"), "0 0x0000000000001000", 20);
		struct err e2 = {0};
		struct rt_stream *s = rt_open_buffer("bad.trace", bad, strlen(bad), &e2);
		struct replay r;
		ck_assert_int_eq(replay_create(&r, &m, &s, 1, &e2), 0);
		ck_assert_int_eq(replay_run(&r, &e2), -1);
		ck_assert_int_eq(e2.line, with_150 ? 150 : 180);
		ck_assert_msg(strstr(e2.msg, with_150 ? "past the last simulated byte" : "expected a label"), "%s",
			      e2.msg);
		ck_assert_uint_eq(r.stats[0].records, with_150 ? 150 : 179);
		replay_free(&r);
	}
}
END_TEST

/* The keys left at 0 keep the fabric's timing: a dirty victim costs nothing
 * more, a store to Shared costs its legs, and clean lines come from memory. */
START_TEST(model_keys_off)
{
	static const char *const t[] = {
		"0 2000\n",
		"2 96\n0 2000\n1 2000\n",   /* GETS at 150: memory, 150 -> 250; UPGRADE 250: 255, 260, 265 */
	};
	struct cpu_model m = teaching();
	m.c2c_clean = 0;
	m.lat_writeback = 0;
	struct rt_stream *s[2];
	struct err e = {0};
	for (int i = 0; i < 2; i++)
		s[i] = rt_open_buffer("t", t[i], strlen(t[i]), &e);
	struct replay r;
	ck_assert_int_eq(replay_create(&r, &m, s, 2, &e), 0);
	ms_set_checking(r.ms, 1);
	ck_assert_msg(replay_run(&r, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(cs(&r, 1)->c2c_transfers, 0);
	ck_assert_uint_eq(cs(&r, 1)->mem_reads, 1);
	ck_assert_uint_eq(r.stats[1].cycles, 265);
	replay_free(&r);
	/* lat_store_shared: the UPGRADE at 250 then costs 40 from issue */
	m.lat_store_shared = 40;
	for (int i = 0; i < 2; i++)
		s[i] = rt_open_buffer("t", t[i], strlen(t[i]), &e);
	ck_assert_int_eq(replay_create(&r, &m, s, 2, &e), 0);
	ck_assert_msg(replay_run(&r, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(r.stats[1].cycles, 290);
	replay_free(&r);
}
END_TEST

/* A trace of n records of core c, from a fixed LCG: a fifth computation,
 * the rest loads and stores, mostly to the core's own 3 KiB (hits in the
 * 4 KiB L1), 1 in 30 to 1 KiB all cores share. Returns a malloc'd string. */
static char *lcg_trace(int c, int n)
{
	size_t cap = (size_t)n * 24 + 1, len = 0;
	char *t = malloc(cap);
	ck_assert_ptr_nonnull(t);
	uint32_t x = 12345u + 7919u * (uint32_t)c;
	for (int i = 0; i < n; i++) {
		x = x * 69069u + 1;
		uint32_t h = x >> 16, k = h % 100;
		if (k < 20)
			len += (size_t)snprintf(t + len, cap - len, "2 %x\n", 1 + h % 7);
		else if (k < 97)
			len += (size_t)snprintf(t + len, cap - len, "%d %x\n", k >= 75, 65536u * (uint32_t)(c + 1) + (x >> 12) % 3072);
		else
			len += (size_t)snprintf(t + len, cap - len, "%d %x\n", k >= 99, 4096 + (x >> 12) % 1024);
	}
	return t;
}

static int stop_at_once(void *ctx, const struct replay *r)
{
	(void)r;
	++*(int *)ctx;
	return 1;
}

/* Reading the traces ahead on a thread changes nothing in the results:
 * three traces of many batches each (the reader's rings wrap, it sleeps
 * and is woken again), replayed both ways, give the same statistics
 * throughout; an error deep in a trace stops the replay at the same record
 * with the same message; and a tick that stops the replay stops the reader
 * too. */
START_TEST(read_ahead_same_replay)
{
	enum { N = 3, RECS = 200000 };  /* the tick comes every 2^16 turns: some 400 k records */
	char *text[N];
	for (int c = 0; c < N; c++)
		text[c] = lcg_trace(c, RECS);
	struct cpu_model m = teaching();
	struct replay r[2];
	for (int ahead = 0; ahead < 2; ahead++) {
		struct rt_stream *s[N];
		struct err e = {0};
		for (int c = 0; c < N; c++)
			s[c] = rt_open_buffer("t", text[c], strlen(text[c]), &e);
		ck_assert_int_eq(replay_create(&r[ahead], &m, s, N, &e), 0);
		r[ahead].read_ahead = ahead;
		ck_assert_msg(replay_run(&r[ahead], &e) == 0, "%s", e.msg);
	}
	for (int c = 0; c < N; c++) {
		ck_assert_uint_eq(r[0].stats[c].records, RECS);
		ck_assert_mem_eq(&r[0].stats[c], &r[1].stats[c], sizeof r[0].stats[c]);
		ck_assert_mem_eq(cs(&r[0], c), cs(&r[1], c), sizeof *cs(&r[0], c));
	}
	ck_assert_uint_gt(cs(&r[0], 0)->l1_misses, 1000);
	ck_assert_uint_gt(r[0].stats[0].shared_accesses, 100);
	replay_free(&r[0]);
	replay_free(&r[1]);

	/* core 1's record 30001 does not parse */
	char *p = text[1];
	for (int i = 0; i < 30000; i++)
		p = strchr(p, '\n') + 1;
	char label = *p;
	*p = '7';
	for (int ahead = 0; ahead < 2; ahead++) {
		struct rt_stream *s[N];
		struct err e = {0};
		for (int c = 0; c < N; c++)
			s[c] = rt_open_buffer(c == 1 ? "bad.trace" : "t", text[c], strlen(text[c]), &e);
		ck_assert_int_eq(replay_create(&r[ahead], &m, s, N, &e), 0);
		r[ahead].read_ahead = ahead;
		ck_assert_int_eq(replay_run(&r[ahead], &e), -1);
		ck_assert_str_eq(e.file, "bad.trace");
		ck_assert_int_eq(e.line, 30001);
		ck_assert_msg(strstr(e.msg, "expected a label"), "%s", e.msg);
		ck_assert_uint_eq(r[ahead].stats[1].records, 30000);
	}
	ck_assert_mem_eq(r[0].stats, r[1].stats, N * sizeof *r[0].stats);
	replay_free(&r[0]);
	replay_free(&r[1]);

	/* the first tick stops it, before the traces end */
	*p = label;
	struct rt_stream *s[N];
	struct err e = {0};
	for (int c = 0; c < N; c++)
		s[c] = rt_open_buffer("t", text[c], strlen(text[c]), &e);
	ck_assert_int_eq(replay_create(&r[0], &m, s, N, &e), 0);
	int ticks = 0;
	r[0].read_ahead = 1;
	r[0].tick = stop_at_once;
	r[0].tick_ctx = &ticks;
	ck_assert_int_eq(replay_run(&r[0], &e), 1);
	ck_assert_int_eq(ticks, 1);
	ck_assert_uint_lt(replay_records(&r[0]), N * RECS);
	replay_free(&r[0]);
	for (int c = 0; c < N; c++)
		free(text[c]);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("replay");
	TCase *t = tcase_create("replay");
	tcase_add_test(t, mesi_dirty_line);
	tcase_add_test(t, mesi_clean_supply);
	tcase_add_test(t, two_way_set_evictions);
	tcase_add_test(t, lackey_records);
	tcase_add_test(t, lackey_batch_same_records);
	tcase_add_test(t, bad_records);
	tcase_add_test(t, positions);
	tcase_add_test(t, batch_in_trace_order);
	tcase_add_test(t, model_keys_off);
	tcase_add_test(t, read_ahead_same_replay);
	suite_add_tcase(s, t);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

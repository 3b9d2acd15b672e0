/* Differential tests of the instruction set: each instruction runs on the
 * host (inline assembly, the same text) and in the interpreter over the
 * same seeded random and edge operands, and the registers, the memory it
 * touches and the flags x86 defines for it must agree exactly. Also what
 * the assembler refuses, divide errors, ret from a thread's entry, and
 * pushf/popf with IF. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "cpu/sim.h"
#include "check_loop.h"

#define CF 0x1u
#define PF 0x4u
#define ZF 0x40u
#define SF 0x80u
#define OF 0x800u
#define ALL (CF | PF | ZF | SF | OF)

/* One case's state, at the address in rdi: rax rbx rcx rdx rsi, RFLAGS,
 * then a window of memory whose middle quad, [rdi+80], is the memory
 * operand (bit offsets in rsi reach the whole window). */
enum { Q_RAX, Q_RBX, Q_RCX, Q_RDX, Q_RSI, Q_FLAGS, Q_MEM0, NQ = 14 };
#define MEM_OPND 80

/* What decides which flags and results x86 defines. */
enum kind {
	K_ALL,      /* every flag (and those it leaves alone must be kept) */
	K_CFOF,     /* mul, imul: CF and OF */
	K_NOFLAGS,  /* div, idiv: the result only */
	K_SHIFT,    /* shl shr sar */
	K_ROT,      /* rol ror: CF, OF for 1, the rest unchanged */
	K_SHIFTD,   /* shld shrd */
	K_BT,       /* bt*: CF, ZF unchanged */
	K_BITSCAN,  /* bsf bsr: ZF; the result only for a source other than 0 */
};

/* Which inputs the instruction needs. */
enum gen { G_ANY, G_DIV, G_IDIV, G_BITOFF };

struct isa_case {
	const char *text;
	uint8_t size, kind, gen;
	int count;     /* shift count: an immediate, or -1 for cl */
};

/* The instruction between loading the state from [rdi] and storing it
 * back, as text both the host's assembler and bounce's take. */
#define LOAD_STATE \
	"mov r11, [rdi+40]\npush r11\npopfq\n" \
	"mov rax, [rdi]\nmov rbx, [rdi+8]\nmov rcx, [rdi+16]\nmov rdx, [rdi+24]\nmov rsi, [rdi+32]\n"
#define SAVE_STATE \
	"pushfq\npop r11\nmov [rdi+40], r11\n" \
	"mov [rdi], rax\nmov [rdi+8], rbx\nmov [rdi+16], rcx\nmov [rdi+24], rdx\nmov [rdi+32], rsi\n"

/* text, width, kind, inputs, count */
#define CASES(X) \
	X("adc rax, rbx", 8, K_ALL, G_ANY, 0) \
	X("adc ebx, esi", 4, K_ALL, G_ANY, 0) \
	X("adc dx, 0x7fff", 2, K_ALL, G_ANY, 0) \
	X("adc al, bl", 1, K_ALL, G_ANY, 0) \
	X("adc qword ptr [rdi+80], rsi", 8, K_ALL, G_ANY, 0) \
	X("lock adc dword ptr [rdi+80], -1", 4, K_ALL, G_ANY, 0) \
	X("sbb rax, rbx", 8, K_ALL, G_ANY, 0) \
	X("sbb ecx, -5", 4, K_ALL, G_ANY, 0) \
	X("sbb si, bx", 2, K_ALL, G_ANY, 0) \
	X("sbb bl, byte ptr [rdi+80]", 1, K_ALL, G_ANY, 0) \
	X("lock sbb qword ptr [rdi+80], rbx", 8, K_ALL, G_ANY, 0) \
	X("lock add qword ptr [rdi+80], rbx", 8, K_ALL, G_ANY, 0) \
	X("lock sub word ptr [rdi+80], 3", 2, K_ALL, G_ANY, 0) \
	X("lock and dword ptr [rdi+80], ebx", 4, K_ALL, G_ANY, 0) \
	X("lock or byte ptr [rdi+80], bl", 1, K_ALL, G_ANY, 0) \
	X("lock xor qword ptr [rdi+80], rsi", 8, K_ALL, G_ANY, 0) \
	X("lock inc dword ptr [rdi+80]", 4, K_ALL, G_ANY, 0) \
	X("lock dec qword ptr [rdi+80]", 8, K_ALL, G_ANY, 0) \
	X("lock not word ptr [rdi+80]", 2, K_ALL, G_ANY, 0) \
	X("lock neg qword ptr [rdi+80]", 8, K_ALL, G_ANY, 0) \
	X("imul rax, rbx", 8, K_CFOF, G_ANY, 0) \
	X("imul ebx, esi", 4, K_CFOF, G_ANY, 0) \
	X("imul dx, si", 2, K_CFOF, G_ANY, 0) \
	X("imul rsi, qword ptr [rdi+80]", 8, K_CFOF, G_ANY, 0) \
	X("imul rax, rbx, -7", 8, K_CFOF, G_ANY, 0) \
	X("imul esi, 1000", 4, K_CFOF, G_ANY, 0) \
	X("imul ecx, dword ptr [rdi+80], 100000", 4, K_CFOF, G_ANY, 0) \
	X("imul si, bx, -300", 2, K_CFOF, G_ANY, 0) \
	X("imul rbx", 8, K_CFOF, G_ANY, 0) \
	X("imul esi", 4, K_CFOF, G_ANY, 0) \
	X("imul word ptr [rdi+80]", 2, K_CFOF, G_ANY, 0) \
	X("imul bl", 1, K_CFOF, G_ANY, 0) \
	X("mul rbx", 8, K_CFOF, G_ANY, 0) \
	X("mul dword ptr [rdi+80]", 4, K_CFOF, G_ANY, 0) \
	X("mul si", 2, K_CFOF, G_ANY, 0) \
	X("mul bh", 1, K_CFOF, G_ANY, 0) \
	X("div rbx", 8, K_NOFLAGS, G_DIV, 0) \
	X("div dword ptr [rdi+80]", 4, K_NOFLAGS, G_DIV, 0) \
	X("div bx", 2, K_NOFLAGS, G_DIV, 0) \
	X("div bl", 1, K_NOFLAGS, G_DIV, 0) \
	X("idiv rbx", 8, K_NOFLAGS, G_IDIV, 0) \
	X("idiv ebx", 4, K_NOFLAGS, G_IDIV, 0) \
	X("idiv word ptr [rdi+80]", 2, K_NOFLAGS, G_IDIV, 0) \
	X("idiv bl", 1, K_NOFLAGS, G_IDIV, 0) \
	X("shl rax, cl", 8, K_SHIFT, G_ANY, -1) \
	X("shr ebx, cl", 4, K_SHIFT, G_ANY, -1) \
	X("shl si, cl", 2, K_SHIFT, G_ANY, -1) \
	X("shr byte ptr [rdi+80], cl", 1, K_SHIFT, G_ANY, -1) \
	X("sar rax, cl", 8, K_SHIFT, G_ANY, -1) \
	X("sar ebx, cl", 4, K_SHIFT, G_ANY, -1) \
	X("sar word ptr [rdi+80], cl", 2, K_SHIFT, G_ANY, -1) \
	X("sar dl, cl", 1, K_SHIFT, G_ANY, -1) \
	X("sar rax, 63", 8, K_SHIFT, G_ANY, 63) \
	X("sar esi, 1", 4, K_SHIFT, G_ANY, 1) \
	X("sar ebx", 4, K_SHIFT, G_ANY, 1) \
	X("sal ax, 15", 2, K_SHIFT, G_ANY, 15) \
	X("rol rax, cl", 8, K_ROT, G_ANY, -1) \
	X("rol ebx, cl", 4, K_ROT, G_ANY, -1) \
	X("rol si, cl", 2, K_ROT, G_ANY, -1) \
	X("rol byte ptr [rdi+80], cl", 1, K_ROT, G_ANY, -1) \
	X("ror rax, cl", 8, K_ROT, G_ANY, -1) \
	X("ror dword ptr [rdi+80], cl", 4, K_ROT, G_ANY, -1) \
	X("ror dx, cl", 2, K_ROT, G_ANY, -1) \
	X("ror bl, cl", 1, K_ROT, G_ANY, -1) \
	X("rol rsi, 1", 8, K_ROT, G_ANY, 1) \
	X("ror ax, 8", 2, K_ROT, G_ANY, 8) \
	X("shld rax, rbx, cl", 8, K_SHIFTD, G_ANY, -1) \
	X("shld dword ptr [rdi+80], esi, cl", 4, K_SHIFTD, G_ANY, -1) \
	X("shld dx, bx, cl", 2, K_SHIFTD, G_ANY, -1) \
	X("shld rsi, rdx, 1", 8, K_SHIFTD, G_ANY, 1) \
	X("shrd rax, rbx, cl", 8, K_SHIFTD, G_ANY, -1) \
	X("shrd ebx, esi, cl", 4, K_SHIFTD, G_ANY, -1) \
	X("shrd word ptr [rdi+80], ax, cl", 2, K_SHIFTD, G_ANY, -1) \
	X("shrd eax, edx, 31", 4, K_SHIFTD, G_ANY, 31) \
	X("bt rax, rbx", 8, K_BT, G_ANY, 0) \
	X("bt esi, 37", 4, K_BT, G_ANY, 0) \
	X("bts rax, rcx", 8, K_BT, G_ANY, 0) \
	X("btr ebx, esi", 4, K_BT, G_ANY, 0) \
	X("btc si, dx", 2, K_BT, G_ANY, 0) \
	X("bt qword ptr [rdi+80], rsi", 8, K_BT, G_BITOFF, 0) \
	X("bts dword ptr [rdi+80], esi", 4, K_BT, G_BITOFF, 0) \
	X("btr word ptr [rdi+80], si", 2, K_BT, G_BITOFF, 0) \
	X("btc qword ptr [rdi+80], 70", 8, K_BT, G_ANY, 0) \
	X("lock bts qword ptr [rdi+80], rsi", 8, K_BT, G_BITOFF, 0) \
	X("lock btr dword ptr [rdi+80], 5", 4, K_BT, G_ANY, 0) \
	X("lock btc word ptr [rdi+80], si", 2, K_BT, G_BITOFF, 0) \
	X("bsf rax, rbx", 8, K_BITSCAN, G_ANY, 0) \
	X("bsf esi, dword ptr [rdi+80]", 4, K_BITSCAN, G_ANY, 0) \
	X("bsf dx, bx", 2, K_BITSCAN, G_ANY, 0) \
	X("bsr rax, qword ptr [rdi+80]", 8, K_BITSCAN, G_ANY, 0) \
	X("bsr ecx, ebx", 4, K_BITSCAN, G_ANY, 0) \
	X("bsr si, word ptr [rdi+80]", 2, K_BITSCAN, G_ANY, 0) \
	X("bswap rbx", 8, K_ALL, G_ANY, 0) \
	X("bswap esi", 4, K_ALL, G_ANY, 0) \
	X("movabs rbx, 0x123456789abcdef0", 8, K_ALL, G_ANY, 0) \
	X("movabs rsi, -81985529216486896", 8, K_ALL, G_ANY, 0) \
	X("cbw", 2, K_ALL, G_ANY, 0) \
	X("cwde", 4, K_ALL, G_ANY, 0) \
	X("cdqe", 8, K_ALL, G_ANY, 0) \
	X("cwd", 2, K_ALL, G_ANY, 0) \
	X("cdq", 4, K_ALL, G_ANY, 0) \
	X("cqo", 8, K_ALL, G_ANY, 0) \
	X("add ebx, esi", 4, K_ALL, G_ANY, 0) \
	X("sub esi, 0x7fffffff", 4, K_ALL, G_ANY, 0) \
	X("xor dword ptr [rdi+80], ebx", 4, K_ALL, G_ANY, 0) \
	X("and dword ptr [rdi+80], -16", 4, K_ALL, G_ANY, 0) \
	X("or ecx, edx", 4, K_ALL, G_ANY, 0) \
	X("test esi, ebx", 4, K_ALL, G_ANY, 0) \
	X("cmp eax, -5", 4, K_ALL, G_ANY, 0) \
	X("cmp dword ptr [rdi+80], esi", 4, K_ALL, G_ANY, 0) \
	X("inc ebx", 4, K_ALL, G_ANY, 0) \
	X("dec dword ptr [rdi+80]", 4, K_ALL, G_ANY, 0) \
	X("mov esi, ebx", 4, K_ALL, G_ANY, 0) \
	X("mov ebx, -1", 4, K_ALL, G_ANY, 0) \
	X("mov esi, dword ptr [rdi+80]", 4, K_ALL, G_ANY, 0) \
	X("mov dword ptr [rdi+80], ebx", 4, K_ALL, G_ANY, 0) \
	X("mov dword ptr [rdi+80], -2", 4, K_ALL, G_ANY, 0) \
	X("dec esi\njne fused_dec\nmov rbx, 1\nfused_dec:", 4, K_ALL, G_ANY, 0) \
	X("cmp ebx, esi\nje fused_cmp\nmov rdx, 1\nfused_cmp:", 4, K_ALL, G_ANY, 0) \
	X("sub eax, 3\njne fused_sub\nmov rdx, 1\nfused_sub:", 4, K_ALL, G_ANY, 0) \
	X("add ah, bh", 1, K_ALL, G_ANY, 0) \
	X("sub ch, dl", 1, K_ALL, G_ANY, 0) \
	X("mov dh, byte ptr [rdi+80]", 1, K_ALL, G_ANY, 0) \
	X("mov byte ptr [rdi+80], ah", 1, K_ALL, G_ANY, 0) \
	X("movzx esi, bh", 4, K_ALL, G_ANY, 0) \
	X("movsx esi, ch", 4, K_ALL, G_ANY, 0) \
	X("xchg ah, bl", 1, K_ALL, G_ANY, 0) \
	X("cmp dh, 0x80", 1, K_ALL, G_ANY, 0) \
	X("endbr64", 8, K_ALL, G_ANY, 0) \
	SETCC(X, "o") SETCC(X, "no") SETCC(X, "b") SETCC(X, "ae") SETCC(X, "e") SETCC(X, "ne") \
	SETCC(X, "be") SETCC(X, "a") SETCC(X, "s") SETCC(X, "ns") SETCC(X, "p") SETCC(X, "np") \
	SETCC(X, "l") SETCC(X, "ge") SETCC(X, "le") SETCC(X, "g") SETCC(X, "c") SETCC(X, "nae") \
	SETCC(X, "nb") SETCC(X, "nc") SETCC(X, "z") SETCC(X, "nz") SETCC(X, "na") SETCC(X, "nbe") \
	SETCC(X, "pe") SETCC(X, "po") SETCC(X, "nge") SETCC(X, "nl") SETCC(X, "ng") SETCC(X, "nle")

/* For each condition: setcc into a byte register, a high-byte register
 * and memory; cmovcc at 64 bits, at 32 (which clears the upper half
 * whether or not it moves) and from memory; jcc. */
#define SETCC(X, cc) \
	X("set" cc " bl", 1, K_ALL, G_ANY, 0) \
	X("set" cc " ah", 1, K_ALL, G_ANY, 0) \
	X("set" cc " byte ptr [rdi+80]", 1, K_ALL, G_ANY, 0) \
	X("cmov" cc " rax, rbx", 8, K_ALL, G_ANY, 0) \
	X("cmov" cc " esi, edx", 4, K_ALL, G_ANY, 0) \
	X("cmov" cc " cx, word ptr [rdi+80]", 2, K_ALL, G_ANY, 0) \
	X("j" cc " skip_" cc "\nmov rsi, 1\nskip_" cc ":", 8, K_ALL, G_ANY, 0)

/* The host's run of a case: the same text between LOAD_STATE and
 * SAVE_STATE, below the red zone the compiler may be using. */
#define HOST_ASM(text) \
	__asm__ volatile(".intel_syntax noprefix\n" "sub rsp, 128\n" LOAD_STATE text "\n" SAVE_STATE \
			 "add rsp, 128\n" ".att_syntax prefix\n" \
			 : : "D"(blk) : "rax", "rbx", "rcx", "rdx", "rsi", "r11", "memory", "cc")

static void host_run(int idx, uint64_t *blk)
{
	int k = 0;
#define ARM(text, size, kind, gen, count) \
	if (idx == k++) { \
		HOST_ASM(text); \
		return; \
	}
	CASES(ARM)
#undef ARM
	ck_abort_msg("no case %d", idx);
}

#define ENTRY(text, size, kind, gen, count) { text, size, kind, gen, count },
static const struct isa_case cases[] = { CASES(ENTRY) };
#undef ENTRY

/* ---- inputs ---- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t x = rng_state;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rng_state = x;
}

/* Values at the edges of every width, with random bits above them now and then. */
static uint64_t operand(void)
{
	static const uint64_t edge[] = {
		0, 1, 2, ~0ull, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000,
		0xffffffff, 0x7fffffffffffffffull, 0x8000000000000000ull, 0xfffffffffffffffeull,
	};
	uint64_t r = rnd();
	switch (r % 4) {
	case 0:
		return edge[(r >> 8) % (sizeof edge / sizeof edge[0])];
	case 1: {
		unsigned w = 8u << ((r >> 8) % 4);
		uint64_t v = edge[(r >> 16) % (sizeof edge / sizeof edge[0])];
		return w == 64 ? v : (v & ((1ull << w) - 1)) | (rnd() << w);
	}
	default:
		return rnd() >> ((r >> 8) % 64);
	}
}

/* Shift counts: 0, 1, each width - 1, width and + 1, 63, 64 and beyond. */
static uint64_t count(void)
{
	static const uint64_t edge[] = { 0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 255 };
	uint64_t r = rnd();
	uint64_t c = r % 3 ? edge[(r >> 8) % 16] : (r >> 8) % 256;
	return c | (rnd() & ~0xffull); /* only cl counts */
}

static uint64_t mask_of(unsigned size)
{
	return size == 8 ? ~0ull : (1ull << (8 * size)) - 1;
}

static int64_t sext_of(uint64_t v, unsigned size)
{
	unsigned sh = 64 - 8 * size;
	return (int64_t)(v << sh) >> sh;
}

/* The divisor and dividend of a div/idiv case, from the test's own
 * arithmetic: whether they give a quotient that fits (the host would trap). */
static int divides(const struct isa_case *k, const uint64_t *q)
{
	unsigned sz = k->size, bits = 8 * sz;
	uint64_t m = mask_of(sz);
	uint64_t d = (strchr(k->text, '[') ? q[Q_MEM0 + 4] : q[Q_RBX]) & m;
	uint64_t lo = q[Q_RAX] & m, hi = sz == 1 ? (q[Q_RAX] >> 8) & 0xff : q[Q_RDX] & m;
	if (sz == 1)
		lo &= 0xff;
	if (d == 0)
		return 0;
	unsigned __int128 n = (unsigned __int128)hi << bits | lo;
	if (k->gen == G_DIV)
		return n / d <= m;
	__int128 sn = sz < 8 ? (__int128)sext_of((uint64_t)n, 2 * sz) : (__int128)n;
	__int128 sd = sext_of(d, sz);
	__int128 lim = (__int128)1 << (bits - 1);
	if (sd == -1) /* the quotient -sn, without negating the 128-bit minimum */
		return sn >= -(lim - 1) && sn <= lim;
	__int128 quo = sn / sd;
	return quo >= -lim && quo < lim;
}

static void gen_inputs(const struct isa_case *k, uint64_t *q)
{
	for (;;) {
		for (int i = 0; i < NQ; i++)
			q[i] = operand();
		q[Q_RCX] = count();
		/* IF and bit 1 set, the arithmetic flags random */
		q[Q_FLAGS] = 0x202 | (rnd() & ALL);
		if (k->gen == G_BITOFF)
			q[Q_RSI] = (uint64_t)((int64_t)(rnd() % 512) - 256);
		if (k->gen == G_DIV || k->gen == G_IDIV) {
			/* mostly small dividends, so that most quotients fit */
			if (rnd() % 2)
				q[Q_RDX] = k->gen == G_IDIV && (int64_t)q[Q_RAX] < 0 ? ~0ull : 0;
			if (k->size == 1 && rnd() % 2)
				q[Q_RAX] = (q[Q_RAX] & ~0xff00ull) | ((q[Q_RAX] & 0x80) ? 0xff00 : 0);
			if (!divides(k, q))
				continue;
		}
		return;
	}
}

/* ---- what x86 defines ---- */

static unsigned masked_count(const struct isa_case *k, const uint64_t *in)
{
	uint64_t c = k->count >= 0 ? (uint64_t)k->count : in[Q_RCX];
	return (unsigned)c & (k->size == 8 ? 63 : 31);
}

/* The flags a case's result defines; -1 when its result is undefined. */
static int defined_flags(const struct isa_case *k, const uint64_t *in)
{
	unsigned n = masked_count(k, in), bits = 8u * k->size;
	int shl_shr = strncmp(k->text, "sh", 2) == 0 || strncmp(k->text, "sal", 3) == 0;
	switch (k->kind) {
	case K_CFOF:
		return CF | OF;
	case K_NOFLAGS:
		return 0;
	case K_SHIFT:
		if (!n)
			return ALL;
		return (shl_shr && n >= bits ? 0 : CF) | PF | ZF | SF | (n == 1 ? OF : 0);
	case K_ROT:
		return !n ? ALL : CF | PF | ZF | SF | (n == 1 ? OF : 0);
	case K_SHIFTD:
		if (n > bits)
			return -1;
		return !n ? ALL : CF | PF | ZF | SF | (n == 1 ? OF : 0);
	case K_BT:
		return CF | ZF;
	case K_BITSCAN:
		return ((strchr(k->text, '[') ? in[Q_MEM0 + 4] : in[Q_RBX]) & mask_of(k->size)) ? (int)ZF : -1;
	default:
		return ALL;
	}
}

/* ---- the interpreter's run ---- */

/* The case as a program: a loop over n states at `in`, each copied to
 * blk, run and copied to `out`. */
static char *program_text(const struct isa_case *k, int n)
{
	size_t cap = 8192;
	char *src = malloc(cap);
	ck_assert_ptr_nonnull(src);
	int len = snprintf(src, cap,
			   ".data\n.align 64\nblk: .space 128\nin: .space %d\nout: .space %d\n.text\nmain:\n"
			   "lea r8, [in]\nlea r9, [out]\nmov r10, %d\nlea rdi, [blk]\nnext:\n",
			   n * NQ * 8, n * NQ * 8, n);
	for (int i = 0; i < NQ; i++)
		len += snprintf(src + len, cap - (size_t)len, "mov r11, [r8+%d]\nmov [rdi+%d], r11\n",
				8 * i, 8 * i);
	len += snprintf(src + len, cap - (size_t)len, "%s%s\n%s", LOAD_STATE, k->text, SAVE_STATE);
	for (int i = 0; i < NQ; i++)
		len += snprintf(src + len, cap - (size_t)len, "mov r11, [rdi+%d]\nmov [r9+%d], r11\n",
				8 * i, 8 * i);
	len += snprintf(src + len, cap - (size_t)len,
			"add r8, %d\nadd r9, %d\ndec r10\njnz next\nhlt\n", NQ * 8, NQ * 8);
	ck_assert_int_lt(len, (int)cap);
	return src;
}

static uint64_t symbol(const struct program *p, const char *name)
{
	const struct symbol *s = program_symbol(p, name);
	ck_assert_msg(s != NULL, "no symbol %s", name);
	return (uint64_t)s->value;
}

/* Assemble src and build its one-core machine, a thread at main. The
 * invariant checker is on when `check`. */
static struct sim *build(const char *src, int check, struct program *p)
{
	struct asm_input ai = { .nr_cpus = 1, .line_size = 64 };
	struct err e;
	char msg[2048];
	err_clear(&e);
	int rc = asm_assemble_string("t.s", src, &ai, p, &e);
	err_format(&e, msg, sizeof msg);
	ck_assert_msg(rc == 0, "assembly failed: %s", msg);
	struct sim_config cfg;
	memset(&cfg, 0, sizeof cfg);
	cpu_model_default(&cfg.cpu);
	cfg.cpu.cores = 1;
	cfg.prog = p;
	struct sim_thread th;
	memset(&th, 0, sizeof th);
	th.entry = (uint32_t)symbol(p, "main");
	cfg.threads = &th;
	cfg.n_threads = 1;
	cfg.check = check;
	struct sim *s = sim_create(&cfg, &e);
	err_format(&e, msg, sizeof msg);
	ck_assert_msg(s != NULL, "sim_create: %s", msg);
	return s;
}

static void run_to_halt(struct sim *s)
{
	struct err e;
	char msg[2048];
	enum sim_status st = sim_run(s, &e);
	err_format(&e, msg, sizeof msg);
	ck_assert_msg(st == SIM_HALTED, "%s: %s", sim_status_name(st), msg);
}

/* Run the n states of `in` through case k in the interpreter, into out.
 * No invariant checker: the states are written into memory behind its back. */
static void sim_states(const struct isa_case *k, int n, const uint64_t *in, uint64_t *out)
{
	struct program p;
	struct err e;
	char *src = program_text(k, n);
	struct sim *s = build(src, 0, &p);
	free(src);
	uint64_t at = symbol(&p, "in"), to = symbol(&p, "out");
	ck_assert_int_eq(ms_write_memory(sim_memsys(s), at, in, (uint64_t)n * NQ * 8, &e), 0);
	run_to_halt(s);
	for (int i = 0; i < n * NQ; i++)
		out[i] = sim_peek(s, to + 8 * (uint64_t)i, 8);
	sim_destroy(s);
	program_free(&p);
}

#define STATES 1000

START_TEST(test_differential)
{
	const struct isa_case *k = &cases[_i];
	uint64_t *in = malloc(sizeof(uint64_t) * STATES * NQ);
	uint64_t *host = malloc(sizeof(uint64_t) * STATES * NQ);
	uint64_t *sim = malloc(sizeof(uint64_t) * STATES * NQ);
	ck_assert(in && host && sim);
	rng_state = 0x9e3779b97f4a7c15ull ^ (uint64_t)_i * 0x2545f4914f6cdd1dull;
	for (int t = 0; t < STATES; t++) {
		gen_inputs(k, in + t * NQ);
		memcpy(host + t * NQ, in + t * NQ, NQ * 8);
		host_run(_i, host + t * NQ);
	}
	sim_states(k, STATES, in, sim);
	int checked = 0;
	for (int t = 0; t < STATES; t++) {
		const uint64_t *i = in + t * NQ, *h = host + t * NQ, *b = sim + t * NQ;
		int fl = defined_flags(k, i);
		if (fl < 0)
			continue;
		checked++;
		for (int q = 0; q < NQ; q++) {
			uint64_t m = q == Q_FLAGS ? (uint64_t)fl : ~0ull;
			loop_assert_msg((h[q] & m) == (b[q] & m),
				        "%s: state %d (rax %#llx rbx %#llx rcx %#llx rdx %#llx rsi %#llx "
				        "flags %#llx mem %#llx): quad %d is %#llx, the host's %#llx (mask %#llx)",
				        k->text, t, (unsigned long long)i[0], (unsigned long long)i[1],
				        (unsigned long long)i[2], (unsigned long long)i[3], (unsigned long long)i[4],
				        (unsigned long long)i[5], (unsigned long long)i[Q_MEM0 + 4], q,
				        (unsigned long long)b[q], (unsigned long long)h[q], (unsigned long long)m);
		}
	}
	ck_assert_int_gt(checked, STATES / 2);
	free(in);
	free(host);
	free(sim);
}
END_TEST

/* ---- the rest of the set ---- */

static struct sim *run_src(const char *src, struct program *p)
{
	struct sim *s = build(src, 1, p);
	run_to_halt(s);
	return s;
}

START_TEST(test_ret_from_entry_ends_the_thread)
{
	struct program p;
	struct sim *s = run_src(".data\nx: .quad 0\n.text\nmain:\n  call f\n  mov qword ptr [x], rax\n  ret\n"
				"f:\n  mov eax, 7\n  ret\n", &p);
	struct sim_core_view v;
	sim_core_view(s, 0, &v);
	ck_assert(v.halted);
	ck_assert_uint_eq(v.pc, 2); /* on the entry's ret, as a halted core stays on its hlt */
	ck_assert_uint_eq(sim_peek(s, symbol(&p, "x"), 8), 7); /* its store drained first */
	ck_assert_uint_eq(sim_core_stats(s, 0)->instructions, 5);
	sim_destroy(s);
	program_free(&p);
}
END_TEST

/* Code addresses: a code label taken as a value (offset, lea, .quad, also
 * defined further down) is PROG_CODE_BASE plus its instruction's index;
 * call and jmp through a register or memory go there. */
START_TEST(test_indirect_jumps_and_calls)
{
	struct program p;
	struct sim *s = run_src(".data\ntbl: .quad f, g\njt: .quad a0, a1\nx: .quad 0\ny: .quad 0\n"
				"z: .quad 0\nw: .quad 0\n.text\nmain:\n"
				"  mov eax, OFFSET f\n  call rax\n  mov [x], rax\n"          /* 0-2 */
				"  call [QWORD PTR [tbl+8]]\n  mov [y], rax\n"               /* 3-4 */
				"  mov ebx, 1\n  jmp [QWORD PTR jt[0+rbx*8]]\n"              /* 5-6 */
				"a0:\n  mov qword ptr [z], 100\n  hlt\n"                   /* 7-8 */
				"a1:\n  mov qword ptr [z], 200\n  lea rdx, f[rip]\n"        /* 9-10 */
				"  mov [w], rdx\n  mov rcx, OFFSET h\n  jmp rcx\n"          /* 11-13 */
				"f:\n  mov eax, 7\n  ret\n"                                  /* 14-15 */
				"g:\n  mov eax, 9\n  ret\n"                                  /* 16-17 */
				"h:\n  hlt\n", &p);                                          /* 18 */
	struct sim_core_view v;
	sim_core_view(s, 0, &v);
	ck_assert(v.halted);
	ck_assert_uint_eq(v.pc, 18);
	ck_assert_uint_eq(sim_peek(s, symbol(&p, "tbl"), 8), PROG_CODE_BASE + 14);
	ck_assert_uint_eq(sim_peek(s, symbol(&p, "tbl") + 8, 8), PROG_CODE_BASE + 16);
	ck_assert_uint_eq(sim_peek(s, symbol(&p, "x"), 8), 7);
	ck_assert_uint_eq(sim_peek(s, symbol(&p, "y"), 8), 9);
	ck_assert_uint_eq(sim_peek(s, symbol(&p, "z"), 8), 200);
	ck_assert_uint_eq(sim_peek(s, symbol(&p, "w"), 8), PROG_CODE_BASE + 14);
	/* every instruction on the path once: 0-6, then 9-13, f and g's two, h */
	ck_assert_uint_eq(sim_core_stats(s, 0)->instructions, 7 + 5 + 2 + 2 + 1);
	sim_destroy(s);
	program_free(&p);
}
END_TEST

/* ds: is no segment in 64-bit code: GCC's QWORD PTR ds:N is address N. */
START_TEST(test_ds_absolute)
{
	struct program p;
	struct sim *s = run_src(".data\nx: .quad 42\ny: .quad 0\n.text\nmain:\n"
				"  mov rax, QWORD PTR ds:65600\n  mov rbx, QWORD PTR ds:[x]\n"
				"  mov QWORD PTR ds:65608, 7\n  hlt\n", &p);
	struct sim_core_view v;
	sim_core_view(s, 0, &v);
	ck_assert_uint_eq(symbol(&p, "x"), 65600); /* after __per_cpu_offset */
	ck_assert_uint_eq(v.regs[R_RAX], 42);
	ck_assert_uint_eq(v.regs[R_RBX], 42);
	ck_assert_uint_eq(sim_peek(s, symbol(&p, "y"), 8), 7);
	sim_destroy(s);
	program_free(&p);
}
END_TEST

/* local_irq_save (pushf; pop; cli) and local_irq_restore (push; popf). */
START_TEST(test_pushf_popf_carry_if)
{
	struct program p;
	struct sim *s = run_src(".data\nf1: .quad 0\nf2: .quad 0\n.text\nmain:\n"
				"  mov eax, 1\n  cmp eax, 2\n"          /* CF SF PF set, ZF OF clear */
				"  pushfq\n  pop rbx\n  cli\n  mov [f1], rbx\n"
				"  pushf\n  pop rcx\n  mov [f2], rcx\n"
				"  xor eax, eax\n"                      /* other flags, ZF set */
				"  push rbx\n  popf\n  hlt\n", &p);
	struct sim_core_view v;
	sim_core_view(s, 0, &v);
	ck_assert_uint_eq(sim_peek(s, symbol(&p, "f1"), 8), 0x2 | 0x1 | 0x4 | 0x80 | 0x200);
	ck_assert_uint_eq(sim_peek(s, symbol(&p, "f2"), 8), 0x2 | 0x1 | 0x4 | 0x80); /* IF off */
	ck_assert_int_eq(v.intr_enabled, 1);
	ck_assert_int_eq(v.cf, 1);
	ck_assert_int_eq(v.pf, 1);
	ck_assert_int_eq(v.sf, 1);
	ck_assert_int_eq(v.zf, 0);
	ck_assert_int_eq(v.of, 0);
	sim_destroy(s);
	program_free(&p);

	/* popf of a word with IF clear disables interrupts, as cli */
	s = run_src("main:\n  push rax\n  popfq\n  hlt\n", &p);
	sim_core_view(s, 0, &v);
	ck_assert_int_eq(v.intr_enabled, 0);
	sim_destroy(s);
	program_free(&p);
}
END_TEST

/* GCC's __atomic_thread_fence: a locked RMW on the stack's line, which
 * leaves the stack as it was. */
START_TEST(test_lock_or_rsp_fence)
{
	struct program p;
	struct sim *s = run_src(".data\n.align 64\nx: .quad 0\n.text\nmain:\n  mov qword ptr [x], 1\n"
				"  mov rax, 5\n  push rax\n  lock or QWORD PTR [rsp], 0\n  pop rbx\n  hlt\n",
				&p);
	struct sim_core_view v;
	sim_core_view(s, 0, &v);
	ck_assert_uint_eq(v.regs[R_RBX], 5);
	ck_assert_uint_eq(sim_core_stats(s, 0)->locked_ops, 1);
	sim_destroy(s);
	program_free(&p);

	/* GCC writes it in an entry with no frame too: rsp starts on the
	 * entry's return-address slot (0), 8 below the stack's top, with
	 * rsp + 8 16-byte aligned as the ABI enters a function */
	s = run_src("main:\n  mov rax, rsp\n  mov rbx, 7\n  mov rbx, [rsp]\n"
		    "  lock or QWORD PTR [rsp], 0\n  hlt\n", &p);
	sim_core_view(s, 0, &v);
	ck_assert_uint_eq(v.regs[R_RAX], p.stack_base + PROG_STACK_SIZE - 8);
	ck_assert_uint_eq((v.regs[R_RAX] + 8) % 16, 0);
	ck_assert_uint_eq(v.regs[R_RBX], 0);
	ck_assert_uint_eq(sim_core_stats(s, 0)->locked_ops, 1);
	sim_destroy(s);
	program_free(&p);
}
END_TEST

struct refusal {
	const char *src, *want;
};

static const struct refusal refusals[] = {
	{ "main:\n  cpuid\n", "t.s:2:3: unknown instruction 'cpuid'" },
	{ "main:\n  jcxz main\n", "t.s:2:3: unknown instruction 'jcxz'" },
	{ "main:\n  jne rax\n", "t.s:2:7: 'jne' needs a label but found 'rax'" },
	{ "main:\n  mov rax, QWORD PTR ds:\n", "t.s:2:25: expected an address after ds: but found end of line" },
	{ "main:\n  call eax\n", "t.s:2:8: 'call' through a register needs a 64-bit register" },
	{ "main:\n  jmp DWORD PTR [rax]\n", "t.s:2:7: 'jmp' through memory needs a QWORD operand" },
	{ "main:\n  call [QWORD PTR [rax]\n", "t.s:2:24: expected ']' but found end of line" },
	{ "main:\n  mov eax, main\n", "t.s:2:12: 'main' is a code label: write 'offset main' for its address" },
	{ "main:\n  mov eax, OFFSET main+1\n",
	  "t.s:2:19: 'main' is a code label: its address is taken alone, not computed with" },
	{ ".data\nx: .byte f\n.text\nf:\n  hlt\n", "t.s:2:10: 'f' is a code address, not a constant" },
	{ "main:\n  setx al\n", "t.s:2:3: unknown instruction 'setx'" },
	{ "main:\n  cmovnpe rax, rbx\n", "t.s:2:3: unknown instruction 'cmovnpe'" },
	{ "main:\n  lock bt qword ptr [rsp], 1\n", "t.s:2:8: 'lock' cannot prefix 'bt'" },
	{ "main:\n  lock mul qword ptr [rsp]\n", "t.s:2:8: 'lock' cannot prefix 'mul'" },
	{ "main:\n  imul al, bl\n", "t.s:2:8: 'imul' needs a 16-, 32- or 64-bit register destination" },
	{ "main:\n  imul rax, rbx, 0x80000000\n", "t.s:2:18: immediate 2147483648 does not fit in 32 bits" },
	{ "main:\n  shld rax, rbx, dl\n", "t.s:2:18: shift count must be an immediate or cl" },
	{ "main:\n  shld rax, 3, cl\n", "t.s:2:13: 'shld' needs a register source" },
	{ "main:\n  bt al, 1\n", "t.s:2:6: 'bt' has no 8-bit form" },
	{ "main:\n  sete eax\n", "t.s:2:8: 'sete' needs an 8-bit register or memory destination" },
	{ "main:\n  movabs eax, 1\n", "t.s:2:10: 'movabs' needs a 64-bit register destination" },
	{ "main:\n  mov al, [ah]\n", "t.s:2:12: address register ah must be 64-bit" },
	{ "main:\n  imul\n", "t.s:2:7: 'imul' takes 1 to 3 operands" },
	{ "main:\n  movzx rax, ah\n",
	  "t.s:2:14: ah, ch, dh and bh cannot be used where x86 needs a REX prefix "
	  "(a 64-bit operation, r8-r15, sil, dil, spl or bpl)" },
	{ "main:\n  mov sil, bh\n",
	  "t.s:2:12: ah, ch, dh and bh cannot be used where x86 needs a REX prefix "
	  "(a 64-bit operation, r8-r15, sil, dil, spl or bpl)" },
	{ "main:\n  mov byte ptr [r8], dh\n",
	  "t.s:2:22: ah, ch, dh and bh cannot be used where x86 needs a REX prefix "
	  "(a 64-bit operation, r8-r15, sil, dil, spl or bpl)" },
};

START_TEST(test_refused)
{
	const struct refusal *k = &refusals[_i];
	struct asm_input ai = { .nr_cpus = 1, .line_size = 64 };
	struct program p;
	struct err e;
	char msg[2048];
	err_clear(&e);
	ck_assert_int_ne(asm_assemble_string("t.s", k->src, &ai, &p, &e), 0);
	err_format(&e, msg, sizeof msg);
	ck_assert_str_eq(msg, k->want);
}
END_TEST

static Suite *isa_suite(void)
{
	Suite *s = suite_create("isa");
	TCase *tc = tcase_create("isa");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_differential, 0, (int)(sizeof cases / sizeof cases[0]));
	tcase_add_test(tc, test_ret_from_entry_ends_the_thread);
	tcase_add_test(tc, test_indirect_jumps_and_calls);
	tcase_add_test(tc, test_ds_absolute);
	tcase_add_test(tc, test_pushf_popf_carry_if);
	tcase_add_test(tc, test_lock_or_rsp_fence);
	tcase_add_loop_test(tc, test_refused, 0, (int)(sizeof refusals / sizeof refusals[0]));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(isa_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

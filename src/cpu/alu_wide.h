/* The x86 integer operations whose results are wider than a register or
 * that combine two (mul, imul, div, idiv, shld, shrd), as pure functions of
 * values at a width of 1, 2, 4 or 8 bytes; core.c applies them to the
 * registers and flags. Also the width helpers the core shares with them. */
#ifndef BOUNCE_ALU_WIDE_H
#define BOUNCE_ALU_WIDE_H

#include <stdint.h>

static inline __attribute__((always_inline)) uint64_t mask(unsigned size)
{
	return size >= 8 ? ~0ull : (1ull << (8 * size)) - 1;
}

static inline int64_t sext(uint64_t v, unsigned size)
{
	unsigned sh = 64 - 8 * size;
	return (int64_t)(v << sh) >> sh;
}

/* a * b (each below 2^(8 size)), signed for imul: the product's low and high
 * halves. Returns 1 when the product does not fit in the low half (CF, OF). */
int alu_mul(int sign, uint64_t a, uint64_t b, unsigned size, uint64_t *lo, uint64_t *hi);
/* hi:lo / d, signed for idiv, truncated toward zero. Returns -1, the
 * divide error, when d is 0 or the quotient does not fit in `size` bytes. */
int alu_div(int sign, uint64_t hi, uint64_t lo, uint64_t d, unsigned size, uint64_t *q, uint64_t *r);
/* shld (left) or shrd of a by n (1..31, or 1..63 at 8 bytes), the vacated
 * bits from src; *cf the last bit shifted out of a. A word shifted by more
 * than 16, which x86 leaves undefined, shifts through a:src:a. */
uint64_t alu_shift_double(int left, uint64_t a, uint64_t src, unsigned n, unsigned size, int *cf);

#endif

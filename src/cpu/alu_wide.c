/* Double-width multiplication and division and the double shifts, exact
 * at every width (alu_wide.h); 128-bit host arithmetic for the 64-bit ones. */
#include "config.h"
#include "cpu/alu_wide.h"

typedef __int128 i128;
typedef unsigned __int128 u128;

int alu_mul(int sign, uint64_t a, uint64_t b, unsigned size, uint64_t *lo, uint64_t *hi)
{
	unsigned bits = 8 * size;
	uint64_t m = mask(size);
	if (sign) {
		i128 p = (i128)sext(a, size) * sext(b, size);
		*lo = (uint64_t)p & m;
		*hi = (uint64_t)(p >> bits) & m;
		return p != (i128)sext(*lo, size);
	}
	u128 p = (u128)a * b;
	*lo = (uint64_t)p & m;
	*hi = (uint64_t)(p >> bits) & m;
	return *hi != 0;
}

int alu_div(int sign, uint64_t hi, uint64_t lo, uint64_t d, unsigned size, uint64_t *q, uint64_t *r)
{
	unsigned bits = 8 * size;
	uint64_t m = mask(size);
	u128 n = (u128)hi << bits | lo;
	if (d == 0)
		return -1;
	if (!sign) {
		u128 qq = n / d;
		if (qq > m)
			return -1;
		*q = (uint64_t)qq;
		*r = (uint64_t)(n % d);
		return 0;
	}
	/* the dividend, 2 size bytes, sign-extended to 128 bits */
	i128 sn = size < 8 ? (i128)sext((uint64_t)n, 2 * size) : (i128)n;
	i128 sd = sext(d, size);
	i128 min128 = (i128)((u128)1 << 127);
	if (sd == -1 && sn == min128)
		return -1;
	i128 qq = sn / sd, lim = (i128)1 << (bits - 1);
	if (qq < -lim || qq >= lim)
		return -1;
	*q = (uint64_t)qq & m;
	*r = (uint64_t)(sn % sd) & m;
	return 0;
}

uint64_t alu_shift_double(int left, uint64_t a, uint64_t src, unsigned n, unsigned size, int *cf)
{
	unsigned bits = 8 * size;
	if (size == 2) {
		uint64_t v = a << 32 | src << 16 | a;
		if (left) {
			*cf = (v >> (48 - n)) & 1;
			return (v >> (32 - n)) & 0xffff;
		}
		*cf = (v >> (n - 1)) & 1;
		return (v >> n) & 0xffff;
	}
	if (left) {
		*cf = (a >> (bits - n)) & 1;
		return (a << n | src >> (bits - n)) & mask(size);
	}
	*cf = (a >> (n - 1)) & 1;
	return (a >> n | src << (bits - n)) & mask(size);
}

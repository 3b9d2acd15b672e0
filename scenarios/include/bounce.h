/* bounce.h: the kernel's names for per-CPU data, atomics, locks and
 * interrupt control, for C workloads that bounce compiles and simulates.
 * Every compile finds it (no flag needed); docs/c-workloads.md says where
 * each differs from the kernel. Each operation compiles to the instruction
 * the kernel's x86 code uses, so the simulated traffic is the kernel's. */
#ifndef BOUNCE_H
#define BOUNCE_H

#ifndef __BOUNCE__
#error "bounce.h is for programs that bounce compiles: name the .c file in a scenario's \"program\""
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef int8_t s8;
typedef uint8_t u8;
typedef int16_t s16;
typedef uint16_t u16;
typedef int32_t s32;
typedef uint32_t u32;
typedef int64_t s64;
typedef uint64_t u64;

#define max(a, b) ((a) > (b) ? (a) : (b))
#define min(a, b) ((a) < (b) ? (a) : (b))
#define abs(x) ({ __typeof__(x) x_ = (x); x_ < 0 ? -x_ : x_; })

/* NR_CPUS is the simulated machine's core count, given to every compile
 * (-DNR_CPUS=N): a sweep over cores compiles each count once. Every CPU
 * is online and none is ever hot-plugged. */
#define nr_cpu_ids NR_CPUS
#define num_online_cpus() NR_CPUS
#define num_possible_cpus() NR_CPUS
#define for_each_online_cpu(cpu) for ((cpu) = 0; (cpu) < NR_CPUS; (cpu)++)
#define for_each_possible_cpu(cpu) for_each_online_cpu(cpu)

#define L1_CACHE_BYTES 64
#define SMP_CACHE_BYTES L1_CACHE_BYTES
#define ____cacheline_aligned __attribute__((aligned(SMP_CACHE_BYTES)))
#define ____cacheline_aligned_in_smp ____cacheline_aligned
#define __always_inline inline __attribute__((always_inline))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* The string functions a program calls, and that Clang calls for a large
 * struct copy or clear: lib/string.s defines them (list it in the
 * scenario's "program"); there is no other C library. */
void *memset(void *s, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);

/* ---- compiler and CPU barriers ---- */

#define barrier() __asm__ volatile("" ::: "memory")
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val) (*(volatile __typeof__(x) *)&(x) = (val))
/* x86 is TSO: only a store followed by a load needs a fence. The kernel
 * uses a locked add to the stack for it, cheaper than mfence. */
#define smp_mb() __asm__ volatile("lock add DWORD PTR [rsp-4], 0" ::: "memory", "cc")
#define smp_rmb() barrier()
#define smp_wmb() barrier()
#define smp_load_acquire(p) ({ __typeof__(*(p)) v_ = READ_ONCE(*(p)); barrier(); v_; })
#define smp_store_release(p, v) do { barrier(); WRITE_ONCE(*(p), (v)); } while (0)
#define cpu_relax() __asm__ volatile("pause" ::: "memory")

/* ---- bounce's own ---- */

/* One logical operation done (the throughput's unit), as `mark op`. */
#define bounce_op() __asm__ volatile("mark op" ::: "memory")
/* A named timeline marker, as `mark NAME`. */
#define bounce_mark(name) __asm__ volatile("mark " #name ::: "memory")
/* n cycles of computation without memory traffic, as `work n`. */
#define bounce_work(n) __asm__ volatile("work %0" :: "ri"((long)(n)))
/* The exact value kept beside an approximate counter at address p: add v
 * to it, or record that v was read where it stood (the read error). Zero
 * cycles, no traffic. */
#define bounce_ghost_add(p, v) __asm__ volatile("ghost_add [%0], %1" :: "r"(p), "r"((long)(v)) : "memory")
#define bounce_ghost_read(p, v) __asm__ volatile("ghost_read [%0], %1" :: "r"(p), "r"((long)(v)) : "memory")

/* ---- this CPU ---- */

/* CPU is the executing CPU's id as an immediate: no memory is read (the
 * kernel reads a per-CPU variable; threads never migrate here). */
static inline int smp_processor_id(void)
{
	int id;
	__asm__("mov %k0, CPU" : "=r"(id));
	return id;
}
#define raw_smp_processor_id() smp_processor_id()
#define get_cpu() ({ preempt_disable(); smp_processor_id(); })
#define put_cpu() preempt_enable()

/* ---- per-CPU data ----
 * A variable in section .percpu has one copy per CPU, each in its own
 * cache lines; its address is its offset in the section, as in the
 * kernel. this_cpu_* operations are single gs:-relative instructions
 * (so an interrupt cannot split them, and they are never locked). */

#define __percpu
#define DEFINE_PER_CPU(type, name) __attribute__((section(".percpu"))) __typeof__(type) name
#define DECLARE_PER_CPU(type, name) extern __attribute__((section(".percpu"))) __typeof__(type) name
#define DEFINE_PER_CPU_ALIGNED(type, name) DEFINE_PER_CPU(type, name) ____cacheline_aligned

/* Each CPU's offset from a per-CPU address to its copy (NR_CPUS entries,
 * made by the assembler). */
extern unsigned long __per_cpu_offset[];
#define per_cpu_offset(cpu) (__per_cpu_offset[(cpu)])
#define per_cpu_ptr(ptr, cpu) ((__typeof__(ptr))((unsigned long)(ptr) + per_cpu_offset(cpu)))
#define per_cpu(var, cpu) (*per_cpu_ptr(&(var), (cpu)))
#define this_cpu_ptr(ptr) per_cpu_ptr((ptr), smp_processor_id())
#define raw_cpu_ptr(ptr) this_cpu_ptr(ptr)

/* One instruction on this CPU's copy of pcp; the operand width follows
 * the variable's size (sizes other than 1, 2, 4, 8 do not compile). */
#define __pcp_rmw(op, pcp, val)                                                                  \
	do {                                                                                     \
		switch (sizeof(pcp)) {                                                           \
		case 1: __asm__ volatile(op " BYTE PTR gs:[%0], %b1" :: "r"(&(pcp)), "qi"((long)(val)) : "memory", "cc"); break; \
		case 2: __asm__ volatile(op " WORD PTR gs:[%0], %w1" :: "r"(&(pcp)), "ri"((long)(val)) : "memory", "cc"); break; \
		case 4: __asm__ volatile(op " DWORD PTR gs:[%0], %k1" :: "r"(&(pcp)), "ri"((long)(val)) : "memory", "cc"); break; \
		case 8: __asm__ volatile(op " QWORD PTR gs:[%0], %q1" :: "r"(&(pcp)), "re"((long)(val)) : "memory", "cc"); break; \
		default: __bounce_bad_percpu_size(); }                                           \
	} while (0)
extern void __bounce_bad_percpu_size(void) __attribute__((error("a this_cpu operation on a variable of size other than 1, 2, 4 or 8")));

#define this_cpu_read(pcp)                                                                       \
	({                                                                                       \
		unsigned long v_;                                                                \
		switch (sizeof(pcp)) {                                                           \
		case 1: __asm__ volatile("movzx %k0, BYTE PTR gs:[%1]" : "=r"(v_) : "r"(&(pcp)) : "memory"); break; \
		case 2: __asm__ volatile("movzx %k0, WORD PTR gs:[%1]" : "=r"(v_) : "r"(&(pcp)) : "memory"); break; \
		case 4: __asm__ volatile("mov %k0, DWORD PTR gs:[%1]" : "=r"(v_) : "r"(&(pcp)) : "memory"); break; \
		case 8: __asm__ volatile("mov %q0, QWORD PTR gs:[%1]" : "=r"(v_) : "r"(&(pcp)) : "memory"); break; \
		default: __bounce_bad_percpu_size(); v_ = 0; }                                   \
		(__typeof__(pcp))v_;                                                             \
	})
#define this_cpu_write(pcp, val)                                                                 \
	do {                                                                                     \
		switch (sizeof(pcp)) {                                                           \
		case 1: __asm__ volatile("mov BYTE PTR gs:[%0], %b1" :: "r"(&(pcp)), "qi"((long)(val)) : "memory"); break; \
		case 2: __asm__ volatile("mov WORD PTR gs:[%0], %w1" :: "r"(&(pcp)), "ri"((long)(val)) : "memory"); break; \
		case 4: __asm__ volatile("mov DWORD PTR gs:[%0], %k1" :: "r"(&(pcp)), "ri"((long)(val)) : "memory"); break; \
		case 8: __asm__ volatile("mov QWORD PTR gs:[%0], %q1" :: "r"(&(pcp)), "re"((long)(val)) : "memory"); break; \
		default: __bounce_bad_percpu_size(); }                                           \
	} while (0)
#define this_cpu_add(pcp, val) __pcp_rmw("add", pcp, val)
#define this_cpu_sub(pcp, val) __pcp_rmw("sub", pcp, val)
#define this_cpu_inc(pcp) this_cpu_add(pcp, 1)
#define this_cpu_dec(pcp) this_cpu_sub(pcp, 1)
#define this_cpu_and(pcp, val) __pcp_rmw("and", pcp, val)
#define this_cpu_or(pcp, val) __pcp_rmw("or", pcp, val)

/* cmpxchg without lock on this CPU's copy, as the kernel's
 * this_cpu_cmpxchg: atomic against interrupts on this CPU, which is all a
 * per-CPU variable needs. Returns the value found. */
#define this_cpu_cmpxchg(pcp, oval, nval)                                                       \
	({                                                                                       \
		unsigned long prev_ = (unsigned long)(oval);                                     \
		switch (sizeof(pcp)) {                                                           \
		case 4: __asm__ volatile("cmpxchg DWORD PTR gs:[%1], %k2" : "+a"(prev_) : "r"(&(pcp)), "r"((long)(nval)) : "memory", "cc"); prev_ = (uint32_t)prev_; break; \
		case 8: __asm__ volatile("cmpxchg QWORD PTR gs:[%1], %q2" : "+a"(prev_) : "r"(&(pcp)), "r"((long)(nval)) : "memory", "cc"); break; \
		default: __bounce_bad_percpu_size(); }                                           \
		(__typeof__(pcp))prev_;                                                          \
	})
/* true when *ovalp was found and replaced; else *ovalp becomes what was. */
#define this_cpu_try_cmpxchg(pcp, ovalp, nval)                                                  \
	({                                                                                       \
		__typeof__(pcp) o_ = *(ovalp);                                                   \
		__typeof__(pcp) p_ = this_cpu_cmpxchg(pcp, o_, nval);                            \
		if (p_ != o_)                                                                    \
			*(ovalp) = p_;                                                           \
		p_ == o_;                                                                        \
	})

/* __this_cpu_* and raw_cpu_* are this_cpu_*: they differ in the kernel
 * only in what they assume about preemption, and threads never migrate. */
#define __this_cpu_read this_cpu_read
#define __this_cpu_write this_cpu_write
#define __this_cpu_add this_cpu_add
#define __this_cpu_sub this_cpu_sub
#define __this_cpu_inc this_cpu_inc
#define __this_cpu_dec this_cpu_dec
#define __this_cpu_and this_cpu_and
#define __this_cpu_or this_cpu_or
#define __this_cpu_cmpxchg this_cpu_cmpxchg
#define __this_cpu_try_cmpxchg this_cpu_try_cmpxchg
#define raw_cpu_read this_cpu_read
#define raw_cpu_write this_cpu_write
#define raw_cpu_add this_cpu_add
#define raw_cpu_sub this_cpu_sub
#define raw_cpu_inc this_cpu_inc
#define raw_cpu_dec this_cpu_dec
#define raw_cpu_and this_cpu_and
#define raw_cpu_or this_cpu_or
#define raw_cpu_cmpxchg this_cpu_cmpxchg
#define raw_cpu_try_cmpxchg this_cpu_try_cmpxchg

/* ---- atomics (lock-prefixed, as the kernel's) ---- */

typedef struct { int counter; } atomic_t;
typedef struct { long counter; } atomic64_t;
typedef atomic64_t atomic_long_t;
#define ATOMIC_INIT(i) { (i) }

#define atomic_read(v) READ_ONCE((v)->counter)
#define atomic_set(v, i) WRITE_ONCE((v)->counter, (i))
#define atomic_add(i, v) ((void)__atomic_fetch_add(&(v)->counter, (i), __ATOMIC_RELAXED))
#define atomic_sub(i, v) ((void)__atomic_fetch_sub(&(v)->counter, (i), __ATOMIC_RELAXED))
#define atomic_inc(v) atomic_add(1, v)
#define atomic_dec(v) atomic_sub(1, v)
#define atomic_add_return(i, v) __atomic_add_fetch(&(v)->counter, (i), __ATOMIC_SEQ_CST)
#define atomic_sub_return(i, v) __atomic_sub_fetch(&(v)->counter, (i), __ATOMIC_SEQ_CST)
#define atomic_inc_return(v) atomic_add_return(1, v)
#define atomic_dec_return(v) atomic_sub_return(1, v)
#define atomic_fetch_add(i, v) __atomic_fetch_add(&(v)->counter, (i), __ATOMIC_SEQ_CST)
#define atomic_xchg(v, n) __atomic_exchange_n(&(v)->counter, (n), __ATOMIC_SEQ_CST)
#define atomic_dec_and_test(v) (atomic_dec_return(v) == 0)
/* The value found: equal to o when n was stored. */
#define atomic_cmpxchg(v, o, n)                                                                 \
	({                                                                                       \
		__typeof__((v)->counter) e_ = (o);                                               \
		__atomic_compare_exchange_n(&(v)->counter, &e_, (n), 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
		e_;                                                                              \
	})
#define atomic_try_cmpxchg(v, op, n)                                                            \
	__atomic_compare_exchange_n(&(v)->counter, (op), (n), 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)
/* atomic64_t and atomic_long_t (64-bit here, as on x86-64) take every
 * atomic_ operation: they share its counter field. */
#define atomic64_read atomic_read
#define atomic64_set atomic_set
#define atomic64_add atomic_add
#define atomic64_sub atomic_sub
#define atomic64_inc atomic_inc
#define atomic64_dec atomic_dec
#define atomic64_add_return atomic_add_return
#define atomic64_sub_return atomic_sub_return
#define atomic64_inc_return atomic_inc_return
#define atomic64_dec_return atomic_dec_return
#define atomic64_fetch_add atomic_fetch_add
#define atomic64_xchg atomic_xchg
#define atomic64_cmpxchg atomic_cmpxchg
#define atomic64_try_cmpxchg atomic_try_cmpxchg
#define atomic64_dec_and_test atomic_dec_and_test
#define atomic_long_read atomic_read
#define atomic_long_set atomic_set
#define atomic_long_add atomic_add
#define atomic_long_sub atomic_sub
#define atomic_long_inc atomic_inc
#define atomic_long_dec atomic_dec
#define atomic_long_add_return atomic_add_return
#define atomic_long_sub_return atomic_sub_return
#define atomic_long_inc_return atomic_inc_return
#define atomic_long_dec_return atomic_dec_return
#define atomic_long_fetch_add atomic_fetch_add
#define atomic_long_xchg atomic_xchg
#define atomic_long_cmpxchg atomic_cmpxchg
#define atomic_long_try_cmpxchg atomic_try_cmpxchg
#define atomic_long_dec_and_test atomic_dec_and_test
#define xchg(p, n) __atomic_exchange_n((p), (n), __ATOMIC_SEQ_CST)
#define cmpxchg(p, o, n)                                                                         \
	({                                                                                       \
		__typeof__(*(p)) e_ = (o);                                                       \
		__atomic_compare_exchange_n((p), &e_, (n), 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
		e_;                                                                              \
	})

/* ---- interrupts, softirqs, preemption ---- */

#define local_irq_disable() __asm__ volatile("cli" ::: "memory")
#define local_irq_enable() __asm__ volatile("sti" ::: "memory")
/* pushf/pop then cli, and push/popf to restore: the kernel's way, so a
 * nested save and restore leaves interrupts as they were. */
#define local_irq_save(flags) __asm__ volatile("pushfq\n\tpop %q0\n\tcli" : "=r"(flags) :: "memory")
#define local_irq_restore(flags) __asm__ volatile("push %q0\n\tpopfq" :: "r"(flags) : "memory", "cc")
#define local_bh_disable() __asm__ volatile("bh_disable" ::: "memory")
#define local_bh_enable() __asm__ volatile("bh_enable" ::: "memory")
#define preempt_disable() __asm__ volatile("preempt_disable" ::: "memory")
#define preempt_enable() __asm__ volatile("preempt_enable" ::: "memory")

/* ---- the queued spinlock of current kernels ----
 * kernel/locking/qspinlock.c (Linux 4.2 and later) as x86 builds it: the
 * lock word holds a locked byte, a pending byte and the tail of an MCS
 * queue (the last waiter's CPU and nesting level). A free lock is taken
 * with one cmpxchg; a second CPU sets the pending bit and spins on the
 * lock word; any more queue, each spinning on its own per-CPU node, so a
 * release moves one waiter's line instead of every waiter's. */

struct qnode {
	struct qnode *next;
	int locked;
	int count;   /* nodes in use on this CPU (in node 0 only) */
} ____cacheline_aligned;
#define BOUNCE_QNODES 4 /* task, softirq, hardirq, NMI: as the kernel */
DECLARE_PER_CPU(struct qnode, bounce_qnodes[BOUNCE_QNODES]);

typedef struct {
	union {
		uint32_t val;
		struct { uint8_t locked; uint8_t pending; };
		struct { uint16_t locked_pending; uint16_t tail; };
	};
} spinlock_t;
/* The kernel's raw_spinlock_t is the same queued lock on x86. */
typedef spinlock_t raw_spinlock_t;
#define __SPIN_LOCK_UNLOCKED(name) { { 0 } }
#define __RAW_SPIN_LOCK_UNLOCKED(name) __SPIN_LOCK_UNLOCKED(name)
#define DEFINE_SPINLOCK(name) spinlock_t name = __SPIN_LOCK_UNLOCKED(name)
#define spin_lock_init(l) WRITE_ONCE((l)->val, 0)

#define _Q_LOCKED_VAL 1u
#define _Q_LOCKED_MASK 0xffu
#define _Q_PENDING_OFFSET 8
#define _Q_PENDING_VAL (1u << _Q_PENDING_OFFSET)
#define _Q_PENDING_MASK 0xff00u
#define _Q_LOCKED_PENDING_MASK (_Q_LOCKED_MASK | _Q_PENDING_MASK)
#define _Q_TAIL_OFFSET 16
#define _Q_TAIL_MASK 0xffff0000u

void queued_spin_lock_slowpath(spinlock_t *lock, uint32_t val);

static inline int queued_spin_trylock(spinlock_t *lock)
{
	uint32_t val = READ_ONCE(lock->val);
	if (unlikely(val))
		return 0;
	return __atomic_compare_exchange_n(&lock->val, &val, _Q_LOCKED_VAL, 0, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}
static inline void spin_lock(spinlock_t *lock)
{
	uint32_t val = 0;
	if (likely(__atomic_compare_exchange_n(&lock->val, &val, _Q_LOCKED_VAL, 0, __ATOMIC_ACQUIRE,
					       __ATOMIC_RELAXED)))
		return;
	queued_spin_lock_slowpath(lock, val);
}
static inline void spin_unlock(spinlock_t *lock)
{
	smp_store_release(&lock->locked, 0);
}
#define spin_trylock(lock) queued_spin_trylock(lock)
#define spin_lock_irqsave(lock, flags) do { local_irq_save(flags); spin_lock(lock); } while (0)
#define spin_unlock_irqrestore(lock, flags) do { spin_unlock(lock); local_irq_restore(flags); } while (0)
#define spin_lock_bh(lock) do { local_bh_disable(); spin_lock(lock); } while (0)
#define spin_unlock_bh(lock) do { spin_unlock(lock); local_bh_enable(); } while (0)
#define spin_lock_irq(lock) do { local_irq_disable(); spin_lock(lock); } while (0)
#define spin_unlock_irq(lock) do { spin_unlock(lock); local_irq_enable(); } while (0)
#define raw_spin_lock(lock) spin_lock(lock)
#define raw_spin_unlock(lock) spin_unlock(lock)
#define raw_spin_lock_irqsave(lock, flags) spin_lock_irqsave(lock, flags)
#define raw_spin_unlock_irqrestore(lock, flags) spin_unlock_irqrestore(lock, flags)

/* The slow path's body, defined once in the program that includes
 * bounce.h with BOUNCE_QSPINLOCK_IMPL (the counter library's
 * scenarios/lib/qspinlock.c does), so that several C files may lock. */
#ifdef BOUNCE_QSPINLOCK_IMPL
DEFINE_PER_CPU(struct qnode, bounce_qnodes[BOUNCE_QNODES]);

static inline uint32_t encode_tail(int cpu, int idx)
{
	return (uint32_t)(((cpu + 1) << 2) | idx) << _Q_TAIL_OFFSET;
}

static inline struct qnode *decode_tail(uint32_t tail)
{
	uint32_t t = tail >> _Q_TAIL_OFFSET;
	return per_cpu_ptr(&bounce_qnodes[t & 3], (int)(t >> 2) - 1);
}

/* lock bts on the pending bit, as x86's queued_fetch_set_pending_acquire. */
static inline uint32_t queued_fetch_set_pending_acquire(spinlock_t *lock)
{
	uint8_t was;
	__asm__ volatile("lock bts DWORD PTR [%1], 8\n\tsetc %0" : "=q"(was) : "r"(&lock->val) : "memory", "cc");
	return (was ? _Q_PENDING_VAL : 0) | (READ_ONCE(lock->val) & ~_Q_PENDING_MASK);
}

void queued_spin_lock_slowpath(spinlock_t *lock, uint32_t val)
{
	struct qnode *prev, *next, *node;
	uint32_t old, tail;
	int idx;

	/* Wait for an in-progress pending->locked hand-over (one spin on x86). */
	if (val == _Q_PENDING_VAL) {
		int cnt = 1;
		while ((val = READ_ONCE(lock->val)) == _Q_PENDING_VAL && cnt--)
			cpu_relax();
	}
	/* If we observe any contention; queue. */
	if (val & ~_Q_LOCKED_MASK)
		goto queue;
	/* trylock || pending */
	val = queued_fetch_set_pending_acquire(lock);
	if (unlikely(val & ~_Q_LOCKED_MASK)) {
		/* Undo and queue: another CPU is pending or queued. */
		if (!(val & _Q_PENDING_MASK))
			WRITE_ONCE(lock->pending, 0);
		goto queue;
	}
	/* We're pending, wait for the owner to go away. */
	if (val & _Q_LOCKED_MASK)
		while (smp_load_acquire(&lock->locked))
			cpu_relax();
	/* Take ownership and clear the pending bit. */
	WRITE_ONCE(lock->locked_pending, _Q_LOCKED_VAL);
	return;

queue:
	node = this_cpu_ptr(&bounce_qnodes[0]);
	idx = node->count++;
	tail = encode_tail(smp_processor_id(), idx);
	node += idx;
	barrier();
	node->locked = 0;
	node->next = NULL;
	/* The node's line may have been cold: try once more for the lock. */
	if (queued_spin_trylock(lock))
		goto release;
	smp_wmb();
	/* Publish the updated tail (an xchg of the tail's 16 bits). */
	old = (uint32_t)__atomic_exchange_n(&lock->tail, (uint16_t)(tail >> _Q_TAIL_OFFSET), __ATOMIC_RELAXED)
	      << _Q_TAIL_OFFSET;
	next = NULL;
	/* A previous node: link in and wait to reach the head of the queue. */
	if (old & _Q_TAIL_MASK) {
		prev = decode_tail(old);
		WRITE_ONCE(prev->next, node);
		while (!smp_load_acquire(&node->locked))
			cpu_relax();
		next = READ_ONCE(node->next);
	}
	/* At the head: wait for the owner and the pending CPU to go away. */
	while ((val = smp_load_acquire(&lock->val)) & _Q_LOCKED_PENDING_MASK)
		cpu_relax();
	/* Claim the lock: alone in the queue, empty it in the same step. */
	if ((val & _Q_TAIL_MASK) == tail &&
	    __atomic_compare_exchange_n(&lock->val, &val, _Q_LOCKED_VAL, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		goto release;
	WRITE_ONCE(lock->locked, _Q_LOCKED_VAL);
	/* Contended: wait for the next waiter to link in, and pass it the head. */
	while (!next)
		next = READ_ONCE(node->next);
	smp_store_release(&next->locked, 1);
release:
	this_cpu_ptr(&bounce_qnodes[0])->count--;
}
#endif

#endif

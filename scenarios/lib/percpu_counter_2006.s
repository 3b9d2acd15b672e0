; percpu_counter as the seed's 2.6.16 kernel had it: include/linux/percpu_counter.h
; (struct, FBC_BATCH, percpu_counter_read) and mm/swap.c (percpu_counter_mod), plus
; patch 1/4's percpu_counter_mod_bh. Needs lib/spinlock.s (spin_lock: test-and-set).
;
; struct percpu_counter {		offset
;	spinlock_t lock;		0	(4 bytes, 4 of padding)
;	long count;			8	the global count: what percpu_counter_read sees
;	long *counters;			16	alloc_percpu(long): a .percpu symbol (its offset)
; };					24
; A scenario defines one in .data, e.g.
;	.align 64
;	tcp_memory_allocated: .long 0 / .long 0 / .quad 0 / .quad tcp_memory_allocated_pcpu
; (one directive a line) and `tcp_memory_allocated_pcpu: .quad 0` in .percpu. Each CPU's residue stays below FBC_BATCH in
; magnitude, so percpu_counter_read is off by less than FBC_BATCH * nr_cpus.

.equ FBC_LOCK, 0
.equ FBC_COUNT, 8
.equ FBC_COUNTERS, 16
.equ PERCPU_COUNTER_SIZE, 24

; 2.6.16: NR_CPUS >= 16 ? NR_CPUS*2 : NR_CPUS*4, from the compile-time NR_CPUS;
; 32 is the 8-way x460's value. Scenarios override it per core count.
.equ FBC_BATCH, 32

.text

; void percpu_counter_mod(struct percpu_counter *fbc, long amount)
percpu_counter_mod:
	preempt_disable				; int cpu = get_cpu();
	mov rcx, CPU
	mov rdx, qword ptr [rdi + FBC_COUNTERS]
	add rdx, qword ptr [__per_cpu_offset + rcx*8]	; pcount = per_cpu_ptr(fbc->counters, cpu);
	mov rax, qword ptr [rdx]
	add rax, rsi				; count = *pcount + amount;
	cmp rax, FBC_BATCH
	jge percpu_counter_mod_fold		; if (count >= FBC_BATCH ||
	mov rcx, FBC_BATCH
	neg rcx
	cmp rax, rcx
	jle percpu_counter_mod_fold		;     count <= -FBC_BATCH)
	; the load above and this store are separate instructions: a softirq that
	; runs between them and mods this counter has its update overwritten
	mov qword ptr [rdx], rax		; *pcount = count;
	ghost_add [rdi], rsi
	preempt_enable				; put_cpu();
	ret
percpu_counter_mod_fold:
	mov rcx, rax				; spin_lock clobbers rax only
	call spin_lock				; spin_lock(&fbc->lock);  (lock at offset 0)
	add qword ptr [rdi + FBC_COUNT], rcx	; fbc->count += count;
	mov qword ptr [rdx], 0			; *pcount = 0;
	ghost_add [rdi], rsi
	call spin_unlock			; spin_unlock(&fbc->lock);
	preempt_enable				; put_cpu();
	ret

; patch 1/4: safe from both softirq and process context
; void percpu_counter_mod_bh(struct percpu_counter *fbc, long amount)
percpu_counter_mod_bh:
	bh_disable				; local_bh_disable();
	call percpu_counter_mod
	bh_enable				; local_bh_enable();
	ret

; long percpu_counter_read(struct percpu_counter *fbc): the global count only
percpu_counter_read:
	mov rax, qword ptr [rdi + FBC_COUNT]
	ghost_read [rdi], rax
	ret

; long percpu_counter_sum_quiescent(struct percpu_counter *fbc): 2.6.17's exact
; percpu_counter_sum without the lock (the 2.6.16 series had none). Only for a
; final value, once every CPU is done: nothing can change the counters under it.
percpu_counter_sum_quiescent:
	mov rax, qword ptr [rdi + FBC_COUNT]
	mov rsi, qword ptr [rdi + FBC_COUNTERS]
	xor ecx, ecx
percpu_counter_sum_quiescent_cpu:		; for_each_possible_cpu(cpu)
	mov rdx, qword ptr [__per_cpu_offset + rcx*8]
	add rax, qword ptr [rdx + rsi]		;	ret += *per_cpu_ptr(fbc->counters, cpu);
	inc ecx
	cmp ecx, NR_CPUS
	jl percpu_counter_sum_quiescent_cpu
	ghost_read [rdi], rax
	ret

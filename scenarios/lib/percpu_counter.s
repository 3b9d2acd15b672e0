; percpu_counter as lib/percpu_counter.c has it since this_cpu operations
; (percpu_counter_add_batch, __percpu_counter_sum, __percpu_counter_compare) and
; include/linux/percpu_counter.h. Needs lib/qspinlock.s: raw_spinlock_t is the queued
; spinlock on x86 since Linux 4.2 (kernels before it took the same fold under the
; ticket lock of lib/spinlock.s).
;
; struct percpu_counter {		offset
;	raw_spinlock_t lock;		0	(4 bytes, 4 of padding)
;	s64 count;			8
;	s32 __percpu *counters;		16	a .percpu dword symbol (its offset)
; };					24	(no hotplug list: CPUs never go offline here)
; Same struct and routine names as lib/percpu_counter_2006.s: a program includes
; one or the other.
;
; Two forms of percpu_counter_add_batch, for two ranges of kernels:
; - percpu_counter_add_batch: preempt_disable, then one `add gs:[..]`
;   (this_cpu_add), the lock (irqsave) only on the fold. Kernels until Manfred
;   Spraul's "lib/percpu_counter: percpu_counter_add_batch() overflow/underflow"
;   (posted December 2022), which wraps the whole routine in
;   local_irq_save/restore instead (that form is not modelled here; it stays
;   the form of architectures without CONFIG_HAVE_CMPXCHG_LOCAL).
; - percpu_counter_add_batch_cmpxchg: a loop of this_cpu_try_cmpxchg (an
;   unlocked `cmpxchg gs:[..]`: a local cmpxchg, no lock prefix, safe against
;   interrupts because it is one instruction), the lock only on the fold, with
;   interrupts off. Mateusz Guzik's "percpu_counter: add a cmpxchg-based
;   _add_batch variant" (May 2024), applied for Linux 6.11: 6.11 and later on
;   architectures with CONFIG_HAVE_CMPXCHG_LOCAL, x86-64 among them.

.equ FBC_LOCK, 0
.equ FBC_COUNT, 8
.equ FBC_COUNTERS, 16
.equ PERCPU_COUNTER_SIZE, 24

; percpu_counter_batch = max(32, num_online_cpus() * 2): compute_batch_size()
; sets it at boot so that the fold (and its lock) gets rarer as CPUs are added.
.equ PERCPU_COUNTER_BATCH, max(32, NR_CPUS * 2)

.data
.align 8
percpu_counter_batch:
	.long PERCPU_COUNTER_BATCH

.text

; void percpu_counter_add_batch(struct percpu_counter *fbc, s64 amount, s32 batch)
percpu_counter_add_batch:
	preempt_disable
	mov rax, qword ptr [rdi + FBC_COUNTERS]
	movsxd rcx, dword ptr gs:[rax]		; count = __this_cpu_read(*fbc->counters)
	add rcx, rsi				;	+ amount;
	movsxd rdx, edx
	cmp rcx, rdx
	jge percpu_counter_add_batch_slow	; if (count >= batch ||
	neg rdx
	cmp rcx, rdx
	jle percpu_counter_add_batch_slow	;     count <= -batch)
	add dword ptr gs:[rax], esi		; this_cpu_add(*fbc->counters, amount);
	ghost_add [rdi], rsi
	preempt_enable
	ret
percpu_counter_add_batch_slow:
	mov r8, rax				; the lock clobbers rax, rcx, rdx
	mov r9, rcx
	cli					; raw_spin_lock_irqsave(&fbc->lock, flags);
	call queued_spin_lock
	add qword ptr [rdi + FBC_COUNT], r9	; fbc->count += count;
	sub r9, rsi
	sub dword ptr gs:[r8], r9d		; __this_cpu_sub(*fbc->counters, count - amount);
	ghost_add [rdi], rsi
	call queued_spin_unlock			; raw_spin_unlock_irqrestore(&fbc->lock, flags);
	sti					; (callers here always run with irqs on)
	preempt_enable
	ret

; void percpu_counter_add(struct percpu_counter *fbc, s64 amount)
percpu_counter_add:
	mov edx, dword ptr [percpu_counter_batch]
	jmp percpu_counter_add_batch

; void percpu_counter_add_batch(struct percpu_counter *fbc, s64 amount, s32 batch),
; the CONFIG_HAVE_CMPXCHG_LOCAL form (Linux 6.11 and later on x86-64)
percpu_counter_add_batch_cmpxchg:
	mov r8, qword ptr [rdi + FBC_COUNTERS]
	movsxd rdx, edx
	mov eax, dword ptr gs:[r8]		; count = this_cpu_read(*fbc->counters);
percpu_counter_add_batch_cmpxchg_try:		; do {
	movsxd rcx, eax
	add rcx, rsi
	cmp rcx, rdx
	jge percpu_counter_add_batch_cmpxchg_slow	;	if (unlikely(abs(count + amount) >= batch)) {...}
	mov r9, rdx
	neg r9
	cmp rcx, r9
	jle percpu_counter_add_batch_cmpxchg_slow
	cmpxchg dword ptr gs:[r8], ecx		; } while (!this_cpu_try_cmpxchg(*fbc->counters, &count, count + amount));
	jnz percpu_counter_add_batch_cmpxchg_try	; (a failed cmpxchg leaves the current value in eax: &count)
	ghost_add [rdi], rsi
	ret
percpu_counter_add_batch_cmpxchg_slow:
	cli					; raw_spin_lock_irqsave(&fbc->lock, flags);
	call queued_spin_lock			; (clobbers rax, rcx, rdx; r8 survives)
	; Note: by now we might have migrated to another CPU or the value might have changed.
	movsxd r9, dword ptr gs:[r8]		; count = __this_cpu_read(*fbc->counters);
	lea r10, [r9 + rsi]
	add qword ptr [rdi + FBC_COUNT], r10	; fbc->count += count + amount;
	sub dword ptr gs:[r8], r9d		; __this_cpu_sub(*fbc->counters, count);
	ghost_add [rdi], rsi
	call queued_spin_unlock			; raw_spin_unlock_irqrestore(&fbc->lock, flags);
	sti					; (callers here always run with irqs on)
	ret

; void percpu_counter_add(struct percpu_counter *fbc, s64 amount), cmpxchg form
percpu_counter_add_cmpxchg:
	mov edx, dword ptr [percpu_counter_batch]
	jmp percpu_counter_add_batch_cmpxchg

; s64 percpu_counter_read(struct percpu_counter *fbc): may be off by batch * nr_cpus
percpu_counter_read:
	mov rax, qword ptr [rdi + FBC_COUNT]
	ghost_read [rdi], rax
	ret

; s64 __percpu_counter_sum(struct percpu_counter *fbc): exact, under the lock
__percpu_counter_sum:
	cli					; raw_spin_lock_irqsave(&fbc->lock, flags);
	call queued_spin_lock
	mov r8, qword ptr [rdi + FBC_COUNT]	; ret = fbc->count;
	mov rsi, qword ptr [rdi + FBC_COUNTERS]
	xor ecx, ecx
__percpu_counter_sum_cpu:			; for_each_online_cpu(cpu) {
	mov rdx, qword ptr [__per_cpu_offset + rcx*8]
	movsxd rdx, dword ptr [rdx + rsi]	;	s32 *pcount = per_cpu_ptr(fbc->counters, cpu);
	add r8, rdx				;	ret += *pcount;
	inc ecx
	cmp ecx, NR_CPUS
	jl __percpu_counter_sum_cpu		; }
	call queued_spin_unlock			; raw_spin_unlock_irqrestore(&fbc->lock, flags);
	sti
	mov rax, r8
	ghost_read [rdi], rax
	ret

; s64 percpu_counter_sum(struct percpu_counter *fbc)
percpu_counter_sum:
	jmp __percpu_counter_sum

; int __percpu_counter_compare(struct percpu_counter *fbc, s64 rhs, s32 batch)
; returns 1, 0 or -1 in eax
__percpu_counter_compare:
	push rsi
	mov rax, qword ptr [rdi + FBC_COUNT]	; count = percpu_counter_read(fbc);
	ghost_read [rdi], rax
	; Check to see if rough count will be sufficient for comparison
	mov r10, rax
	sub r10, rsi
	jns __percpu_counter_compare_abs
	neg r10					; abs(count - rhs)
__percpu_counter_compare_abs:
	; batch * num_online_cpus(): the ISA has no imul, so shift-and-add over
	; the bits of NR_CPUS (log2(NR_CPUS) rounds instead of one imul)
	movsxd rdx, edx
	mov rcx, NR_CPUS
	xor r11d, r11d
__percpu_counter_compare_mul:
	test rcx, 1
	jz __percpu_counter_compare_mul_next
	add r11, rdx
__percpu_counter_compare_mul_next:
	shl rdx, 1
	shr rcx, 1
	jnz __percpu_counter_compare_mul
	cmp r10, r11
	jle __percpu_counter_compare_precise	; if (abs(count - rhs) > batch * num_online_cpus()) {
	pop rsi
	cmp rax, rsi
	jg __percpu_counter_compare_gt		;	return count > rhs ? 1 : -1;
	mov eax, -1
	ret
__percpu_counter_compare_precise:
	call __percpu_counter_sum		; Need to use precise count
	pop rsi
	cmp rax, rsi
	jg __percpu_counter_compare_gt
	jl __percpu_counter_compare_lt
	xor eax, eax
	ret
__percpu_counter_compare_gt:
	mov eax, 1
	ret
__percpu_counter_compare_lt:
	mov eax, -1
	ret

; int percpu_counter_compare(struct percpu_counter *fbc, s64 rhs)
percpu_counter_compare:
	mov edx, dword ptr [percpu_counter_batch]
	jmp __percpu_counter_compare

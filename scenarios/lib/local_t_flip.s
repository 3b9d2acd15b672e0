; The article's last proposal (LWN 2006, "The search for fast, scalable counters"):
; two local_t counters per CPU, a flag choosing the live one, and a global count.
; Updates behave like percpu_counter; an exact read flips the flag under the lock
; and folds the now-idle counters of every CPU. Needs lib/spinlock.s (spin_lock).
;
; struct local_t_flip {			offset
;	spinlock_t lock;		0
;	int flag;			4	index of the live counter
;	s64 count;			8	global count: the approximate read
;	local_t __percpu *counters;	16	.percpu: local_t lc[2] (16 bytes)
; };					24
; local_add is one `add gs:[..]`, as x86 local_t is: irq-safe, no lock prefix.
; Race the article leaves open: an updater that loaded the old flag just before a
; flip adds to the idle counter after the reader took it. The reader takes each
; idle counter with xchg, so that late add is never lost (the next exact read
; counts it) but this read misses it; the ghost read measures how often.

.equ LTF_LOCK, 0
.equ LTF_FLAG, 4
.equ LTF_COUNT, 8
.equ LTF_COUNTERS, 16
.equ LOCAL_T_FLIP_SIZE, 24
.equ LOCAL_T_FLIP_BATCH, 32

.text

; void local_t_flip_add(struct local_t_flip *c, s64 amount)
local_t_flip_add:
	preempt_disable
	mov eax, dword ptr [rdi + LTF_FLAG]		; idx = c->flag
	mov rdx, qword ptr [rdi + LTF_COUNTERS]
	lea rdx, [rdx + rax*8]				; &this_cpu(c->counters)[idx]
	mov rcx, qword ptr gs:[rdx]
	add rcx, rsi					; count = local_read() + amount
	cmp rcx, LOCAL_T_FLIP_BATCH
	jge local_t_flip_add_fold
	mov r8, LOCAL_T_FLIP_BATCH
	neg r8
	cmp rcx, r8
	jle local_t_flip_add_fold
	add qword ptr gs:[rdx], rsi			; local_add(amount, ..)
	ghost_add [rdi], rsi
	preempt_enable
	ret
local_t_flip_add_fold:
	call spin_lock					; the flag cannot flip under the lock
	mov eax, dword ptr [rdi + LTF_FLAG]
	mov rdx, qword ptr [rdi + LTF_COUNTERS]
	lea rdx, [rdx + rax*8]
	xor ecx, ecx
	xchg qword ptr gs:[rdx], rcx			; local_xchg(.., 0): the live residue
	add rcx, rsi
	add qword ptr [rdi + LTF_COUNT], rcx		; c->count += residue + amount
	ghost_add [rdi], rsi
	call spin_unlock
	preempt_enable
	ret

; s64 local_t_flip_read(struct local_t_flip *c): approximate, like percpu_counter_read
local_t_flip_read:
	mov rax, qword ptr [rdi + LTF_COUNT]
	ghost_read [rdi], rax
	ret

; s64 local_t_flip_read_exact(struct local_t_flip *c): exact at the flip
local_t_flip_read_exact:
	call spin_lock
	mov r9d, dword ptr [rdi + LTF_FLAG]
	mov eax, r9d
	xor eax, 1
	xchg dword ptr [rdi + LTF_FLAG], eax		; flip, visible before we read a counter
	mov r8, qword ptr [rdi + LTF_COUNT]
	mov rsi, qword ptr [rdi + LTF_COUNTERS]
	lea rsi, [rsi + r9*8]				; the counters that just went idle
	xor ecx, ecx
local_t_flip_read_exact_cpu:			; for_each_online_cpu(cpu)
	mov rdx, qword ptr [__per_cpu_offset + rcx*8]
	add rdx, rsi
	xor eax, eax
	xchg qword ptr [rdx], rax			;	take it, leave 0 for its next turn
	add r8, rax
	inc ecx
	cmp ecx, NR_CPUS
	jl local_t_flip_read_exact_cpu
	mov qword ptr [rdi + LTF_COUNT], r8
	call spin_unlock
	mov rax, r8
	ghost_read [rdi], rax
	ret

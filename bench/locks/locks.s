; Waiting cores: every CPU takes one lock NR_TAKES times around a shared
; increment (LOCK 0 the test-and-set lock, 1 the ticket lock of
; lib/spinlock.s, 2 the queued spinlock of lib/qspinlock.s); or (3) CPU 0
; writes a seqlock-protected counter NR_TAKES times while the others read
; each version they see and wait for the next; or (4) every CPU meets the
; others at a sense-reversing barrier NR_TAKES times. Waiters spin on a
; read of a line they share: what fast-forward parks.
; Program: lib/spinlock.s, lib/qspinlock.s, then this file.

.equ LOCK, 0
.equ NR_TAKES, 8

.data
.align 64
the_lock:
	.quad 0
.align 64
shared:
	.quad 0
.align 64
seq:
	.quad 0
.align 64
bar_count:
	.quad 0
.align 64
bar_sense:
	.quad 0

.text
lock_take:
	mov eax, LOCK
	cmp eax, 1
	jl spin_lock
	je ticket_spin_lock
	jmp queued_spin_lock

lock_give:
	mov eax, LOCK
	cmp eax, 1
	jl spin_unlock
	je ticket_spin_unlock
	jmp queued_spin_unlock

worker:
	mov eax, LOCK
	cmp eax, 3
	jl lock_worker
	je seq_worker
	jmp bar_worker

lock_worker:
	mov rbx, NR_TAKES
worker_again:
	mov rdi, offset the_lock
	call lock_take
	inc qword ptr [shared]
	mov rdi, offset the_lock
	call lock_give
	dec rbx
	jnz worker_again
	hlt

seq_worker:
	mov eax, CPU
	test eax, eax
	jnz seq_reader
	mov rbx, NR_TAKES
seq_write:
	work 2000
	inc qword ptr [seq]			; odd: a write is under way
	inc qword ptr [shared]
	inc qword ptr [seq]			; even again
	dec rbx
	jnz seq_write
	hlt
seq_reader:
	mov rax, qword ptr [seq]
	test rax, 1
	jnz seq_retry
	mov rcx, qword ptr [shared]
	cmp rax, qword ptr [seq]
	jne seq_retry
	cmp rax, 2 * NR_TAKES
	jae seq_done
seq_wait:					; the next version
	pause
	cmp rax, qword ptr [seq]
	je seq_wait
	jmp seq_reader
seq_retry:
	pause
	jmp seq_reader
seq_done:
	hlt

bar_worker:
	mov rbx, NR_TAKES
	xor r12d, r12d				; this CPU's sense
bar_again:
	work 100
	xor r12, 1
	mov eax, 1
	lock xadd dword ptr [bar_count], eax
	cmp eax, NR_CPUS - 1
	jne bar_wait
	mov dword ptr [bar_count], 0		; the last one in releases the others
	mov qword ptr [bar_sense], r12
	jmp bar_next
bar_wait:
	pause
	cmp qword ptr [bar_sense], r12
	jne bar_wait
bar_next:
	dec rbx
	jnz bar_again
	hlt

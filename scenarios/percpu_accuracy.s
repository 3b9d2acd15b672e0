; The article's accuracy argument: every CPU only increments, so percpu_counter_read
; (fbc->count) lags the true count by the residues not yet folded, up to
; nr_cpus * (FBC_BATCH - 1), and FBC_BATCH itself grows with NR_CPUS.
; Program: lib/spinlock.s, lib/percpu_counter_2006.s, then this file. Thread `worker`.

.include "lib/harness.s"

; percpu_counter_inc per CPU: at least 2 folds at any FBC_BATCH; where 1000 is
; not enough, 3 x FBC_BATCH - 1 also leaves each CPU the largest residue the
; batch allows, one add short of its third fold
.equ NR_UPDATES, max(1000, 3 * FBC_BATCH - 1)
.equ READ_EVERY, 16		; a power of two: percpu_counter_read every this many
.equ UPDATE_WORK, 100

.data
.align 64
fbc:					; struct percpu_counter
	.long 0
	.long 0
	.quad 0
	.quad fbc_pcpu
.align 64
final_count:				; exact: count + every residue, all CPUs done
	.quad 0
final_read:				; percpu_counter_read at the same instant
	.quad 0
final_read_error:			; final_count - final_read = sum of residues
	.quad 0
count_lost:				; NR_CPUS * NR_UPDATES - final_count: must be 0
	.quad 0

.percpu
.align 64
fbc_pcpu:
	.quad 0

.text

worker:
	xor r12d, r12d
worker_update:
	work UPDATE_WORK
	mark op
	mov rdi, offset fbc
	mov rsi, 1
	call percpu_counter_mod			; percpu_counter_inc(&fbc)
	test r12, READ_EVERY - 1
	jnz worker_next
	mov rdi, offset fbc
	call percpu_counter_read
worker_next:
	inc r12
	cmp r12, NR_UPDATES
	jl worker_update
	call thread_finish			; CPU 0 goes on once every CPU is done
	mov rdi, offset fbc
	call percpu_counter_sum_quiescent
	mov qword ptr [final_count], rax
	mov rbx, rax
	mov rdi, offset fbc
	call percpu_counter_read
	mov qword ptr [final_read], rax
	mov rcx, rbx
	sub rcx, rax
	mov qword ptr [final_read_error], rcx
	mov rcx, NR_CPUS * NR_UPDATES
	sub rcx, rbx
	mov qword ptr [count_lost], rcx
	hlt

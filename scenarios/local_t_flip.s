; The article's local_t flip: updaters on every CPU but 0, a reader on CPU 0 that
; reads the counter every READ_GAP cycles, approximately (the global count) or
; exactly (flip the flag, fold every CPU's idle counter under the lock); beside
; it current kernels' percpu_counter_read / percpu_counter_sum for the same job.
; Program: lib/spinlock.s, lib/qspinlock.s, lib/percpu_counter.s, lib/local_t_flip.s, then this file.
; Threads: `updater` on CPUs 1.., `reader` on CPU 0.

.include "lib/harness.s"

.equ READ_KIND, 0		; 0 flip approximate, 1 flip exact, 2 percpu_counter_read, 3 percpu_counter_sum
; per updater: at least 4 of percpu_counter's batches, max(32, 2 x NR_CPUS), so that
; every updater folds several times at any core count (2000 up to 250 cores)
.equ NR_UPDATES, max(2000, 4 * PERCPU_COUNTER_BATCH)
.equ NR_READS, 200
.equ UPDATE_WORK, 200
.equ READ_GAP, 2000

.data
.align 64
ltf:					; struct local_t_flip
	.long 0				; lock
	.long 0				; flag
	.quad 0				; count
	.quad ltf_pcpu			; counters
.align 64
fbc:					; struct percpu_counter
	.long 0
	.long 0
	.quad 0
	.quad fbc_pcpu
.align 64
final_count:
	.quad 0
count_lost:				; (NR_CPUS - 1) * NR_UPDATES - final_count: must be 0
	.quad 0

.percpu
.align 64
ltf_pcpu:				; local_t lc[2]
	.quad 0
	.quad 0
.align 64
fbc_pcpu:
	.long 0

.text

counter_update:
	mov eax, READ_KIND
	cmp eax, 2
	jge counter_update_fbc
	mov rdi, offset ltf
	mov rsi, 1
	jmp local_t_flip_add
counter_update_fbc:
	mov rdi, offset fbc
	mov rsi, 1
	jmp percpu_counter_add

counter_read:
	mov eax, READ_KIND
	cmp eax, 1
	jl counter_read_flip
	je counter_read_flip_exact
	mov rdi, offset fbc
	cmp eax, 2
	je percpu_counter_read
	jmp percpu_counter_sum
counter_read_flip:
	mov rdi, offset ltf
	jmp local_t_flip_read
counter_read_flip_exact:
	mov rdi, offset ltf
	jmp local_t_flip_read_exact

; the design's exact read, for the final value
counter_read_exact:
	mov eax, READ_KIND
	cmp eax, 2
	jge counter_read_exact_fbc
	mov rdi, offset ltf
	jmp local_t_flip_read_exact
counter_read_exact_fbc:
	mov rdi, offset fbc
	jmp percpu_counter_sum

updater:
	mov r12, NR_UPDATES
updater_loop:
	work UPDATE_WORK
	mark op
	call counter_update
	dec r12
	jnz updater_loop
	call thread_done
	hlt

reader:
	mov r12, NR_READS
reader_loop:
	work READ_GAP
	mark read
	call counter_read
	mark read_done
	dec r12
	jnz reader_loop
	mov rdi, NR_CPUS - 1
	call wait_threads_done
	call counter_read_exact
	mov qword ptr [final_count], rax
	mov rcx, (NR_CPUS - 1) * NR_UPDATES
	sub rcx, rax
	mov qword ptr [count_lost], rcx
	hlt

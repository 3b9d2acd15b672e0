; One counter, each design, the same work: every CPU adds 1 NR_UPDATES times with
; UPDATE_WORK cycles between, reading the counter's cheap read every READ_EVERY.
; Meant for `bounce sweep scaling.json --set cores=1,2,4,...,1024`.
; Program: lib/spinlock.s, lib/qspinlock.s, lib/atomic.s, lib/percpu_counter.s, lib/percpu_int.s,
; lib/counter_tree.s, lib/longadder.s, lib/local_t_flip.s, then this file.

.include "lib/harness.s"

; 0 atomic_t, 1 percpu_counter, 2 alloc_percpu int, 3 counter tree, 4 LongAdder, 5 local_t flip
.equ DESIGN, 0
; Every CPU makes 4 cheap reads, one per READ_EVERY adds, and enough adds to fold
; percpu_counter's batch, max(32, 2 x NR_CPUS), at least 4 times at any core
; count: 256 adds up to 32 cores (8 folds up to 16), 8 x NR_CPUS from 32 on.
.equ READ_EVERY, max(64, PERCPU_COUNTER_BATCH)
.equ NR_UPDATES, 4 * READ_EVERY
.equ UPDATE_WORK, 200
; percpu_counter's add: 0 the preempt_disable form, 1 the this_cpu_try_cmpxchg
; form (lib/percpu_counter.s says which kernels each matches)
.equ FBC_CMPXCHG, 0

.data
.align 64
counter_atomic:				; atomic_t
	.long 0
.align 64
counter_fbc:				; struct percpu_counter
	.long 0
	.long 0
	.quad 0
	.quad counter_fbc_pcpu
.align 64
counter_tree:				; struct counter_tree
	.quad 0
	.quad counter_tree_leaf
	.quad counter_tree_nodes
.align 64
counter_tree_nodes:			; a line per group; NR_CPUS lines covers any CT_GROUP_SHIFT
	.space NR_CPUS * 64
.align 64
counter_longadder:			; struct longadder
	.space LONGADDER_SIZE
.align 64
counter_ltf:				; struct local_t_flip
	.long 0
	.long 0
	.quad 0
	.quad counter_ltf_pcpu
.align 64
final_count:
	.quad 0
count_lost:				; NR_CPUS * NR_UPDATES - final_count: must be 0
	.quad 0

.percpu
.align 64
counter_fbc_pcpu:
	.long 0
.align 64
counter_pcpu_int:
	.long 0
.align 64
counter_tree_leaf:
	.long 0
.align 64
counter_ltf_pcpu:
	.quad 0
	.quad 0

.text

counter_inc:
	mov eax, DESIGN
	cmp eax, 1
	jl counter_inc_atomic
	je counter_inc_fbc
	cmp eax, 3
	jl counter_inc_pcpu_int
	je counter_inc_tree
	cmp eax, 4
	je counter_inc_longadder
	mov rdi, offset counter_ltf
	mov rsi, 1
	jmp local_t_flip_add
counter_inc_atomic:
	mov rdi, offset counter_atomic
	jmp atomic_inc
counter_inc_fbc:
	mov rdi, offset counter_fbc
	mov rsi, 1
	mov eax, FBC_CMPXCHG
	test eax, eax
	jnz percpu_counter_add_cmpxchg
	jmp percpu_counter_add
counter_inc_pcpu_int:
	mov rdi, offset counter_pcpu_int
	jmp inc_sockets_allocated
counter_inc_tree:
	mov rdi, offset counter_tree
	mov rsi, 1
	jmp counter_tree_add
counter_inc_longadder:
	mov rdi, offset counter_longadder
	mov rsi, 1
	jmp longadder_add

; the cheapest read each design offers (approximate where it has one)
counter_read:
	mov eax, DESIGN
	cmp eax, 1
	jl counter_read_atomic
	je counter_read_fbc
	cmp eax, 3
	jl counter_read_pcpu_int
	je counter_read_tree
	cmp eax, 4
	je counter_read_longadder
	mov rdi, offset counter_ltf
	jmp local_t_flip_read
counter_read_atomic:
	mov rdi, offset counter_atomic
	jmp atomic_read
counter_read_fbc:
	mov rdi, offset counter_fbc
	jmp percpu_counter_read
counter_read_pcpu_int:
	mov rdi, offset counter_pcpu_int
	jmp read_sockets_allocated
counter_read_tree:
	mov rdi, offset counter_tree
	jmp counter_tree_read
counter_read_longadder:
	mov rdi, offset counter_longadder
	jmp longadder_sum

; the exact read, for the final value
counter_sum:
	mov eax, DESIGN
	cmp eax, 1
	je counter_sum_fbc
	cmp eax, 3
	je counter_sum_tree
	cmp eax, 5
	je counter_sum_ltf
	jmp counter_read			; atomic, per-CPU int and LongAdder reads are exact
counter_sum_fbc:
	mov rdi, offset counter_fbc
	jmp percpu_counter_sum
counter_sum_tree:
	mov rdi, offset counter_tree
	jmp counter_tree_sum
counter_sum_ltf:
	mov rdi, offset counter_ltf
	jmp local_t_flip_read_exact

worker:
	xor r12d, r12d
	mov r13, 1				; adds left until the next read
worker_update:
	work UPDATE_WORK
	mark op
	call counter_inc
	dec r13
	jnz worker_next
	mov r13, READ_EVERY
	call counter_read
worker_next:
	inc r12
	cmp r12, NR_UPDATES
	jl worker_update
	call thread_finish			; CPU 0 goes on once every CPU is done
	call counter_sum
	mov qword ptr [final_count], rax
	mov rcx, NR_CPUS * NR_UPDATES
	sub rcx, rax
	mov qword ptr [count_lost], rcx
	hlt

; Why patch 1/4 added percpu_counter_mod_bh: 2.6.16's percpu_counter_mod loads
; the per-CPU count and stores it back two instructions later; a softirq (net_rx)
; that runs in between and changes the same counter is overwritten. Process
; context here calls percpu_counter_mod_bh (USE_BH 1) or percpu_counter_mod (0).
; Program: lib/spinlock.s, lib/percpu_counter_2006.s, then this file.
; Thread `worker` on every CPU, soft interrupt handler `net_rx_action`.

.include "lib/harness.s"

.equ USE_BH, 1
.equ NR_UPDATES, 20000
.equ UPDATE_WORK, 20

.data
.align 64
fbc:					; struct percpu_counter
	.long 0
	.long 0
	.quad 0
	.quad fbc_pcpu
.align 64
final_count:				; count + every residue, all CPUs done
	.quad 0
expected_count:				; NR_CPUS * NR_UPDATES + nr_softirq_updates
	.quad 0
lost_updates:				; expected_count - final_count
	.quad 0

.percpu
.align 64
fbc_pcpu:
	.quad 0
.align 64
nr_softirq_updates:			; how many times this CPU's softirq added 1
	.quad 0

.text

; softirq context: bh is already off, so the plain mod is right here
net_rx_action:
	mov rdi, offset fbc
	mov rsi, 1
	call percpu_counter_mod
	; per CPU and only touched here: a shared atomic would cost the handler
	; a bounce each time and, every 300 cycles, starve the process context
	add qword ptr gs:[nr_softirq_updates], 1
	ret

worker:
	mov r12, NR_UPDATES
worker_loop:
	work UPDATE_WORK
	mark op
	mov rdi, offset fbc
	mov rsi, 1
	mov eax, USE_BH
	test eax, eax
	jz worker_mod
	call percpu_counter_mod_bh
	jmp worker_next
worker_mod:
	call percpu_counter_mod
worker_next:
	dec r12
	jnz worker_loop
	bh_disable				; no softirq may change fbc after we report done
	call thread_finish			; CPU 0 goes on once every CPU is done
	mov rdi, offset fbc
	call percpu_counter_sum_quiescent
	mov qword ptr [final_count], rax
	mov rcx, NR_CPUS * NR_UPDATES
	xor esi, esi
worker_softirqs:
	mov rdx, qword ptr [__per_cpu_offset + rsi*8]
	add rcx, qword ptr [rdx + nr_softirq_updates]
	inc esi
	cmp esi, NR_CPUS
	jl worker_softirqs
	mov qword ptr [expected_count], rcx
	sub rcx, rax
	mov qword ptr [lost_updates], rcx
	hlt

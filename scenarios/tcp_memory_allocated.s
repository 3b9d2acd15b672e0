; The seed's headline: struct proto.memory_allocated as TCP used it, net/core/stream.c
; sk_stream_mem_schedule / __sk_stream_mem_reclaim before (atomic_t) and after
; (percpu_counter, patch 2/4) the series. Each CPU sends on its own socket.
; Program: lib/spinlock.s, lib/atomic.s, lib/percpu_counter_2006.s, then this file.
; Thread `worker`: rdi = segments to send on this CPU.

.include "lib/harness.s"

.equ USE_PERCPU, 1		; 0: atomic_t (before the patch), 1: percpu_counter
; pages charged before the ACK reclaims them: at least twice percpu_counter's
; FBC_BATCH, so that every CPU folds at least twice per burst at any batch
; (a burst below the batch would never fold, and the read would be off by it all)
.equ SEGS_PER_BURST, max(64, 2 * FBC_BATCH)
.equ SEG_SIZE, 4096		; bytes per sendmsg: one SK_STREAM_MEM_QUANTUM
.equ PROTO_WORK, 2000		; cycles of TCP/IP processing per segment
.equ ACK_WORK, 1000		; cycles of ACK processing before the reclaim

.equ SK_STREAM_MEM_QUANTUM, 4096
.equ SK_STREAM_MEM_QUANTUM_SHIFT, 12
; struct sock, the fields used here
.equ SK_FORWARD_ALLOC, 0
.equ SK_WMEM_QUEUED, 4

.data
.align 64
; Before the patch `atomic_t tcp_memory_allocated`, after it `struct percpu_counter
; tcp_memory_allocated`: both declarations start here (the atomic_t is the
; first dword) so that reports name one symbol; a variant uses only one of them.
tcp_memory_allocated:
tcp_memory_allocated_atomic:
	.long 0				; lock, or atomic_t counter
	.long 0
	.quad 0				; count
	.quad tcp_memory_allocated_pcpu	; counters
.align 64
sysctl_tcp_mem:				; int sysctl_tcp_mem[3] __read_mostly, in pages
	.long 196608			; [0] no pressure below
	.long 262144			; [1] pressure above
	.long 393216			; [2] hard limit
.align 64
tcp_memory_pressure:			; int tcp_memory_pressure
	.long 0
.align 64
final_memory_allocated:			; exact value once every CPU is done
	.quad 0

.percpu
.align 64
tcp_memory_allocated_pcpu:		; alloc_percpu(long)
	.quad 0
.align 64
tcp_sock:				; this CPU's socket
	.long 0				; sk_forward_alloc
	.long 0				; sk_wmem_queued

.text

; void tcp_enter_memory_pressure(void)
tcp_enter_memory_pressure:
	cmp dword ptr [tcp_memory_pressure], 0
	jne tcp_enter_memory_pressure_out
	mov dword ptr [tcp_memory_pressure], 1
tcp_enter_memory_pressure_out:
	ret

; int sk_stream_mem_schedule(struct sock *sk, int size, int kind), after patch 2/4
sk_stream_mem_schedule:
	push rbx
	push r12
	mov rbx, rdi
	add esi, SK_STREAM_MEM_QUANTUM - 1
	shr esi, SK_STREAM_MEM_QUANTUM_SHIFT
	mov r12d, esi				; int amt = sk_stream_pages(size);
	shl esi, SK_STREAM_MEM_QUANTUM_SHIFT
	add dword ptr [rbx + SK_FORWARD_ALLOC], esi	; sk->sk_forward_alloc += amt * QUANTUM;
	mov rdi, offset tcp_memory_allocated
	mov rsi, r12
	call percpu_counter_mod_bh		; percpu_counter_mod_bh(memory_allocated, amt);
	mov rdi, offset tcp_memory_allocated
	call percpu_counter_read		; Under limit.
	movsxd rcx, dword ptr [sysctl_tcp_mem]
	cmp rax, rcx
	jge sk_stream_mem_schedule_limit
	cmp dword ptr [tcp_memory_pressure], 0
	je sk_stream_mem_schedule_ok
	mov dword ptr [tcp_memory_pressure], 0
	jmp sk_stream_mem_schedule_ok
sk_stream_mem_schedule_limit:
	mov rdi, offset tcp_memory_allocated
	call percpu_counter_read		; Over hard limit.
	movsxd rcx, dword ptr [sysctl_tcp_mem + 8]
	cmp rax, rcx
	jle sk_stream_mem_schedule_soft
	call tcp_enter_memory_pressure
	; suppress_allocation: Alas. Undo changes.
	mov esi, r12d
	shl esi, SK_STREAM_MEM_QUANTUM_SHIFT
	sub dword ptr [rbx + SK_FORWARD_ALLOC], esi
	mov rdi, offset tcp_memory_allocated
	mov rsi, r12
	neg rsi
	call percpu_counter_mod_bh		; percpu_counter_mod_bh(memory_allocated, -amt);
	xor eax, eax
	pop r12
	pop rbx
	ret
sk_stream_mem_schedule_soft:
	mov rdi, offset tcp_memory_allocated
	call percpu_counter_read		; Under pressure.
	movsxd rcx, dword ptr [sysctl_tcp_mem + 4]
	cmp rax, rcx
	jle sk_stream_mem_schedule_ok
	call tcp_enter_memory_pressure
sk_stream_mem_schedule_ok:			; (small sk_wmem_queued: the send goes ahead)
	mov eax, 1
	pop r12
	pop rbx
	ret

; void __sk_stream_mem_reclaim(struct sock *sk), after patch 2/4
__sk_stream_mem_reclaim:
	push rbx
	mov rbx, rdi
	mov esi, dword ptr [rbx + SK_FORWARD_ALLOC]
	cmp esi, SK_STREAM_MEM_QUANTUM
	jl __sk_stream_mem_reclaim_out		; if (sk->sk_forward_alloc >= QUANTUM) {
	shr esi, SK_STREAM_MEM_QUANTUM_SHIFT
	neg rsi
	mov rdi, offset tcp_memory_allocated
	call percpu_counter_mod_bh		;	percpu_counter_mod_bh(.., -(fwd / QUANTUM));
	and dword ptr [rbx + SK_FORWARD_ALLOC], SK_STREAM_MEM_QUANTUM - 1
	cmp dword ptr [tcp_memory_pressure], 0
	je __sk_stream_mem_reclaim_out
	mov rdi, offset tcp_memory_allocated
	call percpu_counter_read
	movsxd rcx, dword ptr [sysctl_tcp_mem]
	cmp rax, rcx
	jge __sk_stream_mem_reclaim_out
	mov dword ptr [tcp_memory_pressure], 0
__sk_stream_mem_reclaim_out:
	pop rbx
	ret

; The same two functions before the series: atomic_t memory_allocated.
sk_stream_mem_schedule_atomic:
	push rbx
	push r12
	mov rbx, rdi
	add esi, SK_STREAM_MEM_QUANTUM - 1
	shr esi, SK_STREAM_MEM_QUANTUM_SHIFT
	mov r12d, esi
	shl esi, SK_STREAM_MEM_QUANTUM_SHIFT
	add dword ptr [rbx + SK_FORWARD_ALLOC], esi
	mov edi, r12d
	mov rsi, offset tcp_memory_allocated_atomic
	call atomic_add				; atomic_add(amt, memory_allocated);
	mov rdi, offset tcp_memory_allocated_atomic
	call atomic_read			; Under limit.
	movsxd rcx, dword ptr [sysctl_tcp_mem]
	cmp rax, rcx
	jge sk_stream_mem_schedule_atomic_limit
	cmp dword ptr [tcp_memory_pressure], 0
	je sk_stream_mem_schedule_atomic_ok
	mov dword ptr [tcp_memory_pressure], 0
	jmp sk_stream_mem_schedule_atomic_ok
sk_stream_mem_schedule_atomic_limit:
	mov rdi, offset tcp_memory_allocated_atomic
	call atomic_read			; Over hard limit.
	movsxd rcx, dword ptr [sysctl_tcp_mem + 8]
	cmp rax, rcx
	jle sk_stream_mem_schedule_atomic_soft
	call tcp_enter_memory_pressure
	mov esi, r12d
	shl esi, SK_STREAM_MEM_QUANTUM_SHIFT
	sub dword ptr [rbx + SK_FORWARD_ALLOC], esi
	mov edi, r12d
	mov rsi, offset tcp_memory_allocated_atomic
	call atomic_sub				; atomic_sub(amt, memory_allocated);
	xor eax, eax
	pop r12
	pop rbx
	ret
sk_stream_mem_schedule_atomic_soft:
	mov rdi, offset tcp_memory_allocated_atomic
	call atomic_read			; Under pressure.
	movsxd rcx, dword ptr [sysctl_tcp_mem + 4]
	cmp rax, rcx
	jle sk_stream_mem_schedule_atomic_ok
	call tcp_enter_memory_pressure
sk_stream_mem_schedule_atomic_ok:
	mov eax, 1
	pop r12
	pop rbx
	ret

__sk_stream_mem_reclaim_atomic:
	push rbx
	mov rbx, rdi
	mov edi, dword ptr [rbx + SK_FORWARD_ALLOC]
	cmp edi, SK_STREAM_MEM_QUANTUM
	jl __sk_stream_mem_reclaim_atomic_out
	shr edi, SK_STREAM_MEM_QUANTUM_SHIFT
	mov rsi, offset tcp_memory_allocated_atomic
	call atomic_sub				; atomic_sub(fwd / QUANTUM, memory_allocated);
	and dword ptr [rbx + SK_FORWARD_ALLOC], SK_STREAM_MEM_QUANTUM - 1
	cmp dword ptr [tcp_memory_pressure], 0
	je __sk_stream_mem_reclaim_atomic_out
	mov rdi, offset tcp_memory_allocated_atomic
	call atomic_read
	movsxd rcx, dword ptr [sysctl_tcp_mem]
	cmp rax, rcx
	jge __sk_stream_mem_reclaim_atomic_out
	mov dword ptr [tcp_memory_pressure], 0
__sk_stream_mem_reclaim_atomic_out:
	pop rbx
	ret

; Thread: send rdi segments on this CPU's socket; every SEGS_PER_BURST of them
; an ACK frees what they charged. CPU 0 then waits for all and records the exact count.
worker:
	mov r14, rdi
	mov rax, CPU
	mov rbx, qword ptr [__per_cpu_offset + rax*8]
	add rbx, offset tcp_sock		; sk = this CPU's socket
worker_burst:
	mov r13, SEGS_PER_BURST
worker_segment:
	test r14, r14
	jz worker_ack
	dec r14
	work PROTO_WORK
	mark op					; one segment sent
	mov rdi, rbx
	mov esi, SEG_SIZE
	xor edx, edx
	mov eax, USE_PERCPU
	test eax, eax
	jz worker_schedule_atomic
	call sk_stream_mem_schedule
	jmp worker_scheduled
worker_schedule_atomic:
	call sk_stream_mem_schedule_atomic
worker_scheduled:
	dec r13
	jnz worker_segment
worker_ack:
	work ACK_WORK
	mov rdi, rbx
	mov eax, USE_PERCPU
	test eax, eax
	jz worker_reclaim_atomic
	call __sk_stream_mem_reclaim
	jmp worker_reclaimed
worker_reclaim_atomic:
	call __sk_stream_mem_reclaim_atomic
worker_reclaimed:
	test r14, r14
	jnz worker_burst
	call thread_finish			; CPU 0 goes on once every CPU is done
	mov eax, USE_PERCPU
	test eax, eax
	jz worker_final_atomic
	mov rdi, offset tcp_memory_allocated
	call percpu_counter_sum_quiescent
	jmp worker_final
worker_final_atomic:
	mov rdi, offset tcp_memory_allocated_atomic
	call atomic_read
worker_final:
	mov qword ptr [final_memory_allocated], rax
	hlt

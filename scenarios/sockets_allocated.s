; The seed's patch 3/4: proto.sockets_allocated as an atomic_t (before) and as a
; plain alloc_percpu(int) summed on read (after). Each CPU opens sockets
; (tcp_v4_init_sock), closes every other one, and now and then reads the total.
; Program: lib/atomic.s, lib/percpu_int.s, then this file. Thread `worker`.

.include "lib/harness.s"

.equ USE_PERCPU, 1		; 0: atomic_t, 1: alloc_percpu int
.equ NR_SOCKETS, 2048		; sockets opened per CPU; half of them are closed
.equ READ_EVERY, 64		; a power of two: read the total every this many opens
.equ SOCK_WORK, 1500		; cycles of connection setup per socket

.data
.align 64
tcp_sockets_allocated:			; atomic_t tcp_sockets_allocated (before)
	.long 0
.align 64
final_sockets_allocated:		; exact total once every CPU is done
	.quad 0
sockets_lost:				; NR_CPUS * NR_SOCKETS / 2 - final: must be 0
	.quad 0

.percpu
.align 64
tcp_sockets_allocated_pcpu:		; int *tcp_sockets_allocated = alloc_percpu(int) (after)
	.long 0

.text

sockets_inc:
	mov eax, USE_PERCPU
	test eax, eax
	jz sockets_inc_atomic
	mov rdi, offset tcp_sockets_allocated_pcpu
	jmp inc_sockets_allocated		; inc_sockets_allocated(tcp_sockets_allocated);
sockets_inc_atomic:
	mov rdi, offset tcp_sockets_allocated
	jmp atomic_inc				; atomic_inc(&tcp_sockets_allocated);

sockets_dec:
	mov eax, USE_PERCPU
	test eax, eax
	jz sockets_dec_atomic
	mov rdi, offset tcp_sockets_allocated_pcpu
	jmp dec_sockets_allocated
sockets_dec_atomic:
	mov rdi, offset tcp_sockets_allocated
	jmp atomic_dec

sockets_read:
	mov eax, USE_PERCPU
	test eax, eax
	jz sockets_read_atomic
	mov rdi, offset tcp_sockets_allocated_pcpu
	jmp read_sockets_allocated
sockets_read_atomic:
	mov rdi, offset tcp_sockets_allocated
	jmp atomic_read

worker:
	xor r12d, r12d
worker_socket:
	work SOCK_WORK
	mark op
	call sockets_inc			; tcp_v4_init_sock
	test r12, 1
	jz worker_keep
	call sockets_dec			; tcp_v4_destroy_sock
worker_keep:
	test r12, READ_EVERY - 1
	jnz worker_next
	call sockets_read			; sk_stream_mem_schedule under pressure, /proc
worker_next:
	inc r12
	cmp r12, NR_SOCKETS
	jl worker_socket
	call thread_finish			; CPU 0 goes on once every CPU is done
	call sockets_read
	mov qword ptr [final_sockets_allocated], rax
	mov rcx, NR_CPUS * NR_SOCKETS
	shr rcx, 1
	sub rcx, rax
	mov qword ptr [sockets_lost], rcx
	hlt

; The seed's patch 4/4: proto.inuse as the NR_CPUS array padded to a line (before),
; as alloc_percpu(int) (after), and as the same array unpadded (false sharing).
; Each CPU opens sockets with bh off (sock_prot_inc_use), closes every other one.
; Program: lib/proto_inuse.s, then this file. Thread `worker`.

.include "lib/harness.s"

.equ INUSE_LAYOUT, 0		; 0: padded stats[NR_CPUS], 1: alloc_percpu, 2: unpadded int[NR_CPUS]
.equ NR_SOCKETS, 2048
.equ READ_EVERY, 256		; a power of two: fold_prot_inuse (/proc/net/sockstat)
.equ SOCK_WORK, 1500

.data
.align 64
tcp_prot_stats:				; struct { int inuse; u8 __pad[60]; } stats[NR_CPUS]
	.space NR_CPUS * SMP_CACHE_BYTES
.align 64
tcp_prot_stats_unpadded:		; int stats[NR_CPUS]: 16 CPUs to a line
	.space NR_CPUS * 4
.align 64
final_inuse:
	.quad 0
inuse_lost:				; NR_CPUS * NR_SOCKETS / 2 - final: must be 0
	.quad 0

.percpu
.align 64
tcp_prot_inuse:				; prot->inuse = alloc_percpu(int)
	.long 0

.text

; rdi = the layout's storage, by INUSE_LAYOUT
inuse_storage:
	mov eax, INUSE_LAYOUT
	mov rdi, offset tcp_prot_stats
	cmp eax, 1
	jl inuse_storage_out
	mov rdi, offset tcp_prot_inuse
	je inuse_storage_out
	mov rdi, offset tcp_prot_stats_unpadded
inuse_storage_out:
	ret

inuse_inc:
	call inuse_storage
	cmp eax, 1
	jl sock_prot_inc_use_padded
	je sock_prot_inc_use_percpu
	jmp sock_prot_inc_use_unpadded

inuse_dec:
	call inuse_storage
	cmp eax, 1
	jl sock_prot_dec_use_padded
	je sock_prot_dec_use_percpu
	jmp sock_prot_dec_use_unpadded

inuse_fold:
	call inuse_storage
	cmp eax, 1
	jl fold_prot_inuse_padded
	je fold_prot_inuse_percpu
	jmp fold_prot_inuse_unpadded

worker:
	xor r12d, r12d
worker_socket:
	work SOCK_WORK
	mark op
	bh_disable				; "Called with local bh disabled"
	call inuse_inc				; hash: sock_prot_inc_use(sk->sk_prot)
	bh_enable
	test r12, 1
	jz worker_keep
	bh_disable
	call inuse_dec				; unhash: sock_prot_dec_use(sk->sk_prot)
	bh_enable
worker_keep:
	test r12, READ_EVERY - 1
	jnz worker_next
	call inuse_fold
worker_next:
	inc r12
	cmp r12, NR_SOCKETS
	jl worker_socket
	call thread_finish			; CPU 0 goes on once every CPU is done
	call inuse_fold
	mov qword ptr [final_inuse], rax
	mov rcx, NR_CPUS * NR_SOCKETS
	shr rcx, 1
	sub rcx, rax
	mov qword ptr [inuse_lost], rcx
	hlt

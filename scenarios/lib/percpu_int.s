; A plain alloc_percpu(int) summed on read: the seed's patch 3/4 for
; proto.sockets_allocated (include/net/sock.h: mod_sockets_allocated,
; read_sockets_allocated, inc_/dec_sockets_allocated). No batch, no lock, no global.
;
; The counter is `int *sockets_allocated`: the offset of a .percpu dword, e.g.
;	.percpu
;	tcp_sockets_allocated: .long 0
; Each CPU only ever writes its own copy (its own per-CPU area, its own line),
; so updates never bounce; the read pulls one line from every CPU.
; Differences from the seed: read_sockets_allocated takes the per-CPU pointer
; itself (the seed passes struct proto and reads prot->sockets_allocated), so
; the ghost counter of both routines is keyed by the same address.

.text

; void mod_sockets_allocated(int *sockets_allocated, int count)
mod_sockets_allocated:
	preempt_disable				; get_cpu()
	mov rcx, CPU
	mov rax, qword ptr [__per_cpu_offset + rcx*8]
	add dword ptr [rax + rdi], esi		; (*per_cpu_ptr(sockets_allocated, cpu)) += count;
	movsxd rsi, esi
	ghost_add [rdi], rsi
	preempt_enable				; put_cpu()
	ret

inc_sockets_allocated:
	mov esi, 1
	jmp mod_sockets_allocated

dec_sockets_allocated:
	mov esi, -1
	jmp mod_sockets_allocated

; int read_sockets_allocated(int *sockets_allocated)
read_sockets_allocated:
	xor eax, eax				; int total = 0;
	xor ecx, ecx
read_sockets_allocated_cpu:			; for_each_cpu(cpu)
	mov rdx, qword ptr [__per_cpu_offset + rcx*8]
	add eax, dword ptr [rdx + rdi]		;	total += *per_cpu_ptr(prot->sockets_allocated, cpu);
	inc ecx
	cmp ecx, NR_CPUS
	jl read_sockets_allocated_cpu
	movsxd rax, eax
	ghost_read [rdi], rax
	ret

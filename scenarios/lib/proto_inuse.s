; proto.inuse three ways (include/net/sock.h sock_prot_inc_use/sock_prot_dec_use,
; net/ipv4/proc.c fold_prot_inuse): the NR_CPUS array padded to a cache line that
; the seed's patch 4/4 removed, its alloc_percpu(int) replacement, and the same
; array without the padding, whose neighbouring CPUs' ints share lines (false sharing).
;
; Each routine takes a pointer to the counter's storage (where the kernel takes
; struct proto * and reaches prot->stats / prot->inuse):
;   _padded:   struct { int inuse; u8 __pad[SMP_CACHE_BYTES - 4]; } stats[NR_CPUS];
;              .data / .align 64 / tcp_prot_stats: .space NR_CPUS*64 (NR_CPUS*64 bytes)
;   _percpu:   int __percpu *inuse: the offset of a .percpu dword (NR_CPUS * 4 bytes,
;              each in its own per-CPU area)
;   _unpadded: int stats[NR_CPUS]; 16 CPUs' counters on one 64-byte line
; Callers hold bh off ("Called with local bh disabled"), so a plain inc is safe.

.equ SMP_CACHE_BYTES, 64
.equ SMP_CACHE_SHIFT, 6

.text

sock_prot_inc_use_padded:
	mov rax, CPU				; smp_processor_id()
	shl rax, SMP_CACHE_SHIFT
	inc dword ptr [rdi + rax]		; prot->stats[cpu].inuse++;
	ghost_add [rdi], 1
	ret

sock_prot_dec_use_padded:
	mov rax, CPU
	shl rax, SMP_CACHE_SHIFT
	dec dword ptr [rdi + rax]		; prot->stats[cpu].inuse--;
	ghost_add [rdi], -1
	ret

fold_prot_inuse_padded:
	xor eax, eax				; int res = 0;
	xor ecx, ecx
fold_prot_inuse_padded_cpu:			; for_each_cpu(cpu)
	mov rdx, rcx
	shl rdx, SMP_CACHE_SHIFT
	add eax, dword ptr [rdi + rdx]		;	res += proto->stats[cpu].inuse;
	inc ecx
	cmp ecx, NR_CPUS
	jl fold_prot_inuse_padded_cpu
	movsxd rax, eax
	ghost_read [rdi], rax
	ret

sock_prot_inc_use_percpu:
	mov rcx, CPU
	mov rax, qword ptr [__per_cpu_offset + rcx*8]
	inc dword ptr [rax + rdi]		; (*per_cpu_ptr(prot->inuse, smp_processor_id())) += 1;
	ghost_add [rdi], 1
	ret

sock_prot_dec_use_percpu:
	mov rcx, CPU
	mov rax, qword ptr [__per_cpu_offset + rcx*8]
	dec dword ptr [rax + rdi]		; (*per_cpu_ptr(prot->inuse, smp_processor_id())) -= 1;
	ghost_add [rdi], -1
	ret

fold_prot_inuse_percpu:
	xor eax, eax
	xor ecx, ecx
fold_prot_inuse_percpu_cpu:
	mov rdx, qword ptr [__per_cpu_offset + rcx*8]
	add eax, dword ptr [rdx + rdi]		; res += (*per_cpu_ptr(proto->inuse, cpu));
	inc ecx
	cmp ecx, NR_CPUS
	jl fold_prot_inuse_percpu_cpu
	movsxd rax, eax
	ghost_read [rdi], rax
	ret

sock_prot_inc_use_unpadded:
	mov rax, CPU
	inc dword ptr [rdi + rax*4]		; prot->stats[cpu]++;
	ghost_add [rdi], 1
	ret

sock_prot_dec_use_unpadded:
	mov rax, CPU
	dec dword ptr [rdi + rax*4]
	ghost_add [rdi], -1
	ret

fold_prot_inuse_unpadded:
	xor eax, eax
	xor ecx, ecx
fold_prot_inuse_unpadded_cpu:
	add eax, dword ptr [rdi + rcx*4]
	inc ecx
	cmp ecx, NR_CPUS
	jl fold_prot_inuse_unpadded_cpu
	movsxd rax, eax
	ghost_read [rdi], rax
	ret

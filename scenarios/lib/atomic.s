; atomic_t as on x86 (arch/x86/include/asm/atomic.h): an int changed only by
; lock-prefixed RMW, so every change takes the line in M on the changing CPU.
; Kernel argument order: atomic_add(i, v) is rdi = i, rsi = v; atomic_inc(v) rdi = v.
; Ghost: every change does ghost_add on &v, every read ghost_read on &v.

; atomic_t: one dword (int counter).
.equ ATOMIC_SIZE, 4

.text

atomic_read:
	movsxd rax, dword ptr [rdi]	; READ_ONCE(v->counter), sign-extended int
	ghost_read [rdi], rax
	ret

atomic_inc:
	lock inc dword ptr [rdi]
	ghost_add [rdi], 1
	ret

atomic_dec:
	lock dec dword ptr [rdi]
	ghost_add [rdi], -1
	ret

atomic_add:
	lock add dword ptr [rsi], edi
	movsxd rdi, edi
	ghost_add [rsi], rdi
	ret

atomic_sub:
	lock sub dword ptr [rsi], edi
	movsxd rdi, edi
	neg rdi
	ghost_add [rsi], rdi
	ret

; returns i + the old value: the new value, as the kernel's xadd-based version
atomic_add_return:
	mov eax, edi
	lock xadd dword ptr [rsi], eax
	add eax, edi
	movsxd rdi, edi
	ghost_add [rsi], rdi
	movsxd rax, eax
	ret

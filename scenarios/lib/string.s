; memset, memcpy, memmove and memcmp with the C library's signatures, for C
; programs: bounce has no C library, and Clang turns a struct copy or zeroing
; beyond a few words into a call to memcpy or memset (GCC, as bounce runs it,
; into a loop of moves). List "lib/string.s" in a scenario's "program".
; Eight bytes at a time where the pointers and the length allow it, else one:
; each move is a plain load or store, so the lines they touch are counted
; as the program's own accesses. Not the kernel's code (rep movsb/stosb).

.text

; memset(rdi = s, esi = c, rdx = n): returns s
memset:
	mov rax, rdi
	movzx ecx, sil
	mov r8, rdi
	or r8, rdx
	test r8, 7
	jnz memset_bytes
	mov r9, 0x0101010101010101
	imul rcx, r9			; c in every byte
memset_words:
	test rdx, rdx
	jz memset_done
	mov qword ptr [rdi], rcx
	add rdi, 8
	sub rdx, 8
	jmp memset_words
memset_bytes:
	test rdx, rdx
	jz memset_done
	mov byte ptr [rdi], cl
	inc rdi
	dec rdx
	jmp memset_bytes
memset_done:
	ret

; memcpy(rdi = dst, rsi = src, rdx = n): returns dst. The areas must not
; overlap (as in C); memmove allows it.
memcpy:
	mov rax, rdi
	mov r8, rdi
	or r8, rsi
	or r8, rdx
	test r8, 7
	jz copy_words_down
copy_bytes_up:
	test rdx, rdx
	jz copy_done
	movzx ecx, byte ptr [rsi]
	mov byte ptr [rdi], cl
	inc rsi
	inc rdi
	dec rdx
	jmp copy_bytes_up

; memmove(rdi = dst, rsi = src, rdx = n): returns dst. Upwards when dst
; lies below the source, else from the end down, so that no byte is
; overwritten before it is read.
memmove:
	mov rax, rdi
	cmp rdi, rsi
	jbe copy_bytes_up
	mov r8, rdi
	or r8, rsi
	or r8, rdx
	test r8, 7
	jnz copy_bytes_down
copy_words_down:
	sub rdx, 8
	jb copy_done
	mov rcx, qword ptr [rsi + rdx]
	mov qword ptr [rdi + rdx], rcx
	jmp copy_words_down
copy_bytes_down:
	test rdx, rdx
	jz copy_done
	dec rdx
	movzx ecx, byte ptr [rsi + rdx]
	mov byte ptr [rdi + rdx], cl
	jmp copy_bytes_down
copy_done:
	ret

; memcmp(rdi = a, rsi = b, rdx = n): the difference of the first bytes that
; differ, as unsigned chars; 0 when none does.
memcmp:
	xor eax, eax
memcmp_next:
	test rdx, rdx
	jz memcmp_done
	movzx eax, byte ptr [rdi]
	movzx ecx, byte ptr [rsi]
	sub eax, ecx
	jnz memcmp_done
	inc rdi
	inc rsi
	dec rdx
	jmp memcmp_next
memcmp_done:
	ret

# Code addresses: function pointers, a jump table, GCC's bracketed
# indirect operand, ds: absolute addresses, ud2 and INT64_MIN.
.data
ops: .quad f, g
jt: .quad a0, a1
fp: .quad 0
.text
main:
	mov	eax, OFFSET FLAT:f
	call	rax
	call	[QWORD PTR ops[rip+8]]
	call	qword ptr [rip + ops]
	lea	rdx, g[rip]
	mov	QWORD PTR fp[rip], rdx
	mov	ebx, 1
	jmp	[QWORD PTR jt[0+rbx*8]]
a0:
	ud2
a1:
	movabs	rax, -9223372036854775808
	mov	rcx, QWORD PTR ds:65536
	jmp	rdx
f:
	mov	eax, 7
	ret
g:
	hlt

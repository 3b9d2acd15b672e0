	.file	"t.c"
	.intel_syntax noprefix
	.text
.Ltext0:
	.cfi_sections	.debug_frame
	.file 0 "/tmp/cx" "t.c"
	.p2align 4
	.globl	worker
	.type	worker, @function
worker:
.LFB1:
	.file 1 "t.c"
	.loc 1 10 5 discriminator 3
	.cfi_startproc
	lock add	QWORD PTR counter[rip], 1
	.loc 0 11 3 is_stmt 0 prologue_end	# t.c:11:3
	add	QWORD PTR gs:pc[rip], rax
	add	qword ptr gs:[rip + pc], rdx
	add	DWORD PTR gs:pa[0+rdx*4], 1
	lock		add	qword ptr [rip + counter + 8], 1
	lock; add QWORD PTR counter+8[rip], 1
	mov	esi, OFFSET FLAT:counter
	mov	eax, offset st+8
	mov	rax, QWORD PTR 8[rdi]
	lea	rax, pc[rip]
	mov	rdx, __per_cpu_offset[0+rcx*8]
#APP
# 23 "t.c" 1
	mark op
# 0 "" 2
#NO_APP
	.intel_syntax
	rep nop
	.att_syntax
	rep; nop
	call	helper
	ret
	.cfi_endproc
.LFE1:
	.size	worker, .-worker
helper:
	.loc 1 0 0
	ret
	.globl	counter
	.bss
	.align 8
counter:
	.zero	16
	.section	.rodata.str1.1,"aMS",@progbits,1
.LC0:
	.string	"stats\n\101\x42"
	.ascii "ab", "c"
	.asciz "d"
	.data
	.p2align 4,,10
st:
	.quad	1
	.quad	counter
	.quad	.LC0+2
	.long	counter
	.value	513
	.p2align 3, 0xff
	.section	.percpu,"aw",@progbits
	.p2align 3
pc:
	.quad	0
pa:
	.zero	16
	.local	hits
	.comm	hits,8,8
	.lcomm	lc,4,4
	.pushsection .data
ps:	.quad 5
	.popsection
	.section	.debug_info,"",@progbits
.Ldebug_info0:
	.long	0x1ca
	.quad	.Letext0-.Ltext0
	.uleb128 0x5
	.string	"a\"b"
	.previous
	.section	.note.GNU-stack,"",@progbits
	.ident	"GCC: (Debian 12.2.0-14+deb12u1) 12.2.0"

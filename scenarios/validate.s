; The three workloads `bounce validate` runs natively and here, one
; instruction loop each, the same as the native loops in src/host/host_measure.c:
;   DESIGN 0  contended:     every CPU adds 1 to one counter with lock xadd
;   DESIGN 1  padded:        each CPU increments its own counter, one line each
;   DESIGN 2  false_sharing: each CPU increments its own 8 bytes of one array
; Every CPU does NR_OPS operations; CPU 0 then sums the counters exactly.

.include "lib/harness.s"

.equ DESIGN, 0
.equ NR_OPS, 1000

.data
.align 64
counter:				; the contended counter, alone on its line
	.quad 0
	.space 56
.align 64
padded:					; one line per CPU
	.space NR_CPUS * 64
.align 64
packed:					; 8 bytes per CPU, 8 CPUs to a line
	.space NR_CPUS * 8
.align 64
final_count:
	.quad 0
count_lost:				; NR_CPUS * NR_OPS - final_count: must be 0
	.quad 0

.text

worker:
	mov rcx, NR_OPS
	mov rax, DESIGN
	cmp rax, 1
	jl contended
	mov rdx, CPU
	je own_padded
	lea rdi, [rdx*8 + packed]
	jmp own
own_padded:
	shl rdx, 6
	lea rdi, [rdx + padded]
own:
	mark op
	inc qword ptr [rdi]
	dec rcx
	jnz own
	jmp done
contended:
	mark op
	mov rax, 1
	lock xadd qword ptr [counter], rax
	dec rcx
	jnz contended
done:
	call thread_done
	mov rax, CPU
	test rax, rax
	jnz worker_exit
	mov rdi, NR_CPUS
	call wait_threads_done
	call sum
	mov qword ptr [final_count], rax
	mov rcx, NR_CPUS * NR_OPS
	sub rcx, rax
	mov qword ptr [count_lost], rcx
worker_exit:
	hlt

; the exact total of whichever counters DESIGN used
sum:
	mov rax, qword ptr [counter]
	xor ecx, ecx
sum_next:
	mov rdx, rcx
	shl rdx, 6
	add rax, qword ptr [rdx + padded]
	add rax, qword ptr [rcx*8 + packed]
	inc rcx
	cmp rcx, NR_CPUS
	jl sum_next
	ret

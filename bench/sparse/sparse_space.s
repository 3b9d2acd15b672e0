; A 1 GiB .space of which the workload touches 1 MiB: CPU 0 stores to every
; 64-byte line of the 1 MiB at the middle of the buffer, then reads it back.
; Simulated memory is sparse, so the host pays for the MiB, not the GiB.
.data
.align 4096
buf:
	.space 1073741824

.text
worker:
	lea rsi, [buf + 536870912]
	mov rcx, 16384			; 1 MiB / 64
fill:
	mov qword ptr [rsi], rcx
	add rsi, 64
	dec rcx
	jnz fill
	lea rsi, [buf + 536870912]
	mov rcx, 16384
sum:
	add rax, qword ptr [rsi]
	add rsi, 64
	dec rcx
	jnz sum
	hlt

; The two contended counters of travisdowns/concurrency-hierarchy-bench that
; docs/validation.md compares with its published Skylake and Ice Lake curves,
; one instruction loop each, as a compiler emits the benchmark's C++:
;   DESIGN 0  atomic add: fetch_add(1) with the result unused, `lock add`
;   DESIGN 1  cas add:    load, then `lock cmpxchg` of value+1, retried with
;                         the value the failed cmpxchg returned
; Every CPU does NR_OPS increments; CPU 0 then reads the counter exactly.

.include "lib/harness.s"

.equ DESIGN, 0
.equ NR_OPS, 1000

.data
.align 64
counter:				; the shared counter, alone on its line
	.quad 0
	.space 56
.align 64
count_lost:				; NR_CPUS * NR_OPS - counter: must be 0
	.quad 0

.text

worker:
	mov rcx, NR_OPS
	mov rax, DESIGN
	test rax, rax
	jnz cas_add
atomic_add:
	mark op
	lock add qword ptr [counter], 1
	dec rcx
	jnz atomic_add
	jmp done
cas_add:
	mark op
	mov rax, qword ptr [counter]		; the benchmark's load before the loop
cas_retry:
	lea rdx, [rax + 1]
	lock cmpxchg qword ptr [counter], rdx	; on failure rax = the current value
	jnz cas_retry
	dec rcx
	jnz cas_add
done:
	call thread_finish
	mov rcx, NR_CPUS * NR_OPS
	sub rcx, qword ptr [counter]
	mov qword ptr [count_lost], rcx
	hlt

; Workload scaffolding, not a counter: threads of a scenario report that they
; are done, and one of them waits for the others before its final exact read,
; so "exact final value" expectations read a quiescent counter. A thread that
; runs on every CPU ends with `call thread_finish`, then CPU 0's final read,
; then hlt; other shapes use thread_done and wait_threads_done directly.

.data
.align 64
nr_threads_done:			; alone on its line: it bounces once per thread
	.quad 0
	.space 56

.text

; void thread_done(void)
thread_done:
	lock inc qword ptr [nr_threads_done]
	ret

; void thread_finish(void): the end of a thread that runs on every CPU, called
; once its work is done. It is thread_done(); then CPU 0 waits until all
; NR_CPUS threads are done and returns to its caller for the final exact read,
; and every other CPU halts here. Clobbers rax, rcx and rdi.
;
; CPU 0 reaches wait_threads_done by falling through into it with the caller's
; return address back on the stack, so that routine's ret returns to the
; caller. The address is popped and pushed, not left in place: the pop loads
; from the stack where thread_done's ret did and the push stores where a
; `call wait_threads_done` did, so a scenario using thread_finish executes as
; many instructions, with the same memory accesses, as one that spells out
; call thread_done / CPU test / call wait_threads_done, and reports the same.
thread_finish:
	lock inc qword ptr [nr_threads_done]	; thread_done()
	pop rcx					; the return address
	mov rax, CPU
	test rax, rax
	jnz thread_finish_halt
	mov rdi, NR_CPUS
	push rcx				; wait_threads_done returns to our caller
	; falls through
; void wait_threads_done(long nr): until nr threads called thread_done
wait_threads_done:
	cmp qword ptr [nr_threads_done], rdi
	jge wait_threads_done_out
	pause
	jmp wait_threads_done
wait_threads_done_out:
	mfence				; what they stored before thread_done is visible
	ret

thread_finish_halt:
	hlt

; Workload scaffolding, not a counter: threads of a scenario report that they
; are done, and one of them waits for the others before its final exact read,
; so "exact final value" expectations read a quiescent counter.

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

; void wait_threads_done(long nr): until nr threads called thread_done
wait_threads_done:
	cmp qword ptr [nr_threads_done], rdi
	jge wait_threads_done_out
	pause
	jmp wait_threads_done
wait_threads_done_out:
	mfence				; what they stored before thread_done is visible
	ret

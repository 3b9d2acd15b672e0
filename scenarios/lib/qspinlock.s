; The queued spinlock x86 kernels use since Linux 4.2 (kernel/locking/qspinlock.c,
; include/asm-generic/qspinlock.h, kernel/locking/mcs_spinlock.h): one waiter may
; spin on the lock word (the pending bit); every further waiter queues on its own
; per-CPU MCS node and spins on that node's line until its predecessor hands the
; queue head over by writing it. Paravirt and lock events are not modelled.
; Contract as for lib/spinlock.s: rdi = lock, only rax/rcx/rdx clobbered (the slow
; path saves the other registers it uses on the stack), so callers keep their
; state in other registers. 4 bytes, zero when unlocked.

; struct qspinlock: one dword, NR_CPUS < 16K, so _Q_PENDING_BITS == 8:
;	locked	bits 0-7	(byte 0)
;	pending	bits 8-15	(byte 1)
;	tail	bits 16-31	(word at 2): idx of the node in bits 16-17, cpu + 1 in 18-31
.equ QSPINLOCK_SIZE, 4
.equ _Q_LOCKED_VAL, 1
.equ _Q_PENDING_VAL, 0x100
.equ _Q_LOCKED_MASK, 0xff
.equ _Q_LOCKED_PENDING_MASK, 0xffff
.equ _Q_TAIL_OFFSET, 16
.equ _Q_PENDING_LOOPS, 512		; x86: (1 << 9)

; struct mcs_spinlock (a struct qnode without CONFIG_PARAVIRT_SPINLOCKS)
.equ MCS_NEXT, 0			; struct mcs_spinlock *next
.equ MCS_LOCKED, 8			; int locked: 1 once the predecessor handed over
.equ MCS_COUNT, 12			; int count: nesting level (qnodes[0] only)
.equ MCS_SIZE, 16
.equ MAX_NODES, 4			; task, softirq, hardirq, NMI

.percpu
; static DEFINE_PER_CPU_ALIGNED(struct qnode, qnodes[MAX_NODES]): one line per CPU
.align 64
qnodes:
	.space MAX_NODES * MCS_SIZE

.text

; void queued_spin_lock(struct qspinlock *lock)
queued_spin_lock:
	xor eax, eax				; int val = 0;
	mov ecx, _Q_LOCKED_VAL
	lock cmpxchg dword ptr [rdi], ecx	; if (likely(atomic_try_cmpxchg_acquire(&lock->val, &val, _Q_LOCKED_VAL)))
	jnz queued_spin_lock_slowpath		;	return;
	ret					; queued_spin_lock_slowpath(lock, val);

; void queued_spin_unlock(struct qspinlock *lock)
queued_spin_unlock:
	mov byte ptr [rdi], 0			; smp_store_release(&lock->locked, 0);
	ret

; int queued_spin_trylock(struct qspinlock *lock): 1 taken, 0 not (eax)
queued_spin_trylock:
	mov eax, dword ptr [rdi]		; int val = atomic_read(&lock->val);
	test eax, eax
	jnz queued_spin_trylock_fail		; if (unlikely(val)) return 0;
	mov ecx, _Q_LOCKED_VAL
	lock cmpxchg dword ptr [rdi], ecx	; return atomic_try_cmpxchg_acquire(&lock->val, &val, _Q_LOCKED_VAL);
	jnz queued_spin_trylock_fail
	mov eax, 1
	ret
queued_spin_trylock_fail:
	xor eax, eax
	ret

; void queued_spin_lock_slowpath(struct qspinlock *lock, u32 val): val in eax.
; r8 = node, r9 = tail, r10 = next, r11 = scratch; saved and restored.
queued_spin_lock_slowpath:
	push r8
	push r9
	push r10
	push r11
	; Wait for in-progress pending->locked hand-overs with a bounded number of
	; spins so that we guarantee forward progress.  0,1,0 -> 0,0,1
	cmp eax, _Q_PENDING_VAL			; if (val == _Q_PENDING_VAL) {
	jne qspin_contention
	mov r11d, _Q_PENDING_LOOPS		;	int cnt = _Q_PENDING_LOOPS;
qspin_handover_wait:				;	val = atomic_cond_read_relaxed(&lock->val,
	mov eax, dword ptr [rdi]		;		(VAL != _Q_PENDING_VAL) || !cnt--);
	cmp eax, _Q_PENDING_VAL
	jne qspin_contention
	sub r11d, 1
	jb qspin_contention
	pause
	jmp qspin_handover_wait			; }
qspin_contention:
	; If we observe any contention; queue.
	mov ecx, eax
	shr ecx, 8
	jnz qspin_queue				; if (val & ~_Q_LOCKED_MASK) goto queue;
	; trylock || pending  0,0,* -> 0,1,* -> 0,0,1
	; val = queued_fetch_set_pending_acquire(lock): x86 sets the bit with
	; `lock bts`, which this ISA lacks; this is its generic form,
	; atomic_fetch_or_acquire, a cmpxchg loop: the same locked RMW on the
	; lock's line, retried when the word changed under it.
	mov eax, dword ptr [rdi]
qspin_set_pending:
	mov ecx, eax
	or ecx, _Q_PENDING_VAL
	lock cmpxchg dword ptr [rdi], ecx
	jnz qspin_set_pending
	; If we observe contention, there is a concurrent locker.
	mov ecx, eax
	shr ecx, 8
	jz qspin_pending			; if (unlikely(val & ~_Q_LOCKED_MASK)) {
	test eax, _Q_PENDING_VAL
	jnz qspin_queue				;	if (!(val & _Q_PENDING_MASK))
	mov byte ptr [rdi + 1], 0		;		clear_pending(lock);
	jmp qspin_queue				;	goto queue; }
qspin_pending:
	; We're pending, wait for the owner to go away.  0,1,1 -> *,1,0
	test eax, _Q_LOCKED_MASK
	jz qspin_pending_take			; if (val & _Q_LOCKED_MASK)
qspin_pending_wait:				;	smp_cond_load_acquire(&lock->locked, !VAL);
	movzx eax, byte ptr [rdi]
	test eax, eax
	jz qspin_pending_take
	pause
	jmp qspin_pending_wait
qspin_pending_take:
	; take ownership and clear the pending bit.  0,1,0 -> 0,0,1
	mov word ptr [rdi], _Q_LOCKED_VAL	; clear_pending_set_locked(lock);
	jmp qspin_out

qspin_queue:
	mov rcx, CPU
	mov r8, qword ptr [__per_cpu_offset + rcx*8]
	lea r8, [r8 + qnodes]			; node = this_cpu_ptr(&qnodes[0].mcs);
	mov r11d, dword ptr [r8 + MCS_COUNT]	; idx = node->count++;
	add dword ptr [r8 + MCS_COUNT], 1
	lea r9, [rcx + 1]			; tail = encode_tail(smp_processor_id(), idx):
	shl r9, 2				;	(cpu + 1) << _Q_TAIL_CPU_OFFSET
	or r9, r11				;	| idx << _Q_TAIL_IDX_OFFSET
	shl r9, _Q_TAIL_OFFSET
	cmp r11d, MAX_NODES
	jge qspin_no_node			; if (unlikely(idx >= MAX_NODES)) ...
	shl r11, 4
	add r8, r11				; node = grab_mcs_node(node, idx);
	mov dword ptr [r8 + MCS_LOCKED], 0	; node->locked = 0;
	mov qword ptr [r8 + MCS_NEXT], 0	; node->next = NULL;
	; We touched a (possibly) cold cacheline in the per-cpu queue node;
	; attempt the trylock once more in the hope someone let go while we
	; weren't watching.
	call queued_spin_trylock
	test eax, eax
	jnz qspin_release			; if (queued_spin_trylock(lock)) goto release;
	; Publish the updated tail.  p,*,* -> n,*,*
	mov rax, r9
	shr eax, _Q_TAIL_OFFSET
	xchg word ptr [rdi + 2], ax		; old = xchg_tail(lock, tail);
	movzx eax, ax				; (old >> _Q_TAIL_OFFSET)
	xor r10d, r10d				; next = NULL;
	test eax, eax
	jz qspin_head				; if (old & _Q_TAIL_MASK) {
	mov ecx, eax				;	prev = decode_tail(old):
	shr ecx, 2
	sub ecx, 1				;	  cpu = (tail >> _Q_TAIL_CPU_OFFSET) - 1
	and eax, 3				;	  idx = (tail & _Q_TAIL_IDX_MASK) >> _Q_TAIL_IDX_OFFSET
	shl eax, 4
	mov r11, qword ptr [__per_cpu_offset + rcx*8]
	add r11, rax
	lea r11, [r11 + qnodes]			;	  per_cpu_ptr(&qnodes[idx].mcs, cpu)
	mov qword ptr [r11 + MCS_NEXT], r8	;	WRITE_ONCE(prev->next, node);
qspin_node_wait:				;	arch_mcs_spin_lock_contended(&node->locked):
	mov eax, dword ptr [r8 + MCS_LOCKED]	;	  smp_cond_load_acquire(&node->locked, VAL)
	test eax, eax
	jnz qspin_node_head
	pause
	jmp qspin_node_wait
qspin_node_head:
	mov r10, qword ptr [r8 + MCS_NEXT]	;	next = READ_ONCE(node->next);  (no prefetchw)
qspin_head:					; }
	; we're at the head of the waitqueue, wait for the owner & pending to
	; go away.  *,x,y -> *,0,0
qspin_head_wait:				; val = atomic_cond_read_acquire(&lock->val,
	mov eax, dword ptr [rdi]		;		!(VAL & _Q_LOCKED_PENDING_MASK));
	test eax, _Q_LOCKED_PENDING_MASK
	jz qspin_claim
	pause
	jmp qspin_head_wait
qspin_claim:
	; claim the lock:  n,0,0 -> 0,0,1 uncontended; *,*,0 -> *,*,1 contended
	mov ecx, eax
	xor rcx, r9
	shr ecx, _Q_TAIL_OFFSET
	jnz qspin_set_locked			; if ((val & _Q_TAIL_MASK) == tail) {
	mov ecx, _Q_LOCKED_VAL
	lock cmpxchg dword ptr [rdi], ecx	;	if (atomic_try_cmpxchg_relaxed(&lock->val, &val, _Q_LOCKED_VAL))
	jz qspin_release			;		goto release; /* No contention */ }
qspin_set_locked:
	; Either somebody is queued behind us or _Q_PENDING_VAL got set which
	; will then detect the remaining tail and queue behind us ensuring
	; we'll see a @next.
	mov byte ptr [rdi], _Q_LOCKED_VAL	; set_locked(lock);
	test r10, r10
	jnz qspin_handoff			; if (!next)
qspin_next_wait:				;	next = smp_cond_load_relaxed(&node->next, (VAL));
	mov r10, qword ptr [r8 + MCS_NEXT]
	test r10, r10
	jnz qspin_handoff
	pause
	jmp qspin_next_wait
qspin_handoff:
	mov dword ptr [r10 + MCS_LOCKED], 1	; arch_mcs_spin_unlock_contended(&next->locked);
	jmp qspin_release

qspin_no_node:
	; 4 nodes assume no nested NMIs take spinlocks; past them spin on
	; the lock word directly.
	call queued_spin_trylock		; while (!queued_spin_trylock(lock))
	test eax, eax
	jnz qspin_release
	pause					;	cpu_relax();
	jmp qspin_no_node

qspin_release:
	; release the node
	mov rcx, CPU
	mov rdx, qword ptr [__per_cpu_offset + rcx*8]
	sub dword ptr [rdx + qnodes + MCS_COUNT], 1	; __this_cpu_dec(qnodes[0].mcs.count);
qspin_out:
	pop r11
	pop r10
	pop r9
	pop r8
	ret

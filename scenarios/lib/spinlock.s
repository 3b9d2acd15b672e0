; Spinlocks as x86 kernels built them: the test-and-set lock of the 2.6 era
; (arch/x86/include/asm/spinlock.h before 2.6.25) and the ticket lock that
; replaced it (2.6.25 .. 4.1, arch_spin_lock with xadd on head/tail).
; Both are 4 bytes, zero when unlocked, so zero-filled .data is an unlocked lock.
; Contract as for the kernel's inline asm: rdi = lock, only rax/rcx/rdx clobbered
; (spin_lock/spin_unlock touch rax only), so callers keep their state in other regs.

; spinlock_t (test-and-set): one dword, 0 unlocked, 1 held.
.equ SPINLOCK_SIZE, 4

; arch_spinlock_t (ticket): head in the low 16 bits, tail in the high 16.
.equ TICKET_HEAD, 0
.equ TICKET_TAIL, 2
.equ TICKET_LOCK_INC, 0x10000	; one ticket, added to the tail half by xadd

.text

; 2.6.16 used `lock decl; js spin` with 1 = unlocked; xchg with 0 = unlocked
; takes the line the same way (one locked RMW per attempt, waiters spin on a
; shared copy), and lets a zero-filled struct start unlocked.
spin_lock:
	mov eax, 1
	xchg dword ptr [rdi], eax
	test eax, eax
	jnz spin_lock_contended
	ret
spin_lock_contended:
	; spin on a read so waiters share the line instead of bouncing it
	pause
	cmp dword ptr [rdi], 0
	jne spin_lock_contended
	jmp spin_lock

spin_unlock:
	; a plain store releases on x86 (TSO keeps it after the critical section)
	mov dword ptr [rdi], 0
	ret

ticket_spin_lock:
	mov eax, TICKET_LOCK_INC
	lock xadd dword ptr [rdi], eax
	mov ecx, eax
	shr ecx, 16			; inc.tail: my ticket
	and eax, 0xffff			; inc.head: the ticket being served
ticket_spin_lock_wait:
	cmp eax, ecx
	je ticket_spin_lock_out
	pause
	movzx eax, word ptr [rdi + TICKET_HEAD]	; READ_ONCE(lock->tickets.head)
	jmp ticket_spin_lock_wait
ticket_spin_lock_out:
	ret

ticket_spin_unlock:
	; __add(&lock->tickets.head, TICKET_LOCK_INC, UNLOCK_LOCK_PREFIX): only the
	; holder writes head, so no lock prefix; a 16-bit add never carries into tail
	add word ptr [rdi + TICKET_HEAD], 1
	ret

; The core-to-core-latency method (nviennot/core-to-core-latency, the one
; `bounce calibrate` uses on the host): CPU 0 and CPU PEER pass one line back
; and forth, each with a blind compare-and-swap loop from its own value to the
; other's, ROUNDS times. Every other CPU halts at once. Half a round trip is
; one transfer of the line plus the CAS that takes it.

.equ PEER, 1
.equ ROUNDS, 100

.data
.align 64
ball:					; 0: CPU 0's turn, 1: PEER's turn
	.quad 0
	.space 56

.text

worker:
	mov rdx, CPU
	test rdx, rdx
	jz ping
	cmp rdx, PEER
	je pong
	hlt
ping:
	mov r8, ROUNDS
ping_turn:
	xor eax, eax
	mov rcx, 1
	lock cmpxchg qword ptr [ball], rcx	; 0 -> 1, retried until it is 0
	jnz ping_turn
	mark op
	dec r8
	jnz ping_turn
	hlt
pong:
	mov r8, ROUNDS
pong_turn:
	mov rax, 1
	xor ecx, ecx
	lock cmpxchg qword ptr [ball], rcx	; 1 -> 0
	jnz pong_turn
	dec r8
	jnz pong_turn
	hlt

; A striped counter in the style of Java's LongAdder (java.util.concurrent.atomic,
; Striped64): cells padded to a line (@Contended), a CPU adds to its cell with one
; locked op, a read sums base and every cell. Here the cell is CPU % NCELLS.
;
; struct longadder {			offset
;	s64 base;			0	(Java's uncontended fast path; unused here)
;	u8 __pad[56];
;	struct { s64 value; u8 __pad[56]; } cells[LONGADDER_NCELLS];	64
; };					64 + 64 * LONGADDER_NCELLS; align to 64
; With NCELLS >= NR_CPUS no cell is shared and a cell's line stays with its CPU;
; with fewer, CPUs that share a cell share (and bounce) its line.

.equ LA_BASE, 0
.equ LA_CELLS, 64
.equ LA_CELL_SHIFT, 6
.equ LONGADDER_NCELLS, 8		; a power of two

.text

; void longadder_add(struct longadder *la, s64 x)
longadder_add:
	mov rax, CPU
	mov rcx, LONGADDER_NCELLS
	dec rcx
	and rax, rcx				; cell = CPU % NCELLS
	shl rax, LA_CELL_SHIFT
	lock add qword ptr [rdi + rax + LA_CELLS], rsi
	ghost_add [rdi], rsi
	ret

; s64 longadder_sum(struct longadder *la)
longadder_sum:
	mov rax, qword ptr [rdi + LA_BASE]
	lea rdx, [rdi + LA_CELLS]
	xor ecx, ecx
longadder_sum_cell:
	add rax, qword ptr [rdx]
	add rdx, 64
	inc ecx
	cmp ecx, LONGADDER_NCELLS
	jl longadder_sum_cell
	ghost_read [rdi], rax
	ret

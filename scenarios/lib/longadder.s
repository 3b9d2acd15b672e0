; Java's LongAdder (java.util.concurrent.atomic.LongAdder.add/sum and
; Striped64.longAccumulate, JDK 9 and later), line by line. Uncontended, every
; thread CASes `base`. The first failed CAS creates a table of 2 cells; a
; thread whose cell CAS fails rehashes its probe (advanceProbe), and after a
; second collision doubles the table, while it has fewer cells than CPUs
; (NCPU = availableProcessors() = NR_CPUS). Cells are created lazily, one
; line each (@Contended). A read sums base and every cell.
;
; struct longadder {			offset
;	s64 base;			0	Striped64.base
;	u32 cells_busy;			8	Striped64.cellsBusy (the spinlock word)
;	u32 ncells;			12	cells.length; 0 while cells == null
;	u8 __pad[48];				base, cellsBusy and cells are fields of one
;						object: one line, as in the JVM
;	struct { s64 value; s64 present; u8 __pad[48]; } cells[LONGADDER_MAX_CELLS];	64
; };					LONGADDER_SIZE
; Cell storage never moves: growth doubles ncells and leaves the new upper
; half empty (present 0), which is what Arrays.copyOf(cs, n << 1) gives, since
; it copies references to the same Cell objects.
;
; The thread's probe (Thread.threadLocalRandomProbe) is a per-CPU dword here,
; one thread per CPU; 0 means not yet initialised, as in Java, and
; ThreadLocalRandom.localInit draws it from a shared generator by
; addAndGet(0x9e3779b9).

.equ LA_BASE, 0
.equ LA_BUSY, 8
.equ LA_NCELLS, 12
.equ LA_CELLS, 64
.equ LA_CELL_SHIFT, 6
.equ LA_PRESENT, 8
; At most the smallest power of two >= NR_CPUS (the table stops doubling at
; NR_CPUS cells or more); 2 x NR_CPUS covers it.
.equ LONGADDER_MAX_CELLS, max(2, NR_CPUS * 2)
.equ LONGADDER_SIZE, 64 + LONGADDER_MAX_CELLS * 64
.equ PROBE_INCREMENT, 0x9e3779b9

.data
.align 64
longadder_probe_generator:		; ThreadLocalRandom.probeGenerator
	.long 0
	.space 60

.percpu
.align 64
longadder_probe:			; Thread.threadLocalRandomProbe
	.long 0
	.space 60

.text

; void longadder_add(struct longadder *la, s64 x)
longadder_add:
	mov eax, dword ptr [rdi + LA_NCELLS]
	test eax, eax
	jnz longadder_add_cells			; if ((cs = cells) != null ||
	mov rax, qword ptr [rdi + LA_BASE]
	lea rcx, [rax + rsi]
	lock cmpxchg qword ptr [rdi + LA_BASE], rcx
	jnz longadder_add_base_failed		;     !casBase(b = base, b + x)) {
	ghost_add [rdi], rsi
	ret
longadder_add_base_failed:
	mov r9d, 1				;	boolean uncontended = true;
	jmp longaccumulate			;	(cs == null) longAccumulate(x, null, uncontended, index);
longadder_add_cells:
	mov r9d, 1				;	boolean uncontended = true;
	dec eax					;	m = cs.length - 1
	and eax, dword ptr gs:[longadder_probe]	;	index = getProbe() & m
	shl rax, LA_CELL_SHIFT
	lea rdx, [rdi + rax + LA_CELLS]		;	c = cs[index & m]
	mov rax, qword ptr [rdx + LA_PRESENT]
	test rax, rax
	jz longaccumulate			;	if (c == null ||
	mov rax, qword ptr [rdx]
	lea rcx, [rax + rsi]
	lock cmpxchg qword ptr [rdx], rcx	;	    !(uncontended = c.cas(v = c.value, v + x)))
	jz longadder_add_done
	xor r9d, r9d
	jmp longaccumulate			;		longAccumulate(x, null, uncontended, index);
longadder_add_done:
	ghost_add [rdi], rsi
	ret

; Striped64.longAccumulate(x, null, wasUncontended = r9d): rdi la, rsi x.
; r8d h (the probe), r10d collide, r11d n, rdx the cell.
longaccumulate:
	mov r8d, dword ptr gs:[longadder_probe]
	test r8d, r8d
	jnz longaccumulate_loop			; if ((h = getProbe()) == 0) {
	mov eax, PROBE_INCREMENT		;	ThreadLocalRandom.current(); // force initialization
	lock xadd dword ptr [longadder_probe_generator], eax
	add eax, PROBE_INCREMENT		;	p = probeGenerator.addAndGet(PROBE_INCREMENT)
	jnz longaccumulate_probe
	mov eax, 1				;	probe = (p == 0) ? 1 : p
longaccumulate_probe:
	mov r8d, eax
	mov dword ptr gs:[longadder_probe], r8d	;	h = getProbe();
	mov r9d, 1				;	wasUncontended = true; }
longaccumulate_loop:
	xor r10d, r10d				; boolean collide = false;
longaccumulate_again:				; for (;;) {
	mov r11d, dword ptr [rdi + LA_NCELLS]
	test r11d, r11d
	jz longaccumulate_no_table		;	if ((cs = cells) != null && (n = cs.length) > 0) {
	mov eax, r11d
	dec eax
	and eax, r8d
	shl rax, LA_CELL_SHIFT
	lea rdx, [rdi + rax + LA_CELLS]
	mov rax, qword ptr [rdx + LA_PRESENT]
	test rax, rax
	jnz longaccumulate_have_cell		;	    if ((c = cs[(n - 1) & h]) == null) {
	mov eax, dword ptr [rdi + LA_BUSY]
	test eax, eax
	jnz longaccumulate_no_collide		;		if (cellsBusy == 0) {	// Try to attach new Cell
	call longadder_cas_busy
	jnz longaccumulate_no_collide		;		    if (cellsBusy == 0 && casCellsBusy()) {
	mov eax, dword ptr [rdi + LA_NCELLS]	;			// Recheck under lock
	dec eax
	and eax, r8d
	shl rax, LA_CELL_SHIFT
	lea rdx, [rdi + rax + LA_CELLS]
	mov rax, qword ptr [rdx + LA_PRESENT]
	test rax, rax
	jnz longaccumulate_unbusy_retry		;			if (rs[j = (m - 1) & h] == null) {
	mov qword ptr [rdx], rsi		;			    rs[j] = new Cell(x);
	mov qword ptr [rdx + LA_PRESENT], 1
	mov dword ptr [rdi + LA_BUSY], 0	;			    cellsBusy = 0;
	jmp longaccumulate_done			;			    break done; }
longaccumulate_unbusy_retry:
	mov dword ptr [rdi + LA_BUSY], 0	;			cellsBusy = 0;
	jmp longaccumulate_again		;			continue; // Slot is now non-empty
longaccumulate_no_collide:
	xor r10d, r10d				;		collide = false;
	jmp longaccumulate_rehash
longaccumulate_have_cell:
	test r9d, r9d
	jnz longaccumulate_cas_cell		;	    } else if (!wasUncontended)	// CAS already known to fail
	mov r9d, 1				;		wasUncontended = true;	// Continue after rehash
	jmp longaccumulate_rehash
longaccumulate_cas_cell:
	mov rax, qword ptr [rdx]
	lea rcx, [rax + rsi]
	lock cmpxchg qword ptr [rdx], rcx
	jz longaccumulate_done			;	    else if (c.cas(v = c.value, v + x)) break;
	cmp r11d, NR_CPUS
	jge longaccumulate_no_collide		;	    else if (n >= NCPU ||
	cmp r11d, dword ptr [rdi + LA_NCELLS]
	jne longaccumulate_no_collide		;		     cells != cs) collide = false; // At max size or stale
	test r10d, r10d
	jnz longaccumulate_expand		;	    else if (!collide)
	mov r10d, 1				;		collide = true;
	jmp longaccumulate_rehash
longaccumulate_expand:
	mov eax, dword ptr [rdi + LA_BUSY]
	test eax, eax
	jnz longaccumulate_rehash
	call longadder_cas_busy
	jnz longaccumulate_rehash		;	    else if (cellsBusy == 0 && casCellsBusy()) {
	cmp r11d, dword ptr [rdi + LA_NCELLS]
	jne longaccumulate_expanded		;		if (cells == cs)	// Expand table unless stale
	mov eax, r11d
	add eax, eax
	mov dword ptr [rdi + LA_NCELLS], eax	;		    cells = Arrays.copyOf(cs, n << 1);
longaccumulate_expanded:
	mov dword ptr [rdi + LA_BUSY], 0	;		cellsBusy = 0;
	jmp longaccumulate_loop			;		collide = false; continue; // Retry with expanded table
longaccumulate_rehash:
	mov eax, r8d				;	    h = advanceProbe(h):
	shl eax, 13
	xor r8d, eax				;		probe ^= probe << 13;	// xorshift
	mov eax, r8d
	shr eax, 17
	xor r8d, eax				;		probe ^= probe >>> 17;
	mov eax, r8d
	shl eax, 5
	xor r8d, eax				;		probe ^= probe << 5;
	mov dword ptr gs:[longadder_probe], r8d	;		U.putInt(t, PROBE, probe);
	jmp longaccumulate_again		;	}
longaccumulate_no_table:
	mov eax, dword ptr [rdi + LA_BUSY]
	test eax, eax
	jnz longaccumulate_cas_base
	call longadder_cas_busy
	jnz longaccumulate_cas_base		;	else if (cellsBusy == 0 && cells == cs && casCellsBusy()) {
	mov eax, dword ptr [rdi + LA_NCELLS]
	test eax, eax
	jnz longaccumulate_unbusy_retry		;	    if (cells == cs) {	// Initialize table
	mov eax, r8d
	and eax, 1
	shl rax, LA_CELL_SHIFT
	lea rdx, [rdi + rax + LA_CELLS]
	mov qword ptr [rdx], rsi		;		rs[h & 1] = new Cell(x);
	mov qword ptr [rdx + LA_PRESENT], 1
	mov dword ptr [rdi + LA_NCELLS], 2	;		cells = new Cell[2];
	mov dword ptr [rdi + LA_BUSY], 0	;		cellsBusy = 0;
	jmp longaccumulate_done			;		break done; }
longaccumulate_cas_base:
	mov rax, qword ptr [rdi + LA_BASE]	;	// Fall back on using base
	lea rcx, [rax + rsi]
	lock cmpxchg qword ptr [rdi + LA_BASE], rcx
	jnz longaccumulate_again		;	else if (casBase(v = base, v + x)) break done;
longaccumulate_done:				; }
	ghost_add [rdi], rsi
	ret

; casCellsBusy(): ZF set when this CPU took cellsBusy from 0 to 1. Clobbers
; eax, ecx.
longadder_cas_busy:
	xor eax, eax
	mov ecx, 1
	lock cmpxchg dword ptr [rdi + LA_BUSY], ecx
	ret

; s64 longadder_sum(struct longadder *la): base plus every cell. An empty
; slot's value is 0, so the walk adds it without testing `present` (the
; same line either way).
longadder_sum:
	mov rax, qword ptr [rdi + LA_BASE]	; long sum = base;
	mov r8d, dword ptr [rdi + LA_NCELLS]
	lea rdx, [rdi + LA_CELLS]
	xor ecx, ecx
	test r8d, r8d
	jz longadder_sum_done			; if ((cs = cells) != null)
longadder_sum_cell:				;     for (Cell c : cs)
	add rax, qword ptr [rdx]		;	  if (c != null) sum += c.value;
	add rdx, 64
	inc ecx
	cmp ecx, r8d
	jl longadder_sum_cell
longadder_sum_done:
	ghost_read [rdi], rax
	ret

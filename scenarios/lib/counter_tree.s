; A hierarchical per-CPU counter: a per-CPU leaf carries into a per-group node
; every CT_LEAF_BATCH, a node carries into the root every CT_NODE_BATCH. The
; shape of later kernel proposals (hierarchical percpu counters) and of NUMA-aware
; counting: the hot line is per group (a socket, an LLC), not per machine.
;
; struct counter_tree {			offset
;	s64 root;			0	the approximate read; align the struct to 64
;	s32 __percpu *leaves;		8	.percpu dword
;	struct ct_node *nodes;		16	.data: one 64-byte line per group
; };					24
; Group of a CPU = cpu >> CT_GROUP_SHIFT; nodes must have ceil(NR_CPUS / group) lines.
; Read error bound: NR_CPUS * CT_LEAF_BATCH + nr_groups * CT_NODE_BATCH.
; Lock-free: nodes and root change only by lock xadd / xchg / lock add.

.equ CT_ROOT, 0
.equ CT_LEAVES, 8
.equ CT_NODES, 16
.equ COUNTER_TREE_SIZE, 24
.equ CT_NODE_SHIFT, 6			; one node per 64-byte line
.equ CT_GROUP_SHIFT, 3			; 8 CPUs per node
.equ CT_LEAF_BATCH, 32
.equ CT_NODE_BATCH, 256

.text

; void counter_tree_add(struct counter_tree *ct, s64 amount)
counter_tree_add:
	preempt_disable
	mov rax, qword ptr [rdi + CT_LEAVES]
	movsxd rcx, dword ptr gs:[rax]
	add rcx, rsi				; count = leaf + amount
	cmp rcx, CT_LEAF_BATCH
	jge counter_tree_add_carry
	mov rdx, CT_LEAF_BATCH
	neg rdx
	cmp rcx, rdx
	jle counter_tree_add_carry
	mov dword ptr gs:[rax], ecx		; leaf = count (preempt off, not irq-safe)
	ghost_add [rdi], rsi
	preempt_enable
	ret
counter_tree_add_carry:
	mov rdx, CPU
	shr rdx, CT_GROUP_SHIFT
	shl rdx, CT_NODE_SHIFT
	add rdx, qword ptr [rdi + CT_NODES]	; node = &ct->nodes[cpu >> CT_GROUP_SHIFT]
	mov r8, rcx
	lock xadd qword ptr [rdx], r8
	add r8, rcx				; node's new value
	mov dword ptr gs:[rax], 0		; leaf = 0
	ghost_add [rdi], rsi
	cmp r8, CT_NODE_BATCH
	jge counter_tree_add_carry_root
	mov rcx, CT_NODE_BATCH
	neg rcx
	cmp r8, rcx
	jle counter_tree_add_carry_root
	preempt_enable
	ret
counter_tree_add_carry_root:
	; take the node's whole value: other CPUs of the group may have added since
	xor eax, eax
	xchg qword ptr [rdx], rax
	lock add qword ptr [rdi + CT_ROOT], rax
	preempt_enable
	ret

; s64 counter_tree_read(struct counter_tree *ct): approximate, the root only
counter_tree_read:
	mov rax, qword ptr [rdi + CT_ROOT]
	ghost_read [rdi], rax
	ret

; s64 counter_tree_sum(struct counter_tree *ct): root + nodes + leaves, no lock;
; exact when no update is in flight
counter_tree_sum:
	mov rax, qword ptr [rdi + CT_ROOT]
	mov rsi, qword ptr [rdi + CT_LEAVES]
	xor ecx, ecx
counter_tree_sum_cpu:
	mov rdx, qword ptr [__per_cpu_offset + rcx*8]
	movsxd rdx, dword ptr [rdx + rsi]
	add rax, rdx				; + this CPU's leaf
	mov rdx, rcx
	shr rdx, CT_GROUP_SHIFT
	shl rdx, CT_GROUP_SHIFT
	cmp rdx, rcx
	jne counter_tree_sum_next		; first CPU of its group: + its node
	shr rdx, CT_GROUP_SHIFT
	shl rdx, CT_NODE_SHIFT
	add rdx, qword ptr [rdi + CT_NODES]
	add rax, qword ptr [rdx]
counter_tree_sum_next:
	inc ecx
	cmp ecx, NR_CPUS
	jl counter_tree_sum_cpu
	ghost_read [rdi], rax
	ret

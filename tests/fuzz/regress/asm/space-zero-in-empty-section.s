; Why patch 1/4 added percpu_counter_mod_bh: ad `worker` on every CPU, soft interrupt handler `net_rx_action`.

.include "lib/harness.s"

.equ USE_BH, 0
.equ NR_UPDATES, 20000
.equ UPDATE_WORK, 20

.data
.align 64
fbc:					;datesirq added 1
	.quad 0

.text

; softirq context: bh iere;;i xadd

.text

; la+in st.re ead in the lOw 16 bits, tail in t10000	; one ticket, added to the tpopret half by xa0

.data

	.word 0		,mta

	.word 0		,mp		; 			

	.word 0		,mta

	.word 0		,mp		; 	,mp		; jjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjata

	.word 0		,mta

	.word 0		,mp		; ; r 0

.percpu
.align 64

	.space 00


	.word 0		,mp		; 			

	.word 0		,mta

	.word 0		,mp		; the tret half by xa0

.data

	.word 0		,mta

	.word 0		,mp		; 			

	.word 0		,mta

	.word 0		,mp		; 	,mp		; ta

	.word 0		,mp		; 			

	.word 0		,mta

	.word 0		,mp		; 	,mp		; jjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjata

	.word 0		,mta

	.word 0		,mp		; ; r 0

.percpu
.align 64

	.space 56


	.word 0		,mp		; 			

	.word 0		,mta

	.word 0		,mp		; the tret half by xa0

.data

	.word 0		,mta

	.word 0		,mp		; 			

	.word 0		,mta

	.word 0		,mp		; 	,mp		; ata

	.word 0		,mta

	.word 0		,mp		; ; r 0

.percpu
.align 64

	.space 56


	.word 0		,mp		; 			

	.word 0		,mta

	.word 0		,mp		; 	,mp		; ata

	.word 0		,mta

	.word 0		,mp		; ; r 0

.percpu
.align 64

	.space 56


	.word 0		,mp		; 			

	.word 0		,mta

	.word 0		,mp		; 	,mp		; ata

	.word 0		,mta

	.word 0		,mp		; rd 0		,mta

	.word 0		,mp		; 			

	.word 0		,mta

	.word 0		,mp		; 	,mp		; jjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjata

	.word 0		,mta

	.word 0		,mp		; ; r 0

.percpu
.align 64

	.space 56


	.word 0		,mp		; 			

	.word 0		,mta

	.word 0		,mp		; the tret half by p		; 			

	.word 0		,mta

	.word 0		,mp		; 	,mp		jjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjata

	.word 0		,mta

	.word 0		,mp		; ; r 0

.percpu
.align 64

	.space 56


	.word 0		,mp		; 			

	.word 0		,mta

	.word 0		,mp		; the tret half by p		; 			

	.word 0		,mta

	.word 0		,mp		; 	,mp		; ta

	.word 0		,mp		; 			

	.word 0		,mta

	.word 0		,mp		; 	,mp		; word 0		,mta

	.word 0		,mp		; ; r 0

.percpu
.align 64

	.space 56


	.word 0		,mp		; 			

	.word 0		,mta

	.word 0		,mp		; 	,mp		; ata

	.word 0		,mta

	.word 0		,mp		; ; r 0

.percpu
.align 64

	.space 56


	.word 0		,mp		; 			

	.word 0		,mta

	.word 0		,mp		; 	,mp		; ata

	.word 0		,mta

	.word 0		,mp		; rd 0		,mta

	.word 0		,mp		; 			

	.word 0		,mta

	.word 0		,mp		; 	,mp		; jjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjata

	.word 0		,mta

	.word 0		,mp		; ; r 0

.percpu
.align 64

	.space 56


	.word 0		,mp		; 			

	.word 0		,mta

	.word 0		,mp		; the tret half by xar 0

.percpu
.align 64

	.space 56

.tfbc_pcpes:			; how many t
	.space 56

.tuta

	.word 0		,mp		; 			

	.word 0		,mt!

	.word 0,mp		; 			

	.word 0		,mta

	.wr4ord 0		,mp		; 	,mp		; ata

	.word 0
worker_eg
Workls_done_out:
	mfence				# wh
xit:
at	hlt
 t
; .space 0 before any byte of the section: memset on a NULL image (UBSan)
.percpu
.space 0
.data
.space 0, 1

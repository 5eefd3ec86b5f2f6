	.arch armv8-a
	.file	"pin-counts.c"
	.text
	.section	.text.startup,"ax",@progbits
	.align	2
	.p2align 4,,11
	.global	main
	.type	main, %function
main:
.LFB2:
	.cfi_startproc
	stp	x29, x30, [sp, -32]!
	.cfi_def_cfa_offset 32
	.cfi_offset 29, -32
	.cfi_offset 30, -24
	mov	x29, sp
	stp	x19, x20, [sp, 16]
	.cfi_offset 19, -16
	.cfi_offset 20, -8
	mov	w19, 0
	mov	w20, 0
	.p2align 3,,7
.L2:
	mov	w0, w19
	add	w19, w19, 1
	bl	classify
	add	w20, w20, w0
	cmp	w19, 10
	bne	.L2
	cmp	w20, 50
	cset	w0, ne
	ldp	x19, x20, [sp, 16]
	ldp	x29, x30, [sp], 32
	.cfi_restore 30
	.cfi_restore 29
	.cfi_restore 19
	.cfi_restore 20
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
.LFE2:
	.size	main, .-main
	.section	.text.hot,"ax",@progbits
	.align	2
	.p2align 4,,11
	.global	classify
	.type	classify, %function
classify:
.LFB1:
	.cfi_startproc
	mov	w1, w0
	tbz	x1, 0, .L7
	b	sum_to
	.p2align 2,,3
.L7:
	neg	w0, w0
	ret
	.cfi_endproc
.LFE1:
	.size	classify, .-classify
	.align	2
	.p2align 4,,11
	.type	sum_to, %function
sum_to:
.LFB0:
	.cfi_startproc
	mov	w1, w0
	cmp	w0, 0
	ble	.L9
	cmp	w0, 1
	beq	.L9
	cmp	w0, 2
	beq	.L13
	cmp	w0, 3
	beq	.L8
	cmp	w0, 4
	beq	.L15
	cmp	w0, 5
	beq	.L16
	cmp	w0, 6
	beq	.L17
	mov	w2, 6
	mov	w0, 15
.L11:
	add	w0, w0, w2
	add	w2, w2, 1
	cmp	w1, w2
	bne	.L11
.L8:
	ret
	.p2align 2,,3
.L9:
	mov	w0, 0
	ret
.L16:
	mov	w0, 10
	ret
.L15:
	mov	w0, 6
	ret
.L13:
	mov	w0, 1
	ret
.L17:
	mov	w0, 15
	ret
	.cfi_endproc
.LFE0:
	.size	sum_to, .-sum_to
	.section	.note.GNU-stack,"",@progbits

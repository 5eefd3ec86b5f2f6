	.file	"pin-counts.c"
	.text
	.section	.text.startup,"ax",@progbits
	.p2align 4
	.globl	main
	.type	main, @function
main:
.LFB2:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset 6, -16
	xorl	%ebp, %ebp
	pushq	%rbx
	.cfi_def_cfa_offset 24
	.cfi_offset 3, -24
	xorl	%ebx, %ebx
	pushq	%rcx
	.cfi_def_cfa_offset 32
	.p2align 4,,10
	.p2align 3
.L2:
	movl	%ebx, %edi
	addl	$1, %ebx
	call	classify
	addl	%eax, %ebp
	cmpl	$10, %ebx
	jne	.L2
	xorl	%eax, %eax
	cmpl	$50, %ebp
	popq	%rdx
	.cfi_def_cfa_offset 24
	popq	%rbx
	.cfi_def_cfa_offset 16
	setne	%al
	popq	%rbp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
.LFE2:
	.size	main, .-main
	.section	.text.hot,"ax",@progbits
	.p2align 4
	.globl	classify
	.type	classify, @function
classify:
.LFB1:
	.cfi_startproc
	testb	$1, %dil
	je	.L7
	jmp	sum_to
	.p2align 4,,10
	.p2align 3
.L7:
	movl	%edi, %eax
	negl	%eax
	ret
	.cfi_endproc
.LFE1:
	.size	classify, .-classify
	.p2align 4
	.type	sum_to, @function
sum_to:
.LFB0:
	.cfi_startproc
	testl	%edi, %edi
	jle	.L9
	cmpl	$1, %edi
	je	.L9
	cmpl	$2, %edi
	je	.L13
	cmpl	$3, %edi
	je	.L14
	cmpl	$4, %edi
	je	.L15
	cmpl	$5, %edi
	je	.L16
	cmpl	$6, %edi
	je	.L17
	movl	$6, %edx
	movl	$15, %eax
.L11:
	addl	%edx, %eax
	addl	$1, %edx
	cmpl	%edx, %edi
	jne	.L11
	ret
	.p2align 4,,10
	.p2align 3
.L9:
	xorl	%eax, %eax
	ret
.L16:
	movl	$10, %eax
	ret
.L13:
	movl	$1, %eax
	ret
.L14:
	movl	$3, %eax
	ret
.L15:
	movl	$6, %eax
	ret
.L17:
	movl	$15, %eax
	ret
	.cfi_endproc
.LFE0:
	.size	sum_to, .-sum_to
	.section	.note.GNU-stack,"",@progbits

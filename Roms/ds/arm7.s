@ Phosphor DS test cartridge, ARM7 side (loaded at 0x02380000 and started there).
@
@ Sound: channel 8 in PSG mode, 50% duty, centre pan, timer 0xED68:
@ f = 16756991 / (8 * (0x10000 - 0xED68)) = 16756991 / 38080 = 440.05 Hz,
@ volume 127 while A is held, 0 otherwise (the channel keeps running).

        .equ TONE_TIMER, 0x10000 - 4760
        .equ IO, 0x04000000
        .equ KEYINPUT, 0x130
        .equ POWCNT2, 0x304
        .equ SOUND8CNT, 0x480
        .equ SOUND8TMR, 0x488
        .equ SOUNDCNT, 0x500

        .arm
        .section .text
        .global _start
_start:
        mov     r12, #IO
        add     r11, r12, #KEYINPUT
        mov     r0, #1                  @ speakers on
        add     r1, r12, #POWCNT2
        strh    r0, [r1]
        ldr     r0, =0x807F             @ mixer on, master volume 127
        add     r1, r12, #SOUNDCNT
        strh    r0, [r1]
        add     r10, r12, #SOUND8CNT
        ldr     r0, =TONE_TIMER
        strh    r0, [r10, #SOUND8TMR - SOUND8CNT]
        @ start, PSG format, duty 4/8, pan 64, volume 0
        ldr     r0, =(1 << 31) | (3 << 29) | (3 << 24) | (64 << 16)
        str     r0, [r10]

loop:
        ldrh    r1, [r11]               @ bit 0 is A, active low
        tst     r1, #1
        moveq   r0, #127
        movne   r0, #0
        strb    r0, [r10]               @ only the volume byte changes
        b       loop

        .pool

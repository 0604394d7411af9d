@ Phosphor GBA test cartridge (GNU as, ARM state, no BIOS calls).
@
@ Picture: mode 3 (240x160 direct colour), the whole screen one BGR555
@ colour: BASE_COLOUR xor (pressed << 5), where pressed has bit 0 A, 1 B,
@ 2 Select, 3 Start, 4 Right, 5 Left, 6 Up, 7 Down, 8 R, 9 L, so each of the
@ 10 buttons gives its own colour. Nothing held: dark teal (r 2, g 12, b 14).
@ Sound: legacy channel 1 (the Game Boy square wave), 50% duty, volume 15,
@ frequency register 1750: 131072 / (2048 - 1750) = 439.84 Hz, routed to
@ both speakers while A is held, to neither otherwise.
@ The header complement byte at 0xBD is patched by header.py.

        .equ BASE_COLOUR, (14 << 10) | (12 << 5) | 2
        .equ TONE_REGISTER, 1750
        .equ IO, 0x04000000             @ registers are offsets from here
        .equ DISPCNT, 0x000
        .equ VCOUNT, 0x006
        .equ SOUND1CNT_L, 0x060
        .equ SOUND1CNT_H, 0x062
        .equ SOUND1CNT_X, 0x064
        .equ SOUNDCNT_L, 0x080
        .equ SOUNDCNT_H, 0x082
        .equ SOUNDCNT_X, 0x084
        .equ KEYINPUT, 0x130
        .equ VRAM, 0x06000000

        .arm
        .section .text
        .global _start
_start:
        b       start
        .include "logo.inc"
        .ascii  "PHOSPHORTEST"          @ 0xA0 title, 12 bytes
        .ascii  "PHOS"                  @ 0xAC game code
        .ascii  "00"                    @ 0xB0 maker code
        .byte   0x96                    @ 0xB2 fixed value
        .byte   0                       @ 0xB3 main unit code
        .byte   0                       @ 0xB4 device type
        .byte   0,0,0,0,0,0,0           @ 0xB5 reserved
        .byte   0                       @ 0xBC version
        .byte   0                       @ 0xBD complement (patched)
        .byte   0,0                     @ 0xBE reserved

start:
        mov     r12, #IO
        ldr     r0, =0x0403             @ mode 3, background 2 on
        strh    r0, [r12, #DISPCNT]

        mov     r0, #0x80               @ sound on
        strh    r0, [r12, #SOUNDCNT_X]
        ldr     r0, =0x0077             @ legacy channels: volume 7 left and right, none routed
        strh    r0, [r12, #SOUNDCNT_L]
        mov     r0, #0x0002             @ legacy channels at 100%
        strh    r0, [r12, #SOUNDCNT_H]
        mov     r0, #0                  @ no sweep
        strh    r0, [r12, #SOUND1CNT_L]
        ldr     r0, =0xF080             @ volume 15, no envelope, 50% duty
        strh    r0, [r12, #SOUND1CNT_H]
        ldr     r0, =0x8000 | TONE_REGISTER @ trigger, no length limit
        strh    r0, [r12, #SOUND1CNT_X]

frame:
        @ wait for line 160 (the first line of vertical blank), leaving it first
1:      ldrh    r0, [r12, #VCOUNT]
        cmp     r0, #160
        beq     1b
2:      ldrh    r0, [r12, #VCOUNT]
        cmp     r0, #160
        bne     2b

        ldr     r11, =IO + KEYINPUT     @ beyond ldrh's 8-bit offset from IO
        ldrh    r1, [r11]               @ active low
        ldr     r0, =0x03FF
        eor     r1, r1, r0
        and     r1, r1, r0              @ r1 = pressed buttons

        tst     r1, #1                  @ A: route channel 1 to both speakers
        ldr     r0, =0x0077
        orrne   r0, r0, #0x1100
        strh    r0, [r12, #SOUNDCNT_L]

        ldr     r0, =BASE_COLOUR
        eor     r0, r0, r1, lsl #5
        orr     r0, r0, r0, lsl #16     @ two pixels per word
        mov     r2, r0
        mov     r3, r0
        mov     r4, r0
        mov     r5, r0
        mov     r6, r0
        mov     r7, r0
        mov     r8, r0
        mov     r9, #VRAM
        mov     r10, #(240 * 160 * 2) / 32 @ 32 bytes per store
3:      stmia   r9!, {r0, r2-r8}
        subs    r10, r10, #1
        bne     3b
        b       frame

        .pool

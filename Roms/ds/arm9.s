@ Phosphor DS test cartridge, ARM9 side (loaded at 0x02000000 and started there).
@
@ Picture: both screens in graphics mode with no layers, so each shows its
@ backdrop (palette entry 0). Top screen (engine A): BASE_COLOUR xor
@ (pressed << 5), where pressed has bit 0 A, 1 B, 2 Select, 3 Start, 4 Right,
@ 5 Left, 6 Up, 7 Down, 8 R, 9 L (KEYINPUT; X and Y only reach the ARM7),
@ so each of those 10 buttons gives its own colour; nothing held is dark
@ purple (r 12, g 4, b 16). Bottom screen (engine B): constant dark green.

        .equ BASE_COLOUR, (16 << 10) | (4 << 5) | 12
        .equ BOTTOM_COLOUR, (4 << 10) | (14 << 5) | 4
        .equ IO, 0x04000000
        .equ DISPCNT_A, 0x000
        .equ VCOUNT, 0x006
        .equ DISPCNT_B, 0x1000
        .equ KEYINPUT, 0x130
        .equ POWCNT1, 0x304
        .equ PALETTE_A, 0x05000000
        .equ PALETTE_B, 0x05000400

        .arm
        .section .text
        .global _start
_start:
        mov     r12, #IO
        ldr     r0, =0x8203             @ LCDs on, engines A and B on, A on the top screen
        add     r1, r12, #POWCNT1
        strh    r0, [r1]
        mov     r0, #0x00010000         @ display mode 1: graphics, no layers enabled
        str     r0, [r12, #DISPCNT_A]
        add     r1, r12, #DISPCNT_B
        str     r0, [r1]
        ldr     r3, =PALETTE_A
        ldr     r4, =PALETTE_B
        ldr     r0, =BOTTOM_COLOUR
        strh    r0, [r4]
        add     r11, r12, #KEYINPUT

frame:
        @ wait for line 192, the first line of vertical blank, leaving it first
1:      ldrh    r0, [r12, #VCOUNT]
        cmp     r0, #192
        beq     1b
2:      ldrh    r0, [r12, #VCOUNT]
        cmp     r0, #192
        bne     2b

        ldrh    r1, [r11]               @ active low
        ldr     r0, =0x03FF
        eor     r1, r1, r0
        and     r1, r1, r0
        ldr     r0, =BASE_COLOUR
        eor     r0, r0, r1, lsl #5
        strh    r0, [r3]
        b       frame

        .pool

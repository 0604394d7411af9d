; Phosphor SNES test cartridge: 32 KiB LoROM, ca65 in 65816 mode.
;
; Picture: no background layers, only the backdrop (CGRAM colour 0), which
; fills the whole 256x224 frame. Its BGR555 colour is
;   BASE_COLOUR xor (JOY1 >> 1)
; where JOY1 is the 16-bit auto-read joypad word (bit 15 B, 14 Y, 13 Select,
; 12 Start, 11 Up, 10 Down, 9 Left, 8 Right, 7 A, 6 X, 5 L, 4 R), so every
; one of the 12 buttons gives its own colour. With nothing held the screen
; is BASE_COLOUR, a dark blue (red 4, green 8, blue 20 of 31).
; Sound: none (the S-SMP is left in its boot ROM; the core still outputs
; silent samples).
; The header checksum and complement are patched by checksum.py.
;
; Build: ca65 --cpu 65816 phosphor-test.s && ld65 -C lorom.cfg ... && checksum.py

.p816

BASE_COLOUR = (20 << 10) | (8 << 5) | 4

INIDISP = $2100
CGADD   = $2121
CGDATA  = $2122
TM      = $212C
TS      = $212D
CGWSEL  = $2130
CGADSUB = $2131
NMITIMEN = $4200
HVBJOY  = $4212
JOY1    = $4218

.segment "CODE"

reset:
        sei
        clc
        xce                     ; native 65816 mode
        rep #$38                ; 16-bit A, X, Y; binary arithmetic
        .a16
        .i16
        ldx #$1FFF
        txs
        lda #$0000
        tcd                     ; direct page at 0
        sep #$20
        .a8
        lda #$80
        sta INIDISP             ; forced blank while setting up
        stz NMITIMEN
        stz TM                  ; no layers: the backdrop is the picture
        stz TS
        stz CGWSEL
        stz CGADSUB
        rep #$20
        .a16
        lda #BASE_COLOUR
        sep #$20
        .a8
        jsr set_backdrop
        lda #$0F                ; display on, full brightness
        sta INIDISP
        lda #$01                ; automatic joypad read every vblank
        sta NMITIMEN

frame:
@wait_vblank:
        lda HVBJOY
        bpl @wait_vblank
@wait_joypad:
        lda HVBJOY
        and #$01
        bne @wait_joypad
        rep #$20
        .a16
        lda JOY1
        lsr a
        eor #BASE_COLOUR
        sep #$20
        .a8
        jsr set_backdrop
@wait_display:
        lda HVBJOY              ; leave vblank before waiting for the next one
        bmi @wait_display
        bra frame

; The 16-bit colour in B:A (A 8-bit) to CGRAM entry 0.
set_backdrop:
        stz CGADD
        sta CGDATA
        xba
        sta CGDATA
        xba
        rts

unused_vector:
        rti

.segment "HEADER"                ; $FFC0
        .byte "PHOSPHOR TEST        " ; 21 bytes, space padded
        .byte $20                ; LoROM, slow ROM
        .byte $00                ; ROM only
        .byte $05                ; ROM size: 2^5 KiB = 32 KiB
        .byte $00                ; no cartridge RAM
        .byte $01                ; region: North America
        .byte $00                ; developer
        .byte $00                ; version
        .word $FFFF              ; checksum complement (patched)
        .word $0000              ; checksum (patched)

.segment "VECTORS"               ; $FFE0
        .word 0, 0
        .word unused_vector      ; native COP
        .word unused_vector      ; native BRK
        .word unused_vector      ; native ABORT
        .word unused_vector      ; native NMI
        .word 0
        .word unused_vector      ; native IRQ
        .word 0, 0
        .word unused_vector      ; emulation COP
        .word 0
        .word unused_vector      ; emulation ABORT
        .word unused_vector      ; emulation NMI
        .word reset              ; emulation RESET
        .word unused_vector      ; emulation IRQ/BRK

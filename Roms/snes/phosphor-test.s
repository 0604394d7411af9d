; Phosphor SNES test cartridge: 32 KiB LoROM, ca65 in 65816 mode.
;
; Picture: no background layers, only the backdrop (CGRAM colour 0), which
; fills the whole 256x224 frame. Its BGR555 colour is
;   BASE_COLOUR xor (JOY1 >> 1)
; where JOY1 is the 16-bit auto-read joypad word (bit 15 B, 14 Y, 13 Select,
; 12 Start, 11 Up, 10 Down, 9 Left, 8 Right, 7 A, 6 X, 5 L, 4 R), so every
; one of the 12 buttons gives its own colour. With nothing held the screen
; is BASE_COLOUR, a dark blue (red 4, green 8, blue 20 of 31).
; Sound: at reset the S-CPU uploads a small SPC700 program through the boot
; ROM's transfer protocol. It plays a BRR square wave (16 samples: 8 high,
; 8 low) on DSP voice 0 at pitch $0385 (901): f = rate * 901 / 4096 / 16, which
; is 439.94 Hz at the nominal 32000 Hz DSP rate and 440.50 Hz at the 32040.5 Hz
; that bsnes runs the DSP at (24.607 MHz / 768), and copies port 0 into the voice volume,
; which the main loop sets to $7F while A is held and to 0 otherwise.
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
APUIO0  = $2140
APUIO1  = $2141
APUIO2  = $2142         ; with APUIO3: a 16-bit address

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
        jsr upload_sound_program
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
        lda JOY1                ; bit 7 = A: voice 0 volume through port 0
        and #$80
        beq :+
        lda #$7F
:       sta APUIO0
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

; The boot ROM's protocol: wait for $BBAA, send the destination and $CC, then
; each byte with its index as the handshake, then the entry point.
upload_sound_program:
        rep #$20
        .a16
        lda #$BBAA
:       cmp APUIO0              ; boot ROM ready
        bne :-
        sep #$20
        .a8
        ldx #SPC_ORIGIN
        stx APUIO2
        lda #$01                ; non-zero: a block follows
        sta APUIO1
        lda #$CC
        sta APUIO0
:       cmp APUIO0
        bne :-
        ldx #0
@byte:  lda spc_program, x
        sta APUIO1
        txa                     ; low byte of the index
        sta APUIO0
:       cmp APUIO0
        bne :-
        inx
        cpx #spc_program_end - spc_program
        bne @byte
        ldy #SPC_ENTRY
        sty APUIO2
        stz APUIO1              ; zero: jump to the entry point
        txa
        inc a                   ; last index + 2 ends the transfer
        sta APUIO0
:       cmp APUIO0
        bne :-
        rts

unused_vector:
        rti

; ---- the SPC700 program (hand-assembled: ca65 has no SPC700 mode) ----------
SPC_ORIGIN = $0200
SPC_ENTRY  = $0210

.macro dsp register, value      ; mov $F2, #register / mov $F3, #value
        .byte $8F, register, $F2, $8F, value, $F3
.endmacro

spc_program:
        .word $0204, $0204              ; $0200 sample directory: entry 0 start, loop
        .byte $B3                       ; $0204 BRR block: shift 11, loop, end
        .byte $77, $77, $77, $77        ; 8 samples +7
        .byte $88, $88, $88, $88        ; 8 samples -8
        .byte 0, 0, 0                   ; pad to $0210
        dsp $6C, $20                    ; FLG: unmuted, echo writes off
        dsp $0C, $7F                    ; main volume left
        dsp $1C, $7F                    ; main volume right
        dsp $2C, $00                    ; echo volume left
        dsp $3C, $00                    ; echo volume right
        dsp $2D, $00                    ; no pitch modulation
        dsp $3D, $00                    ; no noise
        dsp $4D, $00                    ; no echo
        dsp $5D, >SPC_ORIGIN            ; sample directory page
        dsp $00, $00                    ; voice 0 volume left (port 0 sets it)
        dsp $01, $00                    ; voice 0 volume right
        dsp $02, $85                    ; pitch low  ($0385 = 901)
        dsp $03, $03                    ; pitch high
        dsp $04, $00                    ; sample 0
        dsp $05, $00                    ; ADSR off: GAIN decides
        dsp $07, $7F                    ; GAIN: direct, full
        dsp $5C, $00                    ; no key off
        dsp $4C, $01                    ; key on voice 0
@loop:  .byte $E4, $F4                  ; mov a, $F4 (port 0)
        .byte $8F, $00, $F2             ; mov $F2, #$00
        .byte $C4, $F3                  ; mov $F3, a (volume left)
        .byte $8F, $01, $F2             ; mov $F2, #$01
        .byte $C4, $F3                  ; mov $F3, a (volume right)
        .byte $2F, <(@loop - spc_program_end) ; bra @loop (relative to the next byte)
spc_program_end:

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

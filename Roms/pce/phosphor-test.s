; Phosphor PC Engine test HuCard: one 8 KiB bank, ca65 --cpu huc6280.
;
; Picture: the background is enabled but every tile is blank, so the whole
; frame shows background colour 0 (also written to the overscan colour
; 0x100). Its 9-bit GRB colour is BASE_COLOUR xor pressed, where pressed has
; bit 0 Up, 1 Right, 2 Down, 3 Left, 4 I, 5 II, 6 Select, 7 Run, so every one
; of the 8 buttons gives its own colour. Nothing held: dark blue (G1 R1 B5).
; Sound: PSG channel 0 plays a 32-step square wave (16 high, 16 low) with
; period 254: f = 3579545 / (32 * 254) = 440.40 Hz while button I (RetroPad A) is held,
; volume 0 otherwise.
;
; Build: ca65 --cpu huc6280 phosphor-test.s && ld65 -C hucard.cfg ...

BASE_COLOUR = (1 << 6) | (1 << 3) | 5   ; GGG RRR BBB
TONE_PERIOD = 254

VDC_ADDRESS = $0000     ; ST0: register number
VDC_LOW     = $0002     ; ST1
VDC_HIGH    = $0003     ; ST2
VCE_CONTROL = $0400
VCE_INDEX   = $0402
VCE_DATA    = $0404
PSG_CHANNEL = $0800
PSG_MAIN_VOLUME = $0801
PSG_FREQ_LO = $0802
PSG_FREQ_HI = $0803
PSG_CONTROL = $0804
PSG_BALANCE = $0805
PSG_WAVE    = $0806
JOYPAD      = $1000
IRQ_DISABLE = $1402

.segment "ZEROPAGE"
pressed:  .res 1
temp:     .res 1

.segment "CODE"

; Write a 16-bit value to a VDC register.
.macro vdc register, value
        st0 #register
        st1 #<(value)
        st2 #>(value)
.endmacro

reset:
        sei
        csh                     ; 7.16 MHz
        cld
        lda #$FF                ; MPR0: I/O at $0000-$1FFF
        tam #$01
        lda #$F8                ; MPR1: work RAM at $2000-$3FFF
        tam #$02
        ldx #$FF
        txs
        lda #$07
        sta IRQ_DISABLE         ; no interrupts reach the CPU; vblank is polled
        stz pressed

        stz VCE_CONTROL         ; 5 MHz dot clock
        vdc $09, $0000          ; MWR: 32x32 background map
        vdc $0A, $0202          ; HSR
        vdc $0B, $031F          ; HDR: 32 tiles = 256 pixels wide
        vdc $0C, $0F02          ; VSR
        vdc $0D, $00EF          ; VDR: 240 lines
        vdc $0E, $0003          ; VCR
        vdc $07, $0000          ; BXR scroll
        vdc $08, $0000          ; BYR scroll

        vdc $00, $0000          ; MAWR = 0, then 32768 zero words: blank VRAM
        st0 #$02
        ldy #$80
        ldx #0
@clear: st1 #0
        st2 #0
        dex
        bne @clear
        dey
        bne @clear

        vdc $05, $0088          ; CR: background on, vertical blank flag on

        jsr init_sound

frame:
@wait:  lda a:VDC_ADDRESS       ; status (absolute: $00 alone would mean zero page at $2000)
        and #$20
        beq @wait

        jsr read_joypad
        lda pressed
        eor #<BASE_COLOUR
        tax                     ; X = colour low byte, high bit from BASE_COLOUR
        stz VCE_INDEX           ; colour 0
        stz VCE_INDEX + 1
        stx VCE_DATA
        lda #>BASE_COLOUR
        sta VCE_DATA + 1
        stz VCE_INDEX           ; colour 0x100: overscan
        lda #1
        sta VCE_INDEX + 1
        stx VCE_DATA
        lda #>BASE_COLOUR
        sta VCE_DATA + 1

        stz PSG_CHANNEL         ; tone while I is held
        lda pressed
        and #$10
        beq :+
        lda #$9F                ; on, volume 31
        bne :++
:       lda #$80                ; on, volume 0
:       sta PSG_CONTROL
        bra frame

; pressed = bit 0 Up, 1 Right, 2 Down, 3 Left, 4 I, 5 II, 6 Select, 7 Run
read_joypad:
        lda #$01                ; SEL high, then pulse CLR to restart the pad
        sta JOYPAD
        lda #$03
        sta JOYPAD
        lda #$01
        sta JOYPAD
        jsr settle
        lda JOYPAD              ; directions, active low
        and #$0F
        sta temp
        stz JOYPAD              ; SEL low: buttons
        jsr settle
        lda JOYPAD
        asl a
        asl a
        asl a
        asl a
        ora temp
        eor #$FF
        sta pressed
        rts

settle:
        nop
        nop
        nop
        nop
        nop
        nop
        rts

init_sound:
        lda #$FF
        sta PSG_MAIN_VOLUME
        stz PSG_CHANNEL
        lda #$FF
        sta PSG_BALANCE
        lda #$40                ; reset the waveform write index
        sta PSG_CONTROL
        stz PSG_CONTROL
        ldx #0
@wave:  lda #$1F
        cpx #16
        bcc :+
        lda #$00
:       sta PSG_WAVE
        inx
        cpx #32
        bne @wave
        lda #<TONE_PERIOD
        sta PSG_FREQ_LO
        lda #>TONE_PERIOD
        sta PSG_FREQ_HI
        lda #$80                ; channel on, volume 0
        sta PSG_CONTROL
        rts

unused_vector:
        rti

.segment "VECTORS"
        .word unused_vector     ; $FFF6 IRQ2 / BRK
        .word unused_vector     ; $FFF8 IRQ1 (VDC)
        .word unused_vector     ; $FFFA timer
        .word unused_vector     ; $FFFC NMI
        .word reset             ; $FFFE reset

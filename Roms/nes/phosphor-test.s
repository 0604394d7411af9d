; Phosphor NES test cartridge (NROM-128: 16 KiB PRG, 8 KiB CHR, mapper 0).
;
; Picture: black backdrop, the title PHOSPHOR in white at tile row 4, four
; coloured 2x2 blocks (red, green, blue, yellow) at tile row 8, and eight
; 2x2 button boxes with two-letter labels below them:
;   row 14: A  B  SL ST        row 20: UP DN LT RT
; A box is a white outline while its button is released and a solid colour
; while it is held.
; Sound: pulse channel 1, 50% duty, constant volume 15, timer period 253:
;   f = 1789773 / (16 * (253 + 1)) = 440.40 Hz (NTSC) while A is held,
;   volume 0 otherwise.
; Everything the NMI handler touches is initialised at reset (all RAM is
; cleared), so the output never depends on power-on RAM contents.
;
; Build: ca65 phosphor-test.s && ld65 -C nrom.cfg -o phosphor-test.nes phosphor-test.o

PPUCTRL   = $2000
PPUMASK   = $2001
PPUSTATUS = $2002
PPUSCROLL = $2005
PPUADDR   = $2006
PPUDATA   = $2007
SQ1_VOL   = $4000
SQ1_SWEEP = $4001
SQ1_LO    = $4002
SQ1_HI    = $4003
DMC_FREQ  = $4010
SND_CHN   = $4015
JOY1      = $4016
JOY2_FRAME = $4017

TONE_PERIOD = 253           ; 440.40 Hz on an NTSC CPU (1789773 Hz)

TILE_BLANK   = 0
TILE_OUTLINE = 1            ; colour 1 frame: button released
TILE_SOLID   = 2            ; colour 3 fill: button held / coloured block

; Letters live at tiles 3.. in the order of the font below.
.charmap ' ', 0
.charmap 'A', 3
.charmap 'B', 4
.charmap 'D', 5
.charmap 'H', 6
.charmap 'L', 7
.charmap 'N', 8
.charmap 'O', 9
.charmap 'P', 10
.charmap 'R', 11
.charmap 'S', 12
.charmap 'T', 13
.charmap 'U', 14

.segment "HEADER"
        .byte $4E, $45, $53, $1A    ; "NES" EOF (numbers: the charmap would remap letters)
        .byte 1                 ; 16 KiB PRG-ROM
        .byte 1                 ; 8 KiB CHR-ROM
        .byte $01               ; vertical mirroring, mapper 0
        .byte $00
        .res 8, 0

.segment "ZEROPAGE"
buttons:  .res 1            ; bit 7 = A, B, Select, Start, Up, Down, Left, bit 0 = Right
pointer:  .res 2
temp:     .res 1

.segment "CODE"

reset:
        .include "power-on.inc"

        jsr load_palettes
        jsr clear_nametable
        jsr draw_records
        jsr load_attributes
        jsr init_sound

        bit PPUSTATUS
@wait3: bit PPUSTATUS           ; turn rendering on inside vblank
        bpl @wait3
        lda #0
        sta PPUSCROLL
        sta PPUSCROLL
        lda #%00001010          ; background on, also in the leftmost 8 pixels
        sta PPUMASK
        lda #%10000000          ; NMI on, background pattern table $0000
        sta PPUCTRL
forever:
        jmp forever

load_palettes:
        lda #$3F
        sta PPUADDR
        lda #$00
        sta PPUADDR
        ldx #0
@loop:  lda palettes, x
        sta PPUDATA
        inx
        cpx #32
        bne @loop
        rts

clear_nametable:
        lda #$20
        sta PPUADDR
        lda #$00
        sta PPUADDR
        ldy #4                  ; 4 x 256 bytes: nametable 0 and its attributes
        tax
@loop:  sta PPUDATA
        inx
        bne @loop
        dey
        bne @loop
        rts

; Records: address high, address low, length, tiles...; a zero high byte ends.
draw_records:
        lda #<records
        sta pointer
        lda #>records
        sta pointer+1
        ldy #0
@record:
        lda (pointer), y
        beq @done
        sta PPUADDR
        iny
        lda (pointer), y
        sta PPUADDR
        iny
        lda (pointer), y
        sta temp
        iny
@tile:  lda (pointer), y
        sta PPUDATA
        iny
        dec temp
        bne @tile
        tya                     ; fold Y into the pointer so records may exceed 256 bytes
        clc
        adc pointer
        sta pointer
        bcc :+
        inc pointer+1
:       ldy #0
        jmp @record
@done:  rts

load_attributes:
        lda #$23
        sta PPUADDR
        lda #$C0
        sta PPUADDR
        ldx #0
@loop:  lda attributes, x
        sta PPUDATA
        inx
        cpx #64
        bne @loop
        rts

init_sound:
        lda #$01                ; pulse 1 only
        sta SND_CHN
        lda #$B0                ; duty 50%, length halt, constant volume 0 (silent)
        sta SQ1_VOL
        lda #$08                ; sweep off (negate set so it never mutes)
        sta SQ1_SWEEP
        lda #<TONE_PERIOD
        sta SQ1_LO
        lda #(>TONE_PERIOD) | $F8 ; timer high bits, longest length (halted anyway)
        sta SQ1_HI
        rts

nmi:
        pha
        txa
        pha
        tya
        pha

        .include "read-joypad.inc"

        ; Redraw the eight boxes: outline when released, solid when held.
        ldx #0
@box:   lda buttons
        and box_masks, x
        beq :+
        lda #TILE_SOLID
        bne :++
:       lda #TILE_OUTLINE
:       tay
        lda box_high, x
        sta PPUADDR
        lda box_low, x
        sta PPUADDR
        sty PPUDATA
        sty PPUDATA
        lda box_high, x
        sta PPUADDR
        lda box_low, x
        clc
        adc #32                 ; next tile row (never crosses a page here)
        sta PPUADDR
        sty PPUDATA
        sty PPUDATA
        inx
        cpx #8
        bne @box

        lda #0                  ; the address writes above moved the scroll
        sta PPUSCROLL
        sta PPUSCROLL
        lda #%10000000
        sta PPUCTRL

        ; Tone while A is held: only the volume changes, so the phase runs on.
        lda buttons
        bmi :+
        lda #$B0
        bne :++
:       lda #$BF
:       sta SQ1_VOL

        pla
        tay
        pla
        tax
        pla
irq:    rti

.segment "RODATA"

palettes:
        .byte $0F, $30, $10, $16        ; 0: white text, grey, red
        .byte $0F, $30, $1A, $2A        ; 1: green
        .byte $0F, $30, $12, $22        ; 2: blue
        .byte $0F, $30, $28, $38        ; 3: yellow
        .byte $0F, $30, $10, $16        ; sprite palettes (unused)
        .byte $0F, $30, $1A, $2A
        .byte $0F, $30, $12, $22
        .byte $0F, $30, $28, $38

; Box order follows the bits of `buttons` from bit 7 down.
box_masks:
        .byte $80, $40, $20, $10, $08, $04, $02, $01
box_high:
        .byte >$21C6, >$21CC, >$21D2, >$21D8, >$2286, >$228C, >$2292, >$2298
box_low:
        .byte <$21C6, <$21CC, <$21D2, <$21D8, <$2286, <$228C, <$2292, <$2298

.macro text address, string
        .byte >(address), <(address), .strlen(string), string
.endmacro
.macro block address
        .byte >(address), <(address), 2, TILE_SOLID, TILE_SOLID
        .byte >(address + 32), <(address + 32), 2, TILE_SOLID, TILE_SOLID
.endmacro

; Nametable 0 is $2000 + 32 * row + column.
records:
        text  $2000 + 32 * 4 + 12, "PHOSPHOR"
        block $2000 + 32 * 8 + 8
        block $2000 + 32 * 8 + 12
        block $2000 + 32 * 8 + 16
        block $2000 + 32 * 8 + 20
        text  $2000 + 32 * 17 + 6, "A"
        text  $2000 + 32 * 17 + 12, "B"
        text  $2000 + 32 * 17 + 18, "SL"
        text  $2000 + 32 * 17 + 24, "ST"
        text  $2000 + 32 * 23 + 6, "UP"
        text  $2000 + 32 * 23 + 12, "DN"
        text  $2000 + 32 * 23 + 18, "LT"
        text  $2000 + 32 * 23 + 24, "RT"
        .byte 0

; Palette per 2x2 tile area: blocks use palettes 0-3, box i uses (i mod 3) + 1.
attributes:
        .byte $00,$00,$00,$00,$00,$00,$00,$00
        .byte $00,$00,$00,$00,$00,$00,$00,$00
        .byte $00,$00,$00,$01,$02,$03,$00,$00
        .byte $00,$40,$00,$20,$C0,$00,$10,$00
        .byte $00,$00,$00,$00,$00,$00,$00,$00
        .byte $00,$08,$00,$03,$04,$00,$02,$00
        .byte $00,$00,$00,$00,$00,$00,$00,$00
        .byte $00,$00,$00,$00,$00,$00,$00,$00

.segment "VECTORS"
        .word nmi, reset, irq

; ---- CHR-ROM: 2-bit tiles, 8 bytes of plane 0 then 8 bytes of plane 1 ----
.segment "CHARS"

.macro glyph r0, r1, r2, r3, r4, r5, r6, r7
        .byte r0, r1, r2, r3, r4, r5, r6, r7    ; colour 1
        .byte 0, 0, 0, 0, 0, 0, 0, 0
.endmacro

        .res 16, 0                                              ; 0 blank
        glyph $FF,$81,$81,$81,$81,$81,$81,$FF                   ; 1 outline
        .byte $FF,$FF,$FF,$FF,$FF,$FF,$FF,$FF                   ; 2 solid colour 3
        .byte $FF,$FF,$FF,$FF,$FF,$FF,$FF,$FF
        glyph %00111000,%01000100,%01000100,%01111100,%01000100,%01000100,%01000100,0 ; A
        glyph %01111000,%01000100,%01000100,%01111000,%01000100,%01000100,%01111000,0 ; B
        glyph %01111000,%01000100,%01000100,%01000100,%01000100,%01000100,%01111000,0 ; D
        glyph %01000100,%01000100,%01000100,%01111100,%01000100,%01000100,%01000100,0 ; H
        glyph %01000000,%01000000,%01000000,%01000000,%01000000,%01000000,%01111100,0 ; L
        glyph %01000100,%01100100,%01010100,%01001100,%01000100,%01000100,%01000100,0 ; N
        glyph %00111000,%01000100,%01000100,%01000100,%01000100,%01000100,%00111000,0 ; O
        glyph %01111000,%01000100,%01000100,%01111000,%01000000,%01000000,%01000000,0 ; P
        glyph %01111000,%01000100,%01000100,%01111000,%01010000,%01001000,%01000100,0 ; R
        glyph %00111100,%01000000,%01000000,%00111000,%00000100,%00000100,%01111000,0 ; S
        glyph %01111100,%00010000,%00010000,%00010000,%00010000,%00010000,%00010000,0 ; T
        glyph %01000100,%01000100,%01000100,%01000100,%01000100,%01000100,%00111000,0 ; U

; Phosphor's input-lag cartridge (NES, NROM-128): a known delay between a press and the picture,
; for the run-ahead tests. Assembled with ca65/ld65 (Debian cc65) by `make roms` (Roms/Makefile).
;
; The whole screen is the backdrop colour (no tiles are drawn). Every NMI the program
;   1. writes the colour it chose last frame into the backdrop,
;   2. reads the joypad,
;   3. counts: when A goes down (and nothing is pending), it waits DELAY more frames, then
;      "reacts": from then on the backdrop is red for good,
;   4. until then the backdrop cycles through four greys, one step every 8 frames, so frames
;      some way apart differ (a run-ahead that showed the wrong frame would show).
; So a press seen by frame K's joypad read turns the picture red a fixed number of frames later
; (DELAY, plus the frame the colour waits to be written, plus the core's own pipeline), which
; the tests measure once without run-ahead and expect N frames earlier with N frames of it.

PPUCTRL   = $2000
PPUMASK   = $2001
PPUSTATUS = $2002
PPUSCROLL = $2005
PPUADDR   = $2006
PPUDATA   = $2007
DMC_FREQ  = $4010
JOY1      = $4016
JOY2_FRAME = $4017

DELAY     = 2               ; frames between seeing A and reacting, like many real games
RED       = $16

.segment "HEADER"
        .byte $4E, $45, $53, $1A    ; "NES" EOF
        .byte 1                 ; 16 KiB PRG-ROM
        .byte 1                 ; 8 KiB CHR-ROM
        .byte $01               ; vertical mirroring, mapper 0
        .byte $00
        .res 8, 0

.segment "ZEROPAGE"
buttons:  .res 1            ; bit 7 = A ... bit 0 = Right
frame:    .res 1            ; NMIs since power-on (wraps)
pending:  .res 1            ; frames left before reacting (0: nothing pending)
reacted:  .res 1            ; 1 once the press has been answered
colour:   .res 1            ; the backdrop for the next frame

.segment "CODE"

reset:
        .include "power-on.inc"

        lda #$20                ; nametable 0 and its attributes: all tile 0 (blank)
        sta PPUADDR
        lda #$00
        sta PPUADDR
        ldy #4
        tax
@fill:  sta PPUDATA
        inx
        bne @fill
        dey
        bne @fill
        lda greys
        sta colour

        bit PPUSTATUS
@wait3: bit PPUSTATUS           ; turn rendering on inside vblank
        bpl @wait3
        lda #0
        sta PPUSCROLL
        sta PPUSCROLL
        lda #%00001010          ; background on, also in the leftmost 8 pixels
        sta PPUMASK
        lda #%10000000          ; NMI on
        sta PPUCTRL
forever:
        jmp forever

nmi:
        pha
        txa
        pha
        lda #$3F                ; 1. the backdrop chosen last frame
        sta PPUADDR
        lda #$00
        sta PPUADDR
        lda colour
        sta PPUDATA
        lda #0
        sta PPUSCROLL
        sta PPUSCROLL
        lda #%10000000
        sta PPUCTRL

        .include "read-joypad.inc"     ; 2. the joypad

        inc frame               ; 3. the countdown
        lda pending
        beq @idle
        dec pending
        bne @choose
        lda #1
        sta reacted
        jmp @choose
@idle:  lda reacted
        bne @choose
        lda buttons
        bpl @choose             ; A is bit 7
        lda #DELAY
        sta pending

@choose:                        ; 4. next frame's colour
        lda reacted
        beq @grey
        lda #RED
        jmp @store
@grey:  lda frame
        lsr a
        lsr a
        lsr a
        and #3
        tax
        lda greys, x
@store: sta colour
        pla
        tax
        pla
        rti

irq:    rti

.segment "RODATA"
greys:  .byte $0F, $00, $10, $20    ; black, dark grey, light grey, white

.segment "VECTORS"
        .word nmi, reset, irq

.segment "CHARS"
        .res 8192, 0            ; every tile blank: the screen is the backdrop

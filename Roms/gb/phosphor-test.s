; Phosphor Game Boy Color test cartridge (runs on DMG too).
;
; Header (written by makebin, see Makefile): CGB flag 0x80, cartridge type
; 0x03 MBC1+RAM+BATTERY, 32 KiB ROM, 8 KiB RAM, Nintendo logo, checksums.
;
; Picture (20x18 tiles): the title PHOSPHOR at tile row 1, four coloured 2x2
; blocks (red, green, blue, yellow) at row 3, eight 2x2 button boxes with
; labels below them (row 6: A B SL ST, row 10: UP DN LT RT), and at row 14
; "BOOT nnnnn", the battery-backed power-on counter in decimal.
; A box is a white outline while its button is released and solid colour
; while it is held.
;
; Sound: channel 1, 50% duty, volume 15, frequency register 1750:
;   f = 131072 / (2048 - 1750) = 439.84 Hz, routed to both speakers (NR51)
;   while A is held, to neither otherwise (the channel keeps running).
;
; Battery RAM (bank 0 of the 8 KiB SRAM at 0xA000):
;   0xA000-0xA003  "PHOS" signature; anything else counts as a fresh RAM
;   0xA004-0xA005  power-on counter, 16-bit little-endian
; At every power-on the program enables SRAM, checks the signature, adds one
; to the counter (wrapping at 65536), and disables SRAM again.
;
; Build: sdasgb -o phosphor-test.rel phosphor-test.s, then sdldgb and makebin.

        .area ROM (ABS)

; ---- hardware registers ------------------------------------------------
P1   = 0xFF00
NR10 = 0xFF10
NR11 = 0xFF11
NR12 = 0xFF12
NR13 = 0xFF13
NR14 = 0xFF14
NR50 = 0xFF24
NR51 = 0xFF25
NR52 = 0xFF26
LCDC = 0xFF40
LY   = 0xFF44
BGP  = 0xFF47
VBK  = 0xFF4F
BCPS = 0xFF68
BCPD = 0xFF69
IE   = 0xFFFF

MBC_RAM_ENABLE = 0x0000
MBC_RAM_BANK   = 0x4000
MBC_MODE       = 0x6000
SRAM           = 0xA000

TONE_REGISTER = 1750            ; 131072 / (2048 - 1750) = 439.84 Hz

; ---- work RAM (cleared at boot) -----------------------------------------
is_cgb  = 0xC000                ; 1 when the boot ROM said CGB (A = 0x11)
buttons = 0xC001                ; bit 0 A, 1 B, 2 Select, 3 Start, 4 Right, 5 Left, 6 Up, 7 Down
digits  = 0xC002                ; 5 tile numbers of the counter
counter = 0xC007                ; 2 bytes, the counter after this boot

; ---- tiles --------------------------------------------------------------
T_BLANK   = 0
T_OUTLINE = 1                   ; colour 1 frame: button released
T_SOLID   = 2                   ; colour 3 fill: button held / coloured block
C_A = 3
C_B = 4
C_D = 5
C_H = 6
C_L = 7
C_N = 8
C_O = 9
C_P = 10
C_R = 11
C_S = 12
C_T = 13
C_U = 14
C_0 = 15                        ; digits 0-9 are tiles 15-24

MAP = 0x9800                    ; background map: MAP + 32 * row + column

; ---- entry point: the header area at 0x104-0x14F is filled by makebin ------
        .org 0x100
        nop
        jp start

        .org 0x150
start:
        di
        ld sp, #0xE000
        ld b, a                 ; boot ROM leaves 0x11 in A on a CGB

        ; clear work RAM variables (0xC000-0xC0FF)
        ld hl, #0xC000
        xor a
        ld c, a
1$:     ld (hl+), a
        dec c
        jr nz, 1$
        ld a, b
        cp #0x11
        jr nz, 2$
        ld a, #1
        ld (is_cgb), a
2$:
        ; LCD off: wait for vertical blank first (LY >= 144)
3$:     ldh a, (LY)
        cp #144
        jr c, 3$
        xor a
        ldh (LCDC), a
        ldh (IE), a

        ; clear VRAM bank 0 (tiles and both maps)
        ld hl, #0x8000
        ld bc, #0x2000
        call clear_memory
        ld a, (is_cgb)
        or a
        jr z, 4$
        ld a, #1                ; CGB: clear map attributes (VRAM bank 1)
        ldh (VBK), a
        ld hl, #MAP
        ld bc, #0x0400
        call clear_memory
        ld hl, #attribute_records
        call draw_records
        xor a
        ldh (VBK), a
        call load_cgb_palettes
4$:
        ld a, #0x93             ; DMG shades: 0 black, 1 white, 2 light, 3 dark grey
        ldh (BGP), a

        ; tiles to 0x8000
        ld hl, #tiles
        ld de, #0x8000
        ld bc, #tiles_end - tiles
5$:     ld a, (hl+)
        ld (de), a
        inc de
        dec bc
        ld a, b
        or c
        jr nz, 5$

        ld hl, #map_records
        call draw_records

        call count_boot
        call draw_counter
        call init_sound

        ld a, #0x91             ; LCD on, tiles at 0x8000, map 0x9800, background on
        ldh (LCDC), a

main_loop:
        ; wait for the start of vertical blank: leave line 144, then reach it
6$:     ldh a, (LY)
        cp #144
        jr z, 6$
7$:     ldh a, (LY)
        cp #144
        jr nz, 7$

        call read_joypad
        call draw_boxes
        ; tone: route channel 1 to both speakers only while A is held
        ld a, (buttons)
        and #0x01
        jr z, 8$
        ld a, #0x11
8$:     ldh (NR51), a
        jr main_loop

; hl = start, bc = byte count; fills with zero
clear_memory:
        xor a
        ld (hl+), a
        dec bc
        ld a, b
        or c
        jr nz, clear_memory
        ret

; Records at hl: .dw address, .db count, bytes...; a zero address ends.
draw_records:
        ld a, (hl+)
        ld e, a
        ld a, (hl+)
        ld d, a
        or e
        ret z
        ld a, (hl+)
        ld c, a
1$:     ld a, (hl+)
        ld (de), a
        inc de
        dec c
        jr nz, 1$
        jr draw_records

load_cgb_palettes:
        ld a, #0x80             ; palette index 0, auto-increment
        ldh (BCPS), a
        ld hl, #cgb_palettes
        ld c, #32
1$:     ld a, (hl+)
        ldh (BCPD), a
        dec c
        jr nz, 1$
        ret

; Battery RAM: signature check, counter + 1, copy to `counter`.
count_boot:
        xor a
        ld (MBC_MODE), a
        ld (MBC_RAM_BANK), a
        ld a, #0x0A
        ld (MBC_RAM_ENABLE), a
        ld hl, #SRAM
        ld de, #signature
        ld c, #4
1$:     ld a, (de)
        cp (hl)
        jr nz, 2$
        inc de
        inc hl
        dec c
        jr nz, 1$
        jr 3$
2$:     ld hl, #SRAM            ; fresh RAM: write the signature, counter 0
        ld de, #signature
        ld c, #4
4$:     ld a, (de)
        ld (hl+), a
        inc de
        dec c
        jr nz, 4$
        xor a
        ld (hl+), a
        ld (hl), a
3$:     ld hl, #SRAM + 4
        ld a, (hl)
        add a, #1
        ld (hl+), a
        ld (counter), a
        ld a, (hl)
        adc a, #0
        ld (hl), a
        ld (counter + 1), a
        xor a
        ld (MBC_RAM_ENABLE), a  ; SRAM off again
        ret

; Five decimal digits of `counter` to the map at row 14, column 10.
draw_counter:
        ld a, (counter)
        ld e, a
        ld a, (counter + 1)
        ld d, a
        ld hl, #MAP + 32 * 14 + 10
        ld bc, #10000
        call draw_digit
        ld bc, #1000
        call draw_digit
        ld bc, #100
        call draw_digit
        ld bc, #10
        call draw_digit
        ld bc, #1
        ; fall through
; de = value, bc = power of ten: writes the digit tile at (hl+), de = remainder
draw_digit:
        push hl
        ld h, #0
1$:     ld a, e
        sub c
        ld l, a
        ld a, d
        sbc b
        jr c, 2$
        ld d, a
        ld e, l
        inc h
        jr 1$
2$:     ld a, h
        add a, #C_0
        pop hl
        ld (hl+), a
        ret

init_sound:
        ld a, #0x80             ; APU on
        ldh (NR52), a
        ld a, #0x77             ; full master volume
        ldh (NR50), a
        xor a
        ldh (NR51), a           ; not routed: silent
        ldh (NR10), a           ; no sweep
        ld a, #0x80             ; 50% duty
        ldh (NR11), a
        ld a, #0xF0             ; volume 15, no envelope
        ldh (NR12), a
        ld a, #<TONE_REGISTER
        ldh (NR13), a
        ld a, #0x80 | (TONE_REGISTER >> 8) ; trigger, no length limit
        ldh (NR14), a
        ret

; P1: select directions, then buttons; both read active low.
read_joypad:
        ld a, #0x20
        ldh (P1), a
        ldh a, (P1)
        ldh a, (P1)
        cpl
        and #0x0F
        swap a
        ld b, a
        ld a, #0x10
        ldh (P1), a
        ldh a, (P1)
        ldh a, (P1)
        ldh a, (P1)
        ldh a, (P1)
        cpl
        and #0x0F
        or b
        ld (buttons), a
        ld a, #0x30
        ldh (P1), a
        ret

; Eight boxes, each 2x2 tiles: outline when released, solid when held.
draw_boxes:
        ld hl, #box_table
        ld b, #8
1$:     ld a, (hl+)             ; mask
        ld c, a
        ld a, (hl+)
        ld e, a
        ld a, (hl+)
        ld d, a
        ld a, (buttons)
        and c
        ld a, #T_OUTLINE
        jr z, 2$
        ld a, #T_SOLID
2$:     ld (de), a
        inc de
        ld (de), a
        push hl
        ld hl, #31
        add hl, de
        ld (hl+), a
        ld (hl), a
        pop hl
        dec b
        jr nz, 1$
        ret

; ---- data ---------------------------------------------------------------
signature:
        .db 0x50, 0x48, 0x4F, 0x53      ; "PHOS"

box_table:                              ; mask, map address
        .db 0x01
        .dw MAP + 32 * 6 + 3            ; A
        .db 0x02
        .dw MAP + 32 * 6 + 7            ; B
        .db 0x04
        .dw MAP + 32 * 6 + 11           ; Select
        .db 0x08
        .dw MAP + 32 * 6 + 15           ; Start
        .db 0x40
        .dw MAP + 32 * 10 + 3           ; Up
        .db 0x80
        .dw MAP + 32 * 10 + 7           ; Down
        .db 0x20
        .dw MAP + 32 * 10 + 11          ; Left
        .db 0x10
        .dw MAP + 32 * 10 + 15          ; Right

map_records:
        .dw MAP + 32 * 1 + 6
        .db 8, C_P, C_H, C_O, C_S, C_P, C_H, C_O, C_R
        .dw MAP + 32 * 3 + 3
        .db 14, 2, 2, 0, 0, 2, 2, 0, 0, 2, 2, 0, 0, 2, 2
        .dw MAP + 32 * 4 + 3
        .db 14, 2, 2, 0, 0, 2, 2, 0, 0, 2, 2, 0, 0, 2, 2
        .dw MAP + 32 * 8 + 3
        .db 14, C_A, 0, 0, 0, C_B, 0, 0, 0, C_S, C_L, 0, 0, C_S, C_T
        .dw MAP + 32 * 12 + 3
        .db 14, C_U, C_P, 0, 0, C_D, C_N, 0, 0, C_L, C_T, 0, 0, C_R, C_T
        .dw MAP + 32 * 14 + 5
        .db 4, C_B, C_O, C_O, C_T
        .dw 0

; CGB palette numbers (VRAM bank 1): blocks 0-3, box i uses (i mod 3) + 1
attribute_records:
        .dw MAP + 32 * 3 + 3
        .db 14, 0, 0, 0, 0, 1, 1, 0, 0, 2, 2, 0, 0, 3, 3
        .dw MAP + 32 * 4 + 3
        .db 14, 0, 0, 0, 0, 1, 1, 0, 0, 2, 2, 0, 0, 3, 3
        .dw MAP + 32 * 6 + 3
        .db 14, 1, 1, 0, 0, 2, 2, 0, 0, 3, 3, 0, 0, 1, 1
        .dw MAP + 32 * 7 + 3
        .db 14, 1, 1, 0, 0, 2, 2, 0, 0, 3, 3, 0, 0, 1, 1
        .dw MAP + 32 * 10 + 3
        .db 14, 2, 2, 0, 0, 3, 3, 0, 0, 1, 1, 0, 0, 2, 2
        .dw MAP + 32 * 11 + 3
        .db 14, 2, 2, 0, 0, 3, 3, 0, 0, 1, 1, 0, 0, 2, 2
        .dw 0

; RGB555 little-endian: black, white, grey, then the palette's colour
cgb_palettes:
        .dw 0x0000, 0x7FFF, 0x4210, 0x001F      ; 0 red
        .dw 0x0000, 0x7FFF, 0x4210, 0x03E0      ; 1 green
        .dw 0x0000, 0x7FFF, 0x4210, 0x7E10      ; 2 blue
        .dw 0x0000, 0x7FFF, 0x4210, 0x03FF      ; 3 yellow

; 2-bit tiles: per row, low bit-plane byte then high bit-plane byte.
        .macro glyph r0, r1, r2, r3, r4, r5, r6, r7
        .db r0, 0, r1, 0, r2, 0, r3, 0, r4, 0, r5, 0, r6, 0, r7, 0
        .endm
tiles:
        glyph 0, 0, 0, 0, 0, 0, 0, 0                                    ; 0 blank
        glyph 0xFF, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0xFF            ; 1 outline
        .db 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF              ; 2 solid colour 3
        .db 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF
        glyph 0x38, 0x44, 0x44, 0x7C, 0x44, 0x44, 0x44, 0               ; A
        glyph 0x78, 0x44, 0x44, 0x78, 0x44, 0x44, 0x78, 0               ; B
        glyph 0x78, 0x44, 0x44, 0x44, 0x44, 0x44, 0x78, 0               ; D
        glyph 0x44, 0x44, 0x44, 0x7C, 0x44, 0x44, 0x44, 0               ; H
        glyph 0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x7C, 0               ; L
        glyph 0x44, 0x64, 0x54, 0x4C, 0x44, 0x44, 0x44, 0               ; N
        glyph 0x38, 0x44, 0x44, 0x44, 0x44, 0x44, 0x38, 0               ; O
        glyph 0x78, 0x44, 0x44, 0x78, 0x40, 0x40, 0x40, 0               ; P
        glyph 0x78, 0x44, 0x44, 0x78, 0x50, 0x48, 0x44, 0               ; R
        glyph 0x3C, 0x40, 0x40, 0x38, 0x04, 0x04, 0x78, 0               ; S
        glyph 0x7C, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0               ; T
        glyph 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x38, 0               ; U
        glyph 0x38, 0x44, 0x4C, 0x54, 0x64, 0x44, 0x38, 0               ; 0
        glyph 0x10, 0x30, 0x10, 0x10, 0x10, 0x10, 0x38, 0               ; 1
        glyph 0x38, 0x44, 0x04, 0x18, 0x20, 0x40, 0x7C, 0               ; 2
        glyph 0x78, 0x04, 0x04, 0x38, 0x04, 0x04, 0x78, 0               ; 3
        glyph 0x08, 0x18, 0x28, 0x48, 0x7C, 0x08, 0x08, 0               ; 4
        glyph 0x7C, 0x40, 0x78, 0x04, 0x04, 0x44, 0x38, 0               ; 5
        glyph 0x38, 0x40, 0x40, 0x78, 0x44, 0x44, 0x38, 0               ; 6
        glyph 0x7C, 0x04, 0x08, 0x10, 0x20, 0x20, 0x20, 0               ; 7
        glyph 0x38, 0x44, 0x44, 0x38, 0x44, 0x44, 0x38, 0               ; 8
        glyph 0x38, 0x44, 0x44, 0x3C, 0x04, 0x04, 0x38, 0               ; 9
tiles_end:

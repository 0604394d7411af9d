; Phosphor Game Boy clock cartridge: shows the real-time clock it reads.
;
; Header (written by makebin, see Makefile): DMG, cartridge type 0x10
; MBC3+TIMER+RAM+BATTERY, 32 KiB ROM, 8 KiB RAM, Nintendo logo, checksums.
;
; Picture (20x18 tiles, white on black): CLOCK at tile row 4, and at row 8
; "ddd hh:mm:ss", the MBC3 clock (days, hours, minutes, seconds) latched
; and read once a frame.
;
; Battery RAM (bank 0 of the SRAM at 0xA000): the five clock registers as
; last read, raw (the unused bits as the cartridge returned them):
;   0xA000 seconds, 0xA001 minutes, 0xA002 hours, 0xA003 day counter bits
;   0-7, 0xA004 day high (bit 0 day counter bit 8, bit 6 halt, bit 7 carry)
; so a test can read the clock from the `.srm` file as well as the screen.
;
; At power-on the program enables RAM and clock and clears the halt bit if
; it is set, so the clock runs.
;
; Build: sdasgb, sdldgb and makebin (see Makefile).

        .area ROM (ABS)

LCDC = 0xFF40
LY   = 0xFF44
BGP  = 0xFF47
IE   = 0xFFFF

MBC_RAM_ENABLE = 0x0000         ; 0x0A: RAM and clock registers on
MBC_BANK       = 0x4000         ; 0-3: RAM bank, 0x08-0x0C: clock register
MBC_LATCH      = 0x6000         ; 0 then 1: copy the running clock into the registers
SRAM           = 0xA000
RTC_SECONDS    = 0x08
RTC_DAY_HIGH   = 0x0C

; ---- work RAM -----------------------------------------------------------
clock = 0xC000                  ; 5 bytes: seconds, minutes, hours, day low, day high
text  = 0xC010                  ; 12 tile numbers: "ddd hh:mm:ss"

; ---- tiles --------------------------------------------------------------
T_BLANK = 0
T_0     = 1                     ; digits 0-9 are tiles 1-10
T_COLON = 11
C_C     = 12
C_L     = 13
C_O     = 14
C_K     = 15

MAP = 0x9800                    ; background map: MAP + 32 * row + column
CLOCK_AT = MAP + 32 * 8 + 4

        .org 0x100
        nop
        jp start

        .org 0x150
start:
        di
        ld sp, #0xE000
1$:     ldh a, (LY)             ; LCD off in vertical blank
        cp #144
        jr c, 1$
        xor a
        ldh (LCDC), a
        ldh (IE), a

        ld hl, #0x8000          ; clear tiles and maps
        ld bc, #0x2000
        call clear_memory
        ld hl, #tiles
        ld de, #0x8000
        ld bc, #tiles_end - tiles
        call copy
        ld hl, #title
        ld de, #MAP + 32 * 4 + 7
        ld bc, #5
        call copy
        ld a, #0x93             ; colour 0 black, colour 1 white
        ldh (BGP), a

        ld a, #0x0A             ; RAM and clock on
        ld (MBC_RAM_ENABLE), a
        call latch
        ld a, #RTC_DAY_HIGH
        ld (MBC_BANK), a
        ld a, (SRAM)
        bit 6, a
        jr z, 2$
        res 6, a                ; halted: let it run
        ld (SRAM), a
2$:
        ld a, #0x91             ; LCD on, tiles at 0x8000, map 0x9800, background on
        ldh (LCDC), a

main_loop:
        call read_clock
        call format_clock
3$:     ldh a, (LY)             ; the start of vertical blank: leave line 144, reach it
        cp #144
        jr z, 3$
4$:     ldh a, (LY)
        cp #144
        jr nz, 4$
        ld hl, #text
        ld de, #CLOCK_AT
        ld bc, #12
        call copy
        jr main_loop

latch:
        xor a
        ld (MBC_LATCH), a
        inc a
        ld (MBC_LATCH), a
        ret

; Latches the clock, reads its five registers into `clock` and copies them
; to battery RAM bank 0.
read_clock:
        call latch
        ld hl, #clock
        ld b, #RTC_SECONDS
1$:     ld a, b
        ld (MBC_BANK), a
        ld a, (SRAM)
        ld (hl+), a
        inc b
        ld a, b
        cp #RTC_DAY_HIGH + 1
        jr nz, 1$
        xor a
        ld (MBC_BANK), a
        ld hl, #clock
        ld de, #SRAM
        ld bc, #5
        jp copy

; `clock` as tile numbers in `text`: "ddd hh:mm:ss".
format_clock:
        ld hl, #text
        ld a, (clock + 4)
        and #0x01
        ld d, a
        ld a, (clock + 3)
        ld e, a
        ld bc, #100
        call draw_digit
        ld bc, #10
        call draw_digit
        ld bc, #1
        call draw_digit
        ld a, #T_BLANK
        ld (hl+), a
        ld a, (clock + 2)
        and #0x1F
        call two_digits
        ld a, #T_COLON
        ld (hl+), a
        ld a, (clock + 1)
        and #0x3F
        call two_digits
        ld a, #T_COLON
        ld (hl+), a
        ld a, (clock)
        and #0x3F
        ; fall through
; a = 0..99: two digit tiles at (hl+)
two_digits:
        ld b, #0
1$:     cp #10
        jr c, 2$
        sub #10
        inc b
        jr 1$
2$:     ld c, a
        ld a, b
        add a, #T_0
        ld (hl+), a
        ld a, c
        add a, #T_0
        ld (hl+), a
        ret

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
        add a, #T_0
        pop hl
        ld (hl+), a
        ret

; hl = start, bc = byte count; fills with zero
clear_memory:
        xor a
        ld (hl+), a
        dec bc
        ld a, b
        or c
        jr nz, clear_memory
        ret

; hl = source, de = destination, bc = byte count
copy:
        ld a, (hl+)
        ld (de), a
        inc de
        dec bc
        ld a, b
        or c
        jr nz, copy
        ret

; ---- data ---------------------------------------------------------------
title:
        .db C_C, C_L, C_O, C_C, C_K

; 1-bit glyphs in colour 1: per row, low bit-plane byte then high bit-plane byte.
        .macro glyph r0, r1, r2, r3, r4, r5, r6, r7
        .db r0, 0, r1, 0, r2, 0, r3, 0, r4, 0, r5, 0, r6, 0, r7, 0
        .endm
tiles:
        glyph 0, 0, 0, 0, 0, 0, 0, 0                                    ; 0 blank
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
        glyph 0, 0x30, 0x30, 0, 0x30, 0x30, 0, 0                        ; :
        glyph 0x38, 0x44, 0x40, 0x40, 0x40, 0x44, 0x38, 0               ; C
        glyph 0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x7C, 0               ; L
        glyph 0x38, 0x44, 0x44, 0x44, 0x44, 0x44, 0x38, 0               ; O
        glyph 0x44, 0x48, 0x50, 0x60, 0x50, 0x48, 0x44, 0               ; K
tiles_end:

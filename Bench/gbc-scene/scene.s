; Phosphor's game-like Game Boy Color bench cartridge: what a real game's frames look like to
; a terminal frontend, unlike the test cartridge's flat blocks. A background of detailed tiles
; (clouds, hills, trees, grass, bricks, water; eight CGB palettes, 32 colours) scrolls one pixel
; per frame; ten 8x8 sprites of four kinds bounce around (four object palettes); a two-row
; window at the bottom holds text and a score that counts every frame.
;
; Keys: Left reverses the scroll, Right restores it; Up/Down move the view vertically; while A
; is held the sky (background palette 0, colour 0) is pure red: the bench's key-to-screen mark.
;
; Data (tiles, maps, palettes, sprites) comes from scene.py -> scene.inc. ROM only, 32 KiB,
; CGB only (flag 0xC0). Build: see Roms/Makefile.

        .area ROM (ABS)

P1   = 0xFF00
LCDC = 0xFF40
STAT = 0xFF41
SCY  = 0xFF42
SCX  = 0xFF43
LY   = 0xFF44
WY   = 0xFF4A
WX   = 0xFF4B
VBK  = 0xFF4F
BCPS = 0xFF68
BCPD = 0xFF69
OCPS = 0xFF6A
OCPD = 0xFF6B
IE   = 0xFFFF
OAM  = 0xFE00

; ---- work RAM ------------------------------------------------------------
sprites   = 0xC100              ; SPRITE_COUNT x (y, x, dy, dx, tile, attributes)
score     = 0xC000              ; 6 digits, most significant first, 0-9 each
direction = 0xC006              ; scroll step: 1 or 0xFF
buttons   = 0xC007              ; bit 0 A, 4 Right, 5 Left, 6 Up, 7 Down (1 = held)

        .org 0x100
        nop
        jp start

        .org 0x150
start:
        di
        ld sp, #0xE000
1$:     ldh a, (LY)             ; LCD off only in vertical blank
        cp #144
        jr c, 1$
        xor a
        ldh (LCDC), a
        ldh (IE), a

        ld hl, #tiles           ; tiles to 0x8000
        ld de, #0x8000
        ld bc, #tiles_end - tiles
        call copy
        ld hl, #bg_map
        ld de, #0x9800
        ld bc, #1024
        call copy
        ld hl, #window_map
        ld de, #0x9C00
        ld bc, #64
        call copy
        ld a, #1                ; attributes live in VRAM bank 1
        ldh (VBK), a
        ld hl, #bg_attributes
        ld de, #0x9800
        ld bc, #1024
        call copy
        ld hl, #window_attributes
        ld de, #0x9C00
        ld bc, #64
        call copy
        xor a
        ldh (VBK), a

        ld a, #0x80             ; palettes, auto-increment
        ldh (BCPS), a
        ld hl, #bg_palettes
        ld b, #64
2$:     ld a, (hl+)
        ldh (BCPD), a
        dec b
        jr nz, 2$
        ld a, #0x80
        ldh (OCPS), a
        ld hl, #obj_palettes
        ld b, #64
3$:     ld a, (hl+)
        ldh (OCPD), a
        dec b
        jr nz, 3$

        ld hl, #OAM             ; no stray sprites
        ld b, #160
        xor a
4$:     ld (hl+), a
        dec b
        jr nz, 4$
        ld hl, #score
        ld b, #8
5$:     ld (hl+), a
        dec b
        jr nz, 5$
        ld a, #1
        ld (direction), a
        ld hl, #sprite_start
        ld de, #sprites
        ld bc, #sprite_start_end - sprite_start
        call copy

        ld a, #128              ; window: the bottom two tile rows
        ldh (WY), a
        ld a, #7
        ldh (WX), a
        xor a
        ldh (SCX), a
        ldh (SCY), a
        ld a, #0xF3             ; LCD on, window map 9C00, window on, tiles 8000, sprites on, BG on
        ldh (LCDC), a

main:
        call wait_vblank
        ; -- vertical blank: everything that touches VRAM, OAM or palettes --
        ldh a, (SCX)
        ld b, a
        ld a, (direction)
        add a, b
        ldh (SCX), a
        call write_oam
        call write_score
        call write_sky
        ; -- the rest of the frame: game logic in work RAM --
        call read_buttons
        call move_sprites
        call count_score
        jr main

; Waits for the start of vertical blank (LY becomes 144).
wait_vblank:
1$:     ldh a, (LY)
        cp #144
        jr z, 1$
2$:     ldh a, (LY)
        cp #144
        jr nz, 2$
        ret

; Copies BC bytes from HL to DE.
copy:
1$:     ld a, (hl+)
        ld (de), a
        inc de
        dec bc
        ld a, b
        or c
        jr nz, 1$
        ret

write_oam:
        ld hl, #sprites
        ld de, #OAM
        ld b, #SPRITE_COUNT
1$:     ld a, (hl+)             ; y
        ld (de), a
        inc de
        ld a, (hl+)             ; x
        ld (de), a
        inc de
        inc hl                  ; dy, dx
        inc hl
        ld a, (hl+)             ; tile
        ld (de), a
        inc de
        ld a, (hl+)             ; attributes
        ld (de), a
        inc de
        dec b
        jr nz, 1$
        ret

write_score:
        ld hl, #score
        ld de, #0x9C00 + SCORE_COLUMN
        ld b, #6
1$:     ld a, (hl+)
        add a, #FIRST_DIGIT
        ld (de), a
        inc de
        dec b
        jr nz, 1$
        ret

; Background palette 0 colour 0: the sky, red while A is held.
write_sky:
        xor a
        ldh (BCPS), a
        ld a, (buttons)
        and #1
        jr z, 1$
        ld a, #MARK_LOW
        ldh (BCPD), a
        ld a, #1
        ldh (BCPS), a
        ld a, #MARK_HIGH
        ldh (BCPD), a
        ret
1$:     ld a, #SKY_LOW
        ldh (BCPD), a
        ld a, #1
        ldh (BCPS), a
        ld a, #SKY_HIGH
        ldh (BCPD), a
        ret

read_buttons:
        ld a, #0x10             ; select the buttons (A B Select Start)
        ldh (P1), a
        ldh a, (P1)
        ldh a, (P1)
        cpl
        and #0x0F
        ld b, a
        ld a, #0x20             ; select the directions (Right Left Up Down)
        ldh (P1), a
        ldh a, (P1)
        ldh a, (P1)
        cpl
        and #0x0F
        swap a
        or b
        ld (buttons), a
        ld a, #0x30
        ldh (P1), a
        ld a, (buttons)
        bit 4, a                ; Right: scroll forwards
        jr z, 1$
        ld a, #1
        ld (direction), a
1$:     ld a, (buttons)
        bit 5, a                ; Left: scroll backwards
        jr z, 2$
        ld a, #0xFF
        ld (direction), a
2$:     ld a, (buttons)
        bit 6, a                ; Up
        jr z, 3$
        ldh a, (SCY)
        dec a
        ldh (SCY), a
3$:     ld a, (buttons)
        bit 7, a                ; Down
        ret z
        ldh a, (SCY)
        inc a
        ldh (SCY), a
        ret

; Each sprite moves by (dx, dy) and bounces off x 8..160, y 16..136.
move_sprites:
        ld hl, #sprites
        ld c, #SPRITE_COUNT
1$:     ld a, (hl)              ; y += dy
        inc hl
        inc hl
        ld b, (hl)              ; dy
        dec hl
        dec hl
        add a, b
        ld (hl), a
        cp #16
        jr c, 2$
        cp #136
        jr c, 3$
2$:     inc hl                  ; bounce: dy = -dy
        inc hl
        ld a, (hl)
        cpl
        inc a
        ld (hl), a
        dec hl
        dec hl
3$:     inc hl                  ; x += dx
        ld a, (hl)
        inc hl
        inc hl
        ld b, (hl)              ; dx
        dec hl
        dec hl
        add a, b
        ld (hl), a
        cp #8
        jr c, 4$
        cp #160
        jr c, 5$
4$:     inc hl
        inc hl
        ld a, (hl)
        cpl
        inc a
        ld (hl), a
        dec hl
        dec hl
5$:     ld de, #5               ; next sprite (hl is at x)
        add hl, de
        dec c
        jr nz, 1$
        ret

; score += 1, decimal, six digits.
count_score:
        ld hl, #score + 5
        ld b, #6
1$:     ld a, (hl)
        inc a
        cp #10
        jr c, 2$
        xor a
        ld (hl-), a
        dec b
        jr nz, 1$
        ret
2$:     ld (hl), a
        ret

        .include "scene.inc"

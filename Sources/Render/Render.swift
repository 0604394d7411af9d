// The Render module: libretro frames to terminal half-block output. Everything here runs on the
// one thread that draws (the UI thread). It imports PhosphorKit for the shared vocabulary only
// (`PixelFormat`, `PixelRect`, `CellRect`), nothing else from the app.
//
//   FrameSource   a view of a core's pixels (0RGB1555, XRGB8888, RGB565; any pitch)
//   Downsampler   fits a source rectangle into a cell rectangle: aspect, area averaging or
//                 exact integer scaling, letterbox bars
//   CellCanvas    the terminal-sized grid a frame is composed on (pictures, fills, text)
//   TerminalEncoder  the difference against what the terminal shows, as escape bytes:
//                 changed cells only, cheapest cursor moves, no repeated SGR, 24-bit/256/16
//   FrameRenderer the three together: beginFrame, draw…, encodeChanges
//   ColorMode, PaletteMatcher  colour depth detection (`COLORTERM`, `TERM`, `--color`) and
//                 nearest-colour matching for the xterm palettes

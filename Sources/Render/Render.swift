// The Render module. See ../../README.md and DESIGN.md for its place in the architecture.

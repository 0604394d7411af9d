import Shell

// Argument parsing and wiring only; everything else lives in the modules.
print("phosphor: under construction")

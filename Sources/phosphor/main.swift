import Foundation
import Shell

// Argument parsing and wiring live in Shell.PhosphorCommand; this file only hands over.
exit(PhosphorCommand.main(Array(CommandLine.arguments.dropFirst())))

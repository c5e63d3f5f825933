import Foundation

exit(PixpipeTool().run(Array(CommandLine.arguments.dropFirst())).rawValue)

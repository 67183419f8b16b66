#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import ReplayKit
import replay

let console = Console.standard()
let status = ReplayCommandLine.run(Array(CommandLine.arguments.dropFirst()), console: console)
console.flush()
exit(status)

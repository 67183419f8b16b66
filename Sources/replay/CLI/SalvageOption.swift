import Foundation
import Journal

/// `--salvage`: what a command does at damage (corruption, a segment missing). Without it the
/// command stops there with an error naming the spot (exit 1), having answered for every record
/// before it. With it the command goes on: a command that folds the state skips the rest of the
/// damaged segment and begins again at the snapshot that begins the next one (the records in
/// between are lost to it: a state folded past a lost record would be wrong); `cat`, which folds
/// nothing, resumes at the next readable block. Each skip is said on standard error, with the
/// sequences lost, and the exit status is 1.
struct SalvageOption: Sendable {
    /// Whether `--salvage` was given.
    let salvages: Bool

    /// Parses `--salvage`.
    init(arguments: inout Arguments) {
        salvages = arguments.flag("--salvage")
    }

    /// Not given: the command stops at damage.
    init() {
        salvages = false
    }

    /// How the command's reader meets damage: `folds` for a command that folds the state.
    func readMode(folds: Bool = true) -> JournalReader.ReadMode {
        guard salvages else { return .strict }
        return folds ? .skipToNextSegment : .salvage
    }

    /// Why a command given `--jobs` walked in order, when it did because of `--salvage` (the
    /// damage is met where it lies, so the segments are not split).
    var walksInOrderBecause: String? {
        salvages ? "--salvage goes on past damage where the walk in order meets it" : nil
    }

    /// The option's line in a command's help, its description starting at `column`.
    static func help(column: Int) -> String {
        let indent = "\n" + String(repeating: " ", count: column)
        return "  " + "--salvage".padding(toLength: column - 2, withPad: " ", startingAt: 0)
            + "go on past corruption or a missing segment: the rest of the damaged" + indent
            + "segment is skipped and the answer goes on from the snapshot that begins" + indent
            + "the next one; each skip is said on standard error (exit 1). Without it," + indent
            + "the command stops at the damage (`replay verify` locates every spot)"
    }
}

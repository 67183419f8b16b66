import Foundation
import FuzzHarness

// Writes the fuzz targets' seed corpora and dictionaries: `swift run fuzz-corpus [DIR]`
// (default `Fuzz`, run from the package root; `make fuzz-corpus` does it). Each
// `DIR/Corpus/<target>` directory is replaced as a whole: its files are generated, not edited
// by hand. The output is the same on every run.

let root = CommandLine.arguments.dropFirst().first ?? "Fuzz"
do {
    let corpus = CorpusWriter(root: root)
    // The regression tests' fixtures, from the package root `root` is in.
    try corpus.write(target: "journal", JournalSeeds.make(finds: root + "/../Tests/JournalTests/Fixtures/fuzz-journal"))
    try corpus.write(target: "facts", FactSeeds.make())
    try corpus.write(target: "replay", ReplaySeeds.make())
    try corpus.write(target: "receipts", ReceiptSeeds.make())
    try corpus.writeDictionary("journal.dict", JournalSeeds.dictionary())
    try corpus.writeDictionary("replay.dict", ReplaySeeds.dictionary())
    try corpus.writeDictionary("receipts.dict", ReceiptSeeds.dictionary())
    print("fuzz-corpus: wrote \(corpus.summary) under \(root)")
} catch {
    FileHandle.standardError.write(Data("fuzz-corpus: \(error)\n".utf8))
    exit(1)
}

import ReplayKit

/// The arguments of one subcommand, consumed piece by piece: options anywhere (`--name value`
/// or `--name=value`), flags, then positionals; `--` ends options. Whatever is left when the
/// command calls ``finish()`` is a usage error naming it.
struct Arguments {
    private var remaining: [String]
    private var positionalsOnlyAfter: Int?
    /// The list options given as `--name A B ...` and what each took (``optionList(_:)``), for
    /// the error when a positional is missing: the list may have taken it.
    private var listsTaken: [(name: String, values: [String])] = []

    init(_ arguments: some Sequence<String>) {
        remaining = Array(arguments)
        positionalsOnlyAfter = remaining.firstIndex(of: "--")
    }

    /// Whether `--help` or `-h` was given.
    var wantsHelp: Bool {
        optionZone.contains { $0 == "--help" || $0 == "-h" }
    }

    private var optionZone: ArraySlice<String> {
        remaining[..<(positionalsOnlyAfter ?? remaining.count)]
    }

    /// Removes and reports a boolean flag such as `--json`.
    mutating func flag(_ name: String) -> Bool {
        guard let index = optionZone.firstIndex(of: name) else { return false }
        remove(at: index)
        return true
    }

    /// Removes and returns the last value of `--name value` / `--name=value`, if given.
    mutating func option(_ name: String) throws(UsageError) -> String? {
        try options(name).last
    }

    /// Removes and returns every value of a repeatable option, in order.
    mutating func options(_ name: String) throws(UsageError) -> [String] {
        var values: [String] = []
        var index = 0
        while index < (positionalsOnlyAfter ?? remaining.count) {
            let argument = remaining[index]
            if argument == name {
                guard index + 1 < (positionalsOnlyAfter ?? remaining.count) else {
                    throw UsageError("\(name) needs a value")
                }
                values.append(remaining[index + 1])
                remove(at: index + 1)
                remove(at: index)
            } else if argument.hasPrefix(name + "=") {
                values.append(String(argument.dropFirst(name.count + 1)))
                remove(at: index)
            } else {
                index += 1
            }
        }
        return values
    }

    /// Removes and returns every value of an option that takes a list (`--name A B C`, up to the
    /// next option or `--`; repeatable, and `--name=A` too), in order.
    mutating func optionList(_ name: String) throws(UsageError) -> [String] {
        var values: [String] = []
        var index = 0
        while index < (positionalsOnlyAfter ?? remaining.count) {
            let argument = remaining[index]
            if argument.hasPrefix(name + "=") {
                values.append(String(argument.dropFirst(name.count + 1)))
                remove(at: index)
            } else if argument == name {
                remove(at: index)
                var taken = 0
                while index < (positionalsOnlyAfter ?? remaining.count), !(remaining[index].hasPrefix("-") && remaining[index] != "-") {
                    values.append(remaining[index])
                    remove(at: index)
                    taken += 1
                }
                guard taken > 0 else { throw UsageError("\(name) needs at least one value") }
                listsTaken.append((name, Array(values.suffix(taken))))
            } else {
                index += 1
            }
        }
        return values
    }

    /// Removes and returns an option's value parsed by `parse`, which returns nil to reject it.
    mutating func option<Value>(_ name: String, as kind: String, _ parse: (String) -> Value?) throws(UsageError) -> Value? {
        guard let text = try option(name) else { return nil }
        guard let value = parse(text) else { throw UsageError("\(name) expects \(kind), not '\(text)'") }
        return value
    }

    /// Removes and returns the next positional argument, or throws naming what is missing.
    mutating func positional(_ label: String) throws(UsageError) -> String {
        guard let value = optionalPositional() else {
            guard let list = listsTaken.last else { throw UsageError("missing \(label)") }
            throw UsageError("missing \(label): \(list.name) took every argument after it up to the next option "
                             + "(\(list.values.joined(separator: " "))); put the \(label) before \(list.name), or write \(list.name)=FILE")
        }
        guard !value.isEmpty else { throw UsageError("the \(label) given is empty") }
        return value
    }

    /// Removes and returns the next positional argument, if any.
    mutating func optionalPositional() -> String? {
        for index in remaining.indices {
            if index == positionalsOnlyAfter { continue }
            let argument = remaining[index]
            let isOption = (positionalsOnlyAfter.map { index < $0 } ?? true) && argument.hasPrefix("-") && argument != "-"
            if !isOption {
                remove(at: index)
                return argument
            }
        }
        return nil
    }

    /// Throws for anything not consumed.
    func finish() throws(UsageError) {
        for (index, argument) in remaining.enumerated() where index != positionalsOnlyAfter {
            let isOption = (positionalsOnlyAfter.map { index < $0 } ?? true) && argument.hasPrefix("-") && argument != "-"
            throw UsageError(isOption ? "unknown option \(argument)" : "unexpected argument '\(argument)'")
        }
    }

    private mutating func remove(at index: Int) {
        remaining.remove(at: index)
        if let end = positionalsOnlyAfter, index < end { positionalsOnlyAfter = end - 1 }
    }
}

/// A command line that cannot be run as given: reported with the command's usage, exit 2.
struct UsageError: Error, Equatable {
    var message: String

    init(_ message: String) {
        self.message = message
    }
}

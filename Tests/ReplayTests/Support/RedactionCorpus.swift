import SDKTesting

/// Realistic error messages, URLs and data fields, each with one planted item of personal data,
/// made from a seed (SplitMix64) rather than kept as a file: the same 2,400 entries on every
/// run, any of them reproducible by its index, and new classes or forms a line each.
struct RedactionCorpus {
    /// The kinds of personal data planted.
    enum Kind: String, CaseIterable {
        case name, email, encodedEmail, phone, card, date, ipAddress, streetAddress, jwt, apiToken, accountID
    }

    /// Where an entry carries its item.
    enum Place: String, CaseIterable {
        case text, url, dataKey, dataValue
    }

    struct Entry {
        var index: Int
        var kind: Kind
        var place: Place
        /// The item as planted (before any encoding for a URL).
        var item: String
        /// The text, URL, key or value holding it.
        var value: String
        /// For text: the template's own words (what a support engineer reads), the item left out.
        var templateWords: [String]

        /// The pieces of the item a reader must not find: each run of letters or of digits of at
        /// least `minimum` characters that the template does not hold itself.
        func secrets(minimum: Int) -> [String] {
            var pieces: [String] = []
            var current = ""
            func flush() {
                if current.count >= minimum, !templateWords.contains(current) { pieces.append(current) }
                current = ""
            }
            for character in item {
                let sameRun = current.last.map { ($0.isLetter && character.isLetter) || ($0.isNumber && character.isNumber) } ?? true
                if !(character.isLetter || character.isNumber) || !sameRun { flush() }
                if character.isLetter || character.isNumber { current.append(character) }
            }
            flush()
            // An email's domain and a JWT's well-known header are not the person's.
            if kind == .email || kind == .encodedEmail, let at = item.firstIndex(where: { $0 == "@" || $0 == "%" }) {
                let local = item[..<at]
                return pieces.filter { local.contains($0) }
            }
            if kind == .jwt { return pieces.filter { !Self.jwtHeader.contains($0) } }
            return pieces
        }

        static let jwtHeader = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
    }

    static let firstNames = [
        "Ada", "Alan", "Grace", "Linus", "Margaret", "Dennis", "Barbara", "Ken", "Frances", "Edsger", "James", "Mary", "John",
        "Patricia", "Robert", "Jennifer", "Michael", "Linda", "William", "Elizabeth", "David", "Susan", "Richard", "Jessica",
        "Joseph", "Sarah", "Thomas", "Karen", "Charles", "Nancy", "Christopher", "Lisa", "Daniel", "Betty", "Matthew", "Sandra",
        "Anthony", "Ashley", "Donald", "Kimberly", "Mark", "Emily", "Paul", "Donna", "Steven", "Michelle", "Andrew", "Carol",
        "Joshua", "Amanda", "Kevin", "Melissa", "Brian", "Deborah", "George", "Stephanie", "Timothy", "Rebecca", "Ronald",
        "Sharon", "Jason", "Laura", "Edward", "Cynthia", "Jeffrey", "Kathleen", "Ryan", "Amy", "Jacob", "Angela", "Gary",
        "Shirley", "Nicholas", "Anna", "Eric", "Brenda", "Jonathan", "Pamela", "Stephen", "Emma", "Larry", "Nicole", "Justin",
        "Helen", "Scott", "Samantha", "Brandon", "Katherine", "Benjamin", "Christine", "Samuel", "Debra", "Gregory", "Rachel",
        "Alexander", "Carolyn", "Frank", "Janet", "Patrick", "Catherine", "Raymond", "Maria", "Jack", "Heather", "Dennis",
        "Diane", "Jerry", "Ruth", "Tyler", "Julie", "Aaron", "Olivia", "Jose", "Joyce", "Adam", "Virginia", "Nathan",
        "Victoria", "Henry", "Kelly", "Zachary", "Lauren", "Douglas", "Christina", "Peter", "Joan", "Kyle", "Evelyn", "Noah",
        "Judith", "Ethan", "Megan", "Jeremy", "Andrea", "Walter", "Cheryl", "Christian", "Hannah", "Keith", "Jacqueline",
        "Roger", "Martha", "Terry", "Gloria", "Austin", "Teresa", "Sean", "Ann", "Gerald", "Sara", "Carl", "Madison", "Harold",
        "Frances", "Dylan", "Kathryn", "Arthur", "Janice", "Lawrence", "Jean", "Jordan", "Abigail", "Jesse", "Alice", "Bryan",
        "Judy", "Billy", "Sophia", "Bruce", "Grace", "Gabriel", "Denise", "Joe", "Amber", "Logan", "Doris", "Alan", "Marilyn",
        "Juan", "Danielle", "Albert", "Beverly", "Willie", "Isabella", "Elijah", "Theresa", "Wayne", "Diana", "Randy", "Natalie",
        "Vincent", "Brittany", "Mason", "Charlotte", "Roy", "Marie", "Ralph", "Kayla", "Bobby", "Alexis", "Russell", "Lori",
        // Names that are also words the SDK writes.
        "Will", "May", "June", "April", "August", "Grant", "Hope", "Joy", "Rose", "Dawn", "Faith", "Chase", "Bill", "Ray",
        "Dean", "Earl", "Miles", "Summer", "Sky", "Bob", "Art", "Drew", "Lane", "Max", "Rich", "Page", "Link",
    ]

    static let lastNames = [
        "Lovelace", "Turing", "Hopper", "Torvalds", "Hamilton", "Ritchie", "Liskov", "Thompson", "Allen", "Dijkstra", "Smith",
        "Johnson", "Williams", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez", "Hernandez", "Lopez", "Gonzalez",
        "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee", "Perez", "Harris", "Sanchez", "Clark",
        "Ramirez", "Lewis", "Robinson", "Walker", "Young", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores",
        "Green", "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts", "Phillips", "Evans",
        "Turner", "Parker", "Collins", "Edwards", "Stewart", "Morris", "Murphy", "Cook", "Rogers", "Morgan", "Peterson",
        "Cooper", "Reed", "Bailey", "Bell", "Gomez", "Kelly", "Howard", "Ward", "Cox", "Diaz", "Richardson", "Wood", "Watson",
        "Brooks", "Bennett", "Gray", "James", "Reyes", "Cruz", "Hughes", "Price", "Myers", "Long", "Foster", "Sanders", "Ross",
        "Morales", "Powell", "Sullivan", "Russell", "Ortiz", "Jenkins", "Gutierrez", "Perry", "Butler", "Barnes", "Fisher",
        "Henderson", "Coleman", "Simmons", "Patterson", "Jordan", "Reynolds", "Hamilton", "Graham", "Kim", "Wallace", "Stone",
        "White", "Brown", "Black", "Page", "Lane", "Rich", "Link", "Key", "Field", "Read", "Swift", "Darwin", "Banks", "Case",
    ]

    static let streetNames = ["Evergreen", "Baker", "Maple", "Oak", "Elm", "Sunset", "Lincoln", "Harbor", "Willow", "Cedar",
                              "Highland", "Riverside", "Mulberry", "Chestnut", "Juniper", "Magnolia"]
    static let streetKinds = ["Street", "Avenue", "Road", "Lane", "Drive", "Terrace", "Boulevard", "Way", "Court", "Place"]
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                         "November", "December"]

    /// Error messages the SDK, the platform and servers write, `{}` where the item goes.
    static let templates = [
        "inbox: could not flush the outbox of {}", "HTTP 503: the request timed out for {}", "user {} is unknown",
        "retries exhausted: 5 attempts; last: HTTP 503 BadParams: invalid email address {}", "The request timed out. ({})",
        "Could not connect to the server for {}", "no session for {}", "module in-app failed willSwitchProject: outbox of {} is locked",
        "the disable could not be made durable: disk of {} is full", "rejected because {} said so", "Connection refused by {}",
        "HTTP 429 Too Many Requests for {}", "Invalid API key for {}", "HTTP 400 BadParams: user {} not found",
        "the link could not be resolved: {} is not a valid destination", "the auth provider failed: no JWT for {}",
        "deliver pending events did not finish within its bound: {} is offline", "purge queue: 2 queued event(s) of {} were discarded",
        "release instance: module in-app could not flush the outbox of {}", "clear project storage failed for {}",
        "A server with the specified hostname could not be found for {}", "The network connection was lost while sending to {}",
        "request failed: {} (URLError -1001)", "HTTP 401 Unauthorized: JWT rejected for {}", "Permission denied: {}",
        "No space left on device while writing the journal of {}", "HTTP 500 Internal Server Error: {}",
        "invalid value for header field '{}'", "the redirect's destination {} is not an http(s) URL", "start instance: {} was refused",
    ]

    /// What must read the same after redaction wherever a template holds it.
    static let mustStay = ["timed out", "HTTP 503", "HTTP 429", "HTTP 400", "HTTP 401", "HTTP 500", "deliver pending events",
                           "purge queue", "release instance", "clear project storage", "start instance", "5 attempts",
                           "Too Many Requests", "Internal Server Error", "Could not connect to the server", "URLError -1001"]

    let entries: [Entry]

    init(seed: UInt64 = 43, count: Int = 2_400) {
        var generator = SplitMix64(seed: seed)
        var entries: [Entry] = []
        for index in 0..<count {
            let kind = Kind.allCases[index % Kind.allCases.count]
            let place = Place.allCases[(index / Kind.allCases.count) % Place.allCases.count]
            let item = Self.item(kind, &generator)
            entries.append(Self.entry(index: index, kind: kind, place: place, item: item, &generator))
        }
        self.entries = entries
    }

    private static func digits(_ count: Int, _ generator: inout SplitMix64) -> String {
        String((0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
    }

    private static func alphanumerics(_ count: Int, _ generator: inout SplitMix64, lowercase: Bool = false) -> String {
        let alphabet = Array(lowercase ? "abcdefghijklmnopqrstuvwxyz0123456789" : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<count).map { _ in alphabet.randomElement(using: &generator)! })
    }

    static func item(_ kind: Kind, _ generator: inout SplitMix64) -> String {
        func pick(_ choices: [String]) -> String { choices.randomElement(using: &generator)! }
        func number(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let first = pick(firstNames), last = pick(lastNames)
        switch kind {
        case .name:
            return "\(first) \(last)"
        case .email, .encodedEmail:
            let local = pick(["\(first).\(last)", "\(first)\(number(10...99))", "\(first.prefix(1))\(last)"]).lowercased()
            return local + (kind == .email ? "@" : "%40") + pick(["mailbox.test", "example.org", "post.example.net", "corp.test"])
        case .phone:
            let area = String(number(201...989))
            return pick(["+1 \(area) 555 \(digits(4, &generator))", "(\(area)) 555-\(digits(4, &generator))",
                         "\(area)-555-\(digits(4, &generator))", "+44 20 7946 \(digits(4, &generator))", "020 7946 \(digits(4, &generator))",
                         "+49 30 \(digits(6, &generator))", "+33 1 23 45 \(digits(2, &generator)) \(digits(2, &generator))",
                         "06 12 34 \(digits(2, &generator)) \(digits(2, &generator))", "+1-\(area)-555-\(digits(4, &generator))",
                         "\(area).555.\(digits(4, &generator))", "\(area)555\(digits(4, &generator))", "+81 3-1234-\(digits(4, &generator))"])
        case .card:
            return pick(["4111 1111 1111 \(digits(4, &generator))", "4111-1111-1111-\(digits(4, &generator))",
                         "4111111111111\(digits(3, &generator))", "5500 0000 0000 \(digits(4, &generator))",
                         "3400 000000 \(digits(5, &generator))", "6011 0009 9013 \(digits(4, &generator))"])
        case .date:
            let (year, month, day) = (number(1940...2010), number(1...12), number(1...28))
            return pick(["\(year)-\(two(month))-\(two(day))", "\(two(day))/\(two(month))/\(year)", "\(month)/\(day)/\(year % 100)",
                         "\(two(day)).\(two(month)).\(year)", "\(day) \(months[month - 1]) \(year)", "\(months[month - 1]) \(day), \(year)",
                         "\(months[month - 1].prefix(3)) \(day) \(year)"])
        case .ipAddress:
            return pick(["\(number(1...223)).\(number(0...255)).\(number(0...255)).\(number(1...254))",
                         "10.\(number(0...255)).\(number(0...255)).\(number(1...254))", "192.168.\(number(0...255)).\(number(1...254))",
                         "2001:db8::\(String(number(1...0xffff), radix: 16)):\(String(number(1...0xffff), radix: 16))",
                         "fe80::\(String(number(1...0xffff), radix: 16)):\(String(number(1...0xffff), radix: 16))"])
        case .streetAddress:
            return pick(["\(number(1...9999)) \(pick(streetNames)) \(pick(streetKinds))", "\(number(1...99)) Rue de la \(pick(streetNames))",
                         "\(number(1...999))B \(pick(streetNames)) \(pick(streetKinds))"])
        case .jwt:
            return Entry.jwtHeader + "." + alphanumerics(number(20...60), &generator) + "." + alphanumerics(43, &generator)
        case .apiToken:
            return pick(["sk_live_" + alphanumerics(24, &generator), "ghp_" + alphanumerics(36, &generator),
                         "AKIA" + alphanumerics(16, &generator).uppercased(), "xoxb-\(digits(12, &generator))-" + alphanumerics(24, &generator),
                         alphanumerics(40, &generator, lowercase: true)])
        case .accountID:
            return pick(["u\(digits(6, &generator))", "cust_\(digits(8, &generator))", "user-\(digits(5, &generator))",
                         "ID\(digits(7, &generator))", "acct\(digits(9, &generator))"])
        }
    }

    private static func entry(index: Int, kind: Kind, place: Place, item: String, _ generator: inout SplitMix64) -> Entry {
        func pick(_ choices: [String]) -> String { choices.randomElement(using: &generator)! }
        let encoded = kind == .encodedEmail ? item : item.addingPercentEncodingForURL()
        switch place {
        case .text:
            let template = templates.randomElement(using: &generator)!
            let words = template.replacingOccurrences(of: "{}", with: " ").split(separator: " ").map(String.init)
            return Entry(index: index, kind: kind, place: place, item: item, value: template.replacingOccurrences(of: "{}", with: item),
                         templateWords: words)
        case .url:
            let host = pick(["https://shop.example.com", "https://links.example.com:8443", "http://api.example.org"])
            let url = switch kind {
            case .name, .streetAddress: pick(["\(host)/profile/\(encoded)/edit", "\(host)/p?name=\(encoded)&ref=mail", "\(host)/offer#\(encoded)"])
            default: pick(["\(host)/users/\(encoded)/offer", "\(host)/unsub/\(encoded)", "\(host)/p?email=\(encoded)&t=\(encoded)",
                           "\(host)/p?\(encoded)", "\(host)/p?\(encoded)=1", "\(host)/p?ref=news#\(encoded)",
                           "https://\(encoded)@shop.example.com/a", "\(host)/api/v2/\(encoded)?utm_source=mail"])
            }
            return Entry(index: index, kind: kind, place: place, item: item, value: url, templateWords: [])
        case .dataKey, .dataValue:
            return Entry(index: index, kind: kind, place: place, item: item, value: item, templateWords: [])
        }
    }
}

extension String {
    /// Percent-encoded as a URL's part: what is not a letter, digit, `-`, `.`, `_` or `~`.
    func addingPercentEncodingForURL() -> String {
        var encoded = ""
        for byte in utf8 {
            if (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || "-._~".utf8.contains(byte) {
                encoded.append(Character(Unicode.Scalar(byte)))
            } else {
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return encoded
    }

    private func leftPadded(to count: Int) -> String {
        String(repeating: "0", count: Swift.max(0, count - self.count)) + self
    }
}

import Foundation

/// `HTTPDate` reads the three date forms HTTP recipients accept (RFC 9110, section 5.6.7):
/// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850 form
/// (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`). Parsed by hand,
/// in UTC: no formatter, locale or time-zone database is loaded for it.
public enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// `parse(_:)` is the moment `text` names, or `nil` when it is none of the three forms
    /// (or names a day that does not exist).
    public static func parse(_ text: String) -> Date? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let day: Int, month: Int, year: Int, time: Substring
        if words.count == 6, words[0].hasSuffix(","), words[5] == "GMT" {
            // IMF-fixdate: weekday, DD Mon YYYY HH:MM:SS GMT.
            guard let d = number(words[1], digits: 2), let m = monthNumber(words[2]), let y = number(words[3], digits: 4) else { return nil }
            (day, month, year, time) = (d, m, y, Substring(words[4]))
        } else if words.count == 4, words[0].hasSuffix(","), words[3] == "GMT" {
            // RFC 850: weekday, DD-Mon-YY HH:MM:SS GMT; a two-digit year 70-99 is 19YY, else 20YY.
            let parts = words[1].split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, let d = number(parts[0], digits: 2), let m = monthNumber(parts[1]),
                  let yy = number(parts[2], digits: 2) else { return nil }
            (day, month, year, time) = (d, m, yy < 70 ? 2000 + yy : 1900 + yy, Substring(words[2]))
        } else if words.count == 5, !words[0].hasSuffix(",") {
            // asctime: weekday Mon D HH:MM:SS YYYY (the day space-padded).
            guard let m = monthNumber(words[1]), let d = number(words[2], digits: 1...2), let y = number(words[4], digits: 4) else { return nil }
            (day, month, year, time) = (d, m, y, Substring(words[3]))
        } else {
            return nil
        }
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, let hour = number(clock[0], digits: 2), let minute = number(clock[1], digits: 2),
              let second = number(clock[2], digits: 2), hour < 24, minute < 60, second < 61 else { return nil }
        guard (1...31).contains(day), day <= daysIn(month: month, year: year) else { return nil }
        let seconds = daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func number(_ text: some StringProtocol, digits: Int) -> Int? {
        number(text, digits: digits...digits)
    }

    private static func number(_ text: some StringProtocol, digits: ClosedRange<Int>) -> Int? {
        guard digits.contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text)
    }

    private static func monthNumber(_ text: some StringProtocol) -> Int? {
        months.firstIndex(of: text.lowercased()).map { $0 + 1 }
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the date, in the proleptic Gregorian calendar.
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

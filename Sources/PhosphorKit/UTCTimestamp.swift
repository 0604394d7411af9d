import Foundation

/// A time as `YYYY-MM-DDTHH:MM:SSZ` (UTC), the form of the log's lines, computed by arithmetic
/// on the seconds since 1970. `Date.ISO8601Format()` gives the same text but loads ICU's time
/// zone tables on first use: 4.5 ms of the 25 ms a `phosphor play` start costs (perf).
/// Any thread.
public enum UTCTimestamp {
    public static func text(secondsSince1970 seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(daysSince1970: days)
        var text = ""
        text.reserveCapacity(20)
        append(year, digits: 4, to: &text)
        text += "-"
        append(month, digits: 2, to: &text)
        text += "-"
        append(day, digits: 2, to: &text)
        text += "T"
        append(secondOfDay / 3600, digits: 2, to: &text)
        text += ":"
        append(secondOfDay / 60 % 60, digits: 2, to: &text)
        text += ":"
        append(secondOfDay % 60, digits: 2, to: &text)
        text += "Z"
        return text
    }

    public static var now: String {
        text(secondsSince1970: Int64(Date().timeIntervalSince1970.rounded(.down)))
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01, through eras of 400 years
    /// (146 097 days) that start on 1 March, so the leap day is the last day of an era's year.
    static func civilDate(daysSince1970: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = daysSince1970 + 719_468  // days from 0000-03-01 to 1970-01-01
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func append(_ value: Int64, digits: Int, to text: inout String) {
        let decimal = String(value)
        if decimal.count < digits { text += String(repeating: "0", count: digits - decimal.count) }
        text += decimal
    }
}

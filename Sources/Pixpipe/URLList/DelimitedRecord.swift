/// Splits one CSV or TSV record into fields, with RFC 4180 quoting: a field wrapped in `"` may hold the
/// delimiter and line breaks, and `""` inside it stands for one quote.
enum DelimitedRecord {
    /// The outcome of splitting a record.
    enum Split: Equatable {
        /// The fields, in order; unquoted fields keep their inner spaces but not surrounding ones.
        case fields([String])
        /// A quoted field is still open at the end of the text: the record continues on the next line.
        case openQuote
    }

    /// Splits `text` on `delimiter`.
    ///
    /// Text after a closing quote and before the next delimiter is kept (as most spreadsheets do), so a
    /// stray quote never makes a record unreadable; only a quote left open does.
    static func split(_ text: Substring, delimiter: Unicode.Scalar) -> Split {
        var fields: [String] = []
        var field = String.UnicodeScalarView()
        var inQuotes = false
        var wasQuoted = false
        var atFieldStart = true
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = scalars.next()
        func finishField() {
            let value = String(field)
            fields.append(wasQuoted ? value : String(value.trimmingListWhitespace()))
            field = String.UnicodeScalarView()
            wasQuoted = false
            atFieldStart = true
        }
        while let scalar = pending {
            pending = scalars.next()
            if inQuotes {
                if scalar == "\"" {
                    if pending == "\"" {
                        field.append("\"")
                        pending = scalars.next()
                    } else {
                        inQuotes = false
                    }
                } else {
                    field.append(scalar)
                }
            } else if scalar == delimiter {
                finishField()
            } else if scalar == "\"" && atFieldStart {
                inQuotes = true
                wasQuoted = true
                field = String.UnicodeScalarView()
                atFieldStart = false
            } else if atFieldStart && (scalar == " " || scalar == "\t") && scalar != delimiter {
                continue  // Spaces before an opening quote do not count.
            } else {
                field.append(scalar)
                atFieldStart = false
            }
        }
        if inQuotes { return .openQuote }
        finishField()
        return .fields(fields)
    }
}

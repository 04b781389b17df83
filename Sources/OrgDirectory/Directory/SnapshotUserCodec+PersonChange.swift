/// The fast codec for `PersonChange`, for the history file: a reorganization can change thousands of people in
/// one night, and the history is read on every run.
extension SnapshotUserCodec {
    /// Every key written for a change and for a field change; tests compare them with the types' properties.
    static let changeKeys = ["displayName", "fieldChanges", "id"]
    static let fieldChangeKeys = ["field", "isMove", "new", "old"]

    /// Appends one change as JSONEncoder with `.sortedKeys` would write it.
    static func append(_ change: PersonChange, to out: inout [UInt8]) {
        appendStatic(#"{"displayName":"#, to: &out)
        appendString(change.displayName, to: &out)
        appendStatic(#","fieldChanges":["#, to: &out)
        for (index, field) in change.fieldChanges.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            appendStatic(#"{"field":"#, to: &out)
            appendString(field.field, to: &out)
            appendStatic(field.isMove ? #","isMove":true"# : #","isMove":false"#, to: &out)
            if let new = field.new {
                appendStatic(#","new":"#, to: &out)
                appendString(new, to: &out)
            }
            if let old = field.old {
                appendStatic(#","old":"#, to: &out)
                appendString(old, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
        appendStatic(#"],"id":"#, to: &out)
        appendString(change.id, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// Reads the changes in `range`, separated by commas and/or line breaks.
    static func readChanges(_ bytes: UnsafeRawBufferPointer, range: Range<Int>) throws(Unsupported)
        -> [PersonChange]
    {
        var reader = Reader(bytes: bytes, index: range.lowerBound, end: range.upperBound)
        return try reader.sequence(expectedSize: 120) { (reader: inout Reader) throws(Unsupported) in
            try reader.personChange()
        }
    }
}

extension SnapshotUserCodec.Reader {
    mutating func personChange() throws(SnapshotUserCodec.Unsupported) -> PersonChange {
        var id: String?
        var displayName: String?
        var fieldChanges: [FieldChange]?
        try object { (reader: inout Self, key) throws(SnapshotUserCodec.Unsupported) in
            if key.elementsEqual("id".utf8) {
                id = try reader.string()
            } else if key.elementsEqual("displayName".utf8) {
                displayName = try reader.string()
            } else if key.elementsEqual("fieldChanges".utf8) {
                fieldChanges = try reader.fieldChanges()
            } else {
                throw reader.unsupported
            }
        }
        guard let id, let displayName, let fieldChanges else { throw unsupported }
        return PersonChange(id: id, displayName: displayName, fieldChanges: fieldChanges)
    }

    private mutating func fieldChanges() throws(SnapshotUserCodec.Unsupported) -> [FieldChange] {
        try expect(UInt8(ascii: "["))
        var changes: [FieldChange] = []
        skipWhitespace()
        while index < end, bytes[index] != UInt8(ascii: "]") {
            changes.append(try fieldChange())
            skipWhitespace()
            if index < end, bytes[index] == UInt8(ascii: ",") { index += 1 }
            skipWhitespace()
        }
        try expect(UInt8(ascii: "]"))
        return changes
    }

    private mutating func fieldChange() throws(SnapshotUserCodec.Unsupported) -> FieldChange {
        var field: String?
        var isMove: Bool?
        var old: String?
        var new: String?
        try object { (reader: inout Self, key) throws(SnapshotUserCodec.Unsupported) in
            if key.elementsEqual("field".utf8) {
                field = try reader.string()
            } else if key.elementsEqual("isMove".utf8) {
                isMove = try reader.bool()
            } else if key.elementsEqual("old".utf8) {
                old = try reader.optionalString()
            } else if key.elementsEqual("new".utf8) {
                new = try reader.optionalString()
            } else {
                throw reader.unsupported
            }
        }
        guard let field, let isMove else { throw unsupported }
        var change = FieldChange(field: field, old: old, new: new)
        change.isMove = isMove
        return change
    }
}

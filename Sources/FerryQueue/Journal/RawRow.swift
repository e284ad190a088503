import GRDB
import GRDBSQLite

/// `RawRow` reads the current row of a statement stepped through SQLite's C API, by column
/// position, with no intermediate values: the scheduler reads tasks a page at a time for every
/// few slots that free, and GRDB's row copies and generic decoding cost more than SQLite's
/// own work there. Valid only inside the `forEachRawRow` call that gave it.
struct RawRow {
    let handle: OpaquePointer

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    func optionalInt64(_ column: Int32) -> Int64? {
        isNull(column) ? nil : int64(column)
    }

    func int(_ column: Int32) -> Int {
        Int(truncatingIfNeeded: int64(column))
    }

    func optionalInt(_ column: Int32) -> Int? {
        isNull(column) ? nil : int(column)
    }

    func bool(_ column: Int32) -> Bool {
        int64(column) != 0
    }

    /// `text(_:)` is the column as UTF-8 text (invalid sequences repaired), `""` for NULL.
    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func optionalText(_ column: Int32) -> String? {
        isNull(column) ? nil : text(column)
    }

    /// `forEach(in:sql:_:)` steps the statement `handle` (whose text is `sql`) to its end,
    /// calling `body` with each row it returns; an SQLite error is thrown as a `DatabaseError`.
    /// `sql` is evaluated only for an error: GRDB's `Statement.sql` copies and trims the text
    /// through Foundation each time, which cost more than the statement's own step.
    static func forEach(in handle: OpaquePointer, sql: @autoclosure () -> String, _ body: (RawRow) throws -> Void) throws {
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                throw SQLiteBinding.error(code, connection: sqlite3_db_handle(handle), sql: sql())
            }
            try body(RawRow(handle: handle))
        }
    }
}

extension Statement {
    /// `forEachRawRow(arguments:_:)` binds `arguments`, calls `body` with each row the
    /// statement returns, and resets the statement (also when `body` throws). For `SELECT`s.
    func forEachRawRow(arguments: StatementArguments, _ body: (RawRow) throws -> Void) throws {
        try setArguments(arguments)
        defer { sqlite3_reset(sqliteStatement) }
        try RawRow.forEach(in: sqliteStatement, sql: sql, body)
    }
}

extension Statement {
    /// `forEachRawRow(binding:_:)` is `forEachRawRow(arguments:_:)` with integer arguments
    /// bound through SQLite's C API (GRDB's `StatementArguments` box every value).
    func forEachRawRow(binding integers: [Int64], _ body: (RawRow) throws -> Void) throws {
        let handle = sqliteStatement
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        for (offset, value) in integers.enumerated() {
            sqlite3_bind_int64(handle, Int32(offset + 1), value)
        }
        try RawRow.forEach(in: handle, sql: sql, body)
    }
}

/// `RawUpdate` runs a cached `UPDATE` (or `UPDATE ... RETURNING`) through SQLite's C API, one
/// row of arguments at a time: the journal's per-task writes in a scheduling round bind a few
/// integers and strings, and GRDB's argument conversion cost more than the update itself.
/// Used inside a write transaction, on that transaction's `Database`.
struct RawUpdate {
    private let statement: Statement
    private var handle: OpaquePointer { statement.sqliteStatement }

    init(_ db: Database, sql: String) throws {
        statement = try db.cachedStatement(sql: sql)
    }

    /// `bind(_:_:)` binds an integer, or NULL for `nil`, to the 1-based parameter `index`.
    func bind(_ index: Int32, _ value: Int64?) {
        SQLiteBinding.bind(handle, index, value)
    }

    /// `bind(_:_:)` binds text (copied by SQLite), or NULL for `nil`.
    func bind(_ index: Int32, _ value: String?) {
        SQLiteBinding.bind(handle, index, value)
    }

    /// `run()` executes the statement with the bound values and returns the first column of
    /// its first returned row as text (`nil` when it returns none), then resets it and clears
    /// its bindings.
    @discardableResult
    func run() throws -> String? {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        var first: String?
        var returned = false
        try RawRow.forEach(in: handle, sql: statement.sql) { row in
            if !returned {
                returned = true
                first = row.optionalText(0)
            }
        }
        return first
    }
}

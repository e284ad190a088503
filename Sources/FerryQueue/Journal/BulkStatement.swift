import GRDB
import GRDBSQLite

/// `BulkStatement` is a prepared statement driven through SQLite's C API, for inserts of
/// tens of thousands of rows in one transaction.
///
/// GRDB's statements convert every argument through `DatabaseValue`, which dominates the
/// cost of a large batch; binding directly keeps a 100,000-task insert fast. Use it only
/// inside a GRDB write transaction, on that transaction's `Database`, and let it go before
/// the transaction ends.
final class BulkStatement {
    private let connection: OpaquePointer
    private let handle: OpaquePointer
    private let sql: String

    init(_ db: Database, sql: String) throws {
        guard let connection = db.sqliteConnection else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "connection is closed")
        }
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v2(connection, sql, -1, &handle, nil)
        guard code == SQLITE_OK, let handle else {
            throw SQLiteBinding.error(code, connection: connection, sql: sql)
        }
        self.connection = connection
        self.handle = handle
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// `bind(_:_:)` binds an integer, or NULL for `nil`, to the 1-based parameter `index`.
    func bind(_ index: Int32, _ value: Int64?) {
        SQLiteBinding.bind(handle, index, value)
    }

    /// `bind(_:_:)` binds an integer, or NULL for `nil`.
    func bind(_ index: Int32, _ value: Int?) {
        bind(index, value.map(Int64.init))
    }

    /// `bind(_:_:)` binds a boolean as 0 or 1.
    func bind(_ index: Int32, _ value: Bool) {
        sqlite3_bind_int64(handle, index, value ? 1 : 0)
    }

    /// `bind(_:_:)` binds text (copied by SQLite), or NULL for `nil`.
    func bind(_ index: Int32, _ value: String?) {
        SQLiteBinding.bind(handle, index, value)
    }

    /// `run()` executes the statement with the bound values, then resets it for the next row.
    func run() throws {
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard code == SQLITE_DONE else {
            throw SQLiteBinding.error(code, connection: connection, sql: sql)
        }
    }
}

/// `SQLiteBinding` binds values to a prepared statement through SQLite's C API
/// (`BulkStatement`, `RawUpdate`) and words SQLite's errors as GRDB does.
enum SQLiteBinding {
    /// `error(_:connection:sql:)` is the `DatabaseError` for result `code` of `sql`, with the
    /// connection's message.
    static func error(_ code: Int32, connection: OpaquePointer?, sql: String) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code),
                      message: connection.map { String(cString: sqlite3_errmsg($0)) }, sql: sql)
    }

    /// `transient` tells SQLite to copy bound text (`SQLITE_TRANSIENT`, a macro Swift cannot import).
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    /// `bind(_:_:_:)` binds an integer, or NULL for `nil`, to the 1-based parameter `index`.
    static func bind(_ handle: OpaquePointer, _ index: Int32, _ value: Int64?) {
        if let value {
            sqlite3_bind_int64(handle, index, value)
        } else {
            sqlite3_bind_null(handle, index)
        }
    }

    /// `bind(_:_:_:)` binds text (copied by SQLite), or NULL for `nil`.
    static func bind(_ handle: OpaquePointer, _ index: Int32, _ value: String?) {
        if let value {
            sqlite3_bind_text(handle, index, value, -1, transient)
        } else {
            sqlite3_bind_null(handle, index)
        }
    }
}

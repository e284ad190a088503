import GRDB
import Testing
@testable import FerryQueue

@Suite struct RawRowTests {
    @Test func aFailingRawUpdateNamesItsStatementInTheError() throws {
        // Given a table whose column refuses NULL, with one row
        let queue = try DatabaseQueue()
        let sql = "UPDATE item SET name = ?1 WHERE id = ?2"
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            try db.execute(sql: "INSERT INTO item (id, name) VALUES (1, 'a')")
        }

        // When a raw update sets it to NULL, then to a value
        let error = try queue.write { db -> DatabaseError? in
            let update = try RawUpdate(db, sql: sql)
            update.bind(1, nil as String?)
            update.bind(2, 1)
            var failure: DatabaseError?
            do { try update.run() } catch let error as DatabaseError { failure = error }
            update.bind(1, "b")
            update.bind(2, 1)
            try update.run()
            return failure
        }

        // Then the error is SQLite's constraint failure with the statement's text, and the
        // statement stays usable after it
        let failure = try #require(error)
        #expect(failure.resultCode == .SQLITE_CONSTRAINT)
        #expect(failure.sql == sql)
        #expect(try queue.read { db in try String.fetchOne(db, sql: "SELECT name FROM item WHERE id = 1") } == "b")
    }
}

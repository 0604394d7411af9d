internal import CSQLite
import Foundation
import PhosphorKit

/// A failed SQLite call: the C function (or statement) that failed, SQLite's result code and
/// `sqlite3_errmsg`. One line.
public struct SQLiteError: Error, CustomStringConvertible, Equatable, ErrorText.Describing {
    public let function: String
    public let code: Int32
    public let message: String

    public init(function: String, code: Int32, message: String) {
        self.function = function
        self.code = code
        self.message = message
    }

    public var description: String { "\(function): \(message) (SQLite code \(code))" }

    /// For the user: what happened to the library, without the SQL or the C call.
    public var userText: String {
        switch code & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED: "the game library is busy (another Phosphor is using it): try again in a moment"
        case SQLITE_READONLY: "the game library cannot be written (read-only disk or file): changes are not kept"
        case SQLITE_FULL: "the disk is full: the game library could not save (free some space)"
        case SQLITE_CORRUPT, SQLITE_NOTADB: "the game library file is damaged: restart Phosphor to set it aside"
        case SQLITE_IOERR: "the game library could not be read or written (disk error)"
        default: "the game library failed: \(message)"
        }
    }

    /// The file is not a database or its pages are damaged: the only errors that justify moving
    /// the file aside. Anything else (locked, read-only, disk full) must leave the file alone.
    public var isCorruption: Bool {
        let primary = code & 0xFF
        return primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB
    }
}

/// A value bound to a `?` parameter.
enum SQLiteValue {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null
}

/// One SQLite connection. Every C call goes through `check`, which throws `SQLiteError` with the
/// function name and `sqlite3_errmsg`. Not thread-safe: one thread owns a connection.
final class SQLiteDatabase {
    private let handle: OpaquePointer

    /// How a connection may touch its file.
    enum Access {
        case readWrite
        /// Read-only media (or a folder we may not write): `immutable=1` tells SQLite the file
        /// cannot change, so it needs no lock and no `-shm` file (which it could not create).
        case immutable
        /// No file at all: a private database that lives as long as the connection.
        case memory
    }

    /// The codes that mean "this file or folder can't be written now" (not damage, not a busy lock).
    static func isUnwritable(_ code: Int32) -> Bool {
        [SQLITE_READONLY, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_PERM].contains(code & 0xFF)
    }

    init(path: String, access: Access = .readWrite) throws {
        var opened: OpaquePointer?
        let result: Int32
        switch access {
        case .readWrite:
            result = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        case .immutable:
            let uri = URL(fileURLWithPath: path).absoluteString + "?immutable=1"
            result = sqlite3_open_v2(uri, &opened, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil)
        case .memory:
            result = sqlite3_open_v2(":memory:", &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        }
        guard result == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(result))
            sqlite3_close_v2(opened)
            throw SQLiteError(function: "sqlite3_open_v2(\(path))", code: result, message: message)
        }
        handle = opened
        try check(sqlite3_busy_timeout(handle, 2000), "sqlite3_busy_timeout")
    }

    deinit {
        // close_v2 waits for any statement still alive; statements finalize in their own deinit.
        sqlite3_close_v2(handle)
    }

    /// Throws unless `result` is one of the success codes.
    func check(_ result: Int32, _ function: @autoclosure () -> String) throws {
        guard result == SQLITE_OK || result == SQLITE_ROW || result == SQLITE_DONE else {
            throw SQLiteError(function: function(), code: result, message: String(cString: sqlite3_errmsg(handle)))
        }
    }

    func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v2(handle, sql, -1, &statement, nil), "sqlite3_prepare_v2(\(sql.prefix(60)))")
        guard let statement else {
            throw SQLiteError(function: "sqlite3_prepare_v2", code: SQLITE_MISUSE, message: "empty statement")
        }
        return SQLiteStatement(statement: statement, database: self, sql: sql)
    }

    /// Runs one statement that returns no rows we need.
    func run(_ sql: String, _ values: [SQLiteValue] = []) throws {
        try withStatement(sql) { statement in
            try statement.bind(values)
            while try statement.step() {}
        }
    }

    func query<Row>(_ sql: String, _ values: [SQLiteValue] = [], row: (SQLiteStatement) throws -> Row) throws -> [Row] {
        try withStatement(sql) { statement in
            try statement.bind(values)
            var rows: [Row] = []
            while try statement.step() { rows.append(try row(statement)) }
            return rows
        }
    }

    /// Prepared statements by SQL text, reused: a scan runs the same few statements for every
    /// file, and preparing each anew cost more than running it. A statement is taken out while
    /// in use, so a query run from inside another query's row closure prepares its own.
    private var statements: [String: SQLiteStatement] = [:]

    private func withStatement<Result>(_ sql: String, _ body: (SQLiteStatement) throws -> Result) throws -> Result {
        let statement = try statements.removeValue(forKey: sql) ?? prepare(sql)
        defer {
            statement.reset()
            statements[sql] = statement
        }
        return try body(statement)
    }

    func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        try run("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            try? run("ROLLBACK")
            throw error
        }
    }

    var changes: Int { Int(sqlite3_changes(handle)) }
}

/// A prepared statement; finalized when released.
final class SQLiteStatement {
    private let statement: OpaquePointer
    // Unowned: the database caches its statements, so a strong reference back would keep both alive.
    private unowned let database: SQLiteDatabase
    private let sql: String

    fileprivate init(statement: OpaquePointer, database: SQLiteDatabase, sql: String) {
        self.statement = statement
        self.database = database
        self.sql = sql
    }

    deinit { sqlite3_finalize(statement) }

    /// Makes the statement ready to run again with new values (results and errors of the last
    /// run are dropped; they were thrown when they happened).
    func reset() {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    func bind(_ values: [SQLiteValue]) throws {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .integer(let integer):
                try database.check(sqlite3_bind_int64(statement, index, integer), "sqlite3_bind_int64")
            case .real(let real):
                try database.check(sqlite3_bind_double(statement, index, real), "sqlite3_bind_double")
            case .text(let text):
                let byteCount = Int32(text.utf8.count)
                let result = text.withCString { csqlite_bind_text_transient(statement, index, $0, byteCount) }
                try database.check(result, "sqlite3_bind_text")
            case .null:
                try database.check(sqlite3_bind_null(statement, index), "sqlite3_bind_null")
            }
        }
    }

    /// Steps once: true when a row is ready, false when done.
    func step() throws -> Bool {
        let result = sqlite3_step(statement)
        try database.check(result, "sqlite3_step(\(sql.prefix(60)))")
        return result == SQLITE_ROW
    }

    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
    func real(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    func text(_ column: Int32) -> String {
        guard let characters = sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: characters, count: count), as: UTF8.self)
    }
}

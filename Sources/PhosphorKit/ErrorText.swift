import Foundation
import Glibc

/// Turns any error into the one line a user reads: plain words, the file it is about, and what
/// to do where there is something to do. No Foundation domains, codes or user-info dumps
/// (`Error Domain=NSCocoaErrorDomain Code=256 "(null)"`), no C function names, no SQL text: those
/// stay in the log, which gets `"\(error)"`. One place for this, so call sites don't each
/// polish their own. Pure: any thread.
public enum ErrorText {
    /// Errors that know how to say themselves to a user.
    public protocol Describing: Error {
        var userText: String { get }
    }

    public static func line(_ error: Error, file: URL? = nil) -> String {
        let text: String
        if let error = error as? Describing {
            text = error.userText
        } else if let error = error as? CocoaError {
            text = cocoa(error, file: file)
        } else if let error = error as? POSIXError {
            text = named(file?.path, reason(errno: error.code.rawValue))
        } else if let error = error as? SystemError {
            text = named(file?.path ?? path(inCall: error.function), error.detail ?? reason(errno: error.code))
        } else {
            let described = "\(error)"
            text = described.contains("Error Domain=") ? named(file?.path, "the operation failed") : described
        }
        let firstLine = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? text
        return DisplayText.sanitized(firstLine)
    }

    /// strerror's words, lowercased, with what to do for the common cases.
    public static func reason(errno code: Int32) -> String {
        switch code {
        case EROFS: return "the disk is read-only"
        case ENOSPC, EDQUOT: return "the disk is full (free some space)"
        case EACCES, EPERM: return "permission denied (check the file's owner and mode)"
        case ENOENT: return "no such file or folder"
        case EISDIR: return "is a folder, not a file (move it away or pick another name)"
        case ENOTDIR: return "a file stands where a folder should be"
        case ENXIO: return "is not a regular file (a pipe or device?)"
        default: return String(cString: strerror(code)).lowercased()
        }
    }

    private static func named(_ path: String?, _ reason: String) -> String {
        guard let path, !path.isEmpty else { return reason }
        return "\(path): \(reason)"
    }

    /// "open(/a/b.state1)" → "/a/b.state1"; nil when the call names no path.
    static func path(inCall function: String) -> String? {
        guard let open = function.firstIndex(of: "("), function.hasSuffix(")") else { return nil }
        let inner = String(function[function.index(after: open)..<function.index(before: function.endIndex)])
        return inner.contains("/") || inner.contains(".") ? inner : nil
    }

    private static func cocoa(_ error: CocoaError, file: URL?) -> String {
        let path = file?.path ?? error.filePath ?? error.url?.path
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return named(path, reason(errno: Int32(underlying.code)))
        }
        if let path {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
                return named(path, reason(errno: EISDIR))
            }
        }
        switch error.code {
        case .fileNoSuchFile, .fileReadNoSuchFile: return named(path, reason(errno: ENOENT))
        case .fileReadNoPermission, .fileWriteNoPermission: return named(path, reason(errno: EACCES))
        case .fileWriteVolumeReadOnly: return named(path, reason(errno: EROFS))
        case .fileWriteOutOfSpace: return named(path, reason(errno: ENOSPC))
        case .fileReadCorruptFile: return named(path, "damaged or not in the expected format")
        case .fileWriteFileExists: return named(path, "already exists")
        default: return named(path, "could not be read or written")
        }
    }
}

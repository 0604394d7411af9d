import Foundation
import Library

/// RetroArch's thumbnail, playlist and database folders as its `retroarch.cfg` names them
/// (`thumbnails_directory`, `playlist_directory`, `content_database_path`), else RetroArch's
/// defaults under its configuration folder (`thumbnails/`, `playlists/`, `database/rdb/`).
/// The browser finds box art with them. Any thread (a value read once from the file).
struct RetroArchContentFolders: Equatable {
    var thumbnails: URL
    var playlists: URL
    var databases: URL

    /// The folders of the RetroArch whose configuration folder is `folder`.
    static func load(folder: URL, environment: [String: String]) -> RetroArchContentFolders {
        let values = RetroArchFolders.settings(in: folder)
        let directory = { (key: String) in RetroArchFolders.directory(values[key], environment: environment) }
        return RetroArchContentFolders(
            thumbnails: directory("thumbnails_directory") ?? folder.appendingPathComponent("thumbnails"),
            playlists: directory("playlist_directory") ?? folder.appendingPathComponent("playlists"),
            databases: directory("content_database_path") ?? folder.appendingPathComponent("database/rdb"))
    }

    var labelSources: ThumbnailLabels.Sources {
        ThumbnailLabels.Sources(playlists: playlists, databases: databases)
    }
}

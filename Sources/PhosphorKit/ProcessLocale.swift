internal import CSystem

/// The C library's locale for commands that open no terminal session (`phosphor add`).
/// libarchive converts names in archives into the locale's character set: in the default "C"
/// locale a zip entry named "Pokémon.gb" has no name at all.
public enum ProcessLocale {
    /// The environment's locale when it is UTF-8, else C.UTF-8. False when neither could be set.
    /// Main thread, before other threads start (setlocale is process-wide).
    @discardableResult
    public static func useUTF8() -> Bool {
        csystem_use_environment_locale_utf8() == 1 || csystem_use_locale_utf8("C.UTF-8") == 1
    }
}
